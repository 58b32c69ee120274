"""Replay finds the recording of the same question, read from the declarations: the endpoint a request
goes to, its values, and where that endpoint sends its projection (query, path, body, matchbook)."""

from __future__ import annotations

import json

import pytest
from vcr.request import Request

from schemarouter.execution.replaymatch import QuestionKeys
from schemarouter.graph import SchemaGraph
from tests.routing_support import graph, routing_db  # noqa: F401


def _get(uri: str, body: object = None, method: str = "GET") -> Request:
    data = json.dumps(body).encode() if body is not None else None
    return Request(method, uri, data, {})


@pytest.fixture(scope="module")
def keys(graph: SchemaGraph) -> QuestionKeys:
    return QuestionKeys(graph.sources.values())


@pytest.fixture(scope="module")
def covering(graph: SchemaGraph) -> QuestionKeys:
    return QuestionKeys(graph.sources.values(), projection="covering")


MP = "https://api.materialsproject.org/materials/summary/?formula=SiC&_limit=1000&_fields="


def test_a_query_projection_is_set_aside_but_the_values_are_not(keys: QuestionKeys) -> None:
    asked = _get(MP + "material_id,band_gap")
    assert keys.same_question(asked, _get(MP + "material_id,formula_pretty,band_gap"))
    assert keys.same_question(asked, _get(MP.replace("_limit=1000", "_limit=5") + "band_gap"))  # a page size
    assert not keys.same_question(asked, _get(MP.replace("SiC", "GaN") + "material_id,band_gap"))
    assert not keys.same_question(asked, _get(MP.replace("api.materialsproject.org", "example.org") + "band_gap"))


def test_covering_serves_the_asked_fields_or_a_part_never_only_others(covering: QuestionKeys) -> None:
    asked = _get(MP + "material_id,k_vrh")
    assert covering.same_question(asked, _get(MP + "material_id,k_vrh,band_gap"))  # holds what is asked
    assert covering.same_question(asked, _get(MP + "k_vrh"))  # a part: the rest is reported missing
    assert not covering.same_question(asked, _get(MP + "material_id,band_gap,formula_pretty"))  # other fields


def test_a_path_projection_and_a_variable_sent_in_the_body(keys: QuestionKeys, covering: QuestionKeys) -> None:
    base = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/name/property/{}/JSON"
    # the adapter posts the name in the body, where the declaration has a path variable
    asked = Request("POST", base.format("MolecularWeight,XLogP"), b"name=aspirin", {})
    recorded = Request("POST", base.format("MolecularFormula,MolecularWeight,XLogP"), b"name=aspirin", {})
    assert keys.same_question(asked, recorded) and covering.same_question(asked, recorded)
    other = Request("POST", base.format("MolecularWeight"), b"name=ibuprofen", {})
    assert not keys.same_question(asked, other)
    assert not covering.same_question(Request("POST", base.format("TPSA"), b"name=aspirin", {}), recorded)


def test_a_body_projection_and_a_matchbook(keys: QuestionKeys) -> None:
    nomad = "https://nomad-lab.eu/prod/v1/api/v1/entries/query"
    query = {"query": {"results.material.elements": {"all": ["Ti", "O"]}}}
    asked = _get(nomad, {**query, "required": {"include": ["entry_id"]}}, "POST")
    assert keys.same_question(asked, _get(nomad, {**query, "required": {"include": ["entry_id", "results"]}}, "POST"))
    assert not keys.same_question(asked, _get(nomad, {"query": {"results.material.elements": {"all": ["Fe"]}}}, "POST"))
    aflux = "https://aflow.org/API/aflux/?species(Si,O),Egap(6*),{},format(json)"
    assert keys.same_question(_get(aflux.format("auid,Egap")), _get(aflux.format("compound,auid")))
    assert not keys.same_question(_get(aflux.format("auid")), _get(aflux.replace("Si,O", "Ga,N").format("auid")))


