"""Helpers to write VCR cassettes from recorded response bodies (used by build_*.py here).

A cassette interaction pairs the request our adapter really sends with a response body taken
from ../shared/reference (or built from a documented schema, which the source's README says).
Bodies are stored as plain text (not gzip) so a reviewer can read them.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
# The recorded reference responses live beside the repository: ../shared/reference from its root.
REFERENCE = REPO.parent / "shared" / "reference"


def recordings_dir(source: str) -> Path:
    """The ``recordings/`` folder inside the package of the plugin that declares ``source``."""
    for declaration in sorted(REPO.glob("plugins/*/schemarouter_*/source.yaml")):
        if yaml.safe_load(declaration.read_text(encoding="utf-8")).get("id") == source:
            return declaration.with_name("recordings")
    raise SystemExit(f"no plugin under plugins/ declares source {source!r}")


def interaction(method: str, uri: str, body: str | bytes | Any, *, status: int = 200,
                content_type: str = "application/json", request_body: str | None = None,
                headers: dict[str, str] | None = None) -> dict[str, Any]:
    if not isinstance(body, (str, bytes)):
        body = json.dumps(body, ensure_ascii=False, indent=1)
    if isinstance(body, bytes):
        with contextlib.suppress(UnicodeDecodeError):  # binary (a ZIP) stays bytes: stored as !!binary
            body = body.decode("utf-8")
    response_headers = {"Content-Type": [content_type]}
    for key, value in (headers or {}).items():
        response_headers[key] = [value]
    return {
        "request": {"body": request_body, "headers": {}, "method": method, "uri": uri},
        "response": {
            "body": {"string": body},
            "headers": response_headers,
            "status": {"code": status, "message": {200: "OK", 400: "Bad Request", 404: "Not Found",
                                                   429: "Too Many Requests", 500: "Internal Server Error",
                                                   503: "Service Unavailable"}.get(status, "")},
        },
    }


def write(source: str, name: str, interactions: list[dict[str, Any]]) -> Path:
    """Write a cassette of ``interactions`` into the recordings of ``source``'s plugin."""
    path = recordings_dir(source) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump({"interactions": interactions, "version": 1}, allow_unicode=True,
                                   sort_keys=False, width=120), encoding="utf-8")
    return path


def load_json(relative: str) -> Any:
    """A JSON response recorded under ../shared/reference."""
    return json.loads((REFERENCE / relative).read_text(encoding="utf-8"))


def vcr_body(relative: str, index: int = 0) -> str:
    """The (decoded) response body of interaction ``index`` of a recorded VCR cassette."""
    import gzip

    data = yaml.safe_load((REFERENCE / relative).read_text(encoding="utf-8"))
    body = data["interactions"][index]["response"]["body"]["string"]
    raw = body if isinstance(body, bytes) else body.encode("utf-8")
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8")


def adapter_request(source: str, endpoint: str, params: dict[str, Any], fields: list[str]) -> tuple[str, str, str | None]:
    """``(method, uri, body)`` of the request the installed adapter builds for one step, keys removed."""
    import asyncio

    import httpx

    from schemarouter.execution.adapter import StepCall
    from schemarouter.execution.offline import PLACEHOLDER_KEY
    from schemarouter.execution.secrets import Secrets
    from schemarouter.execution.testing import installed

    declarations, adapters = installed()
    src = declarations.sources[source]
    ep = src.endpoint(endpoint)
    declared = {f.name: f for f in ep.fields}
    id_field = next(f for f in ep.fields if f.identifier)
    chosen = [id_field] + [declared[n] for n in fields if n != id_field.name]
    env = {src.auth.env: PLACEHOLDER_KEY} if src.auth else {}
    call = StepCall(src, ep, dict(params), chosen, httpx.AsyncClient(), env=env)
    adapter = adapters[source]
    resolved = asyncio.run(adapter.resolve_client_params(call, dict(params)))
    request = adapter.build_request(call, resolved)
    # The same names the recording filters drop: the general list plus the source's own auth name.
    uri = str(Secrets.from_sources([src], env).strip_url(request.url))
    body = request.content.decode() if request.content else None
    return request.method, uri, body
