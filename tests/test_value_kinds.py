"""The kinds of value a parameter can take, read from its declaration, never hide a value from it.

Filling parameters skips, unread, every parameter whose ``needs`` (the kinds of question value it
could take something from) the question does not carry and none of whose ``cues`` (the words that
would say one of its enum members or its flag) the question says. The skip must change nothing: over every
parameter of the benchmark's open-world registry (first-party sources, the imported dev-set APIs
and TMDB) and every question of the shipped suites plus some that carry the rarer kinds, a
parameter skipped for a question is one the value reading gives nothing.
"""

from __future__ import annotations

import pytest
from schemarouter_bench.dataset import load_queries
from schemarouter_bench.devset import load_dev_questions, load_tmdb_queries
from schemarouter_bench.frozen import load_frozen
from schemarouter_bench.openworld import build_open_world

from schemarouter.graph import SchemaGraph
from schemarouter.models import Parameter
from schemarouter.router.endpoint_facts import endpoint_facts
from schemarouter.router.param_facts import (
    SAYS_COUNTS,
    SAYS_DATES,
    SAYS_IDS,
    SAYS_LABELS,
    SAYS_NAMES,
    SAYS_NUMBERS,
    ParamFacts,
    parameter_facts,
)
from schemarouter.router.question_facts import may_fill, may_take, question_says, question_words
from schemarouter.router.values import _any_value, open_values
from schemarouter.understand.rules import RulesUnderstander

# questions that carry what the suites rarely do: coordinates, spans, counts, codes, labels, dates
RARER = [
    "Weather at 35.78, -78.64 between 2024-01-01 and 2024-01-31",
    "QTLs between 1000000 and 5000000 on chromosome 3 of rat",
    "the second season of House of Cards, episode 4",
    "stations KRDU and KJFK, dew point in Raleigh, NC, US, zip 27601",
    "gene SHH in human, article 2066037, version 2, variant set 42",
    "papers by Jane Smith since 2019-03 about graphene with a confidence above 0.6",
    "patient TCGA-AB-2802 in cohort BRCA and LUAD, top 10 sorted by date",
    "compound CID 2244, DOI 10.1038/nature12373, PMID 12345678, arXiv 2101.00001",
    "HGNC:1100 and MONDO:0007739 for target CHEMBL203, ISSN 0028-0836",
    "today's most trending movies in Germany for 2 weeks at 300 km altitude",
    "magnetic declination at sea level halfway through 2021 over 60° N, 150° W",
    "magnetic declination at ground level over Greenwich",  # an altitude said with no number
    "neutral density at noon UTC, proton flux at 18:45:30, a dose from Dubai (DXB) to Auckland (AKL)",
]


@pytest.fixture(scope="module")
def registry() -> SchemaGraph:
    return build_open_world(load_frozen()).frozen.graph


def _questions() -> list[str]:
    found = [q.query for q in load_dev_questions()] + [q.query for q in load_tmdb_queries()]
    found += [q.query for q in load_queries()] + RARER
    return list(dict.fromkeys(found))


def _distinct(graph: SchemaGraph) -> list[tuple[Parameter, ParamFacts, str]]:
    """Every parameter the value reading fills, once per distinct declaration, path and credential
    name (what its facts are read from)."""
    seen: dict[tuple[str, str, str | None], tuple[Parameter, ParamFacts, str]] = {}
    for info in graph.endpoints.values():
        facts = endpoint_facts(graph, info).by_name
        auth = info.source.auth.name if info.source.auth else None
        for p in info.endpoint.parameters:
            f = facts[p.name]
            if f.own:
                seen.setdefault((p.model_dump_json(), info.endpoint.path, auth), (p, f, info.endpoint.path))
    return list(seen.values())


def test_a_parameter_skipped_for_a_question_is_one_it_gives_nothing(registry: SchemaGraph) -> None:
    understander = RulesUnderstander()
    params = _distinct(registry)
    skipped = read = 0
    for question in _questions():
        analysis = understander.understand(question, registry)
        says, words = question_says(analysis), question_words(analysis)
        for p, f, path in params:
            if may_take(f, says, words):
                read += 1
                continue
            skipped += 1
            got = _any_value(p, f, analysis, path, set(), lambda term: True)
            assert got is None, f"{p.name} of {path} skipped for {question!r}, but it takes {got!r}"
    # the check did check: many parameters are skipped for many questions, and many are read
    assert skipped > len(params) and read > len(params)


