"""Text that only greets, thanks or takes leave is declined; a question with a greeting in front is
still a question."""

from __future__ import annotations

import pytest

from schemarouter.router import Router
from schemarouter.understand.smalltalk import small_talk
from tests.routing_support import graph, router, routing_db  # noqa: F401  (session fixtures)


@pytest.mark.parametrize("text", ["hello", "How are you today?", "Hi there!", "hi, how are you?", "Thanks a lot!",
                                  "good morning everyone", "Goodbye", "thank you so much"])
def test_greetings_thanks_and_farewells_alone_are_small_talk(text: str) -> None:
    assert small_talk(text)


@pytest.mark.parametrize("text", ["i love bike", "Hi, what is the band gap of GaN?", "Hello World API status",
                                  "What is up with the arXiv feed today?", "thanks to whom is aspirin named?", ""])
def test_anything_more_is_no_small_talk(text: str) -> None:
    assert not small_talk(text)


def test_small_talk_is_declined_saying_there_is_nothing_to_look_up(router: Router) -> None:
    plan = router.plan("Hello! How are you today?")
    assert not plan.steps
    assert plan.declined is not None and "nothing to look up" in plan.declined


def test_a_question_after_a_greeting_is_planned(router: Router) -> None:
    plan = router.plan("Hi, what is the molecular weight of aspirin?")
    assert plan.declined is None and [s.source for s in plan.steps] == ["pubchem"]
