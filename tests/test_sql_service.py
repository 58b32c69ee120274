"""A database source behind ``schemarouter serve`` (HTTP API, the web page's calls) and ``schemarouter
mcp``: the same question, the same plan and the same attributed values as from the CLI."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.service_support import mcp_stdio, serve
from tests.sql_support import QUESTION, add_source, lab_sqlite, template  # noqa: F401  (fixtures)
from tests.sr_cli import copy_registry


@pytest.fixture(scope="module")
def registry(template: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("lab")
    db = copy_registry(template, folder)
    add_source(db, lab_sqlite(folder))
    return db


def _band_gaps(steps: list[dict[str, Any]]) -> list[tuple[Any, str, str]]:
    return [(v["value"], v["unit"], v["license"]) for step in steps for record in step["records"]
            for v in record["values"].values() if v["field"] == "band_gap" and v["value"] is not None]


def test_the_http_api_runs_a_database_question(registry: str, tmp_path: Path) -> None:
    with serve(registry, tmp_path) as server:
        response = server.call("POST", "/v1/run", {"question": QUESTION, "mode": "minimal", "include_plan": True},
                               timeout=120)
    assert response.status_code == 200, response.text
    result = response.json()
    assert [(s["source"], s["endpoint"]) for s in result["plan"]["steps"]] == [
        ("labdb", "samples"), ("labdb", "measurements_of_sample")]
    assert _band_gaps(result["steps"]) == [(3.62, "eV", "LicenseRef-Halcyon-Internal"),
                                           (3.58, "eV", "LicenseRef-Halcyon-Internal")]
    assert "band_gap=3.62 eV" in result["context"]


def test_the_mcp_server_runs_a_database_question(registry: str, tmp_path: Path) -> None:
    from mcp import Client

    async def ask() -> Any:
        transport = mcp_stdio(["mcp", "--db", registry], tmp_path / "home", tmp_path / "server.err")
        async with Client(transport, read_timeout_seconds=120) as client:
            return await client.call_tool("run", {"question": QUESTION, "mode": "minimal", "include_plan": True})

    result = asyncio.run(ask()).structured_content
    assert _band_gaps(result["steps"]) == [(3.62, "eV", "LicenseRef-Halcyon-Internal"),
                                           (3.58, "eV", "LicenseRef-Halcyon-Internal")]