def test_an_endpoint_skipped_for_a_question_is_one_whose_parameters_get_nothing(registry: SchemaGraph) -> None:
    understander = RulesUnderstander()
    skipped = 0
    for question in _questions():
        analysis = understander.understand(question, registry)
        for info in registry.endpoints.values():
            facts = endpoint_facts(registry, info)
            if may_fill(facts, analysis):
                continue
            skipped += 1
            got = open_values(info.endpoint.parameters, analysis, info.endpoint.path, set(), lambda term: True,
                              lambda term: True, facts.by_name)
            assert not got.values and not got.used, f"{info.label} skipped for {question!r}, but it takes {got.values}"
    assert skipped > len(registry.endpoints)


def test_what_a_declaration_needs_follows_what_it_takes() -> None:
    def facts(**declared: object) -> ParamFacts:
        return parameter_facts(Parameter.model_validate({"name": "x", "type": "string", **declared}), "/items")

    def needs(**declared: object) -> int:
        return facts(**declared).needs

    assert needs(name="api_key") == 0 and not facts(name="api_key").cues  # a credential takes nothing
    assert needs(name="query") & SAYS_NAMES
    # a member is said in words: its spelling, its terms, its label, the calendar unit it is
    format_ = facts(name="format", enum=["json", "day", "Top_Rated"])
    assert format_.needs == 0 and {"json", "unit:day", "top"} <= format_.cues
    assert {"dataset"} <= facts(name="item_type", type="integer", enum=[3], enum_labels={"3": "Dataset"}).cues
    assert facts(name="include_video", type="boolean").cues == {"video"}
    assert needs(name="start_date", format="date") & SAYS_DATES
    # a count or a value written after a noun: that noun's cue; a short abbreviation stands for any
    # noun it begins, so it needs the kind itself
    assert {"count:season", "label:season"} <= facts(name="season_number", type="integer").cues
    assert needs(name="v_number", type="integer") & SAYS_COUNTS and needs(name="v_number", type="integer") & SAYS_LABELS
    assert not needs(name="page", type="integer") & SAYS_NAMES
    assert needs(name="gene_id", required=True) & SAYS_IDS


def test_a_number_an_enum_spells_as_text_is_read_where_the_question_writes_it(registry: SchemaGraph) -> None:
    # release years declared as strings ("2010" ... "2019", "dontcare"): no word of the question names
    # a member, the number it writes does
    year = Parameter.model_validate({"name": "year", "type": "string", "enum": [*map(str, range(2010, 2020)), "dontcare"]})
    assert parameter_facts(year, "/songs").needs & SAYS_NUMBERS
    analysis = RulesUnderstander().understand("Find me Metal songs released in 2019 by Sabaton", registry)
    assert may_take(parameter_facts(year, "/songs"), question_says(analysis), question_words(analysis))
    assert open_values([year], analysis, "/songs").values == {"year": "2019"}


def test_a_question_carrying_no_kind_of_value_fills_only_what_its_words_say(registry: SchemaGraph) -> None:
    params = [Parameter.model_validate(d) for d in (
        {"name": "page", "type": "integer"},
        {"name": "language", "type": "string"},
        {"name": "time_window", "type": "string", "enum": ["day", "week"]},
    )]
    analysis = RulesUnderstander().understand("what is trending today", registry)
    assert question_says(analysis) == 0
    assert open_values(params, analysis, "/trending").values == {"time_window": "day"}


def test_a_short_abbreviation_reads_whichever_noun_it_begins(registry: SchemaGraph) -> None:
    # no number is written: only the count of versions reaches ``v_number``
    analysis = RulesUnderstander().understand("Show me the second version of that article", registry)
    v_number = Parameter.model_validate({"name": "v_number", "type": "integer", "required": True})
    assert open_values([v_number], analysis, "/articles/versions/{v_number}").values == {"v_number": 2}
