"""The phrase index keeps each (phrase, target) once however often a graph adds it, keeps every
target a phrase names, in the order added, and finds the longest phrase in a question."""

from __future__ import annotations

from schemarouter.graph.phrases import PhraseIndex, Term, tokenize


def test_repeated_adds_keep_one_term_and_distinct_targets_share_a_bucket() -> None:
    index = PhraseIndex()
    for _ in range(3):  # a field phrase comes once per source that has the field
        index.add("field", "band_gap", "band gap")
        index.add("field", "band_gap", "Band_Gap")
    index.add("concept", "band_gap", "band gap")
    terms = index.terms("band gap")
    assert [(t.kind, t.target, t.original) for t in terms] == [
        ("field", "band_gap", "band gap"), ("field", "band_gap", "Band_Gap"), ("concept", "band_gap", "band gap")
    ]
    assert all(t.phrase == "band gap" for t in terms), "one normal form per bucket"


def test_a_phrase_is_kept_once_per_case_rule() -> None:
    index = PhraseIndex()
    index.add("source", "mp", "MP")
    index.add("source", "mp", "MP")
    index.add("field", "melting_point", "mp", case_sensitive=True)
    assert index.terms("mp") == [Term("source", "mp", "mp", "MP", True), Term("field", "melting_point", "mp", "mp", True)]
    text = "MP band gap of mp"
    found = index.scan(tokenize(text), text)
    assert [(m.text, [t.target for t in m.terms]) for m in found] == [("MP", ["mp"]), ("mp", ["melting_point"])]


def test_a_given_normal_form_is_the_key_and_longest_phrases_win() -> None:
    index = PhraseIndex()
    index.add("field", "formation_energy_per_atom", "formation_energy_per_atom", key="formation energy per atom")
    index.add("field", "formation_energy", "formation energy")
    index.add("field", "nothing", "--")  # no words: no phrase
    assert index.longest == {"formation": 4}
    assert "" not in index.entries
    text = "formation energy per atom of GaN"
    [match] = index.scan(tokenize(text), text)
    assert match.text == "formation energy per atom"
    assert [t.target for t in match.terms] == ["formation_energy_per_atom"]
