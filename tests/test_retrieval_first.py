"""Retrieval-first routing over sources nobody described for the router: re-ranking instead of
gates, last-resort parameter values, a verb only a write endpoint does, and one step per entity
asked about (how requests to act are read: ``test_registry_declines.py``)."""

from __future__ import annotations

import json
import math
from importlib.resources import files
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemarouter.graph import SchemaGraph
from schemarouter.models import Parameter, ungiven_required
from schemarouter.router import Router
from schemarouter.router.guesses import guess_required, stated_default
from schemarouter.router.rerank import FEATURES, probability, telling_path_terms, threshold, unsaid_share
from schemarouter.router.validate import conformed, plan_inputs, validate_plan
from schemarouter.router.values import Filled
from schemarouter.understand.actions import write_verbs
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)
from tests.tool_support import TOOL_BASE
from tests.tool_support import calls as _calls
from tests.tool_support import endpoint as _endpoint
from tests.tool_support import field as _field
from tests.tool_support import req as _req
from tests.tool_support import source as _source


@pytest.fixture(scope="module")
def tools(graph: SchemaGraph) -> SchemaGraph:
    """An imported tool inventory: operation ids for names, parameters named as their authors chose."""
    return with_catalogue(graph, _source("toolbox", [
        _endpoint("get_vehicle_battery_level", "/vehicles/{vehicle_id}/battery", "",
                  [_req("vehicle_id", "string")], ["battery_level", "updated_at"]),
        _endpoint("final_temperature", "/final_temperature", "Final temperature of two mixed water masses",
                  [_req("mass1", "integer"), _req("temperature1", "integer"), _req("mass2", "integer"),
                   _req("temperature2", "integer")], ["temperature"]),
        _endpoint("quadratic_roots", "/quadratic_roots", "Roots of a quadratic equation",
                  [_req("a", "number"), _req("b", "number"), _req("c", "number")], ["roots"]),
        _endpoint("euclidean_distance", "/euclidean_distance", "Euclidean distance between two points",
                  [_req("pointA", "array"), _req("pointB", "array")], ["distance"]),
        _endpoint("airport", "/airports", "Airport details by ICAO code",
                  [_req("icao_code", "string")], ["name", "last_update"]),
        _endpoint("tide_heights", "/stations/{station_id}/tides", "Predicted tide heights at a coastal station on a day",
                  [_req("station_id", "string"), _req("date", "date")], ["height", "time"]),
        _endpoint("article", "/articles/{article_id}", "Article details by id", [_req("article_id", "integer")],
                  ["title"]),
        _endpoint("movies_by_genre", "/movies", "Find movies by genre",
                  [{**_req("genre", "string"), "enum": ["Comedy", "Drama"]}], ["title"]),
        _endpoint("followed_artists", "/me/following", "Get the artists the user follows", [], ["artists"]),
        _endpoint("follow_artist", "/me/following", "Follow artists or users",
                  [_req("ids", "string")], [], method="PUT"),
        _endpoint("pause", "/me/player/pause", "Pause the user's playback", [], [], method="PUT"),
        _endpoint("mute", "/me/player/mute", "Mute the user's playback device", [], [], method="PUT"),
    ]))


@pytest.fixture(scope="module")
def router(tools: SchemaGraph) -> Router:
    return Router(tools)



# -- re-ranking instead of gates --------------------------------------------------------------------
def test_an_operation_named_only_by_its_id_is_planned_not_declined(router: Router, tools: SchemaGraph) -> None:
    plan = router.plan("Provide the battery level of vehicle with the ID hXQ7qFFt")
    assert _calls(plan) == ["toolbox.get_vehicle_battery_level"]
    assert plan.steps[0].params == {"vehicle_id": "hXQ7qFFt"}
    assert validate_plan(plan, tools) == []


