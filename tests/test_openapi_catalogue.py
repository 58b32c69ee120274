"""``source import-openapi`` with several documents or a folder: one process, one transaction, one line each.

Real documents (the TMDB document and the docs' lab example) beside small generated ones, stored in a
copy of a synced SQLite registry through the real entry point.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemarouter.openapi.naming import id_from_file_name
from schemarouter.registry import Registry
from tests.sr_cli import EXAMPLES, TMDB, db, sr, template  # noqa: F401  (fixtures)

MINIMAL_OVERLAY = {"source_type": "curated", "license": {"id": "MIT", "name": "MIT License"}}


def _spec(title: str) -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": "1", "license": {"name": "MIT", "identifier": "MIT"}},
        "servers": [{"url": "https://api.example.org/v1"}],
        "paths": {"/items/{item_id}": {
            "parameters": [{"name": "item_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "get": {"operationId": "getItem", "responses": {"200": {"description": "ok", "content": {
                "application/json": {"schema": {"type": "object", "properties": {
                    "id": {"type": "integer"}, "label": {"type": "string"},
                    "weight": {"type": "number"}}}}}}}},  # a number without a unit: a declaration warning
        }},
    }


def _catalogue(root: Path) -> Path:
    folder = root / "catalogue"
    (folder / "more").mkdir(parents=True)
    (folder / "Weather API.v2.json").write_text(json.dumps(_spec("Weather")), encoding="utf-8")
    (folder / "more" / "stocks.yaml").write_text(yaml.safe_dump(_spec("Stocks")), encoding="utf-8")
    shutil.copyfile(TMDB / "tmdb_oas.json", folder / "tmdb.json")
    shutil.copyfile(TMDB / "overlay.yaml", folder / "tmdb.overlay.yaml")  # beside its document: used for it
    return folder


def _sources(url: str) -> dict[str, dict[str, Any]]:
    with Registry.open(url) as reg:
        return {row["id"]: row for row in reg.list_sources() if row["owner"]["kind"] == "local"}


def _fingerprint(url: str) -> str | None:
    with Registry.open(url) as reg:
        return reg.fingerprint()


def test_a_folder_lands_in_one_call_with_ids_from_file_names(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = _catalogue(tmp_path)
    overlay = tmp_path / "all.yaml"
    overlay.write_text(yaml.safe_dump(MINIMAL_OVERLAY), encoding="utf-8")
    ran = sr("source", "import-openapi", str(folder), "--overlay", str(overlay), "--db", db, "--json")
    assert ran.code == 0, ran.err
    report = json.loads(ran.out)
    assert [d["source_id"] for d in report["documents"]] == ["weather_api_v2", "stocks", "tmdb"]
    assert report["counts"] == {"added": 3, "updated": 0, "unchanged": 0, "failed": 0}
    assert {d["overlay"] for d in report["documents"]} == {str(overlay), str(folder / "tmdb.overlay.yaml")}
    stored = _sources(db)
    assert set(stored) == {"weather_api_v2", "stocks", "tmdb"}
    assert stored["tmdb"]["endpoints"] > 10  # the TMDB overlay (not the minimal one) shaped it
    assert report["fingerprint"] == _fingerprint(db)
    again = sr("source", "import-openapi", str(folder), "--overlay", str(overlay), "--db", db, "--json")
    assert json.loads(again.out)["counts"]["unchanged"] == 3 and _fingerprint(db) == report["fingerprint"]


def test_a_failing_document_is_reported_and_the_others_land(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = _catalogue(tmp_path)
    (folder / "broken.json").write_text('{"openapi": "3.1.0",\n "paths": {,}}', encoding="utf-8")
    (folder / "nothing.json").write_text(json.dumps({**_spec("Empty"), "paths": {}}), encoding="utf-8")
    overlay = tmp_path / "all.yaml"
    overlay.write_text(yaml.safe_dump(MINIMAL_OVERLAY), encoding="utf-8")
    ran = sr("source", "import-openapi", str(folder), "--overlay", str(overlay), "--db", db)
    assert ran.code == 3, ran.err
    lines = ran.out.strip().splitlines()
    assert any(line.startswith("failed") and "broken.json: line 2" in line for line in lines), ran.out
    assert any(line.startswith("failed") and "nothing.json" in line for line in lines), ran.out
    assert lines[-1].startswith("5 documents: 3 added, 0 updated, 0 unchanged, 2 failed (one transaction")
    warnings = [line for line in ran.err.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "declaration warning(s) in" in warnings[0], ran.err  # one line, not one per field
    assert set(_sources(db)) == {"weather_api_v2", "stocks", "tmdb"}


def test_all_or_nothing_writes_nothing_when_one_fails(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = _catalogue(tmp_path)
    overlay = tmp_path / "all.yaml"
    overlay.write_text(yaml.safe_dump(MINIMAL_OVERLAY), encoding="utf-8")
    # valid as a document, refused by the registry: an id a plugin owns
    (folder / "oqmd.json").write_text(json.dumps(_spec("Clash")), encoding="utf-8")
    before = _fingerprint(db)
    ran = sr("source", "import-openapi", str(folder), "--overlay", str(overlay), "--all-or-nothing", "--db", db)
    assert ran.code == 1
    assert ran.err.strip().splitlines()[-1].startswith("Error: ") and "belongs to plugin schemarouter-oqmd" in ran.err
    assert _fingerprint(db) == before and _sources(db) == {}
    # without the flag the same catalogue lands except that document
    ran = sr("source", "import-openapi", str(folder), "--overlay", str(overlay), "--db", db)
    assert ran.code == 3 and "belongs to plugin schemarouter-oqmd" in ran.out
    assert set(_sources(db)) == {"weather_api_v2", "stocks", "tmdb"}


def test_an_overlay_id_names_the_source_and_two_claims_of_one_id_are_refused(  # type: ignore[no-untyped-def]
    sr, db: str, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.json", "b.json"):
        (folder / name).write_text(json.dumps(_spec(name)), encoding="utf-8")
        overlay = {**MINIMAL_OVERLAY, "id": "shared_api"}
        (folder / name.replace(".json", ".overlay.yaml")).write_text(yaml.safe_dump(overlay), encoding="utf-8")
    ran = sr("source", "import-openapi", str(folder / "a.json"), str(folder / "b.json"), "--db", db, "--json")
    assert ran.code == 3
    docs = json.loads(ran.out)["documents"]
    assert [(d["source_id"], d["status"]) for d in docs] == [("shared_api", "added"), ("shared_api", "failed")]
    assert "already taken by" in docs[1]["error"] and "a.json" in docs[1]["error"]


def test_dry_run_reports_and_writes_nothing(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = _catalogue(tmp_path)
    overlay = tmp_path / "all.yaml"
    overlay.write_text(yaml.safe_dump(MINIMAL_OVERLAY), encoding="utf-8")
    before = _fingerprint(db)
    ran = sr("source", "import-openapi", str(folder), "--overlay", str(overlay), "--dry-run", "--db", db)
    assert ran.code == 0 and "dry run, nothing written" in ran.out
    assert _fingerprint(db) == before and _sources(db) == {}


def test_one_document_options_are_refused_for_a_catalogue(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = _catalogue(tmp_path)
    ran = sr("source", "import-openapi", str(folder), "--id", "x", "--db", db)
    assert ran.code == 2 and "--id and --write-yaml name one document" in ran.err
    missing = sr("source", "import-openapi", str(folder), str(tmp_path / "gone"), "--db", db)
    assert missing.code == 1 and "gone" in missing.err and "no such file or folder" in missing.err


def test_a_single_document_takes_its_id_from_the_file_name(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = tmp_path / "Lab-Store.yaml"
    shutil.copyfile(EXAMPLES / "labstore_openapi.yaml", spec)
    ran = sr("source", "import-openapi", str(spec), "--overlay", str(EXAMPLES / "labstore_overlay.yaml"), "--db", db)
    assert ran.code == 0, ran.err
    assert "added local source lab_store" in ran.out and set(_sources(db)) == {"lab_store"}


@pytest.mark.parametrize(("name", "expected"), [
    ("Weather API.v2.json", "weather_api_v2"), ("googleapis.com__books__v1.yaml", "googleapis_com_books_v1"),
    ("1forge.com.yml", "api_1forge_com"), ("___.json", "api"),
])
def test_ids_from_file_names(name: str, expected: str) -> None:
    assert id_from_file_name(name) == expected
