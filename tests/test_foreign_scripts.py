"""A question in a script no declaration uses is declined saying so, not only that nothing matched."""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.router import Router
from schemarouter.understand.scripts import foreign_script
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


@pytest.mark.parametrize(("text", "script"), [
    ("최근 박지성에 관한 뉴스를 찾아줘.", "Hangul"),
    ("北京后天的天气如何？", "CJK characters"),
    ("ช่วยหาคุณแม่บ้านที่ให้บริการรีดผ้า", "Thai"),
    ("Какая погода в Москве?", "Cyrillic"),
    ("Quelle est la température à Lyon ?", None),  # Latin letters, accents or not
    ("Band gap of GaN (窒化ガリウム) from the Materials Project", None),  # mostly Latin
    ("42 / 7 = ?", None),  # no letters
])
def test_the_script_most_letters_are_written_in_unless_latin(text: str, script: str | None) -> None:
    assert foreign_script(text) == script


def test_a_question_in_another_script_is_declined_naming_the_script(graph: SchemaGraph) -> None:
    router = Router(graph)
    korean = router.plan("최근 박지성에 관한 뉴스를 찾아줘.")
    assert not korean.steps and korean.declined is not None and "written in Hangul" in korean.declined
    # a question in Latin letters that matches nothing says only that
    nonsense = router.plan("xyzzy plugh")
    assert nonsense.declined is not None and "written in" not in nonsense.declined