def test_the_endpoint_that_answers_is_planned_with_the_value_the_question_leaves_out_named(
        router: Router, tools: SchemaGraph) -> None:
    plan = router.plan("Predicted tide heights at coastal station 9414290")
    assert _calls(plan) == ["toolbox.tide_heights"] and plan.steps[0].params == {"station_id": "9414290"}
    assert "date: required; the question does not give it" in plan.steps[0].why["_params"]
    assert validate_plan(plan, tools) == [], "incomplete, not invalid"
    assert plan_inputs(plan, tools) == ["toolbox.tide_heights.date"]
    assert plan.coverage is not None
    asked = [i for i in plan.coverage.missing if i.kind == "input"]
    assert [(i.name, i.why) for i in asked] == [("date", "toolbox.tide_heights requires it and the question does not give it")]
    complete = router.plan("Predicted tide heights at coastal station 9414290 on 2024-03-01")
    assert complete.steps[0].params == {"station_id": "9414290", "date": "2024-03-01"}
    assert plan_inputs(complete, tools) == [] and not any(i.kind == "input" for i in complete.coverage.items)


def test_what_a_step_must_still_be_given_leaves_out_defaults_and_the_key() -> None:
    endpoint = _source("station", [_endpoint("tides", "/tides", "Tide heights", [
        _req("station_id", "string"), {**_req("units", "string"), "default": "metric"}, _req("api_key", "string"),
        _req("token_name", "string")], ["height"])]).endpoint("tides")
    assert [p.name for p in ungiven_required(endpoint, {"station_id": "1"})] == ["token_name"]
    assert [p.name for p in ungiven_required(endpoint, {"station_id": "1"}, auth_name="token_name")] == []
    assert [p.name for p in ungiven_required(endpoint, {})] == ["station_id", "token_name"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["tide", "heights", "station", "9414290", "URL", "on", "2024-03-01", "quadratic",
                                 "a=2", "roots", "battery", "vehicle", "hXQ7qFFt", "airport", "EDDM", "Follow",
                                 "Taylor Swift", "distance", "(3,4)", "and", "mix", "20 kg", "movies", "genre", "drama", "article", "id", "-78.543", "CHEBI:40036", "5616445"]), max_size=10))
def test_any_soup_of_an_inventory_s_words_yields_a_valid_plan_that_names_what_it_lacks(
        router: Router, tools: SchemaGraph, words: list[str]) -> None:
    plan = router.plan(" ".join(words))
    assert validate_plan(plan, tools) == []
    inputs = [i.name for i in plan.coverage.items if i.kind == "input"] if plan.coverage else []
    assert sorted(inputs) == sorted(name.rsplit(".", 1)[1] for name in plan_inputs(plan, tools))


def test_an_endpoint_the_question_gives_nothing_it_requires_is_planned_naming_all_it_needs(
        router: Router, tools: SchemaGraph) -> None:
    # what is missing is evidence, not a gate: no other endpoint takes the question's values
    plan = router.plan("Predicted tide heights at a coastal station")
    assert _calls(plan) == ["toolbox.tide_heights"] and plan.steps[0].params == {}
    assert sorted(plan_inputs(plan, tools)) == ["toolbox.tide_heights.date", "toolbox.tide_heights.station_id"]
    assert validate_plan(plan, tools) == []


def test_the_fitted_models_name_every_feature_and_a_threshold() -> None:
    data = json.loads(files("schemarouter.router").joinpath("data", "rerank.json").read_text("utf-8"))
    for model in ("hybrid", "lexical"):
        assert set(data[model]["weights"]) == set(FEATURES), f"{model}: fitted for other features"
    assert all(data["lexical"]["weights"][f] == 0.0 for f in ("dense", "dense_rank")), "lexical mode reads no vectors"
    assert 0.0 < threshold(True) <= 1.0 and 0.0 < threshold(False) <= 1.0
    assert "tune" in data["about"]
    assert probability(10.0) > probability(0.0) > probability(-10.0)


