"""Cassettes for crossref (see ../crossref/README.md for provenance)."""

from __future__ import annotations

import json

from cassettelib import adapter_request, interaction, vcr_body, write

DOI_FILE = "crossref/crossref_works_doi_10.1371_journal.pone.0033693_vcr_cassette.yaml"
QUERY_FILE = "crossref/crossref_works_query_ecology_rows2_vcr_cassette.yaml"
SELECT_FILE = "crossref/crossref_works_query_select_DOI_title_vcr_cassette.yaml"


def main() -> None:
    method, uri, _ = adapter_request("crossref", "works", {"doi": "10.1371/journal.pone.0033693"},
                                     ["title", "author", "container-title", "issued", "publisher"])
    write("crossref", "works_doi_10.1371_journal.pone.0033693.yaml", [interaction(method, uri, vcr_body(DOI_FILE))])
    method, uri, _ = adapter_request("crossref", "works", {"query": "ecology"}, ["title"])
    write("crossref", "works_query_ecology_select.yaml", [interaction(method, uri, vcr_body(SELECT_FILE))])
    # The recorded rows=2 query had no select: the server-side projection is applied here by us.
    fields = ["title", "container-title", "issued", "is-referenced-by-count"]
    method, uri, _ = adapter_request("crossref", "works", {"query": "ecology", "rows": 2}, fields)
    full = json.loads(vcr_body(QUERY_FILE))
    keys = ["DOI", "title", "container-title", "issued", "is-referenced-by-count"]
    full["message"]["items"] = [{k: item[k] for k in keys if k in item} for item in full["message"]["items"]]
    write("crossref", "works_query_ecology_rows2.yaml", [interaction(method, uri, full)])
    method, uri, _ = adapter_request("crossref", "works", {"query": "qqxxzznotaword"}, ["title"])
    empty = {"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
             "message": {"facets": {}, "total-results": 0, "items": [], "items-per-page": 20,
                         "query": {"start-index": 0, "search-terms": "qqxxzznotaword"}}}
    write("crossref", "works_query_empty.yaml", [interaction(method, uri, empty)])
    method, uri, _ = adapter_request("crossref", "works", {"query": "ecology", "from-pub-date": "last-year"},
                                     ["title"])
    failure = {"status": "failed", "message-type": "validation-failure",
               "message": [{"type": "date-not-valid", "value": "last-year",
                            "message": "Date specified as last-year is not a valid date"}]}
    write("crossref", "works_bad_date_400.yaml", [interaction(method, uri, failure, status=400)])
    method, uri, _ = adapter_request("crossref", "works", {"doi": "10.9999/not.a.doi"}, ["title"])
    write("crossref", "works_doi_not_found_404.yaml",
          [interaction(method, uri, "Resource not found.", status=404, content_type="text/plain")])


if __name__ == "__main__":
    main()
