"""Cassettes for pubmed (see ../pubmed/README.md for provenance)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from cassettelib import REFERENCE, interaction, write

BASE = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"
COMMON = [("db", "pubmed"), ("retmode", "xml"), ("tool", "schemarouter")]
XML = "text/xml; charset=UTF-8"


def uri(name: str, extra: list[tuple[str, str]]) -> str:
    return f"{BASE}/{name}?" + urlencode(COMMON + extra)


def main() -> None:
    esearch = (REFERENCE / "pubmed/pubmed_esearch_db_pubmed_term_biopython.xml").read_text()
    esummary = (REFERENCE / "pubmed/pubmed_esummary_db_pubmed_id_11850928_11482001.xml").read_text()
    ids = "11850928,11482001"
    summary = interaction("GET", uri("esummary.fcgi", [("id", ids)]), esummary, content_type=XML)
    write("pubmed", "search_id_11850928_11482001.yaml", [summary])
    derived = re.sub(r"<IdList>.*</IdList>", "<IdList>\n<Id>11850928</Id>\n<Id>11482001</Id>\n</IdList>",
                     esearch, flags=re.S)
    derived = derived.replace("<Count>63</Count><RetMax>20</RetMax>", "<Count>2</Count><RetMax>2</RetMax>")
    derived = derived.replace('"biopython"[All Fields]', '"zirconium granuloma"[All Fields]')
    write("pubmed", "search_term_zirconium_granuloma.yaml", [
        interaction("GET", uri("esearch.fcgi", [("term", "zirconium granuloma")]), derived, content_type=XML),
        summary,
    ])
    write("pubmed", "search_term_biopython_esearch.yaml", [
        interaction("GET", uri("esearch.fcgi", [("term", "biopython"), ("retmax", "20")]), esearch, content_type=XML),
    ])
    empty = re.sub(r"<IdList>.*</IdList>", "<IdList/>", esearch, flags=re.S)
    empty = empty.replace("<Count>63</Count><RetMax>20</RetMax>", "<Count>0</Count><RetMax>0</RetMax>")
    empty = empty.replace('"biopython"[All Fields]', "qqxxzznotaword[All Fields]")
    write("pubmed", "search_term_empty.yaml", [
        interaction("GET", uri("esearch.fcgi", [("term", "qqxxzznotaword")]), empty, content_type=XML),
    ])
    write("pubmed", "search_id_truncated.yaml", [
        interaction("GET", uri("esummary.fcgi", [("id", "11850928")]), esummary[:900], content_type=XML),
    ])


if __name__ == "__main__":
    main()