def test_dense_re_ranking_is_a_setting(tools: SchemaGraph, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("schemarouter_embeddings")
    question = "Provide the battery level of vehicle with the ID hXQ7qFFt"
    monkeypatch.delenv("SCHEMAROUTER_DENSE", raising=False)
    lexical = Router(tools)
    assert not lexical.dense and not any(s.dense for s in lexical.reranked(
        lexical.understander.understand(question, tools))[1])
    monkeypatch.setenv("SCHEMAROUTER_DENSE", "true")
    hybrid = Router(tools)
    scored = hybrid.reranked(hybrid.understander.understand(question, tools))[1]
    assert hybrid.dense and scored and all(s.dense for s in scored)
    assert any(s.features[FEATURES.index("dense")] > 0 for s in scored), "the dense index was read"
    assert _calls(hybrid.plan(question)) == ["toolbox.get_vehicle_battery_level"]


# -- last-resort values for required parameters -----------------------------------------------------
@pytest.mark.parametrize(("question", "endpoint", "want"), [
    ("Solve a quadratic equation where a=2, b=6, and c=5", "quadratic_roots", {"a": 2, "b": 6, "c": 5}),
    ("Calculate the final temperature when 20 kg of water at 30 degree Celsius is mixed with 15 kg of water at 60 "
     "degree Celsius", "final_temperature", {"mass1": 20, "temperature1": 30, "mass2": 15, "temperature2": 60}),
    ("Compute the Euclidean distance between two points A(3,4) and B(1,2).", "euclidean_distance",
     {"pointA": [3, 4], "pointB": [1, 2]}),
    ('Please retrieve the name and last update date for the airport with the ICAO code "EDDM" in Germany.',
     "airport", {"icao_code": "EDDM"}),
])
def test_required_parameters_the_words_do_not_tie_are_guessed_by_shape_and_order(
        router: Router, tools: SchemaGraph, question: str, endpoint: str, want: dict[str, Any]) -> None:
    plan = router.plan(question)
    assert _calls(plan) == [f"toolbox.{endpoint}"]
    assert plan.steps[0].params == want
    assert validate_plan(plan, tools) == []


@pytest.mark.parametrize("path", ["~/data/myfMRI.nii", "C:/data/cars.csv", "/var/scans/run1.nii"])
def test_a_file_path_the_question_writes_is_read_whole(graph: SchemaGraph, path: str) -> None:
    scans = _endpoint("analyze_scan", "/analyze_scan", "Analyze a brain scan file",
                      [_req("data_source", "string")], ["result"])
    plan = Router(with_catalogue(graph, _source("lab", [scans]))).plan(f"Analyze the brain scan in {path} please")
    assert _calls(plan) == ["lab.analyze_scan"]
    assert plan.steps[0].params == {"data_source": path}


def test_two_names_joined_for_a_pair_of_parameters_go_one_to_each(graph: SchemaGraph) -> None:
    trip = _endpoint("shortest_distance", "/city_distance/shortest", "Shortest distance between two cities",
                     [_req("start_city", "string"), _req("end_city", "string")], ["distance_km"])
    plan = Router(with_catalogue(graph, _source("travel", [trip]))).plan(
        "Find the shortest distance between two cities, New York and Los Angeles, by train.")
    assert _calls(plan) == ["travel.shortest_distance"]
    assert plan.steps[0].params == {"start_city": "New York", "end_city": "Los Angeles"}


def test_a_guess_is_recorded_and_spends_each_value_once(router: Router) -> None:
    analysis = router.understander.understand("Mix 20 kg at 30 degrees", router.graph)
    params = [Parameter(name=n, type="integer", required=True) for n in ("mass1", "temperature1", "mass2")]
    got = guess_required(params, analysis, Filled(values={"mass1": 20}, used={"20"}), lambda: None)
    assert got.values == {"temperature1": 30}, "20 was spent on mass1; nothing is left for mass2"
    assert got.guessed == {"temperature1"}
    assert got.why["temperature1"].startswith("guessed")


def test_a_value_is_conformed_to_what_the_parameter_declares_or_refused() -> None:
    flag = Parameter(name="free_entry", type="string", enum=["True", "False", "dontcare"])
    assert conformed(flag, True) == "True" and conformed(flag, "dontcare") == "dontcare"
    assert conformed(flag, "maybe") is None
    article = Parameter(name="article_id", type="integer", required=True)
    assert conformed(article, 5616445) == 5616445
    assert conformed(article, "-78.543") is None and conformed(article, "10.1038/nature12373") is None
    assert conformed(article, True) is None, "a yes is no number"
    binding = {"from": "s1", "field": "id", "pick": "first"}
    assert conformed(article, binding) == binding, "a binding is checked where it is made"
    # a declared pattern, read as JSON Schema reads one: anchored where it says so, found anywhere else
    wmo = Parameter(name="platform_number", type="string", required=True, pattern=r"^\d{7}$")
    assert conformed(wmo, "5906468") == "5906468" and conformed(wmo, "Southern Ocean") is None
    assert conformed(Parameter(name="code", type="string", pattern=r"[A-Z]{2}"), "in DE") == "in DE"


def test_a_value_the_parameter_cannot_take_is_not_sent(router: Router, tools: SchemaGraph) -> None:
    plan = router.plan("Article details for article id -78.543")
    assert validate_plan(plan, tools) == []
    assert all(s.params.get("article_id") != "-78.543" for s in plan.steps), "no text in an integer id"
    assert _calls(router.plan("Article details for article id 5616445")) == ["toolbox.article"]


def test_a_guess_never_goes_outside_a_declared_list_of_values(router: Router) -> None:
    genre = Parameter(name="genre", type="string", required=True, enum=["Comedy", "Drama", "Sci-fi"])
    outside = router.understander.understand("Find movies with a URL", router.graph)
    assert guess_required([genre], outside, Filled(), lambda: "movies").values == {}, "URL is no genre"
    said = router.understander.understand("Find movies, genre 'sci-fi'", router.graph)
    assert guess_required([genre], said, Filled(), lambda: None).values == {"genre": "Sci-fi"}, "the member as declared"


def test_a_number_glued_to_its_unit_is_a_number(router: Router) -> None:
    analysis = router.understander.understand("The triangle's base and height are 6cm and 10.5cm, at 440Hz",
                                              router.graph)
    params = [Parameter(name=n, type="number", required=True) for n in ("base", "height", "frequency")]
    got = guess_required(params, analysis, Filled(), lambda: None)
    assert got.values == {"base": 6, "height": 10.5, "frequency": 440}
    charges = router.understander.understand("Potential between charges of 1e-9 and 2E-9", router.graph)
    pair = [Parameter(name=n, type="number", required=True) for n in ("charge1", "charge2")]
    assert guess_required(pair, charges, Filled(), lambda: None).values == {"charge1": 1e-9, "charge2": 2e-9}
    ordinal = router.understander.understand("Due on the 3rd at 10am", router.graph)
    assert guess_required(params[:1], ordinal, Filled(), lambda: None).values == {}, "3rd and 10am are no quantities"


def test_numbers_listed_without_brackets_are_a_list_for_an_array(router: Router) -> None:
    analysis = router.understander.understand("A histogram of the scores 85, 90, 88 and 92 with 5 bins", router.graph)
    params = [Parameter(name="data", type="array", required=True), Parameter(name="bins", type="integer", required=True)]
    got = guess_required(params, analysis, Filled(), lambda: None)
    assert got.values == {"data": [85, 90, 88, 92], "bins": 5}, "the listed numbers are spent on the list"


def test_a_guess_keeps_to_the_shape_of_the_identifier_a_parameter_is_named_for(router: Router) -> None:
    analysis = router.understander.understand("In which journal did 'Deep residual learning' appear?", router.graph)
    issn = Parameter(name="issn", type="string", required=True)
    title = Parameter(name="title", type="string", required=True)
    assert guess_required([issn], analysis, Filled(), lambda: None).values == {}, "a title is no ISSN"
    assert guess_required([title], analysis, Filled(), lambda: None).values == {"title": "Deep residual learning"}
    shaped = router.understander.understand("Which journal has the code '0028-0836'?", router.graph)
    assert guess_required([issn], shaped, Filled(), lambda: None).values == {"issn": "0028-0836"}


def test_a_count_written_as_one_word_is_no_identifier_to_guess(router: Router) -> None:
    analysis = router.understander.understand("Give me the 5-day forecast for station KRDU", router.graph)
    city = Parameter(name="city", type="string", required=True)
    assert guess_required([city], analysis, Filled(), lambda: None).values.get("city") != "5-day"
    coded = router.understander.understand("Battery level of vehicle hXQ7qFFt", router.graph)
    assert guess_required([city], coded, Filled(), lambda: None).values == {"city": "hXQ7qFFt"}


@pytest.mark.parametrize(("description", "want"), [
    ("The size of the deck. Default is 52.", 52),
    ("Annual rate. Default is 0.05.", 0.05),
    ("The unit, default: 'kg'", "kg"),
    ("Number of results (default 5)", 5),
    ("defaults to the current year", None),  # a phrase, not a value
    ("The default depends on the region.", None),
])
def test_a_default_stated_in_words_is_read_from_the_description(description: str, want: Any) -> None:
    assert (stated_default(Parameter(name="x", type="string", description=description)) or None) == (
        None if want is None else str(want))


def test_a_required_parameter_left_unsaid_takes_the_default_its_description_states(router: Router) -> None:
    analysis = router.understander.understand("What is the probability of a full house in poker?", router.graph)
    deck = Parameter(name="deck_size", type="integer", required=True, description="The size of the deck. Default is 52.")
    hand = Parameter(name="hand_size", type="integer", required=True, description="The size of the hand.")
    got = guess_required([deck, hand], analysis, Filled(), lambda: None)
    assert got.values == {"deck_size": 52}, "a parameter whose description states no default stays empty"
    assert got.guessed == {"deck_size"} and "default" in got.why["deck_size"]
    told = router.understander.understand("Full house odds with a deck of 36 cards", router.graph)
    assert guess_required([deck], told, Filled(), lambda: None).values == {"deck_size": 36}, "the question's number wins"


def test_a_required_switch_is_on_where_the_question_says_it_else_its_stated_default_else_off(router: Router) -> None:
    analysis = router.understander.understand("Details of the case Roe v. Wade. Include dissent information.",
                                              router.graph)
    dissent = Parameter(name="include_dissent", type="boolean", required=True)
    brief = Parameter(name="brief", type="boolean", required=True, description="Short output. Default is true.")
    formatted = Parameter(name="formatted", type="boolean", required=True)
    got = guess_required([dissent, brief, formatted], analysis, Filled(), lambda: None)
    assert got.values == {"include_dissent": True, "brief": True, "formatted": False}
    assert got.guessed == {"include_dissent", "brief", "formatted"}


def test_an_ordinal_is_a_whole_number_once_the_plain_numbers_are_spent(router: Router) -> None:
    analysis = router.understander.understand("Important wars in European history during the 19th century",
                                              router.graph)
    century = Parameter(name="century", type="integer", required=True)
    assert guess_required([century], analysis, Filled(), lambda: None).values == {"century": 19}
    amount = Parameter(name="amount", type="number", required=True)
    assert guess_required([amount], analysis, Filled(), lambda: None).values == {}, "a rank is no quantity"
    region = Parameter(name="region", type="string", required=True)
    assert guess_required([region], analysis, Filled(), lambda: None).values.get("region") != "19th"


def test_names_a_question_joins_with_and_are_a_list_for_an_array(router: Router) -> None:
    analysis = router.understander.understand("Stock prices of Microsoft and Google for the last 2 weeks",
                                              router.graph)
    companies = Parameter(name="companies", type="array", required=True)
    ticker = Parameter(name="ticker", type="string", required=True)
    got = guess_required([companies, ticker], analysis, Filled(), lambda: None)
    assert got.values["companies"] == ["Microsoft", "Google"]
    assert got.values.get("ticker") != "Microsoft and Google", "the names spent on the list are spent"
    one = router.understander.understand("Stock price of Microsoft", router.graph)
    single = guess_required([companies], one, Filled(), lambda: None)
    assert single.values == {"companies": ["Microsoft"]}, "one name is a list of one"
    assert "list of one" in single.why["companies"]
    coded = router.understander.understand("Which gene encodes protein Q9Y6K9?", router.graph)
    accession = Parameter(name="accession", type="array", required=True)
    assert guess_required([accession], coded, Filled(), lambda: None).values == {"accession": ["Q9Y6K9"]}
    prose = router.understander.understand("which proteins are known", router.graph)
    assert guess_required([accession], prose, Filled(), lambda: "known").values == {}, "no prose in a list"


def test_a_proper_noun_the_registry_knows_is_still_a_value_for_text(router: Router) -> None:
    # "California" and "Google" are words some declaration uses, so they are no names of the question;
    # written capitalized inside a sentence they are still proper nouns
    analysis = router.understander.understand("Find the possible punishments for theft in California", router.graph)
    jurisdiction = Parameter(name="jurisdiction", type="string", required=True)
    got = guess_required([jurisdiction], analysis, Filled(), lambda: "possible punishments")
    assert got.values == {"jurisdiction": "California"}
    opening = router.understander.understand("Punishments for theft, please", router.graph)
    assert guess_required([jurisdiction], opening, Filled(), lambda: None).values == {}, "a sentence's first word"
    key = Parameter(name="case_id", type="string", required=True)
    assert guess_required([key], analysis, Filled(), lambda: None).values == {}, "a key takes no prose"


@pytest.mark.parametrize(("question", "want"), [
    ("i want to get the subdomains from google.com", "google.com"),
    ("add the server at http://plga.ca. The key is secret", "http://plga.ca"),
    ("my email is john.doe@example.org, thanks", "john.doe@example.org"),
])
def test_a_web_or_mail_address_the_question_writes_is_a_value_for_text(router: Router, question: str,
                                                                        want: str) -> None:
    analysis = router.understander.understand(question, router.graph)
    target = Parameter(name="target", type="string", required=True)
    assert guess_required([target], analysis, Filled(), lambda: "words").values == {"target": want}


@pytest.mark.parametrize(("path", "said", "want"), [
    ({"calc", "area", "triangl"}, {"calcul", "area", "triangl"}, 0.0),  # an abbreviation names its word
    ({"math", "hypot"}, {"hypotenus", "right", "triangl"}, 0.5),
    ({"religion", "histori"}, {"histor", "event"}, 0.5),  # stems of one root
    ({"ab", "area"}, {"abc", "area"}, 0.5),  # shorter than a stem: no shortening
    ({"formationenergi"}, {"format", "energi"}, 1.0),  # a compound that begins with a word says only that word
    ({"specificcolorset"}, {"specif", "color", "set", "random"}, 0.0),  # words run together, each said
    ({"randomcolorset"}, {"random", "color"}, 1.0),  # ... but not when one of them is not
    ({"colorset", "list"}, {"color", "set"}, 0.5),
    # a verb that only says the endpoint returns something may open the name unsaid
    ({"getrandomarray"}, {"generat", "random", "array"}, 0.0),
    ({"listuser"}, {"user", "activ"}, 0.0),
    ({"getrandomcolor"}, {"random", "array"}, 1.0),  # ... the words after it must still be said
    (set(), {"area"}, 0.0),
])
def test_a_path_word_the_question_says_shortened_or_in_another_form_is_said(path: set[str], said: set[str],
                                                                          want: float) -> None:
    assert unsaid_share(path, said) == want


def test_a_path_segment_that_only_names_its_tool_says_nothing_the_question_must_say(graph: SchemaGraph) -> None:
    brand = _source("music_tool", [
        {**_endpoint("music_tool", "/MusicTool", "Music Tool", [], ["answer"]),
         "description": "Create music playlists and check out the latest music trends."},
        _endpoint("playlists", "/music_tool/{user}/playlists", "A user's playlists", [_req("user", "string")],
                  ["name"]),
    ])
    tools = with_catalogue(graph, brand)
    infos = {i.key.endpoint: i for i in tools.source_endpoints("music_tool")}
    assert telling_path_terms(infos["music_tool"]) == set(), "the segment spells the tool's title"
    assert telling_path_terms(infos["playlists"]) == {"playlist"}, "a segment naming the tool goes; the rest stays"
    router = Router(tools)
    evidence = router.evidence(router.understander.understand("What are the latest music trends?", tools), 10)
    unsaid = {label: features["unsaid"] for label, _p, features in evidence}
    assert unsaid["music_tool.music_tool"] == 0.0, "the tool's own name ('tool' is unsaid) counted against it"


def test_a_title_word_in_a_path_is_still_the_path_s_word(graph: SchemaGraph) -> None:
    movies = _source("tmdb_like", [_endpoint("movie", "/movie/{movie_id}", "Movie details",
                                             [_req("movie_id", "integer")], ["title"])])
    movies = movies.model_copy(update={"title": "The Movie Database"})
    info = next(iter(with_catalogue(graph, movies).source_endpoints("tmdb_like")))
    assert telling_path_terms(info) == {"movi"}, "only a segment spelling the whole title names the tool"


@pytest.mark.parametrize(("name", "want"), [
    ("annual_yield", 0.05), ("discountRate", 0.05), ("growth_ratio", 0.05),
    ("percentage", 5), ("rate_percent", 5), ("amount", 5),  # named for a percentage, or for no rate at all
])
def test_a_percentage_is_a_fraction_for_a_rate(router: Router, name: str, want: float) -> None:
    analysis = router.understander.understand("A fund growing 5% a year", router.graph)
    got = guess_required([Parameter(name=name, type="number", required=True)], analysis, Filled(), lambda: None)
    assert got.values == {name: want}


# -- declines that know the registry ------------------------------------------------------------------
def test_a_verb_only_a_write_endpoint_does_is_a_request_to_act(router: Router, tools: SchemaGraph) -> None:
    assert "mute" in write_verbs(tools), "no general action verb, yet only a write endpoint does it"
    assert "follow" not in write_verbs(tools), "a general action verb needs no registry to act"
    plan = router.plan("Mute the player")
    assert not plan.steps and plan.declined
    assert "toolbox.mute" in plan.declined, "the decline names the write that would do it"
    plan = router.plan("Follow Taylor Swift")
    assert not plan.steps and "toolbox.follow_artist" in (plan.declined or "")
    assert router.plan("Pause the player").declined


def test_the_vocabulary_s_pick_weighs_as_much_as_the_share_of_candidates_it_could_see(graph: SchemaGraph) -> None:
    # the vocabulary route chooses among the endpoints it describes; beside a catalogue nobody described
    # its pick is a choice among a few of the candidates, and weighs that much
    question = ("I'm a football blogger and need fresh content for my website. Can you fetch the latest football "
                "news articles from Eurosport and provide the titles, descriptions, and publication dates?")
    vocabulary = FEATURES.index("vocabulary")

    def picked(g: SchemaGraph) -> tuple[float, float]:
        router = Router(g)
        _steps, scored = router.reranked(router.understander.understand(question, g))
        (pick,) = [c for c in scored if c.features[FEATURES.index("current")]]
        described = sum(1 for c in scored if c.info.endpoint.intents) / len(scored)
        return pick.features[vocabulary], described

    alone, _ = picked(graph)
    assert alone == 1.0  # only described sources: the vocabulary saw every candidate
    news = [_endpoint(f"news_{i}", f"/news{i}", summary, [], ["title", "description", "published"])
            for i, summary in enumerate(["Get the latest football news articles from Eurosport",
                                         "Live football scores of today's matches", "Football league standings"])]
    weight, described = picked(with_catalogue(graph, _source("sportsfeed", news)))
    assert weight == described and 0 < weight < 1


def test_money_asked_in_another_currency_is_a_conversion_not_a_price(graph: SchemaGraph) -> None:
    petrol = _endpoint("petrol", "/petrol_prices", "Petrol prices", [], ["price"],
                       description="The average daily petrol price and its cost in any state.")
    exchange = _endpoint("exchange", "/exchange", "Exchange", [], ["amount"],
                         description="Seamlessly convert currencies with our currency conversion tool.")
    router = Router(with_catalogue(graph, _source("tools", [petrol, exchange])))
    assert _calls(router.plan("How much is 50 GBP in USD?")) == ["tools.exchange"]
    assert _calls(router.plan("How much is petrol in Sydney?")) == ["tools.petrol"]


# -- several entities, several answers -----------------------------------------------------------------
def test_each_formula_named_gets_its_own_step(graph: SchemaGraph) -> None:
    plan = Router(graph).plan("Band gaps of GaN, AlN and InN")
    assert [s.params.get("formula") for s in plan.steps] == ["GaN", "AlN", "InN"]
    assert len({s.id for s in plan.steps}) == 3
    assert {(s.source, s.endpoint) for s in plan.steps} == {(plan.steps[0].source, plan.steps[0].endpoint)}
    assert validate_plan(plan, graph) == []


def test_comparing_two_compounds_is_a_plan_with_one_step_each(graph: SchemaGraph) -> None:
    plan = Router(graph).plan("Compare the molecular weight of aspirin and ibuprofen")
    assert not plan.declined
    assert sorted(str(v) for s in plan.steps for v in s.params.values()) == ["aspirin", "ibuprofen"]


# -- bad input: a valid plan or a decline with its reason, never an exception ------------------------
@pytest.fixture(scope="module")
def bare(graph: SchemaGraph) -> SchemaGraph:
    """2,000 endpoints that declare nothing but a path, half of them twins of another."""
    endpoints = []
    for i in range(2000):
        n = i // 2  # two endpoints with the same path words and no description
        endpoints.append({"id": f"op_{i}", "base_url": TOOL_BASE, "path": f"/things{n}/{{thing_id}}/part{n % 37}",
                          "summary": "", "parameters": [_req("thing_id", "string")], "fields": [_field("value")]})
    return with_catalogue(graph, _source("bare", endpoints))


@pytest.mark.parametrize("question", [
    "part5", "things", "Wie hoch ist die Bandlücke von GaN?", "¿Cuál es el peso molecular de la aspirina?",
    "Ask the Acme Quantum Registry for part 12 of thing X7Y9", "?", "part12 of things12 for thing ab12cd",
])
def test_any_question_over_a_registry_of_bare_paths_plans_validly_or_declines(bare: SchemaGraph,
                                                                              question: str) -> None:
    plan = Router(bare).plan(question)
    if plan.steps:
        assert validate_plan(plan, bare) == [], question
    else:
        assert plan.declined, f"{question!r}: no steps and no reason"


def test_a_substitute_for_one_entitys_step_asks_about_that_entity(graph: SchemaGraph) -> None:
    router = Router(graph)
    plan = router.plan("Band gaps of GaN, AlN and InN")
    for index, formula in enumerate(["GaN", "AlN", "InN"]):
        alternatives = router.substitutes(plan, index)
        assert alternatives, f"no fallback for the {formula} step"
        for alt in alternatives:
            said = json.dumps(alt.step.params)
            other = [f for f in ("GaN", "AlN", "InN") if f != formula]
            assert not any(o in said or ",".join([o[:-1].rstrip("N") or o, "N"]) in said for o in other), (
                f"{alt.step.source} asked about another entity than {formula}: {said}")
            assert formula[:-1] in said, f"{alt.step.source} lost {formula}: {said}"


def test_an_endpoint_the_question_gives_nothing_does_not_yield_to_one_only_a_guess_fills(graph: SchemaGraph) -> None:
    # "a specific artist" names no artist: the top tracks are still what is asked; an endpoint whose
    # text a last-resort guess fills is not about the question's inputs
    music = with_catalogue(graph, _source("music", [
        _endpoint("artist_top_tracks", "/artists/{artist_id}/top-tracks", "Top tracks of an artist",
                  [_req("artist_id", "string")], ["tracks"]),
        _endpoint("track_poster", "/posters", "Generate a poster of tracks from a text",
                  [_req("text", "string")], ["image_url"]),
    ]))
    plan = Router(music).plan("Fetch the top tracks of a specific artist")
    assert _calls(plan) == ["music.artist_top_tracks"]
    assert plan_inputs(plan, music) == ["music.artist_top_tracks.artist_id"]


def _candidate(tools: SchemaGraph, endpoint: str, probability_: float, *, takes: bool) -> Any:
    """A re-ranking candidate over ``tools`` with the given probability: one that takes the question's
    own values (a chain spending them, no guess), or one the question gives nothing it requires."""
    from schemarouter.router.chains import Node
    from schemarouter.router.rerank import Scored

    info = tools.endpoints[("toolbox", endpoint)]
    features = [0.0] * len(FEATURES)
    features[FEATURES.index("spent")] = 1.0 if takes else 0.0
    chain = Node(info, {"article_id": 7}, used={"7"}) if takes else None
    score = -math.log(1.0 / probability_ - 1.0)  # the score whose probability this is
    return Scored(info, chain, tuple(features), score, False, Filled())


@pytest.mark.parametrize("later", [0.2, 0.99])
def test_a_candidate_the_question_gives_nothing_yields_only_to_a_later_one_that_would_be_planned(
        tools: SchemaGraph, monkeypatch: pytest.MonkeyPatch, later: float) -> None:
    """Where the routes plan nothing, the best candidate yields to a later one that takes the
    question's values only where that one clears the decline threshold; else the best is planned,
    naming what the question leaves out, not declined."""
    import schemarouter.router.core as core

    best = _candidate(tools, "tide_heights", 0.99, takes=False)
    taker = _candidate(tools, "article", later, takes=True)
    assert probability(best.score) >= threshold(False) and (probability(taker.score) >= threshold(False)) == (later > 0.5)
    monkeypatch.setattr(core, "score_candidates", lambda *_a, **_k: [best, taker])
    plan = Router(tools, dense=False).plan("zqxv wuffle blorp")
    if later > 0.5:
        assert _calls(plan) == ["toolbox.article"]
    else:
        assert _calls(plan) == ["toolbox.tide_heights"]
        assert "station_id: required; the question does not give it" in plan.steps[0].why["_params"]
