"""Offline replay: serve every request from the recorded VCR cassettes, never the network.

``schemarouter run --offline`` wraps the run in :func:`replay`, which loads *all* cassettes of the
recordings folders into one vcrpy cassette with record mode ``none``: the folders plugins ship in
their packages (the ``register_recordings`` hook; :func:`recording_folders`), or one folder a user
names (``--cassettes DIR`` or ``$SCHEMAROUTER_CASSETTES``, holding ``<source id>/*.yaml``). A
request no cassette holds fails its step (vcrpy refuses it) instead of reaching the network; a
damaged cassette is a one-line error naming the file. The recording filters
(:func:`recording_filters`) run on every request before it is recorded *and* before it is
matched, so recorded requests carry no keys and live ones still match.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from vcr import VCR
from vcr.persisters.filesystem import CassetteNotFoundError
from vcr.serialize import deserialize

from schemarouter.errors import SchemaRouterError
from schemarouter.execution.replaymatch import ProjectionRule, QuestionKeys
from schemarouter.execution.secrets import REDACTED, Secrets
from schemarouter.models import Source
from schemarouter.safeload import UnsafeDocumentError, load_yaml

if TYPE_CHECKING:
    from schemarouter.plugins import PluginManager

MATCH_ON = ("method", "scheme", "host", "port", "path", "query")
# vcrpy patches the HTTP client classes for the whole process while a replay lasts, and a replay that
# ends puts the real ones back: two replays on two threads (a server answering offline requests
# beside a command) would let the one that ends first unpatch the other mid-run, sending its requests
# to the network. Replays therefore take turns (re-entrant: a replay may run inside another on its thread).
_REPLAYING = threading.RLock()
_ACTIVE: list[Any] = []  # the cassettes of the replays now running (one thread at a time: _REPLAYING)
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


CASSETTES_ENV = "SCHEMAROUTER_CASSETTES"


def recording_folders(cassettes: str | Path | None = None, pm: PluginManager | None = None) -> dict[str, Path]:
    """Source id -> the folder of its recorded responses: under ``cassettes`` (else
    ``$SCHEMAROUTER_CASSETTES``) each ``<source id>/`` sub-folder, with the key ``""`` for the folder
    itself; with neither, the folders the installed plugins register (``register_recordings``)."""
    chosen = cassettes or os.environ.get(CASSETTES_ENV)
    if chosen:
        root = Path(chosen)
        found = {p.name: p for p in sorted(root.iterdir()) if p.is_dir()} if root.is_dir() else {}
        return {"": root, **found}
    from schemarouter.plugins import plugin_manager

    folders: dict[str, Path] = {}
    for impl in (pm or plugin_manager()).hook.register_recordings.get_hookimpls():
        impl.function(register=lambda source_id, folder: folders.__setitem__(source_id, Path(folder)))
    return folders


class _FolderPersister:
    """Loads every ``*.yaml`` cassette under the folders (joined by ``os.pathsep``) as one; never writes."""

    @classmethod
    def load_cassette(cls, cassette_path: str, serializer: Any) -> tuple[list[Any], list[Any]]:
        files = sorted({path for folder in cassette_path.split(os.pathsep) for path in Path(folder).rglob("*.yaml")})
        requests: list[Any] = []
        responses: list[Any] = []
        for path in files:
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
def replay(folder: str | Path | None = None, secrets: Secrets | None = None, sources: Iterable[Source] = (),
           projection: ProjectionRule = "covering") -> Iterator[Any]:
    """Patch HTTP clients (httpx, requests, urllib) to replay the cassettes under ``folder`` (default:
    :func:`recording_folders`). A recording answers a request that asks the same question of the
    same endpoint of ``sources`` (:mod:`schemarouter.execution.replaymatch`; ``projection`` says how
    the fields they project may differ: by default a recording made for other fields answers
    nothing, and one made for a part of them only when none holds them all); a request to an
    endpoint no source declares must match its recording exactly, but for the parameters that
    never change the answer."""
    folders = [Path(folder)] if folder else sorted(set(recording_folders().values()))
    usable = [f for f in folders if f.is_dir() and any(f.rglob("*.yaml"))]
    if not usable:
        where = str(folders[0]) if len(folders) == 1 else "the installed plugins' recordings"
        raise SchemaRouterError(f"no cassettes under {where}: pass --cassettes DIR (a folder of VCR yaml files)")
    config = vcr_config(secrets)
    config.pop("allow_playback_repeats")
    keys = QuestionKeys(sources, projection)
    held: list[Any] = []  # every recorded request, to prefer one that holds all the asked fields

    def same_question(live: Any, recorded: Any) -> None:
        assert keys.answers(live, recorded, held)

    config["match_on"] = ["same_question"]
    recorder = VCR(**config)
    recorder.register_matcher("same_question", same_question)
    recorder.register_persister(_FolderPersister)
    with _REPLAYING, recorder.use_cassette(os.pathsep.join(str(f) for f in usable),
                                           allow_playback_repeats=True) as cassette:
        held.extend(cassette.requests)
        _ACTIVE.append(cassette)
        try:
            yield cassette
        finally:
            _ACTIVE.remove(cassette)


def active_cassette() -> Any:
    """The recordings the innermost :func:`replay` now serves, or None outside one. The client of a
    replayed run answers from it directly (``execution.http``): vcrpy's patch of httpx is global, and a
    replay must not depend on nothing else having undone it."""
    return _ACTIVE[-1] if _ACTIVE else None


def offline_env(environ: Mapping[str, str], variables: list[str]) -> dict[str, str]:
    """The environment with a placeholder for each unset key variable (filtered out of requests anyway)."""
    env = dict(environ)
    for name in variables:
        if not env.get(name):
            env[name] = PLACEHOLDER_KEY
    return env
