"""Exposure rules of ``schemarouter serve``: loopback by default, a bearer token for anything else,
and no secret (API keys, the token) in a response, a log line or the page."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemarouter.models import Source
from schemarouter.service.redact import MASK, redact, secret_values
from tests.service_support import Server, serve, service_env
from tests.sr_cli import copy_registry, synced_template

TOKEN = "test-token-0123456789-abcdefghijklmnop"
MP_KEY = "mpkeyfortests0123456789abcdefghi"  # 32 characters, like a real Materials Project key
LLM_KEY = "sk-llm-key-for-tests-987654321"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("secure")
    db = copy_registry(synced_template(tmp_path_factory.mktemp("template")), work)
    env = service_env(
        work / "home",
        {"SCHEMAROUTER_API_TOKEN": TOKEN, "MP_API_KEY": MP_KEY, "SCHEMAROUTER_LLM_API_KEY": LLM_KEY},
    )
    with serve(db, work, "--no-live", env=env) as running:
        yield running


def _auth(token: str = TOKEN) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_api_needs_the_token(server: Server) -> None:
    for headers in ({}, _auth("wrong-token-wrong-token-wrong"), {"authorization": TOKEN}):
        response = server.call("POST", "/v1/plan", {"question": "band gap of GaN"}, headers=headers)
        assert response.status_code == 401, headers
        assert response.json()["code"] == "unauthorized" and response.headers["www-authenticate"] == "Bearer"
        assert "wrong-token" not in response.text
    assert server.call("GET", "/v1/sources", headers=_auth()).status_code == 200
    assert server.call("GET", "/healthz").status_code == 200, "health stays open for load balancers"


def test_no_secret_in_responses_logs_or_page(server: Server) -> None:
    texts = [
        server.call(
            "POST",
            "/v1/run",
            {"question": "What is the formation energy of SmPO4?", "offline": True},
            headers=_auth(),
        ).text,
        server.call(
            "POST", "/v1/plan", {"question": "What is the molecular weight of aspirin?"}, headers=_auth()
        ).text,
        server.call("GET", "/v1/sources/materials_project", headers=_auth()).text,
        server.call("GET", "/healthz").text,
        server.call("GET", "/").text,
        server.call("GET", "/static/app.js").text,
        server.call("GET", "/openapi.json").text,
    ]
    assert '"materials_project"' in texts[0] and "formation_energy_per_atom" in texts[0]
    texts.append(server.log_text())
    for text in texts:
        for secret in (TOKEN, MP_KEY, LLM_KEY):
            assert secret not in text


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        (["--host", "0.0.0.0"], {}, "set a bearer token in SCHEMAROUTER_API_TOKEN"),
        (
            ["--host", "0.0.0.0", "--token-env", "MY_TOKEN"],
            {"MY_TOKEN": "short"},
            "shorter than 16 characters",
        ),
    ],
)
def test_exposed_bind_without_a_good_token_is_refused(
    tmp_path: Path, args: list[str], env: dict[str, str], says: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "schemarouter", "serve", "--db", f"sqlite:///{tmp_path / 'r.db'}", *args],
        capture_output=True,
        text=True,
        env=service_env(tmp_path / "home", env),
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1
    assert says in proc.stderr and "Traceback" not in proc.stderr
    assert "short" not in proc.stderr.replace("shorter", ""), "the token value is never echoed"


def test_redaction_masks_every_known_secret() -> None:
    source = Source.model_validate(
        {
            "id": "s",
            "title": "S",
            "domain": "materials",
            "source_type": "calculated",
            "license": {"id": "CC-BY-4.0", "name": "CC BY 4.0"},
            "auth": {"env": "S_KEY", "in": "query", "name": "key"},
            "endpoints": [
                {
                    "id": "e",
                    "base_url": "https://s.example",
                    "path": "/x",
                    "fields": [{"name": "id", "path": "id", "type": "string", "group": "identity"}],
                }
            ],
        }
    )
    secrets = secret_values([source], TOKEN, {"S_KEY": "source-key-123", "UNRELATED": "not-a-secret"})
    assert set(secrets) == {"source-key-123", TOKEN}
    text = f"GET https://s.example/x?key=source-key-123 Authorization: Bearer {TOKEN} not-a-secret"
    assert (
        redact(text, secrets)
        == f"GET https://s.example/x?key={MASK} Authorization: Bearer {MASK} not-a-secret"
    )
