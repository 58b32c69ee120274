"""Rules understander: entity recognizers, wording cues and vocabulary from the graph."""

from __future__ import annotations

from functools import cache

import pytest

from schemarouter.declarations import collect
from schemarouter.graph import SchemaGraph
from schemarouter.graph.value_readers import ValueReader, build_value_readers
from schemarouter.plugins import plugin_manager
from schemarouter.understand import chemistry, wording
from schemarouter.understand.entities import recognize
from schemarouter.understand.rules import RulesUnderstander
from tests.routing_support import graph, routing_db  # noqa: F401


def kinds(text: str) -> list[tuple[str, object]]:
    return [(e.kind, e.value) for e in recognize(text, readers=readers())]


@cache
def readers() -> tuple[ValueReader, ...]:
    """The identifier readers the vocabulary and the installed plugins declare."""
    return build_value_readers(collect(plugin_manager()))


@pytest.mark.parametrize("token", ["LiFePO4", "Fe2O3", "CsPbI3", "GaN", "Ca(OH)2", "Cu", "Bi2Te3"])
def test_formulas_accepted(token: str) -> None:
    assert chemistry.is_formula_token(token)


@pytest.mark.parametrize("token", ["DFT", "MP", "COD", "PBE", "VASP", "ICSD", "In", "H200", "B0", "TBmBJ", "Xy2"])
def test_acronyms_and_words_rejected(token: str) -> None:
    assert not chemistry.is_formula_token(token)


def test_single_letter_element_only_in_context() -> None:
    assert ("formula", "W") in kinds("bulk modulus of W in GPa")
    assert all(k != "formula" for k, _ in kinds("thermal conductivity at 300 K"))


def test_formats() -> None:
    assert chemistry.alphabetical("GaAs") == "AsGa"
    assert chemistry.hill("CaCO3") == "C Ca O3"
    assert chemistry.hill("NaCl") == "Cl Na"
    assert chemistry.same_composition("O3Fe2", "Fe2O3")
    assert chemistry.systematic_name("MoS2") == "molybdenum disulfide"


def test_names_map_to_formulas_and_compounds() -> None:
    assert ("formula", "SiO2") in kinds("space group of quartz")
    assert ("formula", "NaCl") in kinds("lattice constant of rock salt")
    assert ("formula", "C") in kinds("hardness of diamond")
    assert ("compound", "caffeine") in kinds("caffeine melting point")
    # structure-type words and hyphenated words are not entities
    assert kinds("perovskite solar cells") == []
    assert ("compound", "water") not in kinds("octanol-water partition coefficient")


def test_identifiers() -> None:
    text = "DOI 10.1103/PhysRevB.54.11169, arXiv:1706.03762v2, cond-mat/0211070, PMID 22745249, CID 2244, mp-149, JVASP-1002"
    got = kinds(text)
    assert ("doi", "10.1103/PhysRevB.54.11169") in got
    assert ("arxiv_id", "1706.03762v2") in got and ("arxiv_id", "cond-mat/0211070") in got
    assert ("pmid", "22745249") in got and ("cid", 2244) in got
    assert ("material_id", "mp-149") in got and ("material_id", "JVASP-1002") in got


def test_company_and_year_range() -> None:
    got = recognize("LG Chem revenue in 2023")
    assert [(e.kind, e.value) for e in got] == [("company", "LG Chem"), ("year", "2023")]
    text = "papers from 2019 onward"
    y = next(e for e in recognize(text) if e.kind == "year")
    assert wording.year_range(text, y.start, y.end, y.value, None) == "2019-"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("computed (not measured) logP", "calculated"),
        ("measured bulk modulus, from experiments rather than DFT", "experimental"),
        ("first-principles formation energy", "calculated"),
        ("papers in the literature on X", "literature"),
        ("band gap of GaN", None),
    ],
)
def test_source_constraint(text: str, want: str | None) -> None:
    assert wording.source_constraint(text) == want


