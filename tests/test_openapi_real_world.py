"""The OpenAPI documents people actually have: each construct that used to refuse a whole real document.

Every test builds the smallest document that shows one cause (a self-referencing schema, a record
without an id, a percent-encoded pointer, ``required: "false"``, a search POST, writes, a Swagger
2.0 document, a path and a query parameter sharing a name, an alias bomb, deep nesting) and checks
what the import makes of it, and, where it matters, what executing the endpoint sends.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from schemarouter.declarations import Declarations
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.executor import Executor
from schemarouter.openapi import OpenAPIImportError, import_openapi
from schemarouter.plan import Plan, PlanStep
from schemarouter.registry import Registry
from tests.sr_cli import copy_registry, run_main, synced_template

OVERLAY = {"source_type": "curated", "license": {"id": "CC0-1.0", "name": "CC0 1.0"}}


def _doc(paths: dict[str, Any], schemas: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "openapi": "3.0.3", "info": {"title": "Things", "version": "1"},
        "servers": [{"url": "https://api.things.example/v1"}], "paths": paths,
        "components": {"schemas": schemas or {}},
    }
    doc.update(extra)
    return doc


def _ok(schema: Any) -> dict[str, Any]:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


def _import(tmp_path: Path, doc: Any, overlay: dict[str, Any] | None = None, name: str = "spec.json") -> Any:
    spec = tmp_path / name
    spec.write_text(json.dumps(doc) if name.endswith(".json") else yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    ov = tmp_path / "overlay.yaml"
    ov.write_text(yaml.safe_dump({**OVERLAY, **(overlay or {})}), encoding="utf-8")
    return import_openapi(spec, "things", ov)


def _run(result: Any, step: PlanStep, handler: Any, allow_writes: tuple[str, ...] = (),
         env: dict[str, str] | None = None) -> Any:
    executor = Executor(
        Declarations(sources={"things": result.local.source}), {}, specs={"things": result.local.adapter_specs},
        env=env or {}, allow_writes=allow_writes,
        client_factory=lambda c: httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )
    return executor.run_sync(Plan(query="q", registry_fingerprint=None, steps=[step])).steps[0]


# ---------------------------------------------------------------------------------- recursive schemas
def test_a_recursive_schema_is_followed_once_then_kept_as_one_field(tmp_path: Path) -> None:
    node = {"type": "object", "properties": {
        "id": {"type": "string"}, "name": {"type": "string"},
        "parent": {"$ref": "#/components/schemas/Taxon"},
        "children": {"type": "array", "items": {"$ref": "#/components/schemas/Taxon"}},
    }}
    doc = _doc({"/taxa/{id}": {"get": {"operationId": "getTaxon", "parameters": [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": _ok(
        {"$ref": "#/components/schemas/Taxon"})}}}, {"Taxon": node})
    result = _import(tmp_path, doc)
    fields = {f.name: f for f in result.local.source.endpoint("get_taxon").fields}
    assert fields["parent_name"].path == "parent.name", "the cycle is followed once more"
    assert (fields["parent_parent"].type, fields["children_children"].type) == ("object", "array")
    assert "parent_parent_name" not in fields
    recursive = [u for u in result.report.unmapped if u.construct == "recursive schema"]
    assert recursive and "#/components/schemas/Taxon -> #/components/schemas/Taxon" in recursive[0].detail


def test_mutually_recursive_schemas_import(tmp_path: Path) -> None:
    schemas = {
        "Holiday": {"type": "object", "properties": {"id": {"type": "integer"},
                                                      "province": {"$ref": "#/components/schemas/Province"}}},
        "Province": {"type": "object", "properties": {"code": {"type": "string"},
                                                       "holidays": {"type": "array", "items": {"$ref": "#/components/schemas/Holiday"}}}},
        "Loop": {"$ref": "#/components/schemas/Loop2"}, "Loop2": {"$ref": "#/components/schemas/Loop"},
    }
    doc = _doc({"/holidays": {"get": {"responses": _ok({"type": "array", "items": {"$ref": "#/components/schemas/Holiday"}})}},
                "/loop": {"get": {"responses": _ok({"$ref": "#/components/schemas/Loop"})}}}, schemas)
    result = _import(tmp_path, doc)
    assert [e.id for e in result.local.source.endpoints] == ["holidays"]
    assert "province_holidays_province_code" in {f.name for f in result.local.source.endpoint("holidays").fields}
    assert any(u.place == "GET /loop response" and u.construct == "recursive schema" for u in result.report.unmapped)


# ---------------------------------------------------------------------------------- identifiers
def test_an_endpoint_without_an_identifier_imports_with_a_note(tmp_path: Path) -> None:
    forecast = {"type": "object", "properties": {"latitude": {"type": "number"}, "hourly": {"type": "object", "properties": {
        "time": {"type": "array", "items": {"type": "string"}},
        "temperature_2m": {"type": "array", "items": {"type": "number"}}}}}}
    doc = _doc({"/forecast": {"get": {"operationId": "forecast", "parameters": [
        {"name": "latitude", "in": "query", "required": True, "schema": {"type": "number"}}], "responses": _ok(forecast)}}})
    result = _import(tmp_path, doc)
    endpoint = result.local.source.endpoint("forecast")
    assert endpoint.identifier_fields == [] and endpoint.field("hourly_temperature_2m").type == "array"
    assert any("no identifier field" in n and "endpoints.forecast.identifier" in n for n in result.report.notes)
    step = _run(result, PlanStep(source="things", endpoint="forecast", params={"latitude": 52.5}, fields=["latitude"]),
                lambda r: httpx.Response(200, json={"latitude": 52.5, "hourly": {"time": [], "temperature_2m": []}}))
    assert step.error is None and step.records[0].values["latitude"].value == 52.5, "runs without an identifier"


@pytest.mark.parametrize(
    ("properties", "path_param", "expected"),
    [
        (["name", "account_sid", "sid"], None, "sid"),
        (["label", "urn"], None, "urn"),
        (["title", "accession"], None, "accession"),
        (["title", "entryUuid"], None, "entryUuid"),
        (["description", "doi"], None, "doi"),
        (["station_code", "stationIdentifier", "name"], "stationIdentifier", "stationIdentifier"),
        (["name", "station_code"], None, "station_code"),
        (["id", "stationIdentifier"], "stationIdentifier", "id"),
    ],
)
def test_identifier_rule(tmp_path: Path, properties: list[str], path_param: str | None, expected: str) -> None:
    path = "/things" + (f"/{{{path_param}}}" if path_param else "")
    params = [{"name": path_param, "in": "path", "required": True, "schema": {"type": "string"}}] if path_param else []
    schema = {"type": "object", "properties": {p: {"type": "string"} for p in properties}}
    result = _import(tmp_path, _doc({path: {"get": {"operationId": "thing", "parameters": params, "responses": _ok(schema)}}}))
    endpoint = result.local.source.endpoint("thing")
    assert [f.name for f in endpoint.identifier_fields] == [expected]


# ---------------------------------------------------------------------------------- pointers, booleans, clashes
def test_percent_encoded_json_pointers_resolve(tmp_path: Path) -> None:
    record = {"type": "object", "properties": {"ican": {"type": "string"}, "balance": {"type": "number"}}}
    doc = _doc({
        "/accounts/{ican}": {"get": {"operationId": "account", "parameters": [
            {"name": "ican", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": _ok(record)}},
        "/accounts/{ican}/copy": {"get": {"operationId": "accountCopy", "parameters": [
            {"$ref": "#/paths/~1accounts~1%7Bican%7D/get/parameters/0"}],
            "responses": {"200": {"$ref": "#/paths/~1accounts~1%7Bican%7D/get/responses/200"}}}},
    })
    result = _import(tmp_path, doc)
    copy = result.local.source.endpoint("account_copy")
    assert [f.name for f in copy.fields] == ["ican", "balance"] and copy.parameter("ican").required
    assert not any(u.construct == "dangling $ref" for u in result.report.unmapped)


def test_string_booleans_are_read_as_booleans(tmp_path: Path) -> None:
    params = [
        {"name": "artist", "in": "query", "required": "true", "schema": {"type": "string"}},
        {"name": "limit", "in": "query", "required": "false", "schema": {"type": "integer", "example": 10}},
        {"name": "lang", "in": "query", "required": "False", "schema": {"type": "string"}},
    ]
    schema = {"type": "object", "properties": {"id": {"type": "string"}}}
    result = _import(tmp_path, _doc({"/tracks": {"get": {"operationId": "tracks", "parameters": params, "responses": _ok(schema)}}}))
    endpoint = result.local.source.endpoint("tracks")
    assert {p.name: p.required for p in endpoint.parameters} == {"artist": True, "limit": False, "lang": False}


def test_a_path_and_a_query_parameter_may_share_a_name(tmp_path: Path) -> None:
    params = [{"name": "type", "in": "path", "required": True, "schema": {"type": "string"}},
              {"name": "type", "in": "query", "schema": {"type": "string", "enum": ["json", "xml"]}}]
    schema = {"type": "object", "properties": {"id": {"type": "string"}, "productName": {"type": "string"}}}
    result = _import(tmp_path, _doc({"/products/types/{type}": {"get": {"operationId": "productsOfType", "parameters": params,
                                                                         "responses": _ok(schema)}}}))
    endpoint = result.local.source.endpoint("products_of_type")
    assert endpoint.path == "/products/types/{type_path}"
    assert result.local.spec(endpoint.id).locations == {"type_path": "path"}
    assert endpoint.parameter("type").enum == ["json", "xml"]
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"id": "p1", "productName": "AFD"})

    step = _run(result, PlanStep(source="things", endpoint="products_of_type", params={"type_path": "AFD", "type": "json"},
                                 fields=["productName"]), handler)
    assert step.error is None, step.error
    assert seen[0].url.path == "/v1/products/types/AFD" and seen[0].url.params["type"] == "json"


def test_summary_tags_format_pattern_and_enum_are_kept(tmp_path: Path) -> None:
    params = [{"name": "since", "in": "query", "schema": {"type": "string", "format": "date"}},
              {"name": "gene", "in": "query", "schema": {"type": "string", "pattern": "^[A-Z0-9]+$", "enum": ["BRCA1", "TP53"]}},
              {"name": "bad", "in": "query", "schema": {"type": "string", "pattern": "\\p{L}+"}}]
    op = {"operationId": "variants", "summary": "Variants of a gene", "tags": ["genes", "variants", "genes"],
          "parameters": params, "responses": _ok({"type": "object", "properties": {"id": {"type": "string"}}})}
    endpoint = _import(tmp_path, _doc({"/variants": {"get": op}})).local.source.endpoint("variants")
    assert (endpoint.summary, endpoint.tags) == ("Variants of a gene", ["genes", "variants"])
    assert (endpoint.parameter("since").type, endpoint.parameter("since").format) == ("date", "date")
    gene = endpoint.parameter("gene")
    assert (gene.pattern, gene.enum) == ("^[A-Z0-9]+$", ["BRCA1", "TP53"])
    assert endpoint.parameter("bad").pattern is None, "a pattern Python cannot compile is left out (noted)"


# ---------------------------------------------------------------------------------- POSTs and writes
def _search_doc() -> dict[str, Any]:
    body = {"content": {"application/json": {"schema": {"type": "object", "required": ["taxon"], "properties": {
        "taxon": {"type": "string"}, "filters": {"type": "object", "properties": {"assembly_level": {"type": "string"}}},
        "page_size": {"type": "integer"}}}}}}
    result = {"type": "object", "properties": {"reports": {"type": "array", "items": {"type": "object", "properties": {
        "accession": {"type": "string"}, "organism_name": {"type": "string"}}}}}}
    item = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
    return _doc({
        "/genome/dataset_report": {"post": {"operationId": "GenomeDatasetReportByPost", "summary": "Search genome reports",
                                            "requestBody": body, "responses": _ok(result)}},
        "/genome/lookups": {"post": {"summary": "Resolve names", "operationId": "resolveNames", "requestBody": body,
                                     "responses": _ok(result)}},
        "/playlists/{id}/tracks": {"parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                                   "post": {"operationId": "addTracksToPlaylist", "summary": "Add tracks to a playlist",
                                            "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
                                                "uris": {"type": "array", "items": {"type": "string"}}}}}}},
                                            "responses": _ok(item)},
                                   "delete": {"operationId": "removeTracks", "responses": {"204": {"description": "gone"}}}},
        "/items/{id}": {"put": {"parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                                "requestBody": {"content": {"application/json": {"schema": item}}},
                                "responses": _ok(item)}},
    })


def test_a_search_post_is_a_read_with_body_parameters(tmp_path: Path) -> None:
    result = _import(tmp_path, _search_doc())
    search = result.local.source.endpoint("genome_dataset_report_by_post")
    assert (search.method, search.access) == ("POST", "read")
    assert {p.name: p.required for p in search.parameters} == {"taxon": True, "filters": False, "page_size": False}
    assert result.local.spec(search.id).locations == {"taxon": "body", "filters": "body", "page_size": "body"}
    assert result.local.spec(search.id).records == "reports"
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"reports": [{"accession": "GCF_000001405.40", "organism_name": "Homo sapiens"}]})

    step = _run(result, PlanStep(source="things", endpoint=search.id, params={"taxon": "human", "page_size": 5},
                                 fields=["organism_name"]), handler)
    assert step.error is None, step.error
    assert seen[0].method == "POST" and json.loads(seen[0].content) == {"taxon": "human", "page_size": 5}
    assert step.records[0].record_id == "GCF_000001405.40"


def test_a_step_without_a_required_parameter_is_refused_before_any_request(tmp_path: Path) -> None:
    result = _import(tmp_path, _search_doc())
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={"reports": []})

    step = _run(result, PlanStep(source="things", endpoint="genome_dataset_report_by_post", params={"page_size": 5},
                                 fields=["organism_name"]), handler)
    assert step.error is not None and step.error.kind == "missing_input" and not sent
    assert "things.genome_dataset_report_by_post needs 'taxon' (required)" in step.error.message


def test_the_overlay_names_read_only_posts(tmp_path: Path) -> None:
    plain = _import(tmp_path, _search_doc())
    assert plain.local.source.endpoint("resolve_names").access == "write", "'resolve' is not a read word"
    named = _import(tmp_path, _search_doc(), {"read_only_posts": ["resolveNames"]})
    assert named.local.source.endpoint("resolve_names").access == "read"
    by_place = _import(tmp_path, _search_doc(), {"read_only_posts": ["POST /genome/lookups"]})
    assert by_place.local.source.endpoint("resolve_names").access == "read"
    with pytest.raises(OpenAPIImportError, match=r"overlay\.yaml: read_only_posts\[0\]: no POST operation 'resolve'"):
        _import(tmp_path, _search_doc(), {"read_only_posts": ["resolve"]})


def test_writes_are_kept_and_never_executed_unless_allowed(tmp_path: Path) -> None:
    result = _import(tmp_path, _search_doc())
    source = result.local.source
    writes = {e.id: (e.method, e.path) for e in source.endpoints if e.access == "write"}
    assert writes == {"add_tracks_to_playlist": ("POST", "/playlists/{id}/tracks"), "resolve_names": ("POST", "/genome/lookups"),
                      "remove_tracks": ("DELETE", "/playlists/{id}/tracks"), "put_items_by_id": ("PUT", "/items/{id}")}
    add = source.endpoint("add_tracks_to_playlist")
    assert add.summary == "Add tracks to a playlist" and {p.name for p in add.parameters} == {"id", "uris"}
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={"id": "pl1", "name": "mix"})

    step = PlanStep(source="things", endpoint="add_tracks_to_playlist", params={"id": "pl1", "uris": ["t:1"]}, fields=[])
    refused = _run(result, step, handler)
    assert refused.error is not None and refused.error.kind == "write_not_allowed" and not sent
    assert "--allow-writes things" in refused.error.message and "SCHEMAROUTER_ALLOW_WRITES=things" in refused.error.message
    other = _run(result, step, handler, allow_writes=("other",)).error
    assert other is not None and other.kind == "write_not_allowed"
    allowed = _run(result, step, handler, allow_writes=("things",))
    assert allowed.error is None or allowed.error.kind != "write_not_allowed"
    assert [r.method for r in sent] == ["POST"] and json.loads(sent[0].content) == {"uris": ["t:1"]}
    by_env = _run(result, step, handler, env={"SCHEMAROUTER_ALLOW_WRITES": "x, things"})
    assert by_env.error is None or by_env.error.kind != "write_not_allowed"
    assert len(sent) == 2


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_template(tmp_path_factory.mktemp("template"))


def _cli_files(tmp_path: Path, template: Path) -> tuple[str, Path, Path]:
    """A synced registry copy, the search document and the minimal overlay."""
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_search_doc()), encoding="utf-8")
    ov = tmp_path / "ov.yaml"
    ov.write_text(yaml.safe_dump(OVERLAY), encoding="utf-8")
    return copy_registry(template, tmp_path), spec, ov


def test_run_allow_writes_option(tmp_path: Path, template: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    db, spec, ov = _cli_files(tmp_path, template)
    assert run_main(capsys, monkeypatch, "source", "import-openapi", str(spec), "--id", "things", "--overlay", str(ov),
                    "--db", db).code == 0
    plan = tmp_path / "plan.json"
    plan.write_text(Plan(query="add a track", registry_fingerprint=None, steps=[PlanStep(
        source="things", endpoint="remove_tracks", params={"id": "pl1"}, fields=[])]).model_dump_json(), encoding="utf-8")
    ran = run_main(capsys, monkeypatch, "run", "x", "--plan", str(plan), "--db", db, "--json")
    assert ran.code == 4, ran.err  # the run returned nothing: exit code 4
    step = json.loads(ran.out)["steps"][0]
    assert step["error"]["kind"] == "write_not_allowed", step
    monkeypatch.setenv("SCHEMAROUTER_ALLOW_WRITES", "")
    (tmp_path / "cassettes").mkdir()
    (tmp_path / "cassettes" / "things.yaml").write_text(yaml.safe_dump({"version": 1, "interactions": [{
        "request": {"body": None, "headers": {}, "method": "DELETE", "uri": "https://api.things.example/v1/playlists/pl1/tracks"},
        "response": {"body": {"string": "{}"}, "headers": {"Content-Type": ["application/json"]},
                     "status": {"code": 200, "message": "OK"}}}]}), encoding="utf-8")
    allowed = run_main(capsys, monkeypatch, "run", "x", "--plan", str(plan), "--db", db, "--json",
                       "--allow-writes", "things", "--offline", "--cassettes", str(tmp_path / "cassettes"))
    sent = json.loads(allowed.out)["steps"][0]
    assert sent["request"] == "https://api.things.example/v1/playlists/pl1/tracks", (allowed.err, sent)
    assert sent["error"] is None or sent["error"]["kind"] != "write_not_allowed"


# ---------------------------------------------------------------------------------- Swagger 2.0
SWAGGER = {
    "swagger": "2.0", "info": {"title": "Pets", "version": "1", "license": {"name": "MIT"}},
    "host": "pets.example", "basePath": "/api", "schemes": ["http", "https"],
    "consumes": ["application/json"], "produces": ["application/json"],
    "securityDefinitions": {"key": {"type": "apiKey", "in": "query", "name": "api_key"}},
    "security": [{"key": []}],
    "parameters": {"Limit": {"name": "limit", "in": "query", "type": "integer", "required": False, "default": 20},
                   "NewPet": {"name": "pet", "in": "body", "required": True, "schema": {"$ref": "#/definitions/Pet"}}},
    "paths": {
        "/pets": {
            "get": {"operationId": "listPets", "parameters": [
                {"$ref": "#/parameters/Limit"},
                {"name": "tags", "in": "query", "type": "array", "items": {"type": "string"}, "collectionFormat": "multi"},
                {"name": "born", "in": "query", "type": "string", "format": "date"}],
                "responses": {"200": {"description": "ok", "schema": {"type": "array", "items": {"$ref": "#/definitions/Pet"}}}}},
            "post": {"operationId": "addPet", "parameters": [{"$ref": "#/parameters/NewPet"}],
                     "responses": {"201": {"description": "made", "schema": {"$ref": "#/definitions/Pet"}}}},
        },
        "/pets/{petId}": {
            "parameters": [{"name": "petId", "in": "path", "required": True, "type": "integer", "format": "int64"}],
            "get": {"operationId": "getPet", "responses": {"200": {"$ref": "#/responses/OnePet"}}},
            "patch": {"operationId": "renamePet", "consumes": ["application/x-www-form-urlencoded"], "parameters": [
                {"name": "name", "in": "formData", "type": "string", "required": True}],
                "responses": {"200": {"description": "ok"}}},
        },
        "/pets/search": {"post": {"operationId": "searchPets", "parameters": [{"name": "query", "in": "body", "schema": {
            "type": "object", "properties": {"species": {"type": "string"}, "min_age": {"type": "integer"}}}}],
            "responses": {"200": {"description": "ok", "schema": {"type": "object", "properties": {
                "pets": {"type": "array", "items": {"$ref": "#/definitions/Pet"}}}}}}}},
    },
    "responses": {"OnePet": {"description": "one", "schema": {"$ref": "#/definitions/Pet"}}},
    "definitions": {"Pet": {"type": "object", "required": ["id"], "properties": {
        "id": {"type": "integer", "format": "int64"}, "name": {"type": "string"},
        "owner": {"$ref": "#/definitions/Owner"}, "photo": {"type": "file"}, "nick": {"type": "string", "x-nullable": True}}},
        "Owner": {"type": "object", "properties": {"name": {"type": "string"}, "pets": {"type": "array",
                                                                                         "items": {"$ref": "#/definitions/Pet"}}}}},
}


def test_swagger_2_is_converted_and_mapped(tmp_path: Path) -> None:
    result = _import(tmp_path, SWAGGER, {"auth_env": "PETS_KEY"}, name="swagger.yaml")
    source, report = result.local.source, result.report
    assert report.converted_from == "Swagger 2.0" and report.openapi_version == "3.0.3"
    assert {e.id: (e.method, e.access) for e in source.endpoints} == {
        "list_pets": ("GET", "read"), "get_pet": ("GET", "read"), "search_pets": ("POST", "read"),
        "add_pet": ("POST", "write"), "rename_pet": ("PATCH", "write")}
    assert {e.base_url for e in source.endpoints} == {"https://pets.example/api"}, "https first"
    pets = source.endpoint("list_pets")
    assert {p.name: (p.type, p.required) for p in pets.parameters} == {
        "limit": ("integer", False), "tags": ("array", False), "born": ("date", False)}
    assert pets.parameter("limit").example == 20
    assert {f.name for f in pets.fields} >= {"id", "name", "owner_name", "owner_pets_id", "photo", "nick"}
    assert source.endpoint("get_pet").parameter("petId").format == "int64"
    assert [f.name for f in source.endpoint("get_pet").identifier_fields] == ["id"]
    assert {p.name for p in source.endpoint("search_pets").parameters} == {"species", "min_age"}
    assert {p.name for p in source.endpoint("add_pet").parameters} == {"id", "name", "owner", "photo", "nick"}
    assert source.auth is not None and (source.auth.location, source.auth.name) == ("query", "api_key")
    assert "limit" in {p.name for p in pets.parameters} and "api_key" not in {p.name for p in pets.parameters}


def test_swagger_2_without_a_host_imports_with_the_server_to_set(tmp_path: Path) -> None:
    doc = {k: v for k, v in SWAGGER.items() if k not in ("host", "schemes")}
    result = _import(tmp_path, doc, name="swagger.json")
    assert result.report.needs_base_url
    assert {e.base_url for e in result.local.source.endpoints} == {"https://server.invalid/api"}
    assert any("base_url" in n for n in result.report.notes)
    with_base = _import(tmp_path, doc, {"base_url": "https://pets.internal/api"}, name="swagger.json")
    assert not with_base.report.needs_base_url
    assert {e.base_url for e in with_base.local.source.endpoints} == {"https://pets.internal/api"}


# ---------------------------------------------------------------------------------- hostile documents
def _bomb_spec(where: str) -> str:
    lines = ["openapi: 3.0.3", "info: {title: Bomb, version: '1'}", "servers: [{url: 'https://bomb.example'}]",
             "x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i, name in enumerate("bcdefghi"):
        prev = "a" if i == 0 else "bcdefghi"[i - 1]
        lines.append(f"x-{name}: &{name} [{', '.join([f'*{prev}'] * 10)}]")
    lines += ["paths:", "  /x:", "    get:", "      parameters:",
              f"      - {{name: q, in: query, schema: {{type: string, {where}: *i}}}}",
              ("      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, "
               "properties: {id: {type: string}}}}}}}")]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("where", ["enum", "example"])
def test_a_billion_laughs_spec_is_refused_in_one_line(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "bomb.yaml"
    spec.write_text(_bomb_spec(where), encoding="utf-8")
    assert len(spec.read_bytes()) < 4000
    ov = tmp_path / "ov.yaml"
    ov.write_text(yaml.safe_dump(OVERLAY), encoding="utf-8")
    with pytest.raises(SchemaRouterError, match=r"bomb\.yaml: line \d+, column \d+: YAML aliases expand"):
        import_openapi(spec, "bomb", ov)
    for extra in ([], ["--dry-run"]):
        ran = run_main(capsys, monkeypatch, "source", "import-openapi", str(spec), "--id", "bomb", "--overlay", str(ov),
                       "--db", f"sqlite:///{tmp_path / 'r.db'}", *extra)
        assert ran.code == 1 and len(ran.err.strip().splitlines()) == 1 and "aliases expand" in ran.err


def test_5000_levels_of_nesting_are_refused_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps(_doc({"/x": {"get": {"responses": _ok({"$ref": "#/components/schemas/D"})}}}))
    nested = '{"type": "object", "properties": {"a": ' * 5000 + '{"type": "string"}' + "}}" * 5000
    text = text.replace('"schemas": {}', '"schemas": {"D": ' + nested + "}")
    spec = tmp_path / "deep.json"
    spec.write_text(text, encoding="utf-8")
    ran = run_main(capsys, monkeypatch, "source", "import-openapi", str(spec), "--id", "deep", "--dry-run",
                   "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert ran.code == 1 and "Traceback" not in ran.err and "RecursionError" not in ran.err
    assert ran.err.strip().splitlines() == [f"Error: {spec}: nesting deeper than 200 levels"]


# ---------------------------------------------------------------------------------- the report
def test_a_refusal_prints_the_report_and_json_carries_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _doc({"/photo": {"get": {"responses": {"200": {"description": "png", "content": {"image/png": {}}}}}},
                "/raw": {"get": {"responses": _ok({"type": "string"})}}})
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(doc), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'r.db'}"
    ran = run_main(capsys, monkeypatch, "source", "import-openapi", str(spec), "--id", "things", "--db", db)
    assert ran.code == 1 and len(ran.err.strip().splitlines()) == 1
    assert "no operation could be mapped to an endpoint" in ran.err and "Traceback" not in ran.err
    assert "not mapped: GET /photo: non-JSON response (image/png)" in ran.out
    assert "not mapped: GET /raw response: record is not an object" in ran.out
    as_json = run_main(capsys, monkeypatch, "source", "import-openapi", str(spec), "--id", "things", "--db", db, "--json")
    data = json.loads(as_json.out)
    assert as_json.code == 1 and "no operation could be mapped" in data["error"]
    assert {u["construct"] for u in data["report"]["unmapped"]} >= {"non-JSON response", "record is not an object"}
    with Registry.open(db) as reg:
        assert reg.list_sources() == []


def test_a_success_prints_notes_and_places(tmp_path: Path, template: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db, spec, ov = _cli_files(tmp_path, template)
    ran = run_main(capsys, monkeypatch, "source", "import-openapi", str(spec), "--id", "things", "--overlay", str(ov),
                   "--db", db, "--dry-run", "--json")
    data = json.loads(ran.out)
    assert ran.code == 0 and data["write_endpoints"] == 4 and data["places"]["remove_tracks"] == "DELETE /playlists/{id}/tracks"
    text = run_main(capsys, monkeypatch, "source", "import-openapi", str(spec), "--id", "things", "--overlay", str(ov),
                    "--db", db, "--dry-run")
    assert "(4 writes)" in text.out.splitlines()[0] and "  not mapped: DELETE /playlists/{id}/tracks: write operation" in text.out


def test_fields_are_inferred_from_the_example_when_the_schema_has_none(tmp_path: Path) -> None:
    example = '{"city": "Berlin", "latitude": 52.52, "tags": ["a"], "station": {"code": "B1"}}'
    content = {"application/json; charset=utf-8": {"schema": {"type": "string"}, "examples": {"0": {"value": example}}}}
    doc = _doc({"/city": {"get": {"operationId": "city", "responses": {"200": {"description": "ok", "content": content}}}}})
    result = _import(tmp_path, doc)
    fields = {f.name: f.type for f in result.local.source.endpoint("city").fields}
    assert fields == {"city": "string", "latitude": "number", "tags": "array", "station_code": "string"}
    assert any("inferred from the response example" in n for n in result.report.notes)


def test_very_large_documents_are_mapped_within_budgets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the field budget records keep top-level fields; past the endpoint budget operations are reported."""
    import schemarouter.openapi.mapper as mapper_module
    import schemarouter.openapi.schema as schema_module

    wide = {"type": "object", "properties": {f"p{i}": {"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "integer"}}} for i in range(6)}}
    paths = {f"/r{i}": {"get": {"operationId": f"r{i}", "responses": _ok(wide)}} for i in range(5)}
    paths["/w"] = {"delete": {"operationId": "w", "responses": {"204": {"description": "gone"}}}}
    monkeypatch.setattr(schema_module, "DOCUMENT_FIELDS_SOFT", 20)
    monkeypatch.setattr(schema_module, "DOCUMENT_FIELDS_HARD", 30)
    monkeypatch.setattr(schema_module, "MINIMAL_FIELDS", 2)
    monkeypatch.setattr(mapper_module, "MAX_ENDPOINTS", 4)
    result = _import(tmp_path, _doc(paths))
    endpoints = result.local.source.endpoints
    assert [e.id for e in endpoints] == ["r0", "r1", "r2", "r3", "r4"], "every read is kept; the write is over budget"
    assert [len(e.fields) for e in endpoints] == [12, 12, 6, 2, 2], "top-level fields after 20, two after 30"
    assert endpoints[2].field("p0").type == "object"
    spent = {u.place for u in result.report.unmapped if u.construct == "document budget spent"}
    assert spent == {"DELETE /w"}
    assert any("a very large document" in n for n in result.report.notes)


def test_the_import_clock_stops_taking_operations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a slow machine the mapping stops after MAPPING_SECONDS from the start of the import (reported)."""
    import schemarouter.openapi.mapper as mapper_module

    monkeypatch.setattr(mapper_module, "MAPPING_SECONDS", 0.0)
    schema = {"type": "object", "properties": {"id": {"type": "string"}}}
    with pytest.raises(OpenAPIImportError, match=r"GET /a: document budget spent \(0 s of import already\)"):
        _import(tmp_path, _doc({"/a": {"get": {"responses": _ok(schema)}}}))


def test_operations_behind_the_users_authorization_beside_public_ones_read_the_account(tmp_path: Path) -> None:
    # figshare's shape: /articles is public (security: []), /account/articles needs the user's OAuth2
    record = {"type": "object", "properties": {"id": {"type": "integer"}, "title": {"type": "string"}}}
    oauth = {"securitySchemes": {"OAuth2": {"type": "oauth2", "flows": {"implicit": {
        "authorizationUrl": "https://things.example/authorize", "scopes": {"all": "all"}}}}}, "schemas": {}}
    paths = {
        "/articles": {"get": {"operationId": "articles_list", "security": [], "responses": _ok({"type": "array", "items": record})}},
        "/account/articles": {"get": {"operationId": "private_articles_list", "security": [{"OAuth2": ["all"]}],
                                      "responses": _ok({"type": "array", "items": record})}},
        "/item_types": {"get": {"operationId": "item_types_list", "security": [{"OAuth2": ["all"]}, {}],
                                "responses": _ok({"type": "array", "items": record})}},
    }
    source = _import(tmp_path, {**_doc(paths), "components": oauth}).local.source
    scopes = {e.id: e.scope for e in source.endpoints}
    assert scopes == {"articles_list": "public", "private_articles_list": "account",
                      "item_types_list": "public"}, "an optional authorization ({}) leaves the operation public"
    # one key for every operation (a keyed API, not a private space): all public
    keyed = {"securitySchemes": {"key": {"type": "apiKey", "in": "query", "name": "key"}}, "schemas": {}}
    everywhere = {p: {"get": {**op["get"], "security": [{"key": []}]}} for p, op in paths.items()}
    source = _import(tmp_path, {**_doc(everywhere), "components": keyed}, {"auth_env": "THINGS_KEY"}).local.source
    assert {e.scope for e in source.endpoints} == {"public"}


def test_what_lies_under_me_is_the_callers_own_space(tmp_path: Path) -> None:
    # Vimeo's shape: every operation takes the same OAuth2 token, so no public read tells the
    # account's space apart; "/me" is the authenticated caller by convention
    record = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
    oauth = {"securitySchemes": {"OAuth2": {"type": "oauth2", "flows": {"implicit": {
        "authorizationUrl": "https://videos.example/authorize", "scopes": {"public": "public"}}}}}, "schemas": {}}
    listed = _ok({"type": "array", "items": record})
    paths = {
        "/me/videos": {"get": {"operationId": "my_videos", "responses": listed}},
        "/me": {"get": {"operationId": "me", "responses": _ok(record)}},
        "/categories/{category}/videos": {"get": {"operationId": "category_videos", "parameters": [
            {"name": "category", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": listed}},
        "/media/{id}": {"get": {"operationId": "media", "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}], "responses": _ok(record)}},
    }
    document = {**_doc(paths), "components": oauth, "security": [{"OAuth2": ["public"]}]}
    source = _import(tmp_path, document).local.source
    assert {e.id: e.scope for e in source.endpoints} == {
        "my_videos": "account", "me": "account", "category_videos": "public", "media": "public"}
