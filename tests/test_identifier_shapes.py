"""Identifiers are read by their shape, for any database: CURIEs, accessions, UUIDs, segmented codes,
capitals and digits interleaved, host names; never a formula, a year or a host inside a URL."""

from __future__ import annotations

import pytest

from schemarouter.models import Parameter
from schemarouter.router.values import open_values
from schemarouter.understand.names import identifier_tokens
from tests.open_world_support import read_question as _read


def test_identifiers_of_any_database_are_read_by_shape() -> None:
    found = [e.value for e in identifier_tokens(
        "Compare HP:0001250, NM_000059.3, CHEMBL25, urn:mavedb:00000001-a-1 and record 82470963: in 2021", [])]
    assert found == ["HP:0001250", "NM_000059.3", "CHEMBL25", "urn:mavedb:00000001-a-1", "82470963"]


def test_a_host_name_is_a_value_and_a_url_or_email_holds_none() -> None:
    # sites and wiki projects go by host names ("project fr.wikipedia.org"); a host inside a URL or
    # an e-mail address is part of that, and "e.g." is no host
    found = [e.value for e in identifier_tokens(
        "Views of fr.wikipedia.org and commons.wikimedia.org. See https://en.wikipedia.org/x, "
        "mail jane@lab.org, e.g. this", [])]
    assert found == ["fr.wikipedia.org", "commons.wikimedia.org"]


def test_a_uuid_is_an_identifier_prefixed_or_not() -> None:
    text = "Studies of substance NWKI-71060af4-1613-35cf-95ee-2a039be0388a and of 2a039be0-1613-35cf-95ee-71060af40388"
    assert [e.value for e in identifier_tokens(text, [])] == [
        "NWKI-71060af4-1613-35cf-95ee-2a039be0388a", "2a039be0-1613-35cf-95ee-71060af40388"]


@pytest.mark.parametrize(("text", "found"), [
    ("Which gene encodes protein Q9Y6K9?", ["Q9Y6K9"]),  # capitals and digits interleaved: an accession
    ("The entry A0A024R161 in UniProt", ["A0A024R161"]),
    ("Sulfuric acid H2SO4 and glucose C6H12O6", []),  # formulas, not identifiers
    ("The B2B market and MP3 files", []),  # too short to say
    ("Item A123 in stock", ["A123"]),  # the accession shapes read before are read still
])
def test_capitals_and_digits_interleaved_are_an_identifier_unless_a_formula(text: str, found: list[str]) -> None:
    assert [e.value for e in identifier_tokens(text, [])] == found


def test_a_segmented_code_is_an_identifier_and_a_barcode_parameter_takes_it() -> None:
    text = "Vital status of patient TCGA-AB-2802 and of sample TCGA-02-0001-01C-01D-0182-01"
    assert [e.value for e in identifier_tokens(text, [])] == ["TCGA-AB-2802", "TCGA-02-0001-01C-01D-0182-01"]
    assert [e.value for e in identifier_tokens("COVID-19 and SARS-CoV-2 in the US-NC area", [])] == []
    barcode = Parameter(name="tcga_participant_barcode", type="array")
    got = open_values([barcode], _read("What is the vital status of patient TCGA-AB-2802?"), "/Samples/Clinical_FH")
    assert got.values == {"tcga_participant_barcode": ["TCGA-AB-2802"]}, "a list parameter takes a list of one"