def test_vocabulary_comes_from_the_graph(graph: SchemaGraph) -> None:
    a = RulesUnderstander().understand("What is the band gap of GaN in the Materials Project?", graph)
    assert a.understanding.named_tools == ["materials_project"]
    assert "band_gap" in a.understanding.concepts
    assert a.understanding.params["formula"] == "GaN"
    assert a.understanding.intent == "material_property"


def test_abbreviation_resolved_by_context(graph: SchemaGraph) -> None:
    u = RulesUnderstander()
    assert u.understand("band gap of GaN in MP", graph).understanding.named_tools == ["materials_project"]
    chem = u.understand("What is the MP of caffeine?", graph).understanding
    assert chem.named_tools == [] and "melting_point" in chem.concepts


def test_requests_to_act_decline(graph: SchemaGraph) -> None:
    u = RulesUnderstander()
    assert u.understand("Book me a flight to Boston", graph).decline
    assert u.understand("translate this abstract into German", graph).decline
    # a literature question about the same topic is not a request for the service
    assert u.understand("papers on weather forecasting with neural networks", graph).decline is None


def test_element_lists_and_bounds() -> None:
    from schemarouter.understand.bounds import bound_after, element_list

    assert element_list("materials containing Li, Fe and O")[0] == ["Li", "Fe", "O"]
    assert element_list("compounds made of lithium and sulfur")[0] == ["Li", "S"]
    text = "band gap above 2 eV"
    assert bound_after(text, len("band gap")) == (2.0, None)
    assert bound_after("gap between 3 and 1 eV", 3) == (1.0, 3.0)
    assert bound_after("gap below 0.5", 3) == (None, 0.5)


def test_author_only_in_literature_questions() -> None:
    assert ("author", "Kresse") in kinds("papers by Kresse on PAW")
    assert all(k != "author" for k, _ in kinds("band gap measured by Raman spectroscopy"))


def test_inchikey() -> None:
    assert ("inchikey", "RZVAJINKPMORJF-UHFFFAOYSA-N") in kinds("InChIKey RZVAJINKPMORJF-UHFFFAOYSA-N")


def _names_of_every_list() -> list[str]:
    from schemarouter.understand.entities import _data

    return [*_data("materials.yaml"), *chemistry.ELEMENT_BY_NAME, *_data("compounds.yaml"), *_data("companies.yaml")]


def test_the_name_lists_skipped_for_a_question_would_have_found_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name-list pattern is skipped for a question none of whose words opens one of its names: over
    every listed name, written in a question in several cases and at its edges, and the suites'
    questions, recognizing with the skip finds what searching every pattern finds."""
    from schemarouter_bench.dataset import load_queries
    from schemarouter_bench.devset import load_dev_questions, load_tmdb_queries

    from schemarouter.understand import entities

    texts = [q.query for q in load_queries()] + [q.query for q in load_dev_questions()]
    texts += [q.query for q in load_tmdb_queries()]
    for name in _names_of_every_list():
        texts += [f"What is the band gap of {name}?", f"{name.upper()} price", f"({name.title()})", name,
                  f"x-{name} and {name}-y", f"{name} bond", f"İ {name}"]
    # the skip does skip: a question with no listed name's first word runs none of them
    assert not any(entities._may_name("Who directed The Dark Knight?")(k)
                   for k in ("material_name", "element_name", "compound_name", "company"))
    skipped = [kinds(t) for t in texts]
    monkeypatch.setattr(entities, "_may_name", lambda text: lambda key: True)
    assert [kinds(t) for t in texts] == skipped


@pytest.mark.parametrize(("text", "years"), [
    ("The crime rate in San Francisco in 2020.", ["2020"]),  # a year ends the sentence
    ("Songs from 2019? Or 2018!", ["2019", "2018"]),
    ("Version 2020.5 of the schema", []),  # a decimal is no year
    ("Releases 2019-2021 and 1999", ["2019", "1999"]),
])
def test_a_year_is_read_wherever_the_sentence_puts_it(text: str, years: list[str]) -> None:
    assert [e.value for e in recognize(text) if e.kind == "year"] == years
