"""Real documents from the public APIs.guru directory (CC0) that the importer used to refuse.

``tests/data/openapi/openapi3_regression.tar.xz`` holds five small OpenAPI 3 documents, each with
one of the causes (see its MANIFEST.json); ``swagger2_originals.tar.xz`` the 30 Swagger 2.0
originals of the import benchmark. Each is imported as a user would, with only the overlay keys
OpenAPI cannot supply.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

from schemarouter.errors import SchemaRouterError
from schemarouter.openapi import ImportResult, import_openapi

DATA = Path(__file__).resolve().parent / "data" / "openapi"


@pytest.fixture(scope="module")
def overlay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("overlay") / "overlay.yaml"
    path.write_text("source_type: web\nlicense: {id: CC0-1.0, name: CC0 1.0}\n", encoding="utf-8")
    return path


def _unpack(name: str, dest: Path) -> list[Path]:
    with tarfile.open(DATA / name, "r:xz") as archive:
        archive.extractall(dest, filter="data")
    return sorted(p for p in dest.iterdir() if p.name != "MANIFEST.json")


@pytest.fixture(scope="module")
def openapi3(tmp_path_factory: pytest.TempPathFactory, overlay: Path) -> dict[str, ImportResult]:
    docs = _unpack("openapi3_regression.tar.xz", tmp_path_factory.mktemp("openapi3"))
    return {p.name.removesuffix(".json"): import_openapi(p, "corpus_doc", overlay) for p in docs}


def test_a_path_and_query_parameter_sharing_a_name(openapi3: dict[str, ImportResult]) -> None:
    """EnteroBase (genomics): GETs declare no response body, so each answers one whole-response field;
    the path/query clash in ``/{database}/{scheme}/loci`` no longer refuses the document."""
    result = openapi3["warwick.ac.uk__enterobase"]
    lines = result.report.unmapped_lines()
    assert "note: GET /api/v2.0/{database}/{scheme}/loci parameter scheme: path variable renamed {scheme} -> {scheme_path}" in lines
    assert not any("non-JSON response (no content)" in line for line in lines)
    reads = [e for e in result.local.source.endpoints if e.access == "read"]
    loci = next(e for e in reads if e.path == "/api/v2.0/{database}/{scheme_path}/loci")
    assert [(f.name, f.path, f.type) for f in loci.fields] == [("response", "$", "object")]
    assert any("its whole response is one field, 'response'" in n for n in result.report.notes)


def test_mutually_recursive_schemas(openapi3: dict[str, ImportResult]) -> None:
    result = openapi3["canada-holidays.ca"]
    assert any(u.construct == "recursive schema" for u in result.report.unmapped)
    holidays = [e for e in result.local.source.endpoints if e.path == "/api/v1/holidays"]
    assert holidays and any(f.path.startswith("provinces[].") for f in holidays[0].fields)


@pytest.mark.parametrize("doc", ["bhagavadgita.io", "parliament.uk__now", "nrel.gov__transportation-incentives-laws"])
def test_documents_without_an_absolute_server_import_and_say_so(openapi3: dict[str, ImportResult], doc: str) -> None:
    result = openapi3[doc]
    assert result.report.needs_base_url
    assert all(e.base_url.startswith("https://server.invalid") for e in result.local.source.endpoints)
    assert any("until base_url is given in the overlay" in n for n in result.report.notes)
    assert result.report.endpoints == len(result.local.source.endpoints) > 0


def test_the_swagger_originals_convert_and_import(tmp_path: Path, overlay: Path) -> None:
    imported, refused = {}, {}
    for path in _unpack("swagger2_originals.tar.xz", tmp_path):
        try:
            result = import_openapi(path, "corpus_doc", overlay)
            assert result.report.converted_from == "Swagger 2.0"
            imported[path.stem] = result
        except SchemaRouterError as err:
            assert "\n" not in str(err)
            refused[path.stem] = str(err)
    assert len(imported) + len(refused) == 30
    # Two documents declare no JSON response schema at all: their reads answer one whole-response field.
    assert refused == {}
    for stem in ("1forge.com", "sheetlabs.com__vedic-society"):
        reads = [e for e in imported[stem].local.source.endpoints if e.access == "read"]
        assert reads and all([f.path for f in e.fields] == ["$"] for e in reads), stem
    omdb = imported["omdbapi.com"].local.source
    assert omdb.endpoints[0].base_url == "https://www.omdbapi.com" and omdb.endpoints[0].parameter("r").required
    usages = imported["azure.com__recoveryservices-replicationusages"].local
    endpoint = usages.source.endpoints[0]
    assert usages.spec(endpoint.id).records == "value"
    assert "monitoringSummary_unHealthyVmCount" in {f.name for f in endpoint.fields}
    links = imported["azure.com__resources-links"].local.source
    assert {(e.method, e.access) for e in links.endpoints} >= {("PUT", "write"), ("DELETE", "write"), ("GET", "read")}
