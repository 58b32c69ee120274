"""Registry consistency: snapshot reads under a committing sync, adapter specs validated and fingerprinted.

The interleaving is forced, not hoped for: a SQLAlchemy event on the reader's engine starts a
real second writer (its own engine and connection) exactly when the reader reaches the
``endpoints`` table, and gives it time to commit before the reader goes on. On SQLite and
Postgres alike, what the reader returns must be one registry state whose fingerprint matches.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from schemarouter.declarations import Declarations, collect
from schemarouter.errors import ImportFileError, RegistryError
from schemarouter.execution.executor import Executor
from schemarouter.execution.http import HttpConfig
from schemarouter.execution.registry_adapters import stored_adapters
from schemarouter.plan import Plan, PlanStep
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from schemarouter.registry.fingerprint import registry_fingerprint, source_fingerprint, vocabulary_fingerprint
from schemarouter.registry.store import parse_export
from tests.factories import SourcePlugin, source_dict


def _decls(version: str, count: int = 6) -> Declarations:
    """``count`` sources; version "b" renames every endpoint and field, so a torn read shows."""
    sources = []
    for index in range(count):
        data = source_dict(id=f"lab_{index}", title=f"Lab {index} {version}")
        endpoint = data["endpoints"][0]
        endpoint["id"] = f"samples_{version}"
        endpoint["fields"][1]["name"] = f"gap_{version}"
        sources.append(data)
    return collect(make_plugin_manager(load_entrypoints=False, extra=[SourcePlugin(f"plugin_{version}", *sources)]))


def content_fingerprint(decls: Declarations) -> str:
    vocab = vocabulary_fingerprint(decls.intents.values(), decls.field_groups.values(), decls.concepts.values())
    return registry_fingerprint(
        vocab, {sid: source_fingerprint(s, decls.adapter_specs.get(sid)) for sid, s in decls.sources.items()}
    )


def _interleave(reader: Registry, url: str, new: Declarations) -> threading.Thread:
    """When the reader first touches ``endpoints``, a second process-like writer syncs ``new``."""
    fired: list[threading.Thread] = []

    def before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if fired or "FROM endpoints" not in statement:
            return
        writer = threading.Thread(target=_sync, args=(url, new))
        fired.append(writer)
        writer.start()
        writer.join(timeout=1.5)  # Postgres: it commits now; SQLite: it waits for the reader

    event.listen(reader.engine, "before_cursor_execute", before)
    return _Joiner(fired)


class _Joiner(threading.Thread):
    def __init__(self, fired: list[threading.Thread]) -> None:
        super().__init__()
        self.fired = fired

    def join(self, timeout: float | None = None) -> None:
        assert self.fired, "the writer never ran: the reader did not read endpoints"
        self.fired[0].join(timeout=60)
        assert not self.fired[0].is_alive()


def _sync(url: str, decls: Declarations) -> None:
    with Registry.open(url) as writer:
        writer.sync(decls)


def test_load_returns_one_snapshot_while_a_sync_commits(any_url: str) -> None:
    old, new = _decls("a"), _decls("b")
    with Registry.open(any_url) as reg:
        reg.sync(old)
        writer = _interleave(reg, any_url, new)
        loaded = reg.load()
        writer.join()
        after = reg.load()
    assert loaded.fingerprint == content_fingerprint(loaded), "the fingerprint does not match the content read"
    assert {e.id for s in loaded.sources.values() for e in s.endpoints} == {"samples_a"}
    assert all(s.endpoints and all(e.fields for e in s.endpoints) for s in loaded.sources.values())
    assert {e.id for s in after.sources.values() for e in s.endpoints} == {"samples_b"}
    assert after.fingerprint == content_fingerprint(after) != loaded.fingerprint


def test_export_is_one_snapshot_while_a_sync_commits(any_url: str, tmp_path: Path) -> None:
    with Registry.open(any_url) as reg:
        reg.sync(_decls("a"))
        writer = _interleave(reg, any_url, _decls("b"))
        document = reg.export()
        writer.join()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    parsed = parse_export(path)  # raises when the fingerprint does not match the content
    assert {e.id for s in parsed.sources.values() for e in s.endpoints} == {"samples_a"}


# ---------------------------------------------------------------- adapter specs on import
def _local_export(url: str, tmp_path: Path, spec: dict[str, Any]) -> tuple[dict[str, Any], Path]:
    from schemarouter.registry.local import add_local_source
    from schemarouter.sources.local import LocalSource
    from schemarouter.sources.spec import AdapterSpec

    local_source = _decls("a", count=1).sources["lab_0"].model_copy(update={"id": "lab_local"})
    with Registry.open(url) as reg:
        reg.sync(_decls("a", count=1))
        add_local_source(reg, LocalSource(local_source, {"samples_a": AdapterSpec.model_validate(spec)}), "lab.yaml")
        document = reg.export()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    return document, path


def test_an_invalid_adapter_spec_is_refused_on_import_and_nothing_is_written(sqlite_url: str, tmp_path: Path) -> None:
    document, path = _local_export(sqlite_url, tmp_path, {"records": "data"})
    document["adapter_specs"]["lab_local"]["samples_a"] = {"records": "data", "locations": {"formula": "ftp"}}
    del document["fingerprint"]
    path.write_text(json.dumps(document))
    target = f"sqlite:///{tmp_path / 'target.db'}"
    with Registry.open(target) as reg:
        reg.sync(_decls("b", count=1))
        before = reg.export_bytes()
        with pytest.raises(ImportFileError) as caught:
            reg.import_file(path)
        assert reg.export_bytes() == before, "the failed import wrote something"
    message = str(caught.value)
    assert "adapter_specs['lab_local']['samples_a']" in message and "locations.formula" in message
    assert "\n" not in message
    # A location the generic adapter cannot serve is refused too, naming it.
    document["adapter_specs"]["lab_local"]["samples_a"] = {"locations": {"formula": "matchbook"}}
    path.write_text(json.dumps(document))
    with pytest.raises(ImportFileError, match="specific to a first-party adapter"):
        parse_export(path)


def test_the_fingerprint_covers_adapter_specs(sqlite_url: str, tmp_path: Path) -> None:
    document, path = _local_export(sqlite_url, tmp_path, {"records": "data"})
    parse_export(path)  # the untouched export imports
    document["adapter_specs"]["lab_local"]["samples_a"]["records"] = "items"
    path.write_text(json.dumps(document))
    with pytest.raises(ImportFileError, match="does not match its content"):
        parse_export(path)
    other = tmp_path / "other"
    other.mkdir()
    changed, _ = _local_export(f"sqlite:///{other / 'r.db'}", other, {"records": "items"})
    assert changed["fingerprint"] != document["fingerprint"]


def test_a_stored_invalid_spec_fails_only_its_own_steps(sqlite_url: str, tmp_path: Path) -> None:
    _local_export(sqlite_url, tmp_path, {"records": "data"})
    with Registry.open(sqlite_url) as reg, reg.engine.begin() as conn:  # as an older schemarouter left it
        conn.execute(text("UPDATE endpoints SET adapter_spec = '{\"records\": 5, \"bogus\": 1}' "
                          "WHERE source_id = 'lab_local'"))
    with Registry.open(sqlite_url) as reg:
        decls = reg.load()
    adapters = stored_adapters(decls.adapter_specs)
    executor = Executor(decls, adapters, config=HttpConfig(timeout_s=1, retries=0), env={})
    plan = Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="lab_local", endpoint="samples_a", params={"formula": "GaN"}, fields=["gap_a"]),
    ])
    [step] = executor.run_sync(plan).steps
    assert step.error is not None and step.error.kind == "invalid_step"
    assert "lab_local: its stored adapter spec is invalid" in step.error.message


@pytest.mark.parametrize(
    ("owners", "message"),
    [
        (["lab_0"], "'owners' must be an object"),
        ({"lab_0": "plugin"}, r"owners\['lab_0'\] must be an object"),
        ({"lab_0": {"kind": "remote"}}, "kind must be 'plugin' or 'local'"),
        ({"lab_0": {"kind": "plugin", "name": ["x"]}}, "name and version must be text"),
    ],
)
def test_malformed_owners_are_one_line_errors(sqlite_url: str, tmp_path: Path, owners: Any, message: str) -> None:
    with Registry.open(sqlite_url) as reg:
        reg.sync(_decls("a", count=1))
        document = reg.export()
    document["owners"] = owners
    path = tmp_path / "owners.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ImportFileError, match=message):
        parse_export(path)


def test_a_huge_id_is_named_not_echoed(sqlite_url: str) -> None:
    with Registry.open(sqlite_url) as reg, pytest.raises(RegistryError) as caught:
        reg.source("x" * 100_000)
    assert len(str(caught.value)) < 300 and "…" in str(caught.value)
