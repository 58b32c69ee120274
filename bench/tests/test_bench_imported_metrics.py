"""The open-world scores on small hand-made plans: endpoint sets, fields, parameters, chains, declines."""

from __future__ import annotations

from typing import Any

import pytest
from schemarouter_bench.devset import DevQuestion, DevStep, TmdbQuery
from schemarouter_bench.openscore import (
    PlanView,
    best_option,
    literal_matches,
    names_write,
    normalize_call,
    plan_view,
    score_chain,
    score_option,
)

from schemarouter.plan import Plan, PlanStep


def bind(frm: str, field: str) -> dict[str, str]:
    return {"from": frm, "field": field, "pick": "first"}


def view(source: str, endpoint: str, params: dict[str, Any] | None = None, fields: list[str] | None = None,
         id: str | None = None) -> PlanView:
    return PlanView(id, source, endpoint, params or {}, fields or [])


SEARCH = DevStep(id="s1", source="lib", endpoint="search", call="GET /search", params={"q": "Titanic"},
                 fields=["id"], identifiers=["id"])
DETAIL = DevStep(id="s2", source="lib", endpoint="detail", call="GET /item/{item_id}",
                 params={"item_id": bind("s1", "id")}, fields=["id", "title", "year"], identifiers=["id"])
REQUIRED = {"GET /search": {"q"}, "GET /item/{item_id}": {"item_id"}}


@pytest.mark.parametrize(
    ("gold", "got", "ok"),
    [
        ("Raleigh", " raleigh ", True),
        ("2023-01-10", "10.01.2023", True),
        ("2023-01-10", "2023-01-11", False),
        (7, "7.0", True),
        (["HP:1", "HP:2"], "HP:2, HP:1", True),
        (["HP:1", "HP:2"], ["HP:1"], False),
        (["P04637"], "P04637", True),
        ({"one_of": ["10090", "NCBITaxon:10090"]}, "NCBITaxon:10090", True),
        ({"one_of": ["10090", "NCBITaxon:10090"]}, "9606", False),
        (True, "true", True),
        ("Titanic", None, False),
        ("Titanic", bind("s1", "title"), False),
    ],
)
def test_literal_values_are_compared_after_normalization(gold: Any, got: Any, ok: bool) -> None:
    assert literal_matches(gold, got) is ok


def test_a_chained_plan_that_binds_to_the_gold_producer_scores_full_marks() -> None:
    plan = [
        view("lib", "search", {"q": "titanic"}, ["id", "title"], id="a"),
        view("lib", "detail", {"item_id": bind("a", "id")}, ["title", "year", "id"], id="b"),
    ]
    s = score_option(plan, [SEARCH, DETAIL], REQUIRED)
    assert s.exact and s.field_recall == 1.0  # the identifier "id" is not counted: title and year are
    assert (s.fields_hit, s.fields_total) == (2, 2)
    assert (s.params_hit, s.params_total) == (2, 2) and (s.doc_required_hit, s.doc_required_total) == (2, 2)


def test_a_guessed_value_where_the_gold_binds_is_a_miss_and_so_is_a_binding_to_the_wrong_producer() -> None:
    guessed = [view("lib", "search", {"q": "Titanic"}, id="a"), view("lib", "detail", {"item_id": 603}, ["title"])]
    s = score_option(guessed, [SEARCH, DETAIL], REQUIRED)
    assert s.exact and (s.params_hit, s.params_total) == (1, 2)
    assert any("item_id" in m and "from s1.id" in m for m in s.param_misses)
    wrong = [
        view("lib", "search", {"q": "Titanic"}, id="a"),
        view("lib", "other", {}, id="c"),
        view("lib", "detail", {"item_id": bind("c", "id")}, ["title", "year"]),
    ]
    s = score_option(wrong, [SEARCH, DETAIL], REQUIRED)
    assert not s.exact and (s.params_hit, s.fields_hit) == (1, 2)


def test_endpoint_sets_are_multisets_and_order_free() -> None:
    gold = [DevStep(source="w", endpoint="now", call="GET /now", params={"city": "Lyon"}, fields=["temp"]),
            DevStep(source="w", endpoint="now", call="GET /now", params={"city": "Oslo"}, fields=["temp"])]
    twice = [view("w", "now", {"city": "Oslo"}, ["temp"]), view("w", "now", {"city": "Lyon"}, ["temp"])]
    once = [view("w", "now", {"city": "Lyon"}, ["temp"])]
    assert score_option(twice, gold, {}).exact
    assert not score_option(once, gold, {}).exact
    s = score_option(twice, gold, {})
    assert s.params_hit == 2  # each gold step is matched to the plan step on its endpoint that fits it best
    assert s.doc_required_total == 0  # the document requires neither value: counted in the headline only


