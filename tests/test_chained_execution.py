"""Chained plans run in order against a real local HTTP server: a bound parameter takes the value its
producer returned, and a producer that fails or returns nothing fails the dependent step, naming it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar
from urllib.parse import parse_qs, urlparse

import pytest

from schemarouter.declarations import Declarations
from schemarouter.execution.executor import Executor
from schemarouter.execution.http import HttpConfig
from schemarouter.plan import Plan, PlanStep
from schemarouter.sources.spec import AdapterSpec
from tests.open_world_support import catalogue

SPECIMENS = {
    "Tyrannosaurus Sue": {"id": 482913, "name": "Tyrannosaurus Sue", "collected_date": "1990-08-12"},
    "Tyrannosaurus Stan": {"id": 482914, "name": "Tyrannosaurus Stan", "collected_date": "1987-04-02"},
}
DETAILS = {482913: {"id": 482913, "name": "Tyrannosaurus Sue", "locality": "Faith, South Dakota",
                    "collected_date": "1990-08-12", "collector_id": 77}}


class _Handler(BaseHTTPRequestHandler):
    requests: ClassVar[list[str]] = []

    def do_GET(self) -> None:  # http.server's name
        url = urlparse(self.path)
        type(self).requests.append(self.path)
        if url.path == "/search/specimens":
            q = parse_qs(url.query).get("q", [""])[0]
            body = {"results": [rec for name, rec in SPECIMENS.items() if q and q in name]}
        elif url.path.startswith("/specimens/"):
            found = DETAILS.get(int(url.path.rsplit("/", 1)[1]))
            if found is None:
                self.send_response(404)
                self.end_headers()
                return
            body = found
        else:
            self.send_response(404)
            self.end_headers()
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture
def executor(server: str) -> Executor:
    source = catalogue(server)
    decls = Declarations(sources={source.id: source})
    specs = {source.id: {
        "search_specimens": AdapterSpec(records="results"),
        "specimen": AdapterSpec(locations={"specimen_id": "path"}),
    }}
    return Executor(decls, {}, specs=specs, config=HttpConfig(retries=0, timeout_s=5))


def _plan(search_for: str, field: str = "id") -> Plan:
    return Plan(query="test", registry_fingerprint=None, steps=[
        PlanStep(id="s1", source="specimens", endpoint="search_specimens", params={"q": search_for},
                 fields=["name"]),
        PlanStep(id="s2", source="specimens", endpoint="specimen",
                 params={"specimen_id": {"from": "s1", "field": field, "pick": "first"}},
                 fields=["locality"]),
    ])


def test_the_bound_value_comes_from_the_producer(executor: Executor) -> None:
    result = executor.run_sync(_plan("Tyrannosaurus Sue"))
    search, detail = result.steps
    assert search.ok and detail.ok, (search.error, detail.error)
    assert detail.params == {"specimen_id": 482913}
    assert detail.records[0].values["locality"].value == "Faith, South Dakota"
    # the producer fetched the bound field although its step did not list it
    assert search.records[0].values["id"].value is not None


def test_a_producer_with_no_record_fails_the_consumer_naming_it(executor: Executor) -> None:
    result = executor.run_sync(_plan("Nothing Like It"))
    search, detail = result.steps
    assert search.error is not None and search.error.kind == "no_records"
    assert detail.error is not None and detail.error.kind == "unresolved_binding"
    assert "s1" in detail.error.message and "specimen_id" in detail.error.message


def test_a_binding_to_a_step_that_does_not_come_first_fails_without_waiting(executor: Executor) -> None:
    plan = _plan("Tyrannosaurus Sue")
    plan.steps.reverse()
    result = executor.run_sync(plan)
    consumer = next(s for s in result.steps if s.endpoint == "specimen")
    assert consumer.error is not None and consumer.error.kind == "unresolved_binding"
    assert "no earlier step" in consumer.error.message


def test_a_binding_to_a_field_the_producer_lacks_fails_cleanly(executor: Executor) -> None:
    result = executor.run_sync(_plan("Tyrannosaurus Sue", field="nope"))
    assert result.steps[1].error is not None
    assert result.steps[1].error.kind in ("invalid_step", "unresolved_binding")


def test_many_records_give_the_first_value_or_all_of_them(executor: Executor) -> None:
    first = executor.run_sync(_plan("Tyrannosaurus"))
    assert len(first.steps[0].records) == 2
    assert first.steps[1].params == {"specimen_id": 482913}
    plan = _plan("Tyrannosaurus")
    plan.steps[1].params["specimen_id"]["pick"] = "all"
    every = executor.run_sync(plan)
    assert every.steps[1].params == {"specimen_id": [482913, 482914]}
