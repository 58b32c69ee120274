"""Cassettes for semantic_scholar, europe_pmc, cod, wikipedia, stack_exchange and web_search.

Provenance per file is in each ``../<source>/README.md``.
"""

from __future__ import annotations

import json

import yaml
from cassettelib import REFERENCE, adapter_request, interaction, vcr_body, write

S2_FILE = "openalex/openalex_works_filter_title.search_list_plus_crossref_s2_vcr_cassette.yaml"
S2_FIELDS = ["doi", "title", "authors", "year", "venue", "citationCount"]
S2_KEYS = ["paperId", "externalIds", "title", "authors", "year", "venue", "citationCount"]


def semantic_scholar() -> None:
    matched = json.loads(vcr_body(S2_FILE, 1))["data"]  # /paper/search/match response
    papers = [{k: p[k] for k in S2_KEYS if k in p} for p in matched]
    title = "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research"
    method, uri, _ = adapter_request("semantic_scholar", "paper_search", {"query": title, "limit": 1}, S2_FIELDS)
    write("semantic_scholar", "paper_search_paperqa.yaml",
          [interaction(method, uri, {"total": len(papers), "offset": 0, "data": papers})])
    method, uri, _ = adapter_request("semantic_scholar", "paper_search", {"query": "qqxxzznotaword"}, S2_FIELDS)
    write("semantic_scholar", "paper_search_empty.yaml", [interaction(method, uri, {"total": 0, "offset": 0, "data": []})])
    method, uri, _ = adapter_request("semantic_scholar", "paper_search", {"query": "graphene"}, S2_FIELDS)
    write("semantic_scholar", "paper_search_429.yaml", [interaction(
        method, uri, {"message": "Too Many Requests. Please wait and try again or apply for a key for higher rate limits.",
                      "code": "429"}, status=429)])


def europe_pmc() -> None:
    fields = ["doi", "title", "authorString", "journalTitle", "pubYear", "citedByCount"]
    method, uri, _ = adapter_request("europe_pmc", "search", {"query": "cancer"}, fields)
    body = (REFERENCE / "europepmc/europepmc_rest_search_query_cancer_resultType_core_format_json.json").read_text()
    write("europe_pmc", "search_cancer_core.yaml", [interaction(method, uri, body)])
    query = "asdkfjhasdkfjhasdfasdasdasdfgsagsd"
    method, uri, _ = adapter_request("europe_pmc", "search", {"query": query}, fields)
    body = (REFERENCE / "europepmc/europepmc_rest_search_no_results_format_json.json").read_text()
    write("europe_pmc", "search_no_results.yaml", [interaction(method, uri, body)])
    method, uri, _ = adapter_request("europe_pmc", "search", {"query": "malaria"}, fields)
    write("europe_pmc", "search_malaria_500.yaml",
          [interaction(method, uri, "Internal Server Error", status=500, content_type="text/plain")])


def cod() -> None:
    fields = ["formula", "sg", "a", "b", "c", "vol", "celltemp", "doi"]
    method, uri, _ = adapter_request("cod", "search", {"text": "aspirin"}, fields)
    body = (REFERENCE / "cod/cod_result_format_json_text_aspirin_first5_trimmed_by_recorder.json").read_text()
    write("cod", "search_text_aspirin.yaml", [interaction(method, uri, body)])
    method, uri, _ = adapter_request("cod", "search", {"formula": "Xx9 Zz9"}, fields)
    write("cod", "search_formula_empty.yaml", [interaction(method, uri, [])])
    method, uri, _ = adapter_request("cod", "search", {"text": "quartz"}, fields)
    write("cod", "search_text_quartz_truncated.yaml", [interaction(method, uri, body[:700])])


