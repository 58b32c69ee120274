"""``schemarouter source import-mcp``: a real MCP server's tools mapped to endpoints, parameters and fields.

Two servers run locally over stdio: the test kit's lab server (built with the mcp SDK, with
outputSchemas, a write tool, a tool without an outputSchema and one without annotations) and the
reference server ``mcp-server-time`` from PyPI.
"""

from __future__ import annotations

import json
from pathlib import Path

from schemarouter.execution.mcp_cassettes import load_recording
from schemarouter.registry import Registry
from schemarouter.registry.local import read_local_source
from schemarouter.sources.mcp import tool_options
from tests.mcp_support import LAB, LAB_OVERLAY, TIME_SERVER, write_overlay
from tests.sr_cli import db, sr, template  # noqa: F401  (fixtures)


def _fingerprint(db: str) -> str | None:
    with Registry.open(db) as reg:
        return reg.fingerprint()


def test_import_lab_maps_tools_to_endpoints(sr, db: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LAB_TOKEN", "s3cret-value-never-stored")
    ran = sr("source", "import-mcp", "--id", "lab", "--overlay", str(LAB_OVERLAY), "--env", "LAB_TOKEN",
             "--db", db, "--json", "--", *LAB)
    assert ran.code == 0, ran.err
    report = json.loads(ran.out)
    assert report["server_name"] == "lab-materials" and report["tools"] == 5
    assert report["registry"]["added"] == ["lab"]
    assert report["no_output_schema"] == {"get_synthesis_notes": "overlay"}, "the report names tools without one"
    assert report["unannotated"] == ["count_materials"]
    with Registry.open(db) as reg:
        local = read_local_source(reg, "lab")
        exported = reg.export_bytes().decode()
    source = local.source
    endpoints = {e.id: e for e in source.endpoints}
    assert set(endpoints) == {"get_material", "search_materials", "get_synthesis_notes", "delete_material",
                              "count_materials"}
    material = endpoints["get_material"]
    formula = material.parameter("formula")
    assert formula.required and formula.type == "string" and formula.concept == "formula"
    assert "chemical formula" in formula.description
    paths = {f.name: f.path for f in material.fields}
    assert paths["lattice_a"] == "lattice.a", "nested objects are joined into dotted paths"
    assert paths["origins_task_id"] == "origins[].task_id", "lists of objects become [] paths"
    assert material.field("band_gap").unit == "eV" and material.field("material_id").identifier
    assert "band gap" in material.description and material.access == "read"
    search = endpoints["search_materials"]
    assert local.spec("search_materials").records == "materials", "records found inside the envelope"
    assert not search.parameter("limit").required
    delete = endpoints["delete_material"]
    assert delete.access == "write" and delete.method == "DELETE", "a destructive tool is a write"
    notes = endpoints["get_synthesis_notes"]
    assert notes.field("temperature_c").unit == "degC", "a tool without an outputSchema takes the overlay's fields"
    options = tool_options(local.spec("get_material").options)
    assert options.tool == "get_material" and options.server.command == LAB
    assert options.server.env == ["LAB_TOKEN"] and options.output_schema is not None
    assert local.spec("get_material").protocol == "mcp"
    assert "LAB_TOKEN" in exported and "s3cret-value-never-stored" not in exported, "secrets only as names"


def test_import_reference_time_server_from_pypi(sr, db: str) -> None:  # type: ignore[no-untyped-def]
    overlay = write_overlay(Path(db.removeprefix("sqlite:///")).parent / "time.yaml")
    ran = sr("source", "import-mcp", "--id", "clock", "--overlay", str(overlay), "--db", db, "--json",
             "--", TIME_SERVER)
    assert ran.code == 0, ran.err
    report = json.loads(ran.out)
    assert report["server_name"] == "mcp-time" and report["endpoint_ids"] == ["get_current_time", "convert_time"]
    with Registry.open(db) as reg:
        source = read_local_source(reg, "clock").source
    convert = source.endpoint("convert_time")
    assert [p.name for p in convert.parameters if p.required] == ["source_timezone", "time", "target_timezone"]
    paths = {f.path for f in convert.fields}
    assert {"source.timezone", "target.datetime", "time_difference"} <= paths, "$defs references are followed"
    assert {f.name: f.type for f in source.endpoint("get_current_time").fields}["is_dst"] == "boolean"


def test_dry_run_writes_nothing_and_prints_the_report(sr, db: str) -> None:  # type: ignore[no-untyped-def]
    before = _fingerprint(db)
    ran = sr("source", "import-mcp", "--id", "lab", "--overlay", str(LAB_OVERLAY), "--db", db, "--dry-run", "--", *LAB)
    assert ran.code == 0, ran.err
    assert "5 tools, 5 endpoints (1 writes)" in ran.out and "dry run: nothing written" in ran.out
    assert "tools without an outputSchema: get_synthesis_notes (overlay)" in ran.out
    assert _fingerprint(db) == before


def test_sample_result_gives_fields_to_a_tool_without_output_schema(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    overlay = write_overlay(tmp_path / "ov.yaml")
    samples = tmp_path / "lab.mcp.yaml"
    ran = sr("source", "import-mcp", "--id", "lab", "--overlay", str(overlay), "--db", db, "--json", "--dry-run",
             "--sample", 'get_synthesis_notes={"formula": "LiFePO4"}', "--samples", str(samples), "--", *LAB)
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["no_output_schema"] == {"get_synthesis_notes": "sample"}
    recorded = load_recording(samples)
    assert [(i.tool, i.arguments) for i in recorded] == [("get_synthesis_notes", {"formula": "LiFePO4"})]
    # the recording alone (no live call) gives the same fields
    again = sr("source", "import-mcp", "--id", "lab", "--overlay", str(overlay), "--db", db, "--samples", str(samples),
               "--write-yaml", str(tmp_path / "lab.yaml"), "--", *LAB)
    assert again.code == 0, again.err
    with Registry.open(db) as reg:
        fields = {f.name for f in read_local_source(reg, "lab").source.endpoint("get_synthesis_notes").fields}
    assert {"temperature_c", "precursors", "atmosphere"} <= fields
    assert "protocol: mcp" in (tmp_path / "lab.yaml").read_text(encoding="utf-8")


def test_a_unit_an_output_schema_says_in_prose_is_read_where_the_overlay_gives_none(
        sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ran = sr("source", "import-mcp", "--id", "lab", "--overlay", str(write_overlay(tmp_path / "o.yaml")), "--db", db,
             "--", *LAB)
    assert ran.code == 0, ran.err
    with Registry.open(db) as reg:
        material = read_local_source(reg, "lab").source.endpoint("get_material")
    assert material.field("lattice_a").unit == "angstrom", "'lattice length a (angstrom)'"
    assert material.field("band_gap").unit is None, "'electronic band gap' says no unit"


def test_sample_of_a_write_tool_is_refused(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ran = sr("source", "import-mcp", "--id", "lab", "--overlay", str(write_overlay(tmp_path / "o.yaml")), "--db", db,
             "--sample", 'delete_material={"material_id": "lab-149"}', "--", *LAB)
    assert ran.code != 0 and "only read tools are called at import" in ran.err


def test_overlay_mistakes_are_one_line(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    typo = write_overlay(tmp_path / "typo.yaml", endpoints={"get_materal": {"description": "x"}})
    ran = sr("source", "import-mcp", "--id", "lab", "--overlay", str(typo), "--db", db, "--", *LAB)
    assert ran.code != 0 and "did you mean 'get_material'" in ran.err
    http_only = write_overlay(tmp_path / "http.yaml", base_url="https://example.org")
    ran = sr("source", "import-mcp", "--id", "lab", "--overlay", str(http_only), "--db", db, "--", *LAB)
    assert ran.code != 0 and "base_url is an OpenAPI setting" in ran.err


def test_command_and_url_are_exclusive(sr, db: str) -> None:  # type: ignore[no-untyped-def]
    both = sr("source", "import-mcp", "--id", "x", "--url", "http://127.0.0.1:9/mcp", "--db", db, "--", *LAB)
    assert both.code != 0 and "either --url URL or -- COMMAND" in both.err
    creds = sr("source", "import-mcp", "--id", "x", "--url", "https://user:pw@example.org/mcp", "--db", db)
    assert creds.code != 0 and "without credentials" in creds.err
    missing = sr("source", "import-mcp", "--id", "x", "--db", db, "--timeout", "3", "--",
                 "/nonexistent/mcp-server-binary")
    assert missing.code != 0 and "cannot start the MCP server" in missing.err
