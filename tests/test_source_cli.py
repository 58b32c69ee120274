"""``schemarouter source add/remove/list``: local YAML sources with adapter blocks, and bad input.

Every bad-input case checks the message names the file and the item, and that the registry's
fingerprint did not move (nothing written).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from schemarouter.declarations import collect
from schemarouter.models import DomainConcept
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry, parse_export
from schemarouter.registry.local import read_local_source
from schemarouter.sources.local import load_local_source_file
from tests.sr_cli import EXAMPLES, db, sr, template  # noqa: F401  (fixtures)

EXAMPLE = EXAMPLES / "halcyon_synthesis.yaml"


def _fingerprint(db: str) -> str | None:
    with Registry.open(db) as reg:
        return reg.fingerprint()


def _variant(tmp_path: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "variant.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_add_list_show_sync_remove_round_trip(sr, db: str) -> None:  # type: ignore[no-untyped-def]
    added = sr("source", "add", str(EXAMPLE), "--db", db, "--json")
    assert added.code == 0, added.err
    assert json.loads(added.out)["added"] == ["halcyon_synthesis"]
    again = sr("source", "add", str(EXAMPLE), "--db", db, "--json")
    assert json.loads(again.out)["unchanged"] == ["halcyon_synthesis"], "adding the same file twice is a no-op"
    listed = json.loads(sr("source", "list", "--db", db, "--json").out)
    assert [r["id"] for r in listed] == ["halcyon_synthesis"], "source list shows local sources only"
    assert listed[0]["owner"]["kind"] == "local" and listed[0]["owner"]["name"] == str(EXAMPLE.resolve())
    assert listed[0]["adapter_specs"] == ["run", "runs"]
    shown = json.loads(sr("registry", "show", "halcyon_synthesis", "--db", db, "--json").out)
    assert "adapter" not in shown["endpoints"][0], "the declaration models never carry adapter facts"
    synced = sr("registry", "sync", "--db", db, "--json")
    assert synced.code == 0 and "halcyon_synthesis" not in json.loads(synced.out)["removed"]
    with Registry.open(db) as reg:
        assert reg.adapter_specs("halcyon_synthesis")["runs"]["records"] == "runs"
    removed = sr("source", "remove", "halcyon_synthesis", "--db", db)
    assert removed.code == 0 and "removed local source halcyon_synthesis" in removed.out
    assert json.loads(sr("source", "list", "--db", db, "--json").out) == []
    assert "no local sources" in sr("source", "list", "--db", db).out


def test_adapter_specs_are_stored_and_an_adapter_only_change_updates(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert sr("source", "add", str(EXAMPLE), "--db", db).code == 0
    with Registry.open(db) as reg:
        local = read_local_source(reg, "halcyon_synthesis")
    assert local == load_local_source_file(EXAMPLE), "what is read back equals the file"
    assert local.spec("run").location("run_id") == "path" and local.spec("runs").fixed == {"format": "json"}

    def new_fixed(data: dict) -> None:  # type: ignore[type-arg]
        data["endpoints"][0]["adapter"]["fixed"] = {"format": "json", "v": 2}

    changed = sr("source", "add", str(_variant(tmp_path, new_fixed)), "--db", db, "--json")
    assert json.loads(changed.out)["updated"] == ["halcyon_synthesis"]
    with Registry.open(db) as reg:
        assert reg.adapter_specs("halcyon_synthesis")["runs"]["fixed"] == {"format": "json", "v": 2}


def test_sync_with_a_changed_vocabulary_keeps_local_sources_and_their_adapter_specs(db: str) -> None:
    with Registry.open(db) as reg:
        reg.add_local(load_local_source_file(EXAMPLE).source, "x", load_local_source_file(EXAMPLE).spec_dicts())
        decls = collect(make_plugin_manager())
        decls.concepts["lab_batch"] = DomainConcept(name="lab_batch", aliases=["batch"])
        report = reg.sync(decls)
        assert report.vocabulary_changed, "the vocabulary path rewrites every table"
        assert "halcyon_synthesis" in reg.load().sources
        assert reg.adapter_specs("halcyon_synthesis")["run"]["locations"] == {"run_id": "path"}


def test_export_import_keeps_adapter_specs(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert sr("source", "add", str(EXAMPLE), "--db", db).code == 0
    export = tmp_path / "export.json"
    assert sr("registry", "export", str(export), "--db", db).code == 0
    document = json.loads(export.read_text())
    assert set(document["adapter_specs"]) == {"halcyon_synthesis"}
    assert parse_export(export).adapter_specs["halcyon_synthesis"]["runs"]["records"] == "runs"
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert sr("registry", "import", str(export), "--db", other).code == 0
    with Registry.open(other) as reg:
        assert reg.adapter_specs("halcyon_synthesis") == json.loads(json.dumps(document["adapter_specs"]["halcyon_synthesis"]))
        assert reg.export_bytes() == export.read_bytes()


def _assert_refused(result, db: str, before: str | None, *needles: str) -> str:  # type: ignore[no-untyped-def]
    assert result.code == 1, (result.out, result.err)
    assert "Traceback" not in result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert _fingerprint(db) == before, "nothing may be written on error"
    return lines[0]


def test_invalid_yaml_names_the_file_and_the_line(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "broken.yaml"
    bad.write_text("id: x\nendpoints: [\n  - id: a\n", encoding="utf-8")
    before = _fingerprint(db)
    _assert_refused(sr("source", "add", str(bad), "--db", db), db, before, str(bad), "line", "invalid YAML")


@pytest.mark.parametrize(
    ("edit", "needles"),
    [
        (lambda d: d["endpoints"][0]["fields"][0].update(typo=1), ["endpoints[runs].fields[run_id].typo", "Extra inputs"]),
        (lambda d: d["endpoints"][0]["fields"][1].update(type="float"), ["endpoints[runs].fields[target_formula].type"]),
        (lambda d: d.pop("license"), ["source 'halcyon_synthesis'", "license"]),
        (lambda d: d.update(auth={"env": "sk-live-1234567890", "in": "header", "name": "X"}),
         ["auth.env must name an environment variable"]),
        (lambda d: d["endpoints"][0].update(method="DELETE"), ["endpoint 'runs'", "declare it with access: write"]),
        (lambda d: d["endpoints"][0].update(intents=["movie_trivia"]), ["endpoint 'runs'", "unknown intent 'movie_trivia'"]),
        (lambda d: d["endpoints"][0]["fields"][1].update(group="chemistry"), ["target_formula", "unknown field group"]),
    ],
    ids=["unknown-key", "bad-type", "missing-license", "secret-in-auth", "unmarked-write", "unknown-intent", "unknown-group"],
)
def test_invalid_declarations_are_refused_naming_file_and_item(sr, db: str, tmp_path: Path, edit, needles) -> None:  # type: ignore[no-untyped-def]
    path = _variant(tmp_path, edit)
    before = _fingerprint(db)
    message = _assert_refused(sr("source", "add", str(path), "--db", db), db, before, *needles)
    assert "variant.yaml" in message, "the message names the file"
    assert "sk-live-1234567890" not in message, "a suspected secret is never echoed"


@pytest.mark.parametrize(
    ("adapter", "needles"),
    [
        ({"records": "runs", "extra": 1}, ["endpoint 'runs' adapter", "extra"]),
        ({"locations": {"nope": "query"}}, ["endpoint 'runs' adapter locations", "'nope' is not a parameter"]),
        ({"locations": {"formula": "q_json"}}, ["specific to a first-party adapter"]),
        ({"locations": {"formula": "path"}}, ["'formula' is not a {formula} in path"]),
        ({"unit_from": {"anneal_temperature": "unit"}}, ["unit_from", "'unit' is not a field"]),
        ({"records": "runs[=]"}, ["records"]),
        ("just text", ["expected a mapping"]),
    ],
    ids=["unknown-key", "unknown-param", "first-party-location", "path-not-in-template", "unit-from", "bad-records", "not-a-mapping"],
)
def test_invalid_adapter_blocks_are_refused(sr, db: str, tmp_path: Path, adapter, needles) -> None:  # type: ignore[no-untyped-def]
    path = _variant(tmp_path, lambda d: d["endpoints"][0].update(adapter=adapter))
    before = _fingerprint(db)
    _assert_refused(sr("source", "add", str(path), "--db", db), db, before, "variant.yaml", *needles)


def test_path_variable_without_a_path_location_is_refused(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _variant(tmp_path, lambda d: d["endpoints"][1].pop("adapter"))
    before = _fingerprint(db)
    _assert_refused(sr("source", "add", str(path), "--db", db), db, before, "endpoint 'run'", "{run_id}", "locations")


def test_a_plugin_owned_id_is_refused_and_plugin_sources_cannot_be_removed(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _variant(tmp_path, lambda d: d.update(id="oqmd"))
    before = _fingerprint(db)
    _assert_refused(sr("source", "add", str(path), "--db", db), db, before, "'oqmd' belongs to plugin schemarouter-oqmd")
    _assert_refused(sr("source", "remove", "oqmd", "--db", db), db, before, "belongs to plugin", "uninstall")
    _assert_refused(sr("source", "remove", "no_such_source", "--db", db), db, before, "no source 'no_such_source'")


def test_adding_before_any_sync_says_to_sync_first(sr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    result = sr("source", "add", str(EXAMPLE), "--db", empty)
    assert result.code == 1 and "run schemarouter registry sync first" in result.err
    with Registry.open(empty) as reg:
        assert reg.list_sources() == []


def test_add_on_postgres_round_trips_adapter_specs(pg_url: str) -> None:
    local = load_local_source_file(EXAMPLE)
    with Registry.open(pg_url) as reg:
        reg.sync(collect(make_plugin_manager()))
        reg.add_local(local.source, "example", local.spec_dicts())
        assert read_local_source(reg, "halcyon_synthesis") == local
        assert reg.add_local(local.source, "example", local.spec_dicts()).unchanged == ["halcyon_synthesis"]