def wikipedia() -> None:
    fields = ["title", "wikibase_item", "description", "extract"]
    method, uri, _ = adapter_request("wikipedia", "page_summary", {"title": "Tokyo"}, fields)
    body = (REFERENCE / "wikipedia/wikipedia_rest_v1_page_summary_enwiki_Tokyo_latest_at_record_time_service_output.json").read_text()
    write("wikipedia", "page_summary_Tokyo.yaml", [interaction(method, uri, body)])
    method, uri, _ = adapter_request("wikipedia", "page_summary", {"title": "Qqxxzz Not A Page"}, fields)
    not_found = {"type": "https://mediawiki.org/wiki/HyperSwitch/errors/not_found", "title": "Not found.",
                 "method": "get", "detail": "Page or revision not found.",
                 "uri": "/en.wikipedia.org/v1/page/summary/Qqxxzz_Not_A_Page"}
    write("wikipedia", "page_summary_not_found.yaml",
          [interaction(method, uri, not_found, status=404, content_type="application/problem+json")])
    method, uri, _ = adapter_request("wikipedia", "page_summary", {"title": "Mercury"}, fields)
    tokyo = json.loads(body)
    ambiguous = {**{k: tokyo[k] for k in ("namespace", "lang", "dir")}, "type": "disambiguation",
                 "title": "Mercury", "displaytitle": "Mercury", "pageid": 19694,
                 "extract": "Mercury usually refers to:", "description": "Topics referred to by the same term"}
    write("wikipedia", "page_summary_disambiguation.yaml", [interaction(method, uri, ambiguous)])
    method, uri, _ = adapter_request("wikipedia", "page_summary", {"title": "Osaka"}, fields)
    write("wikipedia", "page_summary_503.yaml", [interaction(method, uri, "upstream connect error", status=503,
                                                            content_type="text/plain")])


def stack_exchange() -> None:
    fields = ["title", "link", "tags", "score"]
    data = yaml.safe_load((REFERENCE / "stackexchange/stackexchange_api_v2.1_search_advanced_q_ruby_on_rails_site_stackoverflow_vcr_cassette.yaml").read_text())
    body = data["http_interactions"][0]["response"]["body"]["string"]
    method, uri, _ = adapter_request("stack_exchange", "search_advanced", {"q": "ruby on rails", "site": "stackoverflow"}, fields)
    write("stack_exchange", "search_advanced_ruby_on_rails.yaml", [interaction(method, uri, body)])
    method, uri, _ = adapter_request("stack_exchange", "search_advanced", {"q": "qqxxzznotaword", "site": "stackoverflow"}, fields)
    empty = {"items": [], "has_more": False, "quota_max": 10000, "quota_remaining": 9970}
    write("stack_exchange", "search_advanced_empty.yaml", [interaction(method, uri, empty)])
    method, uri, _ = adapter_request("stack_exchange", "search_advanced", {"q": "python"}, fields)
    error = {"error_id": 400, "error_message": "site is required", "error_name": "bad_parameter"}
    write("stack_exchange", "search_advanced_no_site_400.yaml", [interaction(method, uri, error, status=400)])


def web_search() -> None:
    fields = ["url", "title", "content", "publishedDate"]
    results = [
        {"url": "https://en.wikipedia.org/wiki/Perovskite_solar_cell", "title": "Perovskite solar cell - Wikipedia",
         "content": "A perovskite solar cell is a type of solar cell that includes a perovskite-structured compound.",
         "engine": "synthetic", "engines": ["synthetic"], "positions": [1], "score": 1.0, "category": "general",
         "publishedDate": None, "template": "default.html", "parsed_url": ["https", "en.wikipedia.org", "/wiki/Perovskite_solar_cell", "", "", ""]},
        {"url": "https://example.org/perovskite-efficiency", "title": "Perovskite efficiency records",
         "content": "Synthetic second result for tests.", "engine": "synthetic", "engines": ["synthetic"],
         "positions": [2], "score": 0.5, "category": "general", "publishedDate": "2026-02-17T00:00:00",
         "template": "default.html", "parsed_url": ["https", "example.org", "/perovskite-efficiency", "", "", ""]},
    ]
    envelope = {"query": "perovskite solar cell", "results": results, "answers": [], "corrections": [],
                "infoboxes": [], "suggestions": [], "unresponsive_engines": []}
    method, uri, _ = adapter_request("web_search", "search", {"q": "perovskite solar cell"}, fields)
    write("web_search", "search_perovskite.yaml", [interaction(method, uri, envelope)])
    method, uri, _ = adapter_request("web_search", "search", {"q": "qqxxzznotaword"}, fields)
    write("web_search", "search_empty.yaml", [interaction(method, uri, {**envelope, "query": "qqxxzznotaword", "results": []})])
    method, uri, _ = adapter_request("web_search", "search", {"q": "json disabled"}, fields)
    write("web_search", "search_format_disabled_403.yaml",
          [interaction(method, uri, "<html><body>403 Forbidden</body></html>", status=403, content_type="text/html")])


if __name__ == "__main__":
    for build in (semantic_scholar, europe_pmc, cod, wikipedia, stack_exchange, web_search):
        build()
