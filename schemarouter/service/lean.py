"""The lean run result an agent gets by default from MCP ``run`` and ``POST /v1/run``.

An agent pays for every token of a tool result. The full run document (the plan with every
field's metadata, every step's request, timings and flags, the coverage items) is ten to seventy
times the context a reader needs, so by default a run answers with what an agent acts on: the
rendered context (one attributed line per record), the values by record at full precision as
``[value, unit]``, the
planned fields no record carried, the steps that failed and what the plan does not cover. The
whole document stays one parameter away (``include_plan``).

The lean view is computed from the full JSON document (:meth:`RunResult.to_json`), so it shows
exactly what every other front end shows, only less of it.
"""

from __future__ import annotations

from typing import Any

# The context line of a record already tags it with its source type, license and source title; a
# record repeats them only for a value whose own differ. The full per-value provenance (attribution
# text included) is in the steps include_plan returns.
PROVENANCE = ("source_type", "license")


# What include_plan adds to the lean view, from the full document.
FULL_KEYS = ("plan", "steps", "coverage", "not_returned", "registry_fingerprint")


def lean_run(document: dict[str, Any], include_plan: bool = False) -> dict[str, Any]:
    """The agent's view of a full run document: context, attributed values, missing fields, errors;
    with ``include_plan`` also the plan, every step in full, the coverage and the registry state."""
    lean: dict[str, Any] = {"status": document.get("status")}
    if document.get("declined"):
        lean["declined"] = document["declined"]
    lean["context"] = (document.get("context") or {}).get("text", "")
    planned = _planned_fields(document)
    records: list[dict[str, Any]] = []
    missing: dict[str, list[str]] = {}
    errors: list[dict[str, Any]] = []
    for step in document.get("steps") or []:
        returned: set[str] = set()
        for record in step.get("records") or []:
            shown = _record(record)
            returned.update(name for name, v in (record.get("values") or {}).items() if v.get("value") is not None)
            if shown["values"]:
                records.append(shown)
        where = f"{step.get('source')}.{step.get('endpoint')}"
        if step.get("error"):
            error = step["error"]
            item = {"step": where, "kind": error.get("kind"), "message": error.get("message")}
            if step.get("hint"):
                item["hint"] = step["hint"]
            errors.append(item)
            continue
        # a field the plan asked this step for that no record carries a value for (the run document
        # says so per step; a document without it is read from the plan and the records)
        absent = step["missing"] if "missing" in step else [
            f for f in planned.get(step.get("index"), []) if f not in returned]
        if absent:
            missing.setdefault(where, []).extend(absent)
    lean["records"] = records
    if missing:
        lean["missing"] = missing
    if errors:
        lean["errors"] = errors
    not_covered = [f"{m.get('kind')} {m.get('name')}: {m.get('why')}"
                   for m in ((document.get("coverage") or {}).get("items") or []) if not m.get("covered")]
    if not_covered:
        lean["not_covered"] = not_covered
    if "offline" in document:
        lean["offline"] = document["offline"]
    if include_plan:
        lean["query"] = document.get("query")
        lean.update({key: document.get(key) for key in FULL_KEYS})
        lean["context_tokens"] = (document.get("context") or {}).get("tokens")
    return lean


def _planned_fields(document: dict[str, Any]) -> dict[int | None, list[str]]:
    """Step index -> the fields the plan asked that step for (nothing when no plan came with it)."""
    plan = document.get("plan") or {}
    return {i: list(step.get("fields") or []) for i, step in enumerate(plan.get("steps") or [])}


def _record(record: dict[str, Any]) -> dict[str, Any]:
    """One record: its source and id, each value as ``[value, unit]``; a value's source type or
    license only where the record's values disagree (the context line carries the shared ones)."""
    record_id = record.get("record_id")
    values = [v for v in (record.get("values") or {}).values()
              if v.get("value") is not None and (record_id is None or str(v["value"]) != str(record_id))]
    shown: dict[str, Any] = {"source": record.get("source")}
    if record_id is not None:
        shown["id"] = record_id
    shown["values"] = {v["field"]: [v["value"], v.get("unit")] for v in values}
    differing: dict[str, dict[str, Any]] = {}
    for key in PROVENANCE:
        if len({v.get(key) for v in values}) > 1:
            for v in values:
                if v.get(key) is not None:
                    differing.setdefault(v["field"], {})[key] = v[key]
    if differing:
        shown["provenance"] = differing
    notes = {v["field"]: v["note"] for v in values if v.get("note")}
    if notes:
        shown["notes"] = notes
    return shown
