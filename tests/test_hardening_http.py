"""The HTTP client against a real misbehaving server on 127.0.0.1: caps, redirects, short bodies, types.

Each test drives :func:`schemarouter.execution.http.send` or a whole executor step over a real
socket (:class:`schemarouter.testing.faultserver.FaultServer`), so what is checked is what a broken
server really does to the client, not what a mock transport pretends.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
import tracemalloc
import zlib
from typing import Any

import httpx
import pytest
from schemarouter_bench.reliability import ENV, HEADER_KEY, QUERY_KEY, fault_sources

from schemarouter.declarations import Declarations
from schemarouter.execution.decoding import BodyDecoder, EncodingError
from schemarouter.execution.errors import NetworkError, ResponseTooLarge, StepError, StepTimeout
from schemarouter.execution.executor import Executor
from schemarouter.execution.http import HttpConfig, make_client, send
from schemarouter.execution.httpjson import HttpJsonAdapter
from schemarouter.execution.results import StepResult
from schemarouter.execution.secrets import Secrets
from schemarouter.plan import Plan, PlanStep
from schemarouter.sources.spec import AdapterSpec
from schemarouter.testing.faultserver import FaultOptions, FaultServer, gzip_bomb

CAP = 1024 * 1024
BOMB = 64 * 1024 * 1024


@pytest.fixture(scope="module")
def servers() -> Any:
    options = FaultOptions(huge_bytes=30 * 1024 * 1024, bomb_bytes=BOMB, trickle_interval_s=0.02)
    gzip_bomb(BOMB)
    with FaultServer(options) as peer, FaultServer(options, peer=peer) as server:
        yield server, peer


def _send(url: str, *, timeout: float = 2.0, headers: dict[str, str] | None = None,
          secrets: Secrets | None = None) -> Any:
    config = HttpConfig(timeout_s=timeout, retries=1, backoff_s=0.0, max_bytes=CAP)

    async def go() -> Any:
        async with make_client(config) as client:
            request = httpx.Request("GET", url, headers=headers or {})
            return await send(client, request, source="lab", config=config, secrets=secrets)

    return asyncio.run(go())


def _step(server: FaultServer, path: str, source: str = "fault_header", **config: Any) -> StepResult:
    sources = fault_sources(server.url)
    cfg = HttpConfig(**{"retries": 1, "backoff_s": 0.0, "max_bytes": CAP, **config})
    executor = Executor(Declarations(sources=sources), {s: HttpJsonAdapter(AdapterSpec(records="data")) for s in sources},
                        config=cfg, env=ENV, step_timeout_s=config.get("timeout_s", 5.0) * 4)
    step = PlanStep(source=source, endpoint=path.strip("/").replace("-", "_"), params={}, fields=["formula"])
    return executor.run_sync(Plan(query="q", registry_fingerprint=None, steps=[step])).steps[0]


# ---------------------------------------------------------------- size caps
def test_a_gzip_bomb_stops_at_the_cap_on_decoded_bytes_with_little_memory(servers: Any) -> None:
    server, _ = servers
    tracemalloc.start()
    try:
        with pytest.raises(ResponseTooLarge, match="exceeds the 1,048,576-byte cap"):
            _send(f"{server.url}/gzip-bomb")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The body inflates to 64 MiB; decoding in bounded pieces holds about the cap, not the bomb.
    assert peak < 8 * 1024 * 1024, f"peak {peak / 2**20:.1f} MiB while decoding"


def test_a_streamed_body_without_length_stops_at_the_cap(servers: Any) -> None:
    server, _ = servers
    with pytest.raises(ResponseTooLarge):
        _send(f"{server.url}/huge-streamed")


def test_the_decoder_bounds_every_piece_and_handles_stacked_and_concatenated_gzip() -> None:
    payload = b"".join(f"row {i}\n".encode() for i in range(200_000))
    double = gzip.compress(gzip.compress(payload))
    decoder = BodyDecoder("gzip, gzip", piece=4096)
    pieces = [p for i in range(0, len(double), 1000) for p in decoder.feed(double[i:i + 1000])]
    decoder.finish()
    assert b"".join(pieces) == payload and max(len(p) for p in pieces) <= 4096
    members = gzip.compress(b"first ") + gzip.compress(b"second")
    assert b"".join(BodyDecoder("gzip").feed(members)) == b"first second"
    raw = zlib.compressobj(6, zlib.DEFLATED, -15)
    raw_deflate = raw.compress(payload[:5000]) + raw.flush()
    assert b"".join(BodyDecoder("deflate").feed(raw_deflate)) == payload[:5000]
    assert b"".join(BodyDecoder("deflate").feed(zlib.compress(payload[:5000]))) == payload[:5000]
    cut = BodyDecoder("gzip")
    list(cut.feed(gzip.compress(payload)[:500]))
    with pytest.raises(EncodingError, match="ends before its end marker"):
        cut.finish()
    with pytest.raises(EncodingError, match="unsupported Content-Encoding 'br'"):
        BodyDecoder("br")


# ---------------------------------------------------------------- broken bodies and types
def test_a_body_cut_short_of_its_content_length_is_a_network_error(servers: Any) -> None:
    server, _ = servers
    with pytest.raises(NetworkError, match="broke off"):
        _send(f"{server.url}/short")
    step = _step(server, "/short")
    assert step.error is not None and step.error.kind == "network", step.error


def test_json_labelled_text_xml_is_read_as_json(servers: Any) -> None:
    server, _ = servers
    step = _step(server, "/json-as-xml")
    assert step.ok, step.error
    assert step.records[0].values["formula"].value == "GaN"


def test_broken_json_labelled_text_xml_says_json_and_the_label(servers: Any) -> None:
    server, _ = servers
    step = _step(server, "/broken-json-as-xml")
    assert step.error is not None and step.error.kind == "unparseable_body"
    assert "not valid JSON, labelled text/xml" in step.error.message, step.error.message


# ---------------------------------------------------------------- redirects
def test_a_cross_origin_redirect_drops_header_and_query_credentials(servers: Any) -> None:
    server, peer = servers
    before = len(peer.seen)
    header = _step(server, "/redirect-cross")
    query = _step(server, "/redirect-cross", source="fault_query")
    assert header.ok and query.ok, (header.error, query.error)
    arrived = peer.seen[before:]
    assert [s.path for s in arrived] == ["/echo", "/echo"]
    for seen in arrived:
        assert "x-lab-token" not in seen.headers and "appid" not in seen.query
        assert HEADER_KEY not in json.dumps(seen.headers) and QUERY_KEY not in json.dumps(seen.query)


def test_a_same_origin_redirect_keeps_the_key(servers: Any) -> None:
    server, _ = servers
    before = len(server.seen)
    step = _step(server, "/redirect-same")
    assert step.ok, step.error
    echo = [s for s in server.seen[before:] if s.path == "/echo"]
    assert echo and echo[0].headers.get("x-lab-token") == HEADER_KEY


def test_a_redirect_loop_ends_as_a_network_error(servers: Any) -> None:
    server, _ = servers
    with pytest.raises(NetworkError, match="more than 10 redirects"):
        _send(f"{server.url}/redirect-loop")


def test_credentials_in_a_redirect_target_are_stripped_by_name() -> None:
    secrets = Secrets.from_sources(fault_sources("http://a.example").values(), {})
    headers = httpx.Headers({"X-Lab-Token": "k", "Authorization": "Bearer t", "Accept": "json"})
    secrets.strip_headers(headers)
    assert dict(headers) == {"accept": "json"}
    url = secrets.strip_url(httpx.URL("https://b.example/x?appid=1&q=GaN&api_key=2"))
    assert str(url) == "https://b.example/x?q=GaN"


# ---------------------------------------------------------------- time limits
def test_a_trickling_server_is_cut_at_the_request_timeout(servers: Any) -> None:
    server, _ = servers
    started = time.perf_counter()
    with pytest.raises(StepTimeout, match=r"did not answer in full within 0\.3 s"):
        _send(f"{server.url}/trickle", timeout=0.3)
    assert time.perf_counter() - started < 2.0


def test_every_fault_ends_as_a_typed_step_error(servers: Any) -> None:
    server, _ = servers
    kinds = {}
    for path in ("/hang", "/reset", "/bad-gzip", "/bad-redirect", "/not-utf8", "/deep-json"):
        step = _step(server, path, timeout_s=0.3)
        assert step.error is not None, path
        kinds[path] = step.error.kind
    assert kinds == {"/hang": "timeout", "/reset": "network", "/bad-gzip": "unparseable_body",
                     "/bad-redirect": "network", "/not-utf8": "unparseable_body", "/deep-json": "unparseable_body"}
    assert all(issubclass(c, StepError) for c in (NetworkError, StepTimeout, ResponseTooLarge))
