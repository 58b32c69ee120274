"""PNG plots of a benchmark run (matplotlib, no display needed; extra ``[bench]``).

- ``answerable_vs_tokens.png``: answerable rate vs mean retrieved-context tokens per router
  (the paper's Figure 1, with fixtures in place of an LLM judge);
- ``prompt_tokens_vs_sources.png``: routing prompt tokens vs inventory size, measured;
- ``latency_vs_sources.png``: routing latency p50/p95 vs inventory size, measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def available() -> str | None:
    """None when plots can be drawn, else why not."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "matplotlib not installed; pip install 'schemarouter-core[bench]'"
    return None


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def answerable_vs_tokens(routers: list[dict[str, Any]], path: Path) -> Path:
    """Plot each router's answerable rate against its context tokens; the image path."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.8), dpi=120)
    cmap = plt.get_cmap("tab20")
    ran = [r for r in routers if not r.get("skipped") and "answerable" in r["summary"]]
    for i, r in enumerate(ran):
        s = r["summary"]
        marker = {"schemarouter": "o", "ablation": "^", "llm": "D"}.get(r["kind"], "s")
        ax.scatter(
            s["context_tokens"],
            s["answerable"],
            marker=marker,
            s=60,
            color=cmap(i % 20),
            edgecolors="black",
            linewidths=0.4,
            label=f"{r['name']} ({s['context_tokens']:.0f} tok, {s['answerable']:.2f})",
        )
    ax.set_xscale("log")
    ax.set_xlabel("retrieved-context tokens per question (mean, cl100k_base)")
    ax.set_ylabel("answerable rate (gold values in context)")
    ax.set_ylim(-0.02, 1.05)
    ax.grid(True, alpha=0.3, which="both")
    ax.set_title("Answerable rate vs retrieved-context tokens")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def prompt_tokens_vs_sources(
    scaling: list[dict[str, Any]], measured_19: float | None, llm_19: float | None, path: Path
) -> Path:
    """Plot prompt-all's prompt tokens against the number of sources; the image path."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    xs = [r["sources"] for r in scaling]
    ys = [r["prompt_all_tokens"] for r in scaling]
    if measured_19 is not None:
        xs, ys = [19, *xs], [measured_19, *ys]
    ax.plot(xs, ys, "s-", label="prompt-all (whole schema in the prompt)")
    llm = [
        (r["sources"], r["schemarouter_llm_prompt_tokens"])
        for r in scaling
        if "schemarouter_llm_prompt_tokens" in r
    ]
    if llm_19 is not None:
        llm = [(19, llm_19), *llm]
    if llm:
        ax.plot(
            [x for x, _ in llm],
            [y for _, y in llm],
            "o-",
            label="schemarouter, LLM understander (intent list only)",
        )
    ax.axhline(8000, color="grey", linestyle=":", label="8k context budget")
    ax.axhline(128000, color="grey", linestyle="--", label="128k context budget")
    return _finish_scaling_plot(
        plt, fig, ax, path, "routing prompt tokens per question",
        "Routing prompt size (schemarouter rules understander: 0 tokens at any size)",
    )


def latency_vs_sources(scaling: list[dict[str, Any]], path: Path) -> Path:
    """Plot routing latency (p50, p95) against the number of sources; the image path."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    xs = [r["sources"] for r in scaling]
    ax.plot(xs, [r["schemarouter_p50_ms"] for r in scaling], "o-", color="tab:blue", label="schemarouter p50")
    ax.plot(xs, [r["schemarouter_p95_ms"] for r in scaling], "o--", color="tab:blue", label="schemarouter p95")
    ax.plot(xs, [r["bm25_p50_ms"] for r in scaling], "s-", color="tab:green", label="vector-only (BM25) p50")
    ax.plot(xs, [r["bm25_p95_ms"] for r in scaling], "s--", color="tab:green", label="vector-only (BM25) p95")
    ax.axhline(5, color="grey", linestyle=":", label="target p50 5 ms")
    return _finish_scaling_plot(
        plt, fig, ax, path, "routing latency per question (ms)", "Routing latency vs inventory size"
    )


def _finish_scaling_plot(plt: Any, fig: Any, ax: Any, path: Path, ylabel: str, title: str) -> Path:
    """Log-log axes over inventory size, labelled, saved and closed (both scaling plots)."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("sources in the inventory")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def draw_all(doc: dict[str, Any], directory: Path) -> list[Path]:
    """Draw every plot the benchmark document has data for into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    out = [answerable_vs_tokens(doc["routers"], directory / "answerable_vs_tokens.png")]
    scaling = doc.get("scaling") or []
    if scaling:
        by_name = {r["name"]: r["summary"] for r in doc["routers"]}
        measured = by_name.get("prompt-all", {}).get("prompt_tokens")
        llm = by_name.get("schemarouter (LLM understander)", {}).get("prompt_tokens")
        out.append(
            prompt_tokens_vs_sources(scaling, measured, llm, directory / "prompt_tokens_vs_sources.png")
        )
        out.append(latency_vs_sources(scaling, directory / "latency_vs_sources.png"))
    return out
