"""Dense retrieval: the shipped static model, the index over a graph's read endpoints, and the
lexical-only mode where the model's distribution is not installed."""

from __future__ import annotations

import subprocess
import sys
from importlib.resources import files
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from schemarouter.graph import SchemaGraph, dense
from schemarouter.graph.terms import question_terms
from schemarouter.models import Source
from schemarouter.router import Router
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)

BASE = "http://127.0.0.1:9"


def _endpoint(endpoint_id: str, path: str, summary: str, description: str, fields: list[str],
              method: str = "GET") -> dict[str, Any]:
    return {"id": endpoint_id, "base_url": BASE, "path": path, "method": method, "summary": summary,
            "description": description, "access": "read" if method == "GET" else "write",
            "parameters": [{"name": "movie_id", "type": "integer", "required": True}] if "{" in path else [],
            "fields": [{"name": f, "path": f, "type": "string", "group": "content"} for f in fields]}


def _cinema() -> Source:
    """A made-up movie database: the endpoint about a movie's crew never says "direct" or "film"."""
    return Source.model_validate({
        "id": "cinema", "title": "Cinema Catalogue", "domain": "general", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            _endpoint("movie_crew", "/movie/{movie_id}/crew", "Movie crew",
                      "The crew members of a movie and the job each of them had.", ["crew_name", "crew_job"]),
            _endpoint("movie_revenue", "/movie/{movie_id}/revenue", "Box office revenue",
                      "Ticket sales of a movie by country.", ["country", "revenue"]),
            _endpoint("movie_reviews", "/movie/{movie_id}/reviews", "Movie reviews",
                      "Critics' reviews of a movie with their ratings.", ["author", "rating", "content"]),
            _endpoint("add_rating", "/movie/{movie_id}/rating", "Rate a movie",
                      "Adds your rating to a movie.", ["status"], method="POST"),
        ],
    })


@pytest.fixture(scope="module")
def cinema_graph(graph: SchemaGraph) -> SchemaGraph:
    return with_catalogue(graph, _cinema())


def test_encode_gives_unit_float32_rows() -> None:
    from schemarouter_embeddings import dimensions, encode

    vectors = encode(["What is the band gap of silicon?", "movie crew", "zzzz qqqq", ""])
    assert vectors.dtype == np.float32 and vectors.shape == (4, dimensions())
    norms = np.linalg.norm(vectors, axis=1)
    assert np.allclose(norms[:3], 1.0, atol=1e-5)
    assert norms[3] == 0.0  # a text without a token embeds to nothing rather than to noise
    assert encode([]).shape == (0, dimensions())
    # close meanings are closer than unrelated ones
    film, crew, gap = encode(["who directed the film", "movie crew", "band gap of a semiconductor"])
    assert float(film @ crew) > float(film @ gap) + 0.2


def test_a_batch_encodes_each_text_as_alone() -> None:
    from schemarouter_embeddings import encode

    # a large batch tokenizes each distinct word once; a few short texts are encoded text by text:
    # the same vectors either way, in the order given, whatever else is in the batch
    texts = ["Get the movie credits for a person.", "crew_id, crew department", "", "Crème brûlée HBondDonorCount",
             "/movie/{movie_id}/credits", "?!"] * 5
    batch = encode(texts)
    alone = np.vstack([encode([t]) for t in texts])
    assert np.allclose(batch, alone, atol=1e-6)
    assert not np.allclose(batch[0], batch[1])


def test_a_few_short_texts_get_model2vecs_own_vectors_to_the_bit() -> None:
    from model2vec import StaticModel
    from schemarouter_embeddings import encode

    folder = files("schemarouter_embeddings").joinpath("model")
    reference = StaticModel.from_pretrained(str(folder), normalize=True)
    texts = ["Who directed Titanic?", "band gap of GaN in eV", "", "Wie hoch ist die Bandlücke?", "zzqx",
             "Crème brûlée HBondDonorCount /movie/{movie_id}/credits", "a " * 200]
    for few in ([t] for t in texts):
        want = np.asarray(reference.encode(few, show_progress_bar=False, use_multiprocessing=False), dtype=np.float32)
        norms = np.linalg.norm(want, axis=1, keepdims=True)
        np.divide(want, norms, out=want, where=norms > 0)
        assert np.array_equal(encode(few), want), few
    pairs = texts[:4]
    want = np.asarray(reference.encode(pairs, show_progress_bar=False, use_multiprocessing=False), dtype=np.float32)
    want /= np.where(np.linalg.norm(want, axis=1, keepdims=True) > 0, np.linalg.norm(want, axis=1, keepdims=True), 1)
    assert np.array_equal(encode(pairs), want)


