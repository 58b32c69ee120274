"""``schemarouter sources check``: offline against the recorded cassettes, live against a real HTTP
server on 127.0.0.1 that can refuse keys, drop or add fields, change a stated unit, or be down."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from tests.sr_cli import copy_registry, run_main, synced_template

KEY_ENV = "PROBE_LAB_KEY"
GOOD_KEY = "probe-lab-key-0123456789"


class LabServer:
    """A tiny JSON API: GET /api/materials?formula=... -> {"items": [...]}; behaviour set per test."""

    def __init__(self) -> None:
        self.record: dict[str, Any] = {"id": "lab-1", "formula": "GaN", "gap": 3.2, "gap_unit": "eV", "density": 6.1}
        self.require_key = True
        self.requests: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.requests.append(self.path)
                parts = urlsplit(self.path)
                if parts.path == "/open/materials":
                    return self._send(200, {"items": [dict(server.record)]})
                if parts.path != "/api/materials":
                    return self._send(404, {"error": "not found"})
                if server.require_key and self.headers.get("X-Lab-Key") != GOOD_KEY:
                    return self._send(401, {"error": "bad key"})
                formula = parse_qs(parts.query).get("formula", [""])[0]
                items = [dict(server.record)] if formula == server.record.get("formula", "GaN") else []
                return self._send(200, {"items": items})

            def _send(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _source(source_id: str, base_url: str, path: str, auth: bool) -> dict[str, Any]:
    return {
        "id": source_id, "title": f"{source_id} materials store", "domain": "materials",
        "source_type": "experimental", "aliases": [f"{source_id} store"],
        "license": {"id": "LicenseRef-Lab-Internal", "name": "internal"},
        **({"auth": {"env": KEY_ENV, "in": "header", "name": "X-Lab-Key"}} if auth else {}),
        "endpoints": [{
            "id": "materials", "base_url": base_url, "path": path, "intents": ["material_property"],
            "parameters": [{"name": "formula", "type": "string", "concept": "formula", "example": "GaN"}],
            "fields": [
                {"name": "lab_id", "path": "id", "type": "string", "identifier": True, "group": "identity"},
                {"name": "formula", "path": "formula", "type": "string", "group": "composition", "concepts": ["formula"]},
                {"name": "gap", "path": "gap", "type": "number", "unit": "eV", "group": "electronic",
                 "concepts": ["band_gap"]},
                {"name": "gap_unit", "path": "gap_unit", "type": "string", "group": "electronic"},
                {"name": "density", "path": "density", "type": "number", "unit": "g/cm^3", "group": "structure"},
            ],
            "adapter": {"records": "items", "unit_from": {"gap": "gap_unit"}},
        }],
    }


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def server() -> Iterator[LabServer]:
    lab = LabServer()
    yield lab
    lab.close()


@pytest.fixture
def sr(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.delenv(KEY_ENV, raising=False)
    return lambda *args: run_main(capsys, monkeypatch, *args)


@pytest.fixture
def lab_db(template: Path, tmp_path: Path, server: LabServer, sr) -> str:  # type: ignore[no-untyped-def]
    db = copy_registry(template, tmp_path)
    base = f"http://127.0.0.1:{server.port}"
    for source in (_source("probe_lab", base, "/api/materials", True), _source("open_lab", base, "/open/materials", False)):
        path = tmp_path / f"{source['id']}.yaml"
        path.write_text(yaml.safe_dump(source, sort_keys=False), encoding="utf-8")
        added = sr("source", "add", str(path), "--db", db)
        assert added.code == 0, added.err
    return db


def _check(sr, db: str, *args: str) -> tuple[int, dict[str, dict[str, Any]]]:  # type: ignore[no-untyped-def]
    ran = sr("sources", "check", *args, "--db", db, "--json")
    assert ran.out, ran.err
    return ran.code, {row["source"]: row for row in json.loads(ran.out)["sources"]}


def test_live_check_passes_with_the_right_key(sr, lab_db: str, server: LabServer, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(KEY_ENV, GOOD_KEY)
    code, rows = _check(sr, lab_db, "probe_lab", "open_lab", "--live")
    assert code == 0
    lab = rows["probe_lab"]
    assert (lab["status"], lab["reachable"], lab["auth"], lab["records"]) == ("ok", True, "ok", 1)
    assert lab["params_from"] == "declared examples" and lab["fields"]["missing"] == []
    assert server.requests and all("formula=GaN" in r for r in server.requests), "one small request from the example"
    assert GOOD_KEY not in json.dumps(rows), "the key never appears in the report"


def test_a_missing_key_is_reported_for_its_source_and_the_others_are_still_checked(
    sr, lab_db: str, server: LabServer,  # type: ignore[no-untyped-def]
) -> None:
    code, rows = _check(sr, lab_db, "probe_lab", "open_lab", "--live")
    assert rows["probe_lab"]["status"] == "missing_key" and KEY_ENV in rows["probe_lab"]["message"]
    assert rows["open_lab"]["status"] == "ok"
    assert all(not r.startswith("/api/") for r in server.requests), "no request is sent without the required key"
    assert code == 0, "a missing key is not a broken source"


def test_a_refused_key_is_auth_failed(sr, lab_db: str, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(KEY_ENV, "wrong-key")
    code, rows = _check(sr, lab_db, "probe_lab", "--live")
    assert code == 1
    assert (rows["probe_lab"]["status"], rows["probe_lab"]["auth"]) == ("auth_failed", "failed")
    assert "HTTP 401" in rows["probe_lab"]["message"] and "wrong-key" not in json.dumps(rows)


def test_schema_drift_missing_new_and_changed_unit(
    sr, lab_db: str, server: LabServer, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setenv(KEY_ENV, GOOD_KEY)
    server.record = {"id": "lab-1", "formula": "GaN", "gap": 3200.0, "gap_unit": "meV", "band_edges": [1, 2]}
    code, rows = _check(sr, lab_db, "probe_lab", "--live")
    assert code == 1
    lab = rows["probe_lab"]
    assert lab["status"] == "drift"
    assert lab["fields"]["missing"] == ["density"]
    assert lab["fields"]["undeclared"] == ["band_edges"]
    assert lab["fields"]["unit_changes"] == ["gap: declared eV, response says meV"]
    text = sr("sources", "check", "probe_lab", "--live", "--db", lab_db)
    line = next(x for x in text.out.splitlines() if x.startswith("probe_lab.materials"))
    assert "drift" in line and "missing: density" in line and "undeclared: band_edges" in line
    assert "unit changed: gap: declared eV, response says meV" in line


def test_a_stated_unit_with_another_spelling_is_not_drift(
    sr, lab_db: str, server: LabServer, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setenv(KEY_ENV, GOOD_KEY)
    server.record = {**server.record, "gap_unit": "electron_volt"}
    _code, rows = _check(sr, lab_db, "probe_lab", "--live")
    assert rows["probe_lab"]["status"] == "ok" and rows["probe_lab"]["fields"]["unit_changes"] == []


def test_a_server_that_is_down_is_unreachable(sr, template: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    db = copy_registry(template, tmp_path)
    path = tmp_path / "down.yaml"
    path.write_text(yaml.safe_dump(_source("down_lab", f"http://127.0.0.1:{port}", "/open/materials", False)), "utf-8")
    assert sr("source", "add", str(path), "--db", db).code == 0
    code, rows = _check(sr, db, "down_lab", "--live")
    assert code == 1 and rows["down_lab"]["status"] == "unreachable" and rows["down_lab"]["reachable"] is False


def test_offline_check_replays_the_recordings(sr, template: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = copy_registry(template, tmp_path)
    code, rows = _check(sr, db, "arxiv", "wikipedia", "dart")
    assert code == 0, rows
    for source in ("arxiv", "wikipedia", "dart"):
        assert rows[source]["status"] == "ok", rows[source]
        assert rows[source]["params_from"].startswith("recording "), "the check request comes from a recording"
        assert rows[source]["records"] >= 1 and rows[source]["fields"]["missing"] == []
    assert rows["dart"]["auth"] == "replayed", "offline, a key is neither needed nor judged"
    assert rows["dart"]["key_env"] == "DART_API_KEY"


def test_offline_check_reports_what_no_recording_covers(sr, template: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = copy_registry(template, tmp_path)
    empty = tmp_path / "cassettes"
    (empty / "other").mkdir(parents=True)
    (empty / "other" / "x.yaml").write_text("interactions: []\nversion: 1\n", encoding="utf-8")
    code, rows = _check(sr, db, "wikipedia", "--cassettes", str(empty))
    assert rows["wikipedia"]["status"] == "not_recorded" and "run with --live" in rows["wikipedia"]["message"]
    assert code == 0


def test_text_output_is_plain_and_unknown_sources_are_named(sr, template: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = copy_registry(template, tmp_path)
    ran = sr("sources", "check", "wikipedia", "--db", db)
    lines = ran.out.splitlines()
    assert lines[0].startswith("schemarouter ") and "sources check, offline" in lines[0]
    assert lines[1].startswith("wikipedia.page_summary") and " ok " in lines[1]
    assert lines[-1] == "1 sources: 1 ok"
    assert "\x1b[" not in ran.out, "no colour codes: the output is pasted into bug reports"
    bad = sr("sources", "check", "wikipedai", "--db", db)
    assert bad.code == 1 and "no source 'wikipedai' in the registry; did you mean 'wikipedia'?" in bad.err
