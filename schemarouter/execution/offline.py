"""Offline replay: serve every request from the recorded VCR cassettes, never the network.

``schemarouter run --offline`` wraps the run in :func:`replay`, which loads *all* cassettes under
a folder (``cassettes/<source>/*.yaml``) into one vcrpy cassette with record mode ``none``. A
request no cassette holds fails its step (vcrpy refuses it) instead of reaching the network; a
damaged cassette is a one-line error naming the file. The recording filters
(:func:`recording_filters`) run on every request before it is recorded *and* before it is
matched, so recorded requests carry no keys and live ones still match.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from vcr import VCR
from vcr.persisters.filesystem import CassetteNotFoundError
from vcr.serialize import deserialize

from schemarouter.errors import SchemaRouterError
from schemarouter.execution.secrets import REDACTED, Secrets
from schemarouter.safeload import UnsafeDocumentError, load_yaml

MATCH_ON = ("method", "scheme", "host", "port", "path", "query")
PLACEHOLDER_KEY = "offline-replay-placeholder-key-0"  # 32 chars: mp-api checks the key length


def vcr_config(secrets: Secrets | None = None) -> dict[str, Any]:
    """The VCR settings every cassette test and offline run share (pytest-recording's ``vcr_config``).

    ``secrets``: the credential names and values to filter (default: the general names and no
    values); see :func:`schemarouter.execution.testing.vcr_config` for the installed sources'.
    """
    return {
        **recording_filters(secrets or Secrets()),
        "match_on": list(MATCH_ON),
        "record_mode": "none",
        "decode_compressed_response": True,
        "allow_playback_repeats": True,
    }


def recording_filters(secrets: Secrets) -> dict[str, Callable[[Any], Any]]:
    """vcrpy ``before_record_request``/``before_record_response`` hooks that keep every key out.

    Requests lose credential headers and query parameters (the general names plus each declared
    source's); any secret value left in a URL or body, and in a response's headers or body (an
    API echoing the key back), is replaced by ``REDACTED``. ``Set-Cookie`` never reaches a cassette.
    """

    def before_request(request: Any) -> Any:
        for name in [k for k in request.headers if secrets.is_credential(k)]:
            del request.headers[name]
        parsed = urlsplit(request.uri)
        if parsed.query:
            pairs = parse_qsl(parsed.query, keep_blank_values=True)
            if any(secrets.is_credential(k) for k, _ in pairs):
                query = urlencode([(k, v) for k, v in pairs if not secrets.is_credential(k)])
                request.uri = urlunsplit(parsed._replace(query=query))
        if secrets.values:
            request.uri = secrets.redact(request.uri, prose=False)
            if request.body:
                request.body = _redact_body(request.body, secrets)
        return request

    def before_response(response: Any) -> Any:
        headers = response.get("headers") or {}
        for name in [k for k in headers if secrets.is_credential(k)]:
            del headers[name]
        if secrets.values:
            for name, values in headers.items():
                headers[name] = [secrets.redact(v, prose=False) for v in values]
            body = response.get("body") or {}
            if body.get("string"):
                body["string"] = _redact_body(body["string"], secrets)
        return response

    return {"before_record_request": before_request, "before_record_response": before_response}


def _redact_body(body: str | bytes, secrets: Secrets) -> str | bytes:
    if isinstance(body, str):
        return secrets.redact(body, prose=False)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:  # binary: replace the raw bytes of each value
        for value in secrets.values:
            body = body.replace(value.encode("utf-8"), REDACTED.encode())
        return body
    return secrets.redact(text, prose=False).encode("utf-8")


# Parameters that only select which fields come back: offline replay ignores them, so a plan that
# asks for a different field set still gets the recorded record (projected locally as usual).
PROJECTION_QUERY = frozenset({"_fields", "_limit", "select", "fields", "response_fields", "api_key", "key",
                              "crtfc_key", "tool", "email", "mailto"})
_PUBCHEM_PROPERTIES = re.compile(r"/property/[^/]+/")


def _lenient_path(r1: Any, r2: Any) -> None:
    assert _PUBCHEM_PROPERTIES.sub("/property/*/", r1.path) == _PUBCHEM_PROPERTIES.sub("/property/*/", r2.path)


def _lenient_query(r1: Any, r2: Any) -> None:
    def keep(request: Any) -> list[tuple[str, str]]:
        return sorted((k, v) for k, v in request.query if k not in PROJECTION_QUERY)

    if r1.host == "aflow.org":  # AFLUX: the matchbook is the whole query string; compare conditions only
        assert _aflux_conditions(r1.uri) == _aflux_conditions(r2.uri)
        return
    assert keep(r1) == keep(r2)


def _aflux_conditions(uri: str) -> list[str]:
    query = uri.split("?", 1)[1] if "?" in uri else ""
    from urllib.parse import unquote

    return sorted(part for part in unquote(query).split(",") if "(" in part)


def _lenient_body(r1: Any, r2: Any) -> None:
    def normal(request: Any) -> Any:
        body = request.body or b""
        if isinstance(body, str):
            body = body.encode()
        try:
            data = json.loads(body)
        except ValueError:
            return body
        if isinstance(data, dict):
            data.pop("required", None)
        return data

    assert normal(r1) == normal(r2)


def default_cassette_dir() -> Path:
    """``$SCHEMAROUTER_CASSETTES``, else the checkout's top-level ``cassettes/`` folder."""
    env = os.environ.get("SCHEMAROUTER_CASSETTES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "cassettes"


class _FolderPersister:
    """Loads every ``*.yaml`` cassette under a folder as one; never writes."""

    @classmethod
    def load_cassette(cls, cassette_path: str, serializer: Any) -> tuple[list[Any], list[Any]]:
        folder = Path(cassette_path)
        requests: list[Any] = []
        responses: list[Any] = []
        for path in sorted(folder.rglob("*.yaml")):
            if path.name.endswith(".mcp.yaml"):
                continue  # a recorded MCP session (execution.mcp_cassettes), not an HTTP cassette
            reqs, resps = load_cassette_file(path)
            requests.extend(reqs)
            responses.extend(resps)
        if not requests:
            raise CassetteNotFoundError()
        return requests, responses

    @staticmethod
    def save_cassette(cassette_path: str, cassette_dict: Any, serializer: Any) -> None:
        return None


def load_cassette_file(path: Path) -> tuple[list[Any], list[Any]]:
    """One cassette's requests and responses, or a SchemaRouterError naming the file and the problem.

    The YAML is parsed within bounds (:mod:`schemarouter.safeload`) and its shape checked before
    vcrpy sees it, so a damaged cassette is one line, not a traceback inside a step.
    """
    try:
        data = load_yaml(path.read_bytes(), name=f"cassette {path}")
    except OSError as exc:
        raise SchemaRouterError(f"cassette {path} cannot be read: {exc.strerror}") from None
    except UnsafeDocumentError as exc:
        raise SchemaRouterError(str(exc).replace(": invalid YAML:", " is not valid YAML:", 1)) from None
    interactions = data.get("interactions") if isinstance(data, dict) else None
    if not isinstance(interactions, list):
        raise SchemaRouterError(f"cassette {path} is not a VCR cassette (no 'interactions' list)")
    for index, item in enumerate(interactions):
        problem = _interaction_problem(item)
        if problem:
            raise SchemaRouterError(f"cassette {path}: interaction {index + 1}: {problem}")
    try:
        loaded = deserialize("", _Parsed(data))
    except (KeyError, TypeError, ValueError) as exc:
        raise SchemaRouterError(f"cassette {path} cannot be loaded: {type(exc).__name__}: {str(exc)[:120]}") from None
    return loaded[0], loaded[1]


class _Parsed:
    """A vcrpy serializer that hands over an already (safely) parsed cassette."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def deserialize(self, _text: str) -> Any:
        return self.data


def _interaction_problem(item: Any) -> str | None:
    """What a replayed interaction would trip over, or None."""
    if not isinstance(item, dict) or not isinstance(item.get("request"), dict) or not isinstance(
        item.get("response"), dict
    ):
        return "expected a mapping with 'request' and 'response' mappings"
    request, response = item["request"], item["response"]
    for key in ("method", "uri"):
        if not isinstance(request.get(key), str):
            return f"request.{key} is missing or not text"
    status = response.get("status")
    if not isinstance(status, dict) or not isinstance(status.get("code"), int):
        return "response.status.code is missing or not a number"
    body = response.get("body")
    if not isinstance(body, dict) or not isinstance(body.get("string", ""), (str, bytes)):
        return "response.body.string is missing or not text"
    if not isinstance(response.get("headers", {}), dict):
        return "response.headers is not a mapping"
    return None


@contextmanager
def replay(folder: str | Path | None = None, secrets: Secrets | None = None) -> Iterator[Any]:
    """Patch HTTP clients (httpx, requests, urllib) to replay the cassettes under ``folder``."""
    path = Path(folder) if folder else default_cassette_dir()
    if not path.is_dir() or not any(path.rglob("*.yaml")):
        raise SchemaRouterError(f"no cassettes under {path}: pass --cassettes DIR (a folder of VCR yaml files)")
    config = vcr_config(secrets)
    config.pop("allow_playback_repeats")
    config["match_on"] = ["method", "host", "lenient_path", "lenient_query", "lenient_body"]
    recorder = VCR(**config)
    recorder.register_matcher("lenient_path", _lenient_path)
    recorder.register_matcher("lenient_query", _lenient_query)
    recorder.register_matcher("lenient_body", _lenient_body)
    recorder.register_persister(_FolderPersister)
    with recorder.use_cassette(str(path), allow_playback_repeats=True) as cassette:
        yield cassette


def offline_env(environ: Mapping[str, str], variables: list[str]) -> dict[str, str]:
    """The environment with a placeholder for each unset key variable (filtered out of requests anyway)."""
    env = dict(environ)
    for name in variables:
        if not env.get(name):
            env[name] = PLACEHOLDER_KEY
    return env
