"""``source import-openapi`` given several documents or a folder: a catalogue in one call.

Every document is mapped in this process (:mod:`schemarouter.openapi.catalogue`), checked, and the
mapped sources are stored in one registry transaction (:meth:`Registry.add_locals`). The report has
one line per document; a document that fails is reported and the others are stored, unless
``--all-or-nothing``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from schemarouter.checks.declarations import check_sources, enforce
from schemarouter.checks.units import check_known
from schemarouter.cli import exit_codes
from schemarouter.cli.options import open_registry, print_json
from schemarouter.errors import RegistryError, SchemaRouterError
from schemarouter.openapi.catalogue import Mapped, document_paths, map_catalogue
from schemarouter.registry import LocalItem, LocalOutcome
from schemarouter.sources.local import label_for


def import_catalogue(
    specs: tuple[str, ...], overlay: str | None, all_or_nothing: bool, dry_run: bool, db_url: str | None,
    as_json: bool, strict: bool,
) -> None:
    """Map, check and store every document under ``specs``; print one line per document; exit 3 when
    some failed, 1 when all did (or, with ``all_or_nothing``, when any did)."""
    started = time.perf_counter()
    paths = document_paths(specs)
    if not paths:
        raise SchemaRouterError(f"no JSON or YAML documents under {', '.join(specs)}")
    mapped = map_catalogue(paths, Path(overlay) if overlay else None, unit_known=check_known)
    rows: dict[int, dict[str, Any]] = {i: _row(m) for i, m in enumerate(mapped)}
    with open_registry(db_url) as reg:
        if "vocabulary_fingerprint" not in reg.meta():
            raise RegistryError("the registry has no vocabulary yet (intents, field groups, concepts); "
                                "run schemarouter registry sync first")
        others = dict(reg.load().sources)
        items: list[LocalItem] = []
        positions: list[int] = []
        for i, m in enumerate(mapped):
            if m.result is None:
                continue
            local = m.result.local
            try:
                found = _warnings(others, local.source.id, local.source, local.adapter_specs, strict)
            except SchemaRouterError as err:
                rows[i].update(status="failed", error=str(err))
                continue
            rows[i]["warnings"] = [w.line() for w in found]
            others[local.source.id] = local.source  # later documents are checked against this one too
            items.append(LocalItem(local.source, label_for(m.spec), local.spec_dicts()))
            positions.append(i)
        failed_early = [rows[i] for i in rows if rows[i]["status"] == "failed"]
        if all_or_nothing and failed_early:
            _print(rows, None, dry_run, as_json, started)
            raise SchemaRouterError(
                f"--all-or-nothing: {len(failed_early)} of {len(mapped)} documents failed, nothing written; "
                f"first: {failed_early[0]['error']}"
            )
        batch = reg.add_locals(items, all_or_nothing=all_or_nothing, dry_run=dry_run)
    for i, outcome in zip(positions, batch.outcomes, strict=True):
        rows[i].update(_outcome(outcome))
    _print(rows, batch.fingerprint, dry_run, as_json, started)
    statuses = [row["status"] for row in rows.values()]
    if all(s == "failed" for s in statuses):
        raise click.exceptions.Exit(exit_codes.ERROR)
    if "failed" in statuses:
        raise click.exceptions.Exit(exit_codes.PARTIAL)


def _warnings(others: dict[str, Any], source_id: str, source: Any, specs: Any, strict: bool) -> list[Any]:
    unit_from = {(eid, name) for eid, spec in specs.items() for name in spec.unit_from}
    rest = {sid: src for sid, src in others.items() if sid != source_id}
    found = check_sources({**rest, source_id: source}, unit_from={source_id: unit_from}, only=[source_id])
    enforce(found, strict)
    return found


def _row(m: Mapped) -> dict[str, Any]:
    report = m.report
    return {
        "spec": str(m.spec), "overlay": str(m.overlay) if m.overlay else None, "source_id": m.source_id,
        "status": "mapped" if m.result is not None else "failed", "error": m.error,
        "endpoints": report.endpoints if report is not None else 0,
        "unmapped": len(report.unmapped) if report is not None else 0,
        "warnings": [],
    }


def _outcome(outcome: LocalOutcome) -> dict[str, Any]:
    return {"status": outcome.status, "error": outcome.error}


def _print(rows: dict[int, dict[str, Any]], fingerprint: str | None, dry_run: bool, as_json: bool, started: float) -> None:
    ordered = [rows[i] for i in sorted(rows)]
    counts = {s: sum(1 for r in ordered if r["status"] == s) for s in ("added", "updated", "unchanged", "failed")}
    seconds = round(time.perf_counter() - started, 2)
    if as_json:
        print_json({"documents": ordered, "counts": counts, "dry_run": dry_run, "fingerprint": fingerprint,
                    "seconds": seconds})
        return
    for row in ordered:
        if row["status"] == "failed":
            click.echo(f"failed     {row['spec']}: {row['error']}")
            continue
        click.echo(f"{row['status']:<10} {row['source_id']} from {row['spec']} ({row['endpoints']} endpoints"
                   f"{', ' + str(row['unmapped']) + ' constructs not mapped' if row['unmapped'] else ''})")
    warned = [r for r in ordered if r["warnings"]]
    if warned:  # one line, as registry sync prints: a catalogue's warnings run to thousands
        count = sum(len(r["warnings"]) for r in warned)
        click.echo(f"warning: {count} declaration warning(s) in {len(warned)} document(s); --json lists them, "
                   f"schemarouter registry check too", err=True)
    verb = "dry run, nothing written" if dry_run else f"one transaction, fingerprint {fingerprint}"
    click.echo(
        f"{len(ordered)} documents: {counts['added']} added, {counts['updated']} updated, {counts['unchanged']} "
        f"unchanged, {counts['failed']} failed ({verb}; {seconds} s)"
    )
