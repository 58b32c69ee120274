"""``schemarouter source import-openapi``: the real TMDB document, constructs, overlay, and bad input.

The bad-input cases each check the message names the file and the place, and that nothing was
written to the registry (its fingerprint did not move).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemarouter.checks.units import check_known
from schemarouter.openapi import OpenAPIImportError, import_openapi
from schemarouter.registry import Registry
from schemarouter.registry.local import read_local_source
from schemarouter.sources.local import load_local_source_file
from tests.sr_cli import EXAMPLES, TMDB, db, sr, template  # noqa: F401  (fixtures)

TMDB_SPEC = TMDB / "tmdb_oas.json"
TMDB_OVERLAY = TMDB / "overlay.yaml"
LAB_SPEC = EXAMPLES / "labstore_openapi.yaml"
LAB_OVERLAY = EXAMPLES / "labstore_overlay.yaml"
MINIMAL_OVERLAY = {"source_type": "curated", "license": {"id": "MIT", "name": "MIT License"}}


@pytest.fixture(scope="module")
def tmdb():  # type: ignore[no-untyped-def]
    return import_openapi(TMDB_SPEC, "tmdb", TMDB_OVERLAY)


def _fingerprint(db: str) -> str | None:
    with Registry.open(db) as reg:
        return reg.fingerprint()


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False) if name.endswith(".yaml") else json.dumps(data), encoding="utf-8")
    return path


def _spec(**extra: Any) -> dict[str, Any]:
    """A small OpenAPI 3.1 document; tests add or break parts of it."""
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "Widgets", "version": "1", "license": {"name": "Apache 2.0", "identifier": "Apache-2.0"}},
        "servers": [{"url": "https://{region}.widgets.example/v1", "variables": {"region": {"default": "eu"}}}],
        "paths": {
            "/widgets/{widget_id}": {
                "parameters": [{"name": "widget_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "get": {
                    "operationId": "getWidget",
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/Widget"}}}}},
                },
            },
        },
        "components": {"schemas": {"Widget": {"type": "object", "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"},
        }}}},
    }
    doc.update(extra)
    return doc


# ---------------------------------------------------------------------------------- TMDB
def test_tmdb_every_get_operation_is_an_endpoint_or_reported(tmdb) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(TMDB_SPEC.read_text())
    gets = [(path, item["get"]) for path, item in doc["paths"].items() if "get" in item]
    report = tmdb.report
    assert report.operations == len(gets)
    assert report.endpoints == len(gets), "every GET is an endpoint (an identifier is not a condition)"
    assert sorted(report.places.values()) == sorted(f"GET {path}" for path, _ in gets)
    source = tmdb.local.source
    trending = source.endpoint("trending_media_type_time_window")
    assert trending.identifier_fields == [] and [f.name for f in trending.fields] == ["page", "total_pages", "total_results"]
    assert report.endpoints == len(source.endpoints) and report.fields == sum(len(e.fields) for e in source.endpoints)
    assert len({e.id for e in source.endpoints}) == len(source.endpoints)
    assert all(e.base_url == "https://api.themoviedb.org/3" for e in source.endpoints)


def test_tmdb_records_parameters_and_fields(tmdb) -> None:  # type: ignore[no-untyped-def]
    local = tmdb.local
    source = local.source
    search = source.endpoint("search_movie")
    assert local.spec("search_movie").records == "results", "the one list of objects in a page envelope"
    assert search.parameter("query").required and search.parameter("page").type == "integer"
    assert "api_key" not in {p.name for p in search.parameters}, "the key parameter is auth, not a parameter"
    assert source.auth is not None and (source.auth.env, source.auth.location, source.auth.name) == ("TMDB_API_KEY", "query", "api_key")
    movie = source.endpoint("movie_movie_id")
    assert local.spec("movie_movie_id").records == "", "a record with its own id is not an envelope"
    assert local.spec("movie_movie_id").locations == {"movie_id": "path"}
    assert movie.field("id").identifier and movie.field("id").group == "identity"
    genres = movie.field("genres_name")
    assert (genres.path, genres.type) == ("genres[].name", "array") and "(list of string)" in genres.description
    assert movie.field("release_date").type == "date"
    assert movie.field("runtime").unit == "min" and movie.field("revenue").group == "financial", "overlay applied"
    assert movie.field("vote_average").type == "number" and movie.field("vote_average").group == "metrics"
    keywords = source.endpoint("movie_movie_id_keywords")
    assert {f.path for f in keywords.fields} == {"id", "keywords[].id", "keywords[].name"}


def test_tmdb_unmapped_constructs_are_reported_with_their_place(tmdb) -> None:  # type: ignore[no-untyped-def]
    lines = [u.line() for u in tmdb.report.unmapped]
    assert any("GET /search/person response results[] known_for[]: oneOf" in line for line in lines)
    assert any(line.startswith("GET /tv/{tv_id} response next_episode_to_air: untyped schema") for line in lines)
    assert not any("no identifier field" in line for line in lines), "no longer a reason to leave a GET out"
    assert any(n.startswith("GET /trending/{media_type}/{time_window}: no identifier field") for n in tmdb.report.notes)
    assert tmdb.report.counts()["oneOf"] >= 1


def test_tmdb_response_example_executes_through_the_generic_adapter(tmdb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The spec's own response example, served as a cassette body, runs through HttpJsonAdapter."""
    from schemarouter.declarations import Declarations
    from schemarouter.execution.executor import Executor
    from schemarouter.execution.offline import replay
    from schemarouter.plan import Plan, PlanStep

    doc = json.loads(TMDB_SPEC.read_text())
    example = doc["paths"]["/movie/{movie_id}"]["get"]["responses"]["200"]["content"]["application/json"]["examples"]["response"]["value"]
    cassette = {"version": 1, "interactions": [{
        "request": {"body": None, "headers": {}, "method": "GET", "uri": f"https://api.themoviedb.org/3/movie/{example['id']}"},
        "response": {"body": {"string": json.dumps(example)}, "headers": {"Content-Type": ["application/json"]},
                     "status": {"code": 200, "message": "OK"}},
    }]}
    (tmp_path / "cassettes").mkdir()
    _write(tmp_path / "cassettes", "tmdb.yaml", cassette)
    source = tmdb.local.source
    decls = Declarations(sources={"tmdb": source})
    executor = Executor(decls, {}, specs={"tmdb": tmdb.local.adapter_specs}, env={"TMDB_API_KEY": "placeholder-key"})
    plan = Plan(query="runtime of Fight Club", registry_fingerprint=None, steps=[
        PlanStep(source="tmdb", endpoint="movie_movie_id", params={"movie_id": example["id"]},
                 fields=["title", "runtime", "genres_name"]),
    ])
    with replay(tmp_path / "cassettes"):
        result = executor.run_sync(plan)
    step = result.steps[0]
    assert step.error is None, step.error
    values = {v.field: v for v in step.records[0].values.values()}
    assert values["title"].value == example["title"]
    assert values["runtime"].value == example["runtime"] and values["runtime"].unit == "min"
    assert values["genres_name"].value == [g["name"] for g in example["genres"]]