def test_encoding_a_question_does_not_import_model2vec() -> None:
    code = ("import sys; from schemarouter_embeddings import encode; encode(['who directed the film']); "
            "print(sorted(m for m in ('model2vec', 'huggingface_hub', 'scipy.sparse') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"a question imported {out.strip()}"


@pytest.mark.parametrize(("question", "endpoint"), [
    ("people who made the film", "movie_crew"),
    ("how much money did the film earn", "movie_revenue"),
])
def test_a_paraphrase_without_a_shared_word_finds_the_endpoint(cinema_graph: SchemaGraph, question: str,
                                                               endpoint: str) -> None:
    wanted = cinema_graph.numbers[("cinema", endpoint)]
    # BM25F cannot reach it: no term of the question is in its declaration
    assert wanted not in cinema_graph.lexical.score(question_terms(question))
    ranked = dense.top(cinema_graph, question, 3)
    assert ranked[0][0] == wanted
    assert ranked[0][1] > ranked[1][1]


def test_a_looser_paraphrase_still_reaches_the_top(cinema_graph: SchemaGraph) -> None:
    question = "who directed the film"
    crew = cinema_graph.numbers[("cinema", "movie_crew")]
    assert crew not in cinema_graph.lexical.score(question_terms(question))
    ranked = dense.top(cinema_graph, question, 3)
    # a static model places it among the movie source's endpoints, ahead of every other source's
    assert crew in [n for n, _ in ranked]
    others = [c for n, c in dense.top(cinema_graph, question, 10) if cinema_graph.lexical.keys[n][0] != "cinema"]
    assert dict(ranked)[crew] > max(others)


def test_only_read_endpoints_are_indexed(cinema_graph: SchemaGraph) -> None:
    index = dense.dense_index(cinema_graph)
    assert index is not None
    assert cinema_graph.numbers[("cinema", "add_rating")] not in set(index.numbers.tolist())
    assert len(index.numbers) == sum(1 for i in cinema_graph.endpoints.values() if i.endpoint.access == "read")
    from schemarouter_embeddings import dimensions

    assert index.vectors.shape == (len(index.numbers), dimensions()) and index.vectors.dtype == np.float32


def test_keep_limits_the_candidates(cinema_graph: SchemaGraph) -> None:
    revenue = cinema_graph.numbers[("cinema", "movie_revenue")]
    reviews = cinema_graph.numbers[("cinema", "movie_reviews")]
    ranked = dense.top(cinema_graph, "who directed the film", 5, keep={revenue, reviews, 10**9})
    assert sorted(n for n, _ in ranked) == sorted([revenue, reviews])
    assert ranked[0][1] >= ranked[1][1]


def test_a_question_the_model_cannot_read_gets_no_candidates(cinema_graph: SchemaGraph) -> None:
    # no token of it is in the vocabulary: a zero vector would tie every endpoint at 0
    assert dense.top(cinema_graph, "☃ ☃", 5) == []
    assert dense.top(cinema_graph, "", 5) == []


def test_values_are_taken_out_of_the_text_embedded() -> None:
    text = "Who directed Lost in Translation (2003)?"
    assert dense.without(text, ["Lost in Translation", "2003", "Lost", ""]).split() == ["Who", "directed", "(", ")?"]
    assert dense.without("Titanic", ["Titanic"]) == "Titanic"  # nothing left: the text as it was


class _Counting:
    """An encoder with one axis per known word: what each text says, counted calls."""

    WORDS = ("crew", "revenue", "reviews")

    def __init__(self) -> None:
        self.calls: list[int] = []

    def __call__(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.calls.append(len(texts))
        out = np.array([[float(w in t.lower()) for w in self.WORDS] for t in texts], dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)


def test_the_index_is_built_once_per_graph(graph: SchemaGraph) -> None:
    first, second = with_catalogue(graph, _cinema()), with_catalogue(graph, _cinema())
    encoder = _Counting()
    index = dense.dense_index(first, encoder)
    assert index is not None and dense.dense_index(first) is index
    builds = len(encoder.calls)
    assert builds == 1  # every read endpoint in one batch
    for _ in range(3):
        dense.top(first, "crew", 2)
    assert len(encoder.calls) == builds + 3  # one question each, no rebuild
    assert dense.dense_index(second, encoder) is not index  # another graph has its own
    assert len(encoder.calls) == builds + 4


def test_ties_go_to_the_lower_number_and_k_is_honoured(graph: SchemaGraph) -> None:
    g = with_catalogue(graph, _cinema())
    index = dense.dense_index(g, _Counting())
    assert index is not None
    ranked = index.top("crew", 4)
    crew = g.numbers[("cinema", "movie_crew")]
    assert ranked[0] == (crew, pytest.approx(1.0))
    # every other endpoint scores 0 (no known word): ties in graph order
    assert [n for n, _ in ranked[1:]] == sorted(n for n, _ in ranked[1:])
    assert index.top("crew", 0) == [] and len(index.top("revenue", 10**6)) == len(index.numbers)


def test_without_the_model_routing_is_lexical_only(graph: SchemaGraph, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "schemarouter_embeddings", None)  # its import now raises ImportError
    assert dense.load_encoder() is None
    g = with_catalogue(graph, _cinema())
    assert dense.dense_index(g) is None
    assert dense.top(g, "who directed the film", 5) == []
    plan = Router(g).plan("What is the molecular weight of aspirin?")
    assert [(s.source, s.endpoint) for s in plan.steps][:1] == [("pubchem", "compound_properties")]


def test_the_vectors_travel_with_the_graph_into_its_cache_file(graph: SchemaGraph, tmp_path: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter.graph import persist

    g = with_catalogue(graph, _cinema())
    built = dense.dense_index(g)
    assert built is not None and g.fingerprint is not None
    path = tmp_path / "registry.db.graph"
    assert persist.write(path, g)
    again = persist.read(path, g.fingerprint)
    assert again is not None

    def refuse(*_args: Any) -> Any:
        raise AssertionError("the endpoints were embedded again")

    monkeypatch.setattr(dense, "build_dense", refuse)
    index = dense.dense_index(again)
    assert index is not None and np.array_equal(index.vectors, built.vectors)
    assert index.top("who directed the film", 3) == built.top("who directed the film", 3)


def test_vectors_another_model_made_are_embedded_again(graph: SchemaGraph, tmp_path: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter.graph import persist

    g = with_catalogue(graph, _cinema())
    assert dense.dense_index(g) is not None and g.fingerprint is not None
    path = tmp_path / "registry.db.graph"
    assert persist.write(path, g)
    monkeypatch.setattr(dense, "model_key", lambda: "another model")
    again = persist.read(path, g.fingerprint)
    assert again is not None
    calls: list[int] = []
    real = dense.build_dense

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(dense, "build_dense", counted)
    assert dense.dense_index(again) is not None and calls == [1]


def test_a_graph_whose_index_another_encoder_made_stores_no_vectors(graph: SchemaGraph) -> None:
    g = with_catalogue(graph, _cinema())
    assert dense.dense_index(g, _Counting()) is not None
    assert dense.stored_vectors(g) is None


def _one_sentence_tool() -> Source:
    """A tool as tool-selection benchmarks list them: its name given as title, path, summary and tag,
    and one sentence of what it does."""
    return Source.model_validate({
        "id": "fit_planner", "title": "Create Fit Plan", "domain": "general", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [{
            "id": "create_fit_plan", "base_url": BASE, "path": "/CreateFitPlan", "method": "GET",
            "summary": "Create Fit Plan", "tags": ["create fit plan"], "access": "read", "parameters": [],
            "description": "Builds a weekly training schedule for runners preparing a marathon.",
            "fields": [{"name": "answer", "path": "answer", "type": "string", "group": "content"}],
        }],
    })


def test_an_endpoint_s_text_says_each_of_its_parts_once(graph: SchemaGraph) -> None:
    # a static model averages token vectors: a name said four times would outweigh the sentence that
    # says what the tool is for, and every tool named alike would look alike
    tools = with_catalogue(graph, _one_sentence_tool())
    text = dense.endpoint_text(tools.endpoints[("fit_planner", "create_fit_plan")])
    assert text.lower().count("create fit plan") == 1
    assert "Builds a weekly training schedule for runners preparing a marathon." in text
    assert text.startswith("Create Fit Plan. ")  # the first writing is kept, in reading order