def test_the_best_alternative_is_scored() -> None:
    alt = DevStep(source="lib", endpoint="lookup", call="GET /lookup", params={"q": "Titanic"}, fields=["year"])
    q = DevQuestion(id="q", query="When was Titanic released?", gold=[SEARCH, DETAIL], alternatives=[[alt]])
    option, s = best_option([view("lib", "lookup", {"q": "Titanic"}, ["year"])], q, REQUIRED)
    assert option == 1 and s.exact and s.field_recall == 1.0 and s.params_hit == 1


def test_plan_view_reads_step_ids_and_bindings_from_real_plan_steps() -> None:
    plan = Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(id="s1", source="lib", endpoint="search", params={"q": "x"}, fields=["id"]),
        PlanStep(id="s2", source="lib", endpoint="detail", params={"item_id": bind("s1", "id")}, fields=["title"]),
    ])
    steps = plan_view(plan)
    assert [s.id for s in steps] == ["s1", "s2"] and steps[1].params["item_id"]["from"] == "s1"
    unchained = plan_view(Plan(query="q", registry_fingerprint=None,
                               steps=[PlanStep(source="lib", endpoint="search", fields=[])]))
    assert unchained[0].id is None


def test_restbench_chains_compare_calls_with_variable_names_and_spaces_ignored() -> None:
    assert normalize_call(" GET /person/{movie_id}/movie_credits ") == "GET /person/{}/movie_credits"
    q = TmdbQuery(id="t", query="films by Sofia Coppola",
                  solution=["GET /search/person", "GET /person/{person_id}/movie_credits"])
    exact = score_chain(["GET /search/person", "GET /person/{id}/movie_credits"], q)
    assert exact.exact and exact.first and exact.found == 1.0 and not exact.no_plan
    reversed_ = score_chain(["GET /person/{person_id}/movie_credits", "GET /search/person"], q)
    assert not reversed_.exact and not reversed_.first and reversed_.found == 1.0
    half = score_chain(["GET /search/person", "GET /search/movie"], q)
    assert half.found == 0.5 and half.first and not half.exact
    empty = score_chain([], q)
    assert empty.no_plan and empty.found == 0.0 and not empty.first


def test_a_decline_names_the_write_by_path_or_operation_id() -> None:
    w = "POST /account/articles/{article_id}/reserve_doi"
    assert names_write("writes are off: figshare POST /account/articles/{article_id}/reserve_doi", w, None)
    assert names_write("that is private_article_reserve_doi, a write", w, "private_article_reserve_doi")
    assert not names_write("asks for an action", w, "private_article_reserve_doi")
    assert not names_write(None, w, None)


def test_gold_that_binds_to_a_later_step_or_marks_a_foreign_identifier_is_refused() -> None:
    with pytest.raises(ValueError, match="not an earlier step"):
        DevQuestion(id="q", query="x", gold=[DETAIL, SEARCH])
    with pytest.raises(ValueError, match="identifiers"):
        DevStep(source="a", endpoint="b", call="GET /b", fields=["x"], identifiers=["id"])
    with pytest.raises(ValueError, match="METHOD /path"):
        DevStep(source="a", endpoint="b", call="/b")
    with pytest.raises(ValueError, match="no gold steps"):
        DevQuestion(id="q", query="delete it", kind="action", gold=[SEARCH])


def test_the_splits_table_says_how_many_declines_name_the_write() -> None:
    from schemarouter_bench.splits import _cells

    summary = {"endpoint_set_exact": 0.5, "required_params_filled": 0.25, "answerable_declined": 0.02,
               "actions": 5, "actions_declined": 4, "actions_with_write": 3, "actions_naming_write": 2}
    head, extra = _cells("tooluse", summary)
    assert head == "0.500 / 0.250"
    assert extra == "declined 2.0 %; actions declined 4 of 5, the write named for 2 of 3"
    # a suite whose requests to act name no write says nothing of it
    assert _cells("imported", {**summary, "actions_with_write": 0})[1] == "declined 2.0 %; actions declined 4 of 5"


def test_the_splits_table_says_the_share_of_gold_fields_fetched_where_the_gold_names_fields() -> None:
    from schemarouter_bench.splits import _cells

    summary = {"endpoint_set_exact": 0.5, "required_params_filled": 0.25, "answerable_declined": 0.0,
               "fields_found": 0.7391}
    assert _cells("science", summary)[1] == "gold fields found 0.739; declined 0.0 %"
    # a suite whose gold names no field (fields_found None) says nothing of it
    assert _cells("tooluse", {**summary, "fields_found": None})[1] == "declined 0.0 %"