def test_tmdb_import_is_idempotent_and_a_plugin_id_is_refused(sr, db: str) -> None:  # type: ignore[no-untyped-def]
    first = sr("source", "import-openapi", str(TMDB_SPEC), "--id", "tmdb", "--overlay", str(TMDB_OVERLAY), "--db", db, "--json")
    assert first.code == 0, first.err
    assert json.loads(first.out)["registry"]["added"] == ["tmdb"]
    fp = _fingerprint(db)
    second = sr("source", "import-openapi", str(TMDB_SPEC), "--id", "tmdb", "--overlay", str(TMDB_OVERLAY), "--db", db, "--json")
    assert json.loads(second.out)["registry"]["unchanged"] == ["tmdb"] and _fingerprint(db) == fp
    refused = sr("source", "import-openapi", str(TMDB_SPEC), "--id", "oqmd", "--overlay", str(TMDB_OVERLAY), "--db", db)
    assert refused.code == 1 and "belongs to plugin schemarouter-oqmd" in refused.err and _fingerprint(db) == fp


def test_dry_run_writes_nothing_and_write_yaml_round_trips(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    before = _fingerprint(db)
    out_yaml = tmp_path / "labstore.yaml"
    dry = sr("source", "import-openapi", str(LAB_SPEC), "--id", "labstore", "--overlay", str(LAB_OVERLAY),
             "--dry-run", "--write-yaml", str(out_yaml), "--db", db)
    assert dry.code == 0, dry.err
    assert "dry run: nothing written" in dry.out and "not mapped: POST /samples: write operation" in dry.out
    assert _fingerprint(db) == before
    written = load_local_source_file(out_yaml)
    direct = import_openapi(LAB_SPEC, "labstore", LAB_OVERLAY).local
    assert written == direct, "the YAML the importer writes declares exactly the imported source"
    assert sr("source", "add", str(out_yaml), "--db", db).code == 0
    with Registry.open(db) as reg:
        assert read_local_source(reg, "labstore") == direct


# ---------------------------------------------------------------------------------- constructs
def test_constructs_refs_allof_nesting_units_and_nullable_types(tmp_path: Path) -> None:
    spec = _spec()
    spec["components"]["schemas"] = {
        "Base": {"type": "object", "properties": {"id": {"type": "integer"}, "created": {"type": "string", "format": "date-time"}}},
        "Widget": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"type": "object", "properties": {
            "name": {"type": ["string", "null"]},
            "size": {"type": "object", "x-units": {"width": "mm"}, "properties": {
                "width": {"type": "number"}, "height": {"type": "number", "x-unit": "mm"},
                "deep": {"type": "object", "properties": {"deeper": {"type": "object", "properties": {
                    "deepest": {"type": "object", "properties": {"x": {"type": "integer"}}}}}}}}},
            "parts": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}, "mass": {"type": "number", "x-unit": "g"}}}},
            "tags": {"type": "array", "items": {"type": "string"}},
            "maybe": {"anyOf": [{"type": "number"}, {"type": "null"}]},
            "either": {"oneOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"type": "string"}}}]},
            "never": {"not": {"type": "string"}},
            "remote": {"$ref": "https://schemas.example/thing.json"},
            "odd key": {"type": "string"},  # a key with a space is a field ("dose rate")
            "odd/key": {"type": "string"},  # one with a slash cannot be written as a path
        }}]},
    }
    path = _write(tmp_path, "spec.json", spec)
    result = import_openapi(path, "widgets", _write(tmp_path, "o.yaml", {"source_type": "curated"}))
    endpoint = result.local.source.endpoint("get_widget")
    fields = {f.name: f for f in endpoint.fields}
    assert endpoint.base_url == "https://eu.widgets.example/v1", "server variables take their defaults"
    assert fields["id"].identifier and fields["created"].type == "date" and fields["name"].type == "string"
    assert (fields["size_width"].path, fields["size_width"].unit) == ("size.width", "mm"), "x-units on the object"
    assert fields["size_height"].unit == "mm" and fields["parts_mass"].unit == "g"
    assert (fields["parts_sku"].path, fields["parts_sku"].type) == ("parts[].sku", "array")
    assert fields["tags"].type == "array" and fields["maybe"].type == "number"
    assert fields["size_deep_deeper_deepest"].type == "object" and "size_deep_deeper_deepest_x" not in fields, "depth-limited: deeper nesting stays one object field"
    constructs = {(u.construct, u.place.rsplit(" ", 1)[-1]) for u in result.report.unmapped}
    assert {("oneOf", "either"), ("not", "never"), ("external $ref", "remote"),
            ("property name not expressible as a field path", "odd/key")} <= constructs
    assert fields["odd_key"].path == "odd key", "words a space separates are one key of the path"
    assert any(u.construct == "nesting deeper than the depth limit" for u in result.report.unmapped)
    assert result.local.source.license.id == "Apache-2.0", "info.license is used when the overlay has none"


