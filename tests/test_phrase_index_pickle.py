"""The phrase index is pickled (in the graph cache file) as columns, not one state per term: what comes
back must be the same index, bucket by bucket and term by term, and find the same phrases."""

from __future__ import annotations

import pickle

from schemarouter.graph.phrases import PhraseIndex, Term, tokenize


def _index() -> PhraseIndex:
    index = PhraseIndex()
    index.add("concept", "band_gap", "band gap")
    index.add("field", "band_gap", "Band Gap")  # same key, second term: a bucket of two
    index.add("field", "egap", "band gap")
    index.add("source", "materials_project", "MP")  # short capitals: case-sensitive
    index.add("intent", "lookup", "look up", case_sensitive=False)
    return index


def _terms(index: PhraseIndex, keys: list[str]) -> list[tuple[str, list[tuple[str, object, str, str, bool]]]]:
    return [(key, [(t.kind, t.target, t.phrase, t.original, t.case_sensitive) for t in index.terms(key)])
            for key in keys]


def test_a_pickled_phrase_index_keeps_every_term_in_order() -> None:
    index = _index()
    keys = list(index.entries)
    back = pickle.loads(pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL))
    assert not back.entries, "read back, a phrase's terms are made when it is first looked up"
    assert _terms(back, keys) == _terms(index, keys)
    assert isinstance(back.entries["mp"], Term), "a phrase of one term stays a term, not a list"
    assert isinstance(back.entries["band gap"], list) and len(back.entries["band gap"]) == 3
    assert all(t.phrase is key for key in keys for t in back.terms(key)), "a term's phrase is its key"
    assert back.longest == index.longest
    assert back.terms("no such phrase") == ()
    # and it pickles again whole, looked-up phrases and others alike
    again = pickle.loads(pickle.dumps(back, protocol=pickle.HIGHEST_PROTOCOL))
    assert _terms(again, keys) == _terms(index, keys)


def test_a_phrase_added_to_a_read_back_index_keeps_its_earlier_terms() -> None:
    back = pickle.loads(pickle.dumps(_index(), protocol=pickle.HIGHEST_PROTOCOL))
    back.add("field", "gap_energy", "band gap")
    assert [t.target for t in back.terms("band gap")] == ["band_gap", "band_gap", "egap", "gap_energy"]
    back.add("concept", "band_gap", "band gap")  # already there: nothing added
    assert len(back.terms("band gap")) == 4


def test_a_pickled_phrase_index_finds_what_the_original_finds() -> None:
    index = _index()
    back = pickle.loads(pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL))
    for text in ("What is the band gap in MP?", "the mp of ice", "look up the Band Gap"):
        tokens = tokenize(text)
        assert [(m.start, m.end, [t.target for t in m.terms]) for m in back.scan(tokens, text)] == [
            (m.start, m.end, [t.target for t in m.terms]) for m in index.scan(tokens, text)
        ]


def test_a_compacted_phrase_index_is_the_index_it_was_and_takes_more_terms_in_order() -> None:
    index, plain = _index(), _index()
    index.compact()
    assert not index.entries, "compacted, every term is a column row"
    keys = list(plain.entries)
    assert _terms(index, keys) == _terms(plain, keys)
    # added to after a compaction: a phrase kept as rows gets its terms back first, and the new term after
    # them; a phrase never seen before sorts among the rows at the next compaction
    for target in (index, plain):
        target.add("field", "gap_direct", "band gap")
        target.add("concept", "aardvark", "aardvark")
        target.add("concept", "zebra", "zebra")
        target.add("field", "band_gap", "Band Gap")  # already there: no second term
    index.compact()
    keys = ["aardvark", "band gap", "look up", "mp", "zebra"]
    assert _terms(index, keys) == _terms(plain, keys)
    assert index.terms("band gap")[-1].target == "gap_direct" and len(index.terms("band gap")) == 4
    assert index.longest == plain.longest
    # its pickled form is the plain index's, and compacting nothing new changes nothing
    assert index.__getstate__() == plain.__getstate__()
    before = index.__getstate__()
    index.compact()
    assert index.__getstate__() == before
    assert [m.terms[0].target for m in index.scan(tokenize("the band gap of an aardvark"), "the band gap of an aardvark")] \
        == ["band_gap", "aardvark"]
