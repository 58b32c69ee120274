"""The import-corpus measurement: usable GETs, the worker run, the summary, the report section, the corpus build."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest
from schemarouter_bench import corpus_fetch, import_corpus
from schemarouter_bench.import_corpus import (
    END,
    START,
    kept_section,
    render_section,
    replace_section,
    run_corpus,
    summarize,
    usable_gets,
)


def _ok(schema: Any = None) -> dict[str, Any]:
    content = {"application/json": {"schema": schema}} if schema is not None else {"application/json": {}}
    return {"200": {"description": "ok", "content": content}}


def test_usable_gets_are_counted_from_the_document() -> None:
    doc = {"openapi": "3.0.0", "paths": {
        "/a": {"get": {"responses": _ok({"type": "object"})}},
        "/b": {"get": {"responses": _ok()}},  # JSON without a schema: not usable
        "/c": {"get": {"responses": {"200": {"content": {"text/csv": {"schema": {}}}}}}},
        "/d": {"get": {"responses": {"201": {"$ref": "#/components/responses/R"}}}, "post": {"responses": _ok({})}},
        "/e": {"get": {"responses": {"200": {"content": {"application/vnd.api+json; charset=utf-8": {"schema": {}}}}}}},
    }, "components": {"responses": {"R": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}
    assert usable_gets(doc) == {"GET /a", "GET /d", "GET /e"}
    swagger = {"swagger": "2.0", "produces": ["application/xml"], "paths": {
        "/x": {"get": {"responses": {"200": {"schema": {"type": "object"}}}}},
        "/y": {"get": {"produces": ["application/json"], "responses": {"200": {"schema": {"type": "object"}}}}},
        "/z": {"get": {"produces": ["application/json"], "responses": {"200": {"description": "no schema"}}}},
    }}
    assert usable_gets(swagger) == {"GET /y"}
    assert usable_gets({"paths": []}) == set() and usable_gets([]) == set()


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    (corpus / "openapi3").mkdir(parents=True)
    (corpus / "swagger2").mkdir()
    record = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
    good = {"openapi": "3.0.0", "info": {"title": "Good", "version": "1"}, "servers": [{"url": "https://good.example"}],
            "paths": {"/things": {"get": {"responses": _ok({"type": "array", "items": record})}},
                      "/blob": {"get": {"responses": _ok({"type": "string"})}},
                      "/things/{id}": {"delete": {"parameters": [{"name": "id", "in": "path", "required": True,
                                                                   "schema": {"type": "string"}}],
                                                  "responses": {"204": {"description": "gone"}}}}}}
    (corpus / "openapi3" / "good.json").write_text(json.dumps(good), encoding="utf-8")
    bad = {"openapi": "3.0.0", "info": {"title": "Bad", "version": "1"},
           "paths": {"/raw": {"get": {"responses": _ok({"type": "string"})}}}}
    (corpus / "openapi3" / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    swagger = {"swagger": "2.0", "info": {"title": "S", "version": "1"}, "host": "s.example",
               "paths": {"/s": {"get": {"responses": {"200": {"schema": record}}}}}}
    (corpus / "swagger2" / "s.json").write_text(json.dumps(swagger), encoding="utf-8")
    (corpus / "swagger2" / "MANIFEST.json").write_text("{}", encoding="utf-8")
    return corpus


def test_a_corpus_run_measures_each_document_in_a_worker(tmp_path: Path) -> None:
    result = run_corpus(_corpus(tmp_path))
    rows = {r["doc"]: r for r in result["documents"]}
    assert set(rows) == {"good.json", "bad.json", "s.json"}, "MANIFEST.json is not a document"
    assert rows["good.json"]["imported"] and rows["good.json"]["write_endpoints"] == 1
    assert (rows["good.json"]["usable_gets"], rows["good.json"]["covered_gets"]) == (2, 1)
    assert not rows["bad.json"]["imported"] and "no operation could be mapped" in rows["bad.json"]["error"]
    assert rows["good.json"]["seconds"] > 0 and rows["good.json"]["peak_mb"] > 10
    summary = result["summary"]
    assert (summary["openapi3"]["imported"], summary["openapi3"]["documents"]) == (1, 2)
    assert (summary["openapi3"]["covered_gets"], summary["openapi3"]["usable_gets"]) == (1, 3)
    assert summary["swagger2"]["imported"] == 1 and summary["swagger2"]["coverage"] == 1.0


def test_a_document_past_the_time_limit_is_killed_and_counted(tmp_path: Path) -> None:
    result = run_corpus(_corpus(tmp_path), kill_after_s=0.0001)
    assert all(not r["imported"] and r["error"].startswith("killed after") for r in result["documents"])


def test_summary_section_and_its_survival_across_report_regeneration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = [
        {"kind": "openapi3", "doc": "a", "imported": True, "usable_gets": 4, "covered_gets": 3, "endpoints": 5,
         "write_endpoints": 1, "seconds": 1.5, "peak_mb": 120.0},
        {"kind": "openapi3", "doc": "b", "imported": False, "usable_gets": 2, "covered_gets": 0, "seconds": 0.2,
         "peak_mb": 100.0, "error": "b.json: GET /x: non-JSON response (no content); no operation could be mapped"},
        {"kind": "openapi3", "doc": "c", "imported": True, "usable_gets": 0, "covered_gets": 0, "seconds": 31.0,
         "peak_mb": 90.0},
    ]
    summary = summarize(rows)["openapi3"]
    assert (summary["with_usable_get"], summary["with_usable_get_imported"], summary["coverage"]) == (2, 1, 0.5)
    assert summary["over_limits"] == 1 and summary["max_seconds"] == 31.0
    section = render_section({"summary": {"openapi3": summary}}, before={"openapi3": summary})
    assert section.startswith(START) and section.endswith(END)
    assert "| OpenAPI 3 (published as OpenAPI 3) | 2/3 (66.7 %) | 1/2 (50.0 %) | 3/6 (50.0 %) |" in section
    report = tmp_path / "benchmark.md"
    report.write_text("# Benchmark\n\nrouting tables\n", encoding="utf-8")
    replace_section(report, section)
    replace_section(report, section)  # idempotent: replaced, not appended twice
    assert report.read_text(encoding="utf-8").count(START) == 1
    assert kept_section(report) == section

    from schemarouter_bench import report as reporting

    monkeypatch.setattr(reporting, "render", lambda doc, path, plots: "# Benchmark\n\nregenerated\n")
    reporting.write({}, report, [])
    text = report.read_text(encoding="utf-8")
    assert "regenerated" in text and "routing tables" not in text and kept_section(report) == section


def _tarball(tmp_path: Path, docs: dict[str, dict[str, Any]]) -> Path:
    path = tmp_path / "bundle.tgz"
    with tarfile.open(path, "w:gz") as archive:
        for doc_id, doc in docs.items():
            data = json.dumps(doc).encode("utf-8")
            info = tarfile.TarInfo(f"package/api/{doc_id}.json")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def _origin(fmt: str, version: str) -> dict[str, Any]:
    return {"openapi": "3.0.0", "info": {"x-origin": [{"format": fmt, "version": version}]}, "paths": {}}


def test_the_bundle_sample_is_seeded_and_leaves_reserved_services_out(tmp_path: Path) -> None:
    docs = {f"api{i}.example": _origin("openapi", "3.0") for i in range(40)}
    docs.update({"spotify.com": _origin("openapi", "3.0"), "old.example": _origin("swagger", "2.0"),
                 "aws.example/s3": {"openapi": "3.0.0", "info": {"x-origin": [{"url": "x"}]}}})
    tarball = _tarball(tmp_path, docs)
    index = corpus_fetch.bundle_index(tarball)
    assert index["old.example"][:2] == ("swagger", "2.0") and index["aws.example/s3"][:2] == ("", "")
    first = corpus_fetch.sample_openapi3(index, 10, seed=7)
    assert first == corpus_fetch.sample_openapi3(index, 10, seed=7) != corpus_fetch.sample_openapi3(index, 10, seed=8)
    assert len(first) == 10 and "spotify.com" not in corpus_fetch.sample_openapi3(index, 100, seed=7)
    assert corpus_fetch.swagger2_pool(index, 10**9) == ["old.example"]
    corpus_fetch.extract(tarball, first[:2], tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(d.replace("/", "__") + ".json" for d in first[:2])


def test_the_bundle_integrity_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tarball = _tarball(tmp_path, {"a.example": _origin("openapi", "3.0")})
    expected = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    assert corpus_fetch.integrity_of(tarball) == expected
    with pytest.raises(corpus_fetch.CorpusError, match="is not the pinned"):
        corpus_fetch.build(tmp_path / "corpus", tarball, 5, 1)
    monkeypatch.setattr(corpus_fetch, "INTEGRITY", expected)
    manifest = corpus_fetch.build(tmp_path / "corpus", tarball, 5, 1)
    assert manifest["openapi3"] == ["a.example"] and manifest["swagger2_files"] == 30
    assert len(list((tmp_path / "corpus" / "swagger2").glob("*.yaml"))) == 30
    assert import_corpus.documents(tmp_path / "corpus")[0] == ("openapi3", tmp_path / "corpus" / "openapi3" / "a.example.json")


@pytest.mark.parametrize("hint", ["", "; where the document describes no response fields, declare them in the overlay "
                                      "(for GET /apod: endpoints.apod.fields.<name>.path)"])
def test_a_refusal_for_want_of_any_endpoint_is_counted_by_its_first_cause(hint: str) -> None:
    message = ("apod.yaml: GET /apod response: untyped schema; no operation could be mapped to an endpoint "
               "(see the report)" + hint)
    assert import_corpus._error_kind(message) == "nothing mappable, first: untyped schema"


def test_regenerating_the_report_keeps_the_scale_comparison(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter_bench import report as reporting

    start, end = reporting.SCALE_MARKERS
    block = f"{start}\n## Scale\n\n| sources | before | after |\n{end}"
    page = tmp_path / "benchmark.md"
    page.write_text(f"# Benchmark\n\nold tables\n\n{block}\n", encoding="utf-8")
    monkeypatch.setattr(reporting, "render", lambda doc, path, plots: "# Benchmark\n\nregenerated\n")
    reporting.write({}, page, [])
    text = page.read_text(encoding="utf-8")
    assert "regenerated" in text and "old tables" not in text and text.count(block) == 1


def test_every_corpus_document_is_a_distractor_source_named_for_its_file(tmp_path: Path) -> None:
    from schemarouter_bench.crowded import corpus_documents

    overlay = tmp_path / "overlay.yaml"
    docs = corpus_documents(_corpus(tmp_path), overlay)
    assert [d.source_id for d in docs] == ["corpus_bad", "corpus_good", "corpus_s"], "the manifest is no document"
    assert all(d.overlay == overlay and d.spec.exists() for d in docs)
