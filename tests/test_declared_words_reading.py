"""A word the registry's declarations use is a word, not a value: not a name to search for (even in
camel case, or written as two words the declarations write as one), not a value after a noun."""

from __future__ import annotations

import pytest

from schemarouter.plan import Understanding
from schemarouter.understand.base import Analysis
from schemarouter.understand.reading import read_values
from tests.open_world_support import read_question


@pytest.mark.parametrize(("known", "declared", "undeclared", "name"), [
    # camel case: "UniProt" as the word uniprot of a field name
    ({"uniprot", "protein"}, "What is the full name of the UniProt protein P04637?",
     "What is the full name of the Zebrafin protein P04637?", "Zebrafin"),
    # two words the declarations write as one: "On Demand" beside /ondemand/genres
    ({"ondemand", "genr"}, "Which genres does the On Demand store offer?",
     "Which genres does the On Stage store offer?", "On Stage"),
])
def test_a_word_the_declarations_use_is_not_a_name(known: set[str], declared: str, undeclared: str,
                                                    name: str) -> None:
    a = Analysis(question="", understanding=Understanding())
    read_values(a, declared, [], known=known.__contains__)
    assert [e.value for e in a.names] == []
    read_values(a, undeclared, [], known=known.__contains__)
    assert [e.value for e in a.names] == [name]


def test_a_word_the_declarations_use_is_no_value_written_after_a_noun() -> None:
    known = {"tv", "show", "station"}.__contains__

    def labels(text: str) -> dict[str, str]:
        a = Analysis(question=text, understanding=Understanding())
        read_values(a, text, [], known=known)
        return a.labels

    # "TV" in "the most popular TV show" is the registry's word, as it is no code either
    assert labels("give me a keyword of the most popular TV show") == {}
    assert labels("Hourly forecast at station KRDU") == {"station": "KRDU"}  # a code nothing declares
    assert labels("Records for the term 'TV'") == {"term": "TV"}  # quoted: a value whatever it says
    assert read_question("give me a keyword of the most popular TV show").labels == {"popular": "TV"}  # nothing known