def test_an_undeclared_endpoint_matches_exactly_but_for_neutral_parameters(keys: QuestionKeys) -> None:
    url = "https://unknown.example/items?id=7&mailto=me@example.org"
    assert keys.same_question(_get(url), _get("https://unknown.example/items?id=7"))
    assert not keys.same_question(_get(url), _get("https://unknown.example/items?id=7&fields=a"))


def test_replays_on_two_threads_take_turns_so_neither_unpatches_the_other() -> None:
    import threading

    import httpx

    from schemarouter.execution.offline import recording_folders, replay

    folder = sorted(set(recording_folders().values()))[0]
    real = httpx.AsyncHTTPTransport.handle_async_request
    inside, release, second_in = threading.Event(), threading.Event(), threading.Event()

    def first() -> None:
        with replay(folder):
            inside.set()
            release.wait(10)

    def second() -> None:
        inside.wait(10)
        with replay(folder):
            second_in.set()

    a, b = threading.Thread(target=first), threading.Thread(target=second)
    a.start(), b.start()
    assert inside.wait(10)
    # while the first replay runs, the second waits: it cannot patch, nor later unpatch, under it
    assert not second_in.wait(0.5)
    assert httpx.AsyncHTTPTransport.handle_async_request is not real, "the first replay's patch holds"
    release.set()
    a.join(10), b.join(10)
    assert second_in.is_set()
    assert httpx.AsyncHTTPTransport.handle_async_request is real, "both ended: the real client is back"


def test_an_offline_client_sends_nothing_while_no_replay_is_patched_in() -> None:
    import asyncio
    import socket
    import threading

    import httpx
    from vcr.errors import CannotOverwriteExistingCassetteException

    from schemarouter.execution.http import make_client, replay_patched
    from schemarouter.execution.offline import recording_folders, replay

    # a local server that records whether anything reached it
    reached: list[bytes] = []
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]

    def accept() -> None:
        try:
            conn, _ = server.accept()
            reached.append(conn.recv(1024))
            conn.close()
        except OSError:
            pass

    listener = threading.Thread(target=accept, daemon=True)
    listener.start()

    async def send(offline: bool) -> str:
        async with make_client(offline=offline) as client:
            try:
                await client.get(f"http://127.0.0.1:{port}/records")
            except (httpx.HTTPError, CannotOverwriteExistingCassetteException) as err:
                return f"{type(err).__name__}: {err}"
        return "sent"

    assert not replay_patched()
    assert "offline replay is not in place" in asyncio.run(send(offline=True))
    assert reached == [], "the refused request never reached the server"
    with replay(sorted(set(recording_folders().values()))[0]):
        assert replay_patched()
        # inside a replay, the offline client goes through it: a request no recording holds is refused there
        assert asyncio.run(send(offline=True)).startswith("CannotOverwriteExistingCassetteException")
    assert reached == []
    server.close()
    listener.join(2)


def test_a_replayed_run_is_answered_even_where_the_global_patch_was_undone() -> None:
    import asyncio

    import httpx

    from schemarouter.execution.http import make_client, replay_patched
    from schemarouter.execution.offline import recording_folders, replay

    folder = recording_folders()["dart"]
    uri = "https://opendart.fss.or.kr/api/company.json?corp_code=00126380"

    async def fetch() -> httpx.Response:
        async with make_client(offline=True) as client:
            return await client.get(uri)

    with replay(folder):
        patched = httpx.AsyncHTTPTransport.handle_async_request
        # something else in the process restores httpx's own method (another recorder's exit)
        httpx.AsyncHTTPTransport.handle_async_request = patched.__wrapped__  # type: ignore[attr-defined]
        try:
            assert not replay_patched()
            answer = asyncio.run(fetch())
        finally:
            httpx.AsyncHTTPTransport.handle_async_request = patched  # type: ignore[method-assign]
    assert answer.status_code == 200 and "corp_name" in answer.text, "the recording answered"
