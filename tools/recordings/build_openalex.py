"""Cassettes for openalex (see ../openalex/README.md for provenance)."""

from __future__ import annotations

import json

from cassettelib import adapter_request, interaction, vcr_body, write

DOI_FILE = "openalex/openalex_works_doi_10.1073_pnas.1414271111_full_record_plus_crossref_s2_unpaywall_vcr_cassette.yaml"
TITLE_FILE = "openalex/openalex_works_filter_title.search_list_plus_crossref_s2_vcr_cassette.yaml"
FIELDS = ["doi", "title", "publication_year", "authorships", "venue", "cited_by_count"]
KEYS = ["id", "doi", "title", "publication_year", "authorships", "primary_location", "cited_by_count"]


def cut(work: dict) -> dict:
    """What OpenAlex returns for select=<KEYS>: only those top-level keys."""
    return {k: work[k] for k in KEYS if k in work}


def main() -> None:
    work = json.loads(vcr_body(DOI_FILE, 2))  # interaction 2 is the OpenAlex request
    method, uri, _ = adapter_request("openalex", "works", {"doi": "10.1073/pnas.1414271111"}, FIELDS)
    write("openalex", "works_doi_10.1073_pnas.1414271111.yaml", [interaction(method, uri, cut(work))])
    title = "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research"
    listing = json.loads(vcr_body(TITLE_FILE, 2))
    listing["results"] = [cut(w) for w in listing["results"]]
    method, uri, _ = adapter_request("openalex", "works", {"title.search": title}, FIELDS)
    write("openalex", "works_title_search_paperqa.yaml", [interaction(method, uri, listing)])
    method, uri, _ = adapter_request("openalex", "works", {"title.search": "qqxxzznotaword"}, FIELDS)
    empty = {"meta": {"count": 0, "db_response_time_ms": 12, "page": 1, "per_page": 25, "groups_count": None},
             "results": [], "group_by": []}
    write("openalex", "works_title_search_empty.yaml", [interaction(method, uri, empty)])
    method, uri, _ = adapter_request("openalex", "works", {"search": "graphene", "sort": "nonsense:desc"}, FIELDS)
    error = {"error": "Invalid query parameters error.",
             "message": "nonsense is not a valid sort field"}
    write("openalex", "works_bad_sort_400.yaml", [interaction(method, uri, error, status=400)])


if __name__ == "__main__":
    main()
