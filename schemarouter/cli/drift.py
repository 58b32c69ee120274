"""Warnings about things that drifted apart: installed plugins vs the registry, a saved plan vs
the registry it runs on, and a ``--db`` file that is not there.

A plan made on an older registry, or a registry not synced since a plugin was upgraded, still
works most of the time, so these are warnings on stderr (the run goes on); a plan file that is
not a plan, or a registry file that does not exist, is an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError

from schemarouter.config import home
from schemarouter.declarations import Declarations, collect, describe_validation_error
from schemarouter.errors import SchemaRouterError
from schemarouter.graph.persist import build_key
from schemarouter.plan import Plan
from schemarouter.plugins import plugin_manager, selected_distributions
from schemarouter.registry.fingerprint import source_fingerprint, vocabulary_fingerprint
from schemarouter.safeload import load_json

SYNC_HINT = "run: schemarouter registry sync"


def warn(message: str) -> None:
    """One warning line on stderr (stdout stays clean for --json)."""
    click.echo(f"warning: {message}", err=True)


def plugin_drift(registered: Declarations, fingerprint: str | None = None) -> str | None:
    """How the installed plugins differ from the plugin-owned part of the registry, or None.

    The quick test compares installed distributions and versions with the registry's owners
    (no plugin is imported); only when they differ are the declarations collected and compared,
    so a plugin that registers no source does not cause a false warning. That comparison imports
    every plugin and reads its declarations (over half a second), so its verdict is remembered in the
    data directory per registry ``fingerprint``, installed plugin versions and code: a registry left
    unsynced does not make every command pay it again.
    """
    owners = {(o.name, o.version) for o in registered.owners.values() if o.kind == "plugin"}
    try:
        installed_versions = selected_distributions()
    except SchemaRouterError as err:
        return f"the installed plugins cannot be listed: {err}"
    if owners == installed_versions:
        return None
    remembered = _verdict_file(fingerprint, installed_versions)
    if remembered is not None:
        with contextlib.suppress(OSError, ValueError):
            verdict = json.loads(remembered.read_text(encoding="utf-8"))
            said = verdict.get("drift", "") if isinstance(verdict, dict) else ""
            if said is None or (isinstance(said, str) and said):
                return said
    found = _compare(registered)
    if remembered is not None and not found.startswith(_UNREADABLE):
        _remember(remembered, found or None)
    return found or None


KEEP_VERDICTS = 32  # verdict files kept (one per registry state and plugin set met); the oldest go


def _remember(path: Path, drift: str | None) -> None:
    """Write a verdict whole or not at all (another command may be reading it); a data directory that
    cannot be written only means comparing again next time."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"drift": drift}), encoding="utf-8")
        tmp.replace(path)
        kept = sorted(path.parent.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEEP_VERDICTS:]:
            old.unlink(missing_ok=True)


_UNREADABLE = "an installed plugin's declarations do not validate"
DRIFT_DIR = "drift-cache"


def _verdict_file(fingerprint: str | None, installed: set[tuple[str, str]]) -> Path | None:
    """Where the drift verdict for this registry state, these plugins and this code is kept (None
    without a fingerprint)."""
    if fingerprint is None:
        return None
    key = json.dumps([fingerprint, sorted(installed), build_key()]).encode("utf-8")
    return home() / DRIFT_DIR / f"{hashlib.sha256(key).hexdigest()[:32]}.json"


def _compare(registered: Declarations) -> str:
    """The installed plugins' declarations against the registry's, collected and compared ('' when
    they agree)."""
    try:
        installed = collect(plugin_manager())
    except SchemaRouterError as err:
        return f"{_UNREADABLE}, so registry sync would fail: {err}"
    stored = {sid: src for sid, src in registered.sources.items() if registered.owners[sid].kind == "plugin"}
    added = sorted(set(installed.sources) - set(stored))
    removed = sorted(set(stored) - set(installed.sources))
    changed = sorted(
        sid for sid in set(installed.sources) & set(stored)
        if source_fingerprint(installed.sources[sid]) != source_fingerprint(stored[sid])
        or installed.owners[sid].version != registered.owners[sid].version
    )
    vocabulary = vocabulary_fingerprint(
        installed.intents.values(), installed.field_groups.values(), installed.concepts.values()
    ) != vocabulary_fingerprint(
        registered.intents.values(), registered.field_groups.values(), registered.concepts.values()
    )
    parts = [f"{label} {_names(ids)}" for label, ids in
             (("not in the registry:", added), ("uninstalled:", removed), ("changed:", changed)) if ids]
    if vocabulary:
        parts.append("vocabulary changed")
    if not parts:
        return ""
    return f"the installed plugins differ from the registry ({'; '.join(parts)}); {SYNC_HINT}"


def _names(ids: list[str], limit: int = 6) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def read_plan_file(path: str) -> Plan:
    """A saved plan, or one line saying why the file is not one this schemarouter can run."""
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise SchemaRouterError(f"cannot read plan file {path}: {err.strerror}") from None
    data: Any = load_json(raw, name=f"plan file {path}")  # bounded; a syntax error names the line
    if isinstance(data, dict):
        data.pop("status", None)  # a line of plan --jsonl carries its status beside the plan
    if not isinstance(data, dict) or "query" not in data or "steps" not in data:
        raise SchemaRouterError(
            f"plan file {path} is not a schemarouter plan (expected the JSON of schemarouter plan --json, "
            f"with query and steps)"
        )
    try:
        return Plan.model_validate(data)
    except ValidationError as err:
        raise SchemaRouterError(
            f"plan file {path} does not match this schemarouter's plan format, perhaps from another version "
            f"({describe_validation_error(err, data)}); make it again with: schemarouter plan --json"
        ) from None


def plan_staleness(plan: Plan, path: str, fingerprint: str | None, registered: Declarations) -> str | None:
    """Why a saved plan may not fit the registry it is about to run on, or None when it fits."""
    unknown = sorted({step.source for step in plan.steps if step.source not in registered.sources})
    # A plan with no fingerprint (written by hand or by another tool) is not compared, only checked
    # for sources this registry lacks.
    if (plan.registry_fingerprint is None or plan.registry_fingerprint == fingerprint) and not unknown:
        return None
    if unknown:
        return (f"plan {path} names source(s) this registry does not have ({_names(unknown)}): it comes from "
                f"another registry (plan fingerprint {plan.registry_fingerprint or '-'}, registry {fingerprint or '-'}); "
                f"those steps will fail")
    return (f"plan {path} was made on registry {plan.registry_fingerprint or '(none)'}, the registry is now "
            f"{fingerprint or '(never synced)'}: fields or parameters may have changed; re-plan with: "
            f"schemarouter plan --json")