def test_unsupported_operations_and_parameters_are_reported(tmp_path: Path) -> None:
    spec = _spec()
    item = spec["paths"]["/widgets/{widget_id}"]
    item["get"]["parameters"] = [
        {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
        {"name": "sid", "in": "cookie", "schema": {"type": "string"}},
        {"name": "filter", "in": "query", "content": {"application/json": {"schema": {"type": "object"}}}},
        {"$ref": "#/components/parameters/Lang"},
    ]
    item["delete"] = {"responses": {"204": {"description": "gone"}}}
    spec["paths"]["/photo"] = {"get": {"responses": {"200": {"description": "png", "content": {"image/png": {}}}}}}
    spec["components"]["parameters"] = {"Lang": {"name": "lang", "in": "query", "schema": {"type": "string", "enum": ["en", "de"]}}}
    result = import_openapi(_write(tmp_path, "spec.yaml", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    lines = [u.line() for u in result.report.unmapped]
    for needle in ("parameter X-Trace: header parameter", "parameter sid: cookie parameter",
                   "parameter filter: parameter without a schema", "DELETE /widgets/{widget_id}: write operation",
                   "GET /photo: non-JSON response (image/png)"):
        assert any(needle in line for line in lines), (needle, lines)
    endpoint = result.local.source.endpoint("get_widget")
    assert endpoint.parameter("lang").enum == ["en", "de"], "a $ref parameter is resolved"
    assert [(e.id, e.method, e.access) for e in result.local.source.endpoints] == [
        ("get_widget", "GET", "read"), ("delete_widgets_by_widget_id", "DELETE", "write")]


# ---------------------------------------------------------------------------------- bad input
def _refuse(sr, db: str, spec: Path, overlay: Path | None, *needles: str) -> None:  # type: ignore[no-untyped-def]
    before = _fingerprint(db)
    args = ["source", "import-openapi", str(spec), "--id", "widgets", "--db", db]
    if overlay is not None:
        args += ["--overlay", str(overlay)]
    result = sr(*args)
    assert result.code == 1, (result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in result.err, result.err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert _fingerprint(db) == before, "nothing may be written on error"


def _broken(**changes: Any) -> dict[str, Any]:
    spec = _spec()
    for key, value in changes.items():
        if value is None:
            spec.pop(key)
        else:
            spec[key] = value
    return spec


@pytest.mark.parametrize(
    ("make", "needles"),
    [
        (lambda: _broken(paths=None), ["spec.json: paths: the document has no 'paths'"]),
        (lambda: {"swagger": "1.2", "info": {}, "paths": {}}, ["swagger", "Swagger 1.2 is not supported"]),
        (lambda: {"swagger": "2.0", "info": {}, "paths": {}}, ["paths", "no operation could be mapped"]),
        (lambda: _broken(openapi="2.5.0"), ["openapi", "unsupported OpenAPI version '2.5.0'"]),
        (lambda: _broken(openapi=None), ["missing 'openapi'"]),
        (lambda: _broken(components={"schemas": {}}), [
            "GET /widgets/{widget_id} response: dangling $ref (#/components/schemas/Widget: it names nothing",
            "no operation could be mapped to an endpoint"]),
    ],
    ids=["missing-paths", "swagger-1.2", "swagger-2-empty", "version-2.5", "no-version", "dangling-ref"],
)
def test_bad_documents_are_refused(sr, db: str, tmp_path: Path, make, needles) -> None:  # type: ignore[no-untyped-def]
    _refuse(sr, db, _write(tmp_path, "spec.json", make()), _write(tmp_path, "o.yaml", MINIMAL_OVERLAY), *needles)


def test_a_refused_overlay_is_named_and_no_empty_summary_is_printed(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    overlay = _write(tmp_path, "o.yaml", {**MINIMAL_OVERLAY, "license": "not a license id"})
    _refuse(sr, db, _write(tmp_path, "spec.json", _spec()), overlay, "o.yaml", "license")
    result = sr("source", "import-openapi", str(tmp_path / "spec.json"), "--id", "widgets", "--db", db,
                "--overlay", str(overlay))
    assert "-> source" not in result.out, result.out


def test_an_overlay_may_give_the_license_as_its_id(tmp_path: Path) -> None:
    overlay = _write(tmp_path, "o.yaml", {"source_type": "curated", "license": "CC-BY-4.0"})
    result = import_openapi(_write(tmp_path, "spec.json", _spec()), "widgets", overlay)
    assert result.local.source.license.id == "CC-BY-4.0"


def _undescribed() -> dict[str, Any]:
    """The widget document with a response whose schema says nothing of the record's fields."""
    spec = _spec()
    spec["paths"]["/widgets/{widget_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] = {
        "type": "array", "items": {"x-thing": "ok"}}
    return spec


def test_an_undescribed_response_takes_the_fields_the_overlay_declares(tmp_path: Path) -> None:
    overlay = {**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"identifier": "id", "fields": {
        "id": {"path": "id", "type": "integer"},
        "colour": {"path": "paint.colour", "description": "The colour it is painted"},
    }}}}
    result = import_openapi(_write(tmp_path, "spec.json", _undescribed()), "widgets", _write(tmp_path, "o.yaml", overlay))
    endpoint = result.local.source.endpoint("get_widget")
    fields = {f.name: f for f in endpoint.fields}
    assert (fields["colour"].path, fields["colour"].type) == ("paint.colour", "string"), "a declared field's type defaults to string"
    assert fields["id"].identifier and fields["id"].type == "integer"
    assert "The colour it is painted" in fields["colour"].description
    assert any("2 response fields declared by the overlay" in n for n in result.report.notes)


def test_an_undescribed_operation_beside_mapped_ones_is_noted_with_the_key_to_use(tmp_path: Path) -> None:
    spec = _spec()
    spec["paths"]["/gadgets"] = {"get": {"operationId": "listGadgets", "responses": {"200": {
        "description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {}}}}}}}}
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    assert [e.id for e in result.local.source.endpoints] == ["get_widget"]
    assert "GET /gadgets: left out for want of response fields; declare them in the overlay under " \
           "endpoints.list_gadgets.fields (a path each)" in result.report.notes


def test_a_response_the_overlay_describes_is_not_listed_as_unmapped(tmp_path: Path) -> None:
    # FireBrowse declares no response content at all; the overlay's fields map the operation
    spec = _spec()
    spec["paths"]["/widgets/{widget_id}"]["get"]["responses"]["200"] = {"description": "No response was specified"}
    overlay = {**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"fields": {"id": {"path": "Widgets[].id"}}}}}
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", overlay))
    assert [e.id for e in result.local.source.endpoints] == ["get_widget"]
    assert not [u for u in result.report.unmapped if u.place == "GET /widgets/{widget_id}"], result.report.unmapped


def test_the_overlay_may_name_an_operation_whose_response_is_undescribed(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = _spec()
    spec["paths"]["/gadgets"] = {"get": {"operationId": "listGadgets", "responses": {"200": {"description": "ok"}}}}
    # a near miss of its id is suggested, as for an endpoint that was mapped
    typo = {**MINIMAL_OVERLAY, "endpoints": {"listgadgets": {"fields": {"id": {"path": "id"}}}}}
    _refuse(sr, db, _write(tmp_path, "spec.json", spec), _write(tmp_path, "o.yaml", typo),
            "endpoints.listgadgets", "did you mean 'list_gadgets'?")
    # its whole response is its one field; a field named without a path is told what the import made
    no_path = {**MINIMAL_OVERLAY, "endpoints": {"list_gadgets": {"fields": {"id": {"description": "the gadget"}}}}}
    _refuse(sr, db, _write(tmp_path, "spec.json", spec), _write(tmp_path, "o2.yaml", no_path),
            "endpoints.list_gadgets.fields.id", "the import produced: response")


def test_an_array_parameter_keeps_the_enum_of_its_items(tmp_path: Path) -> None:
    spec = _spec()
    spec["paths"]["/widgets/{widget_id}"]["get"]["parameters"] = [
        {"name": "cohort", "in": "query", "schema": {"type": "array", "items": {"type": "string", "enum": ["BRCA", "LUAD"]}}},
    ]
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    cohort = next(p for p in result.local.source.endpoint("get_widget").parameters if p.name == "cohort")
    assert (cohort.type, cohort.enum) == ("array", ["BRCA", "LUAD"])


def test_codes_a_description_lists_become_the_parameters_enum_and_labels(tmp_path: Path) -> None:
    # figshare: "Mapping for item_type is: 1 - Figure, 2 - Media, 3 - Dataset, ..."
    spec = _spec()
    spec["paths"]["/widgets/{widget_id}"]["get"]["parameters"] = [
        {"name": "item_type", "in": "query", "schema": {"type": "integer"},
         "description": "Only return items of the type. Mapping for item_type is: 1 - Figure, 2 - Media, 3 - Dataset,"},
        {"name": "page", "in": "query", "schema": {"type": "integer"}, "description": "Page 1 - the first page."},
    ]
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    params = {p.name: p for p in result.local.source.endpoint("get_widget").parameters}
    assert params["item_type"].enum == [1, 2, 3]
    assert params["item_type"].enum_labels == {"1": "Figure", "2": "Media", "3": "Dataset"}
    assert params["page"].enum is None and params["page"].enum_labels is None, "one code in prose is no list"
    assert any("item_type: 3 codes and their labels read from the description" in n for n in result.report.notes)
    # the overlay corrects or drops what was read
    overlay = {**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"parameters": {"item_type": {"enum": [], "enum_labels": {}}}}}}
    again = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o2.yaml", overlay))
    dropped = next(p for p in again.local.source.endpoint("get_widget").parameters if p.name == "item_type")
    assert dropped.enum is None and dropped.enum_labels is None


@pytest.mark.parametrize(
    ("spec", "overlay", "needles"),
    [
        (_undescribed, MINIMAL_OVERLAY,
         ["no operation could be mapped", "declare them in the overlay", "endpoints.get_widget.fields.<name>.path"]),
        (_spec, {**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"fields": {"name": {"path": "label"}}}}},
         ["o.yaml", "endpoints.get_widget.fields.name.path", "already has a field 'name'"]),
        (_undescribed, {**MINIMAL_OVERLAY, "fields": {"colour": {"path": "colour"}}},
         ["o.yaml", "fields.colour.path", "declare it under endpoints.<id>.fields"]),
    ],
    ids=["undescribed-no-overlay", "path-for-a-described-field", "path-outside-an-endpoint"],
)
def test_declared_fields_are_checked(sr, db: str, tmp_path: Path, spec, overlay, needles) -> None:  # type: ignore[no-untyped-def]
    _refuse(sr, db, _write(tmp_path, "spec.json", spec()), _write(tmp_path, "o.yaml", overlay), *needles)


@pytest.mark.parametrize("template", ["{.format}", ".{format}"])
def test_a_response_format_choice_asks_for_json(tmp_path: Path, template: str) -> None:
    # NASA's TechPort: /projects/{id}{.format} and a required format=json|xml query parameter
    spec = _spec()
    item = spec["paths"].pop("/widgets/{widget_id}")
    var = template.strip(".{}") if template.startswith(".") else template.strip("{}")
    item["parameters"].append({"name": var, "in": "path", "required": True, "schema": {"type": "string"}})
    item["get"]["parameters"] = [{"name": "format", "in": "query", "required": True,
                                  "schema": {"type": "string", "enum": ["xml", "json"], "default": "xml"}}]
    spec["paths"]["/widgets/{widget_id}" + template] = item
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    endpoint = result.local.source.endpoint("get_widget")
    assert endpoint.path == "/widgets/{widget_id}.json"
    assert [p.name for p in endpoint.parameters] == ["widget_id"], "no format choice is left to a question"
    assert result.local.spec("get_widget").fixed == {"format": "json"}
    assert not any("renamed" in n for n in result.report.notes)


def test_records_inside_an_envelope_inside_the_envelope_are_found(tmp_path: Path) -> None:
    # the NYT archive: {"response": {"docs": [...], "meta": {"hits": 3}}}
    spec = _spec()
    spec["components"]["schemas"]["Widget"] = {"type": "object", "properties": {"response": {
        "type": "object", "properties": {
            "docs": {"type": "array", "items": {"type": "object", "properties": {
                "_id": {"type": "string"}, "headline": {"type": "string"}}}},
            "meta": {"type": "object", "properties": {"hits": {"type": "integer"}}}}}}}
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    endpoint = result.local.source.endpoint("get_widget")
    assert result.local.spec("get_widget").records == "response.docs"
    assert {f.name: f.path for f in endpoint.fields} == {"id": "_id", "headline": "headline"}
    assert endpoint.fields[0].identifier


def test_the_record_a_path_parameter_addresses_is_not_read_as_an_envelope(tmp_path: Path) -> None:
    # GET /studies/{urn} answers one study, which holds a list of targets: the study is the record
    study = {"type": "object", "properties": {
        "urn": {"type": "string"}, "title": {"type": "string"}, "doi": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "targets": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"}, "organism": {"type": "string"}}}}}}
    spec = _spec()
    spec["paths"] = {
        "/studies/{urn}": {"get": {
            "operationId": "getStudy",
            "parameters": [{"name": "urn", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": study}}}}}},
        # the same shape where the path does not end with the parameter: an envelope around its one list
        "/studies/{urn}/targets": {"get": {
            "operationId": "getStudyTargets",
            "parameters": [{"name": "urn", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": study}}}}}},
    }
    result = import_openapi(_write(tmp_path, "spec.json", spec), "studies", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    record = result.local.source.endpoint("get_study")
    assert result.local.spec("get_study").records == ""
    assert {f.path for f in record.fields} >= {"urn", "title", "doi", "targets[].name"}
    assert next(f for f in record.fields if f.identifier).path == "urn"
    assert result.local.spec("get_study_targets").records == "targets"


def test_a_path_parameter_reads_what_its_sibling_declares_and_a_list_takes_the_key_paths_address(
        tmp_path: Path) -> None:
    # FastAPI declares the float number's pattern on one route only; the list names no record key
    platform = {"type": "object", "properties": {"platform_number": {"type": "string"}, "model": {"type": "string"}}}
    wmo = {"name": "platform_number", "in": "path", "required": True,
           "schema": {"type": "string", "pattern": "^\\d{7}$"}, "description": "WMO float number"}
    bare = {"name": "platform_number", "in": "path", "required": True, "schema": {"type": "string"}}

    def get(op: str, param: dict[str, Any] | None, schema: dict[str, Any]) -> dict[str, Any]:
        return {"get": {"operationId": op, "parameters": [param] if param else [],
                        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}}}

    spec = _spec()
    spec["paths"] = {"/platforms/{platform_number}": get("getPlatform", wmo, platform),
                     "/platforms/{platform_number}/models": get("getModels", bare, platform),
                     "/platforms": get("listPlatforms", None, {"type": "array", "items": platform})}
    result = import_openapi(_write(tmp_path, "spec.json", spec), "floats", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    source = result.local.source
    shared = source.endpoint("get_models").parameters[0]
    assert (shared.pattern, shared.description) == ("^\\d{7}$", "WMO float number")
    assert any("get_models" in n or "/models" in n for n in result.report.notes if "declares nothing" in n)
    listed = source.endpoint("list_platforms")
    assert [f.name for f in listed.fields if f.identifier] == ["platform_number"]


def test_a_numeric_fields_unit_is_read_where_its_name_or_description_says_it(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = _spec()
    spec["components"]["schemas"]["Widget"] = {"type": "object", "properties": {
        "id": {"type": "integer"},
        "pressure": {"type": "number", "description": "Sea pressure in decibar"},
        "temp": {"type": "number", "description": "Temperature (K)"},
        "apparent": {"type": "number", "description": "Apparent temperature - Default (C)"},  # Celsius, not coulomb
        "latitude": {"type": "number"},
        "profiles_count": {"type": "integer"},
        "value": {"type": "number", "description": "Measured value in the variable's unit"},
        "label": {"type": "string", "description": "A label in English"},
        "width": {"type": "integer", "description": "Width in pixels", "x-unit": "px"},
    }}
    overlay = {**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"fields": {"temp": {"unit": "degC"}}}}}
    doc, over = _write(tmp_path, "spec.json", spec), _write(tmp_path, "o.yaml", overlay)
    result = import_openapi(doc, "widgets", over, unit_known=check_known)
    units = {f.name: f.unit for f in result.local.source.endpoint("get_widget").fields}
    assert units == {"id": None, "pressure": "decibar", "temp": "degC", "apparent": None, "latitude": "degree",
                     "profiles_count": "1", "value": None, "label": None, "width": "px"}
    note = next(n for n in result.report.notes if "units read from" in n)
    assert "pressure (decibar)" in note and "latitude (degree)" in note and "temp" not in note
    # without a unit checker (the importer's own layer has none) only names are read
    plain = import_openapi(doc, "widgets", over)
    assert {f.name: f.unit for f in plain.local.source.endpoint("get_widget").fields}["pressure"] is None
    # the CLI hands the importer pint's check
    cli = sr("source", "import-openapi", str(doc), "--overlay", str(over), "--id", "widgets", "--db", db)
    assert cli.code == 0 and "pressure (decibar)" in cli.out, cli.out


def test_a_query_parameter_named_with_brackets_is_declared_planned_and_sent_as_written(tmp_path: Path) -> None:
    # JSON:API and deepObject styles: page[size], filter[name]
    from schemarouter.declarations import Declarations
    from schemarouter.execution.executor import Executor
    from schemarouter.execution.offline import replay
    from schemarouter.plan import Plan, PlanStep

    spec = _spec()
    spec["paths"] = {"/widgets": {"get": {
        "operationId": "listWidgets",
        "parameters": [{"name": "page[size]", "in": "query", "schema": {"type": "integer"}},
                       {"name": "filter[name]", "in": "query", "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "type": "array", "items": {"$ref": "#/components/schemas/Widget"}}}}}}}}}
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    endpoint = result.local.source.endpoint("list_widgets")
    assert [p.name for p in endpoint.parameters] == ["page[size]", "filter[name]"]
    assert not [u for u in result.report.unmapped if "not allowed" in u.construct]
    cassette = {"version": 1, "interactions": [{
        "request": {"body": None, "headers": {}, "method": "GET",
                    "uri": "https://eu.widgets.example/v1/widgets?page%5Bsize%5D=5"},
        "response": {"body": {"string": json.dumps([{"id": 1, "name": "sprocket"}])},
                     "headers": {"Content-Type": ["application/json"]}, "status": {"code": 200, "message": "OK"}},
    }]}
    (tmp_path / "cassettes").mkdir()
    _write(tmp_path / "cassettes", "widgets.yaml", cassette)
    executor = Executor(Declarations(sources={"widgets": result.local.source}), {},
                        specs={"widgets": result.local.adapter_specs})
    plan = Plan(query="five widgets", registry_fingerprint=None, steps=[
        PlanStep(source="widgets", endpoint="list_widgets", params={"page[size]": 5}, fields=["name"])])
    with replay(tmp_path / "cassettes"):
        step = executor.run_sync(plan).steps[0]
    assert step.error is None, step.error
    assert [v.value for r in step.records for v in r.values.values() if v.field == "name"] == ["sprocket"]


def test_a_key_the_document_declares_as_a_plain_parameter_is_the_overlays_auth(tmp_path: Path) -> None:
    # Europeana: no security scheme, the key is a query parameter "wskey"; the overlay names it
    spec = _spec()
    spec["paths"]["/widgets/{widget_id}"]["get"]["parameters"] = [
        {"name": "wskey", "in": "query", "required": True, "schema": {"type": "string"}},
        {"name": "query", "in": "query", "schema": {"type": "string"}}]
    overlay = {**MINIMAL_OVERLAY, "auth": {"env": "WIDGETS_KEY", "in": "query", "name": "wskey"}}
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", overlay))
    source = result.local.source
    assert [p.name for p in source.endpoint("get_widget").parameters] == ["widget_id", "query"]
    assert source.auth is not None and source.auth.name == "wskey"


def test_yaml_documents_with_integer_status_codes_import(tmp_path: Path) -> None:
    text = yaml.safe_dump(_spec(), sort_keys=False).replace("'200':", "200:")
    assert "\n        200:" in text or "200:" in text
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    assert 200 in yaml.safe_load(text)["paths"]["/widgets/{widget_id}"]["get"]["responses"], "YAML reads 200 as an int"
    result = import_openapi(path, "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    assert [f.name for f in result.local.source.endpoint("get_widget").fields] == ["id", "name"]


def test_missing_files_are_named(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _refuse(sr, db, tmp_path / "nope.json", None, "nope.json", "cannot read")
    _refuse(sr, db, _write(tmp_path, "spec.json", _spec()), tmp_path / "no-overlay.yaml", "no-overlay.yaml", "cannot read")


def test_invalid_json_names_the_line(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "spec.json"
    path.write_text('{"openapi": "3.0.0",\n "paths": {,}}', encoding="utf-8")
    _refuse(sr, db, path, None, "spec.json: line 2", "invalid JSON")


@pytest.mark.parametrize(
    ("overlay", "needles"),
    [
        ({**MINIMAL_OVERLAY, "fields": {"colour": {"unit": "nm"}}}, ["o.yaml", "fields.colour", "no field 'colour'"]),
        ({**MINIMAL_OVERLAY, "endpoints": {"get_gadget": {}}}, ["o.yaml", "endpoints.get_gadget", "no endpoint 'get_gadget'"]),
        ({**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"fields": {"nmae": {}}}}}, ["o.yaml", "endpoints.get_widget.fields.nmae", "did you mean 'name'"]),
        ({**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"parameters": {"colour": {}}}}}, ["o.yaml", "endpoints.get_widget.parameters.colour"]),
        ({**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"identifier": "uuid"}}}, ["o.yaml", "endpoints.get_widget.identifier", "no field 'uuid'"]),
        ({**MINIMAL_OVERLAY, "endpoints": {"get_widget": {"records": "items"}}}, ["o.yaml", "endpoints.get_widget.records", "no property 'items'"]),
        ({**MINIMAL_OVERLAY, "colour": "red"}, ["o.yaml", "colour", "Extra inputs"]),
        ({**MINIMAL_OVERLAY, "auth_env": "sk-123456789"}, ["o.yaml", "auth_env"]),
        ({"license": {"id": "MIT", "name": "MIT"}}, ["source_type", "give source_type in the overlay"]),
        ({**MINIMAL_OVERLAY, "fields": {"name": {"group": "colours"}}}, ["spec.json", "field 'name'", "unknown field group 'colours'"]),
    ],
    ids=["unknown-field", "unknown-endpoint", "typo-field", "unknown-parameter", "unknown-identifier",
         "unknown-records", "unknown-key", "secret-as-env", "no-source-type", "unknown-group"],
)
def test_bad_overlays_are_refused(sr, db: str, tmp_path: Path, overlay, needles) -> None:  # type: ignore[no-untyped-def]
    # Names the overlay file, or (vocabulary checked against the registry) the source and the field.
    _refuse(sr, db, _write(tmp_path, "spec.json", _spec()), _write(tmp_path, "o.yaml", overlay), *needles)


def test_dry_run_checks_the_registry_vocabulary_and_ids(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    overlay = _write(tmp_path, "o.yaml", {**MINIMAL_OVERLAY, "intents": ["movie_trivia"]})
    spec = _write(tmp_path, "spec.json", _spec())
    dry = sr("source", "import-openapi", str(spec), "--id", "widgets", "--overlay", str(overlay), "--dry-run", "--db", db)
    assert dry.code == 1 and "unknown intent 'movie_trivia'" in dry.err
    taken = sr("source", "import-openapi", str(spec), "--id", "oqmd", "--overlay", str(_write(tmp_path, "ok.yaml", MINIMAL_OVERLAY)), "--dry-run", "--db", db)
    assert taken.code == 1 and "belongs to plugin schemarouter-oqmd" in taken.err


def test_no_license_anywhere_is_refused(sr, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = _spec()
    spec["info"].pop("license")
    _refuse(sr, db, _write(tmp_path, "spec.json", spec), _write(tmp_path, "o.yaml", {"source_type": "web"}),
            "license", "give license")


def test_the_error_api_carries_file_and_place(tmp_path: Path) -> None:
    spec = copy.deepcopy(_spec())
    spec["paths"]["/widgets/{widget_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] = {"$ref": "#/nowhere"}
    with pytest.raises(OpenAPIImportError) as info:
        import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    assert info.value.file.endswith("spec.json") and info.value.place.startswith("GET /widgets/{widget_id}")


def test_a_union_of_one_scalar_type_is_that_type(tmp_path: Path) -> None:
    # FastAPI documents (OpenAQ): date_from is anyOf [date-time string, date string]
    spec = _spec()
    dates = {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "string", "format": "date"}]}
    spec["paths"]["/widgets/{widget_id}"]["get"]["parameters"] = [
        {"name": "since", "in": "query", "schema": dates},
        {"name": "label", "in": "query", "schema": {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "string", "format": "uuid"}]}},
        {"name": "size", "in": "query", "schema": {"oneOf": [{"type": "integer", "maximum": 9}, {"type": "integer", "minimum": 100}]}},
        {"name": "mixed", "in": "query", "schema": {"anyOf": [{"type": "integer"}, {"type": "string"}]}},
    ]
    spec["components"]["schemas"]["Widget"]["properties"]["made"] = dates
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    endpoint = result.local.source.endpoint("get_widget")
    params = {p.name: p for p in endpoint.parameters}
    assert (params["since"].type, params["since"].format) == ("date", "date")
    assert (params["label"].type, params["label"].format) == ("string", None), "formats that differ say nothing"
    assert params["size"].type == "integer"
    assert params["mixed"].type == "string", "two types: still read as a string"
    assert [n for n in result.report.notes if "no single parameter type" in n] == [
        "GET /widgets/{widget_id} parameter mixed: no single parameter type (a union, or none); read as a string"]
    assert {f.name: f.type for f in endpoint.fields}["made"] == "date"


def test_an_undescribed_response_is_run_and_returned_whole(tmp_path: Path) -> None:
    """An operation whose document says nothing of its response is planned and run: its one field is
    the whole response, as the API sent it."""
    from schemarouter.execution.projection import project_record

    spec = _spec()
    spec["paths"]["/gadgets/{gadget_id}/score"] = {"get": {
        "operationId": "gadgetScore", "summary": "Compute a gadget's score",
        "parameters": [{"name": "gadget_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "The score"}}}}
    result = import_openapi(_write(tmp_path, "spec.json", spec), "widgets", _write(tmp_path, "o.yaml", MINIMAL_OVERLAY))
    source = result.local.source
    endpoint = source.endpoint("gadget_score")
    assert [(f.name, f.path, f.type) for f in endpoint.fields] == [("response", "$", "object")]
    record = project_record(source, endpoint, list(endpoint.fields), {"score": 0.93, "grade": "A"})
    assert record.values["response"].value == {"score": 0.93, "grade": "A"}
