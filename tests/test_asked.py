"""What a question asks for: the head of its opening phrase, and the re-ranker's feature on it."""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.models import ResponseField
from schemarouter.router import Router
from schemarouter.router.rerank import FEATURES
from schemarouter.understand.asked import agent_terms, asked_terms, kind_terms
from tests.open_world_support import catalogue, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


@pytest.mark.parametrize(("text", "terms"), [
    ("What is the genre of The Mandalorian?", ["genr"]),
    ("Who is the lead actor of today's most popular TV show?", ["actor", "cast"]),  # the kind the head says
    ("give me a photo of the lead actor of the show", ["photo", "imag"]),
    ("What are some keywords for a movie of the collection The Hunger Games?", ["keyword"]),
    ("Provide the battery level of vehicle hXQ7qFFt", ["level"]),
    ("Could you please tell me the boiling point of ethanol?", ["point"]),
    ("tell me about the history of Rome", ["histori"]),  # "me" is whom to tell, not what
    # the possessive form: what follows the owner's name
    ("What is Leonardo DiCaprio's latest movie?", ["movi"]),
    ("Tell me about actor Scarlett Johansson's birthday", ["birthday"]),
    ("Who is Tom Hanks' wife?", ["wife"]),
    ("What's Apple's stock price today?", ["price"]),
])
def test_the_head_of_the_opening_phrase_is_what_is_asked(text: str, terms: list[str]) -> None:
    assert asked_terms(text) == terms


@pytest.mark.parametrize("text", [
    "Who directed Titanic?",  # no head noun: a verb follows "who"
    "When was Nolan's latest film released?",  # "when" asks for a date, whatever the possessive says
    "band gap GaN",
    "Quelle est la masse molaire de l'aspirine ?",  # another language: no head, nothing said
    "",
])
def test_a_question_without_such_an_opening_asks_for_nothing_in_particular(text: str) -> None:
    assert asked_terms(text) == []


def test_a_candidate_whose_declaration_returns_what_is_asked_is_marked(graph: SchemaGraph) -> None:
    router = Router(with_catalogue(graph))
    analysis = router.understander.understand("Show me the images of the specimen Tyrannosaurus Sue", router.graph)
    assert analysis.asked == ["imag"]
    _steps, scored = router.reranked(analysis)
    answers = {c.info.endpoint.id: c.features[FEATURES.index("answers")] for c in scored}
    assert answers["specimen_images"] == 1.0
    assert answers["search_specimens"] == 0.0


@pytest.mark.parametrize(("text", "terms"), [
    ("How long is the video 76979871?", ["durat", "length", "runtim"]),
    ("How old is Tom Hanks?", ["age", "birthday"]),
    ("How far is Lyon from Paris?", ["distanc"]),
    ("How much does the licence cost?", ["price", "cost"]),
    ("How much longer will it take?", []),  # a comparison, not a price
    ("Is it a long video?", []),
    ("What does the lead actor of Titanic look like?", ["imag", "cast"]),  # a look is a picture
    # money in one currency asked in another is a conversion, not a price
    ("How much will 20000 Japanese Yen be in US dollars?", ["currenc", "convert", "exchang"]),
    ("I have 100 EUR, what is that in GBP?", ["currenc", "convert", "exchang"]),
    ("How much does a 100 EUR gift card cost?", ["price", "cost", "currenc"]),  # one currency: a price
    ("A five pound bag of rice and PHP tutorials", []),  # a weight, and a language's acronym
])
def test_asking_how_long_or_how_old_asks_for_a_quantity_of_that_kind(text: str, terms: list[str]) -> None:
    assert kind_terms(text, []) == terms


def test_the_field_named_for_the_quantity_asked_is_planned(graph: SchemaGraph) -> None:
    # no word of the question names the field: "how long" asks for a length
    source = catalogue()
    specimen = next(e for e in source.endpoints if e.id == "specimen")
    longer = specimen.model_copy(update={"fields": [*specimen.fields, ResponseField(
        name="length_mm", path="length_mm", type="number", group="content", description="Body size.")]})
    source = source.model_copy(update={"endpoints": [longer if e.id == "specimen" else e for e in source.endpoints]})
    plan = Router(with_catalogue(graph, source)).plan("How long is specimen 42 in the catalogue?")
    step = plan.steps[-1]
    assert step.endpoint == "specimen" and "length_mm" in step.fields
    assert "collector_id" not in step.fields, "only the field the question asks for, beside those that say which record"


@pytest.mark.parametrize(("text", "terms"), [
    ("Who discovered radium?", ["discover", "discoveror"]),  # discoverer
    ("Who first invented the telephone?", ["invent", "inventor"]),
    ("Who wrote Hamlet?", ["writer", "author"]),
    ("Who is the director of Inception?", []),  # the noun is written: nothing to add
    ("Who directed the top-1 rated movie?", []),  # a maker of a work: its credits say "crew" (kind_terms)
    ("When was radium discovered?", []),  # not a question for who did it
])
def test_asking_who_did_something_asks_for_its_agent_noun(text: str, terms: list[str]) -> None:
    assert agent_terms(text) == terms


def test_the_field_named_for_who_did_it_is_planned(graph: SchemaGraph) -> None:
    # "collected" and "collector" share no stem: the question asks for the collector
    plan = Router(with_catalogue(graph, catalogue())).plan("Who collected specimen 42 in the catalogue?")
    step = plan.steps[-1]
    assert step.endpoint == "specimen" and "collector_id" in step.fields
