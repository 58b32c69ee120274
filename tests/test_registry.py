"""The registry on SQLite and Postgres: sync, idempotence, removal, fingerprints, export/import."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from sqlalchemy import text

from schemarouter.declarations import Declarations, collect
from schemarouter.errors import DeclarationError, ImportFileError, RegistryError
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from tests.factories import SourcePlugin, source, source_dict


def _decls(*plugins: object) -> Declarations:
    return collect(make_plugin_manager(load_entrypoints=False, extra=list(plugins)))


def _second_source() -> dict:
    data = source_dict(id="lab_archive", title="Lab archive")
    return data


def test_sync_writes_and_second_sync_changes_nothing(any_url: str) -> None:
    decls = _decls(SourcePlugin("lab_plugin", source(), _second_source()))
    with Registry.open(any_url) as reg:
        first = reg.sync(decls)
        assert first.added == ["lab_archive", "lab_store"] and first.vocabulary_changed
        before = reg.export_bytes()
        synced_at = reg.meta()["synced_at"]
        second = reg.sync(decls)
        assert not second.changed and second.unchanged == ["lab_archive", "lab_store"]
        assert "registry unchanged" in second.summary()
        assert reg.export_bytes() == before and reg.meta()["synced_at"] == synced_at
        assert reg.stats()["counts"]["sources"] == 2


def test_sync_removes_sources_of_uninstalled_plugins_and_updates_changed(any_url: str) -> None:
    with Registry.open(any_url) as reg:
        reg.sync(_decls(SourcePlugin("a", source()), SourcePlugin("b", _second_source())))
        old_fp = reg.fingerprint()
        changed = source_dict()
        changed["endpoints"][0]["fields"][1]["unit"] = "meV"
        report = reg.sync(_decls(SourcePlugin("a", changed)))
        assert report.removed == ["lab_archive"] and report.updated == ["lab_store"]
        assert [row["id"] for row in reg.list_sources()] == ["lab_store"]
        src, owner = reg.source("lab_store")
        assert src.endpoints[0].field("gap").unit == "meV" and owner.name == "a"
        assert reg.fingerprint() != old_fp


def test_round_trip_preserves_every_declared_attribute(any_url: str) -> None:
    original = source()
    with Registry.open(any_url) as reg:
        reg.sync(_decls(SourcePlugin("a", original)))
        loaded, _ = reg.source("lab_store")
    assert loaded == original


def test_export_import_export_is_byte_identical(any_url: str, tmp_path: Path) -> None:
    with Registry.open(f"sqlite:///{tmp_path / 'origin.db'}") as origin:
        origin.sync(_decls(SourcePlugin("a", source(), _second_source())))
        exported = origin.export_bytes()
    document = json.loads(exported)
    assert list(document)[:3] == ["format", "version", "fingerprint"]
    assert document["format"] == "schemarouter-registry" and document["version"] == 1
    assert [s["id"] for s in document["sources"]] == ["lab_archive", "lab_store"]
    path = tmp_path / "export.json"
    path.write_bytes(exported)
    with Registry.open(any_url) as target:
        target.import_file(path)
        assert target.export_bytes() == exported
        assert target.fingerprint() == document["fingerprint"]


def test_fingerprint_depends_on_content_not_on_owner_version(sqlite_url: str) -> None:
    class Versioned(SourcePlugin):
        pass

    with Registry.open(sqlite_url) as reg:
        decls = _decls(SourcePlugin("a", source()))
        reg.sync(decls)
        fp = reg.fingerprint()
        decls.owners["lab_store"] = type(decls.owners["lab_store"])("plugin", "a", "2.0")
        report = reg.sync(decls)
        assert report.reowned == ["lab_store"] and reg.fingerprint() == fp
        assert reg.source("lab_store")[1].version == "2.0"


def _snapshot(url: str, reg: Registry) -> tuple[bytes, str, bytes | None]:
    """Export bytes, meta, and (SQLite) the raw database file bytes."""
    raw = None
    if url.startswith("sqlite:///"):
        raw = Path(url[len("sqlite:///"):]).read_bytes()
    return reg.export_bytes(), json.dumps(reg.meta(), sort_keys=True), raw


@pytest.mark.parametrize(
    "breakage",
    ["get_as_write", "unknown_group", "unknown_intent", "duplicate_id", "bad_type", "auth_value"],
)
def test_invalid_plugin_declaration_leaves_registry_byte_for_byte(any_url: str, breakage: str) -> None:
    with Registry.open(any_url) as reg:
        reg.sync(_decls(SourcePlugin("good", source())))
        before = _snapshot(any_url, reg)
        data = _second_source()
        endpoint = data["endpoints"][0]
        plugins: list[object] = [SourcePlugin("good", source())]
        if breakage == "get_as_write":
            endpoint["access"] = "write"
        elif breakage == "unknown_group":
            endpoint["fields"][1]["group"] = "optics"
        elif breakage == "unknown_intent":
            endpoint["intents"] = ["weather"]
        elif breakage == "duplicate_id":
            data["id"] = "lab_store"
        elif breakage == "bad_type":
            endpoint["parameters"][0]["type"] = "text"
        elif breakage == "auth_value":
            data["auth"] = {"env": "abcd1234efgh5678", "in": "query", "name": "key"}
        plugins.append(SourcePlugin("broken_plugin", data))
        with pytest.raises(DeclarationError) as info:
            reg.sync(_decls(*plugins))
        assert "broken_plugin" in str(info.value)
        assert _snapshot(any_url, reg) == before


def test_failure_inside_the_write_transaction_rolls_back(any_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter.registry import mapping

    with Registry.open(any_url) as reg:
        reg.sync(_decls(SourcePlugin("good", source())))
        before = _snapshot(any_url, reg)
        original_flush = mapping.RowWriter.flush

        def flush_then_fail(self: mapping.RowWriter) -> None:
            original_flush(self)
            raise RuntimeError("disk full")

        monkeypatch.setattr(mapping.RowWriter, "flush", flush_then_fail)
        with pytest.raises(RuntimeError, match="disk full"):
            reg.sync(_decls(SourcePlugin("good", source()), SourcePlugin("other", _second_source())))
        monkeypatch.undo()
        assert _snapshot(any_url, reg) == before


def test_local_sources_survive_sync_and_block_plugin_ids(sqlite_url: str) -> None:
    with Registry.open(sqlite_url) as reg:
        reg.sync(_decls())
        reg.add_local(source(), "lab.yaml")
        report = reg.sync(_decls())
        assert report.removed == [] and [r["id"] for r in reg.list_sources()] == ["lab_store"]
        with pytest.raises(DeclarationError, match="local source with this id"):
            reg.sync(_decls(SourcePlugin("p", source())))
        reg.remove_local("lab_store")
        assert reg.list_sources() == []


def test_unknown_source_suggests_a_close_id(sqlite_url: str) -> None:
    with Registry.open(sqlite_url) as reg:
        reg.sync(_decls(SourcePlugin("a", source())))
        with pytest.raises(RegistryError, match="no source 'lab_stor' in the registry; did you mean 'lab_store'"):
            reg.source("lab_stor")


def test_registry_tables_answer_sql_questions(sqlite_url: str) -> None:
    """The query shown in docs/registry.md works on a synced registry."""
    with Registry.open(sqlite_url) as reg:
        reg.sync(_decls(SourcePlugin("a", source())))
        sql = (Path(__file__).resolve().parents[1] / "docs" / "registry.md").read_text()
        query = sql.split("```sql", 1)[1].split("```", 1)[0]
        with reg.engine.connect() as conn:
            rows = conn.execute(text(query)).all()
    assert [tuple(r) for r in rows] == [("lab_store", "samples", "gap", "eV", "experimental")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "is not valid JSON"),
        (b'{"format": "other"}', "is not a schemarouter registry export"),
        (b'{"format": "schemarouter-registry", "version": 9}', "export version 9"),
        (b'{"format": "schemarouter-registry", "version": 1, "intents": {}}', "'intents' must be a list"),
    ],
)
def test_malformed_import_files_are_rejected_before_writing(
    sqlite_url: str, tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with Registry.open(sqlite_url) as reg:
        reg.sync(_decls(SourcePlugin("a", source())))
        before = reg.export_bytes()
        with pytest.raises(ImportFileError, match=message):
            reg.import_file(path)
        assert reg.export_bytes() == before


def test_tampered_export_fingerprint_is_detected(sqlite_url: str, tmp_path: Path) -> None:
    with Registry.open(sqlite_url) as reg:
        reg.sync(_decls(SourcePlugin("a", source())))
        doc = reg.export()
    doc["sources"][0]["priority"] = 9
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ImportFileError, match="does not match its content"):
        Registry.open(f"sqlite:///{tmp_path / 'x.db'}").import_file(path)
    del doc["fingerprint"]
    path.write_text(json.dumps(doc))
    with Registry.open(f"sqlite:///{tmp_path / 'y.db'}") as reg:
        reg.import_file(path)
        assert reg.source("lab_store")[0].priority == 9


def test_database_file_digest_helper_is_stable(tmp_path: Path) -> None:
    # guards _snapshot: a registry file that nobody writes keeps its bytes
    url = f"sqlite:///{tmp_path / 'r.db'}"
    Registry.open(url).close()
    digest = hashlib.sha256((tmp_path / "r.db").read_bytes()).hexdigest()
    with Registry.open(url) as reg:
        reg.stats()
    assert hashlib.sha256((tmp_path / "r.db").read_bytes()).hexdigest() == digest
