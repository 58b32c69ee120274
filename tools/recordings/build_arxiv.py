"""Cassettes for arxiv (see ../arxiv/README.md for provenance)."""

from __future__ import annotations

import re

from cassettelib import interaction, load_json, write

ATOM = "application/atom+xml; charset=utf-8"


def recorded(name: str, cassette: str) -> None:
    data = load_json(f"arxiv/{name}")
    write("arxiv", cassette, [interaction("GET", data["url"], data["body"], status=data["status_code"],
                                          content_type=ATOM)])


def main() -> None:
    recorded("arxiv_id_list_1605.08386_atom_recorded.json", "query_id_list_1605.08386.yaml")
    recorded("arxiv_search_query_testing_start0_max10_atom_recorded.json", "query_search_testing_max10.yaml")
    recorded("arxiv_error_400_bad_id_abc_atom_recorded.json", "query_id_list_abc_400.yaml")
    # Empty result: the recorded 'testing' feed with its entries removed and totalResults set to 0.
    body = load_json("arxiv/arxiv_search_query_testing_start0_max10_atom_recorded.json")["body"]
    body = re.sub(r"\s*<entry>.*?</entry>", "", body, flags=re.S)
    body = re.sub(r"<opensearch:totalResults>\d+</opensearch:totalResults>",
                  "<opensearch:totalResults>0</opensearch:totalResults>", body)
    body = body.replace("search_query=testing", "search_query=qqxxzznotaword")
    uri = ("https://export.arxiv.org/api/query?search_query=qqxxzznotaword&id_list=&sortBy=relevance"
           "&sortOrder=descending&start=0&max_results=10")
    write("arxiv", "query_search_empty.yaml", [interaction("GET", uri, body, content_type=ATOM)])


if __name__ == "__main__":
    main()
