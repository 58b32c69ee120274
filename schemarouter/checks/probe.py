"""``sources check``: one small request per source, and whether its answer still fits the declaration.

For each source the probe picks its first read endpoint and builds one request: from a recorded
request of that endpoint when the cassette folder holds one (so live and offline send the same
request), else from the parameters' declared examples. It runs the request through the source's
own adapter (the code real runs use) and reports:

* reachable: an HTTP answer came back (a refused connection, a timeout or, offline, a missing
  recording is not one);
* auth: the key was accepted (not HTTP 401/403); a required key that is not set is reported as
  ``missing_key`` before any request, and the other sources are still checked;
* fields: declared fields absent from every record (``missing``), top-level keys no declared
  field reads (``undeclared``), and units the response states that differ from the declared one.

Offline, the same request replays the cassettes, so a fresh clone can run it with no keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from schemarouter.checks import units
from schemarouter.errors import SchemaRouterError
from schemarouter.execution import errors as E
from schemarouter.execution.adapter import Adapter, FieldValue, StepCall, auth_required
from schemarouter.execution.http import HttpConfig, SourceLimits, make_client
from schemarouter.execution.rendering import projection_keys
from schemarouter.field_paths import extract, parse_path
from schemarouter.models import Endpoint, Parameter, ResponseField, Source
from schemarouter.safeload import load_file

# Statuses, from best to worst; the first four do not mean the source is broken.
OK, NO_RECORDS, NOT_RECORDED, MISSING_KEY = "ok", "no_records", "not_recorded", "missing_key"
DRIFT, RATE_LIMITED, AUTH_FAILED, HTTP_ERROR, UNREACHABLE, ERROR = (
    "drift", "rate_limited", "auth_failed", "http_error", "unreachable", "error")
SKIPPED = "skipped"
FAILING = frozenset({DRIFT, AUTH_FAILED, HTTP_ERROR, UNREACHABLE, ERROR})


@dataclass
class Probe:
    """One request the check can send for a source: endpoint, parameters, fields, and their origin.

    ``recorded_fields`` (from a recording's projection parameter) are the fields that recording
    was asked for; an offline check compares only those, a live one every declared field.
    """

    endpoint: Endpoint
    params: dict[str, Any]
    origin: str  # "recording <file>" | "declared examples"
    recorded_fields: list[ResponseField] | None = None


@dataclass
class SourceCheck:
    """The outcome for one source; ``line()`` is the plain, stable text users paste into a bug."""

    source: str
    endpoint: str | None
    status: str
    message: str = ""
    reachable: bool | None = None
    auth: str = "none"  # none | ok | failed | missing | unknown | replayed
    key_env: str | None = None
    request: str | None = None
    params_from: str | None = None
    records: int = 0
    declared: int = 0
    missing: list[str] = field(default_factory=list)
    undeclared: list[str] = field(default_factory=list)
    unit_changes: list[str] = field(default_factory=list)
    type_changes: list[str] = field(default_factory=list)  # a database column whose type changed

    def line(self) -> str:
        """The outcome as one fixed-width line: where, status and message."""
        where = f"{self.source}.{self.endpoint}" if self.endpoint else self.source
        return f"{where:<40} {self.status:<13} {self.message}".rstrip()

    def as_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data, field comparison included."""
        return {
            "source": self.source, "endpoint": self.endpoint, "status": self.status, "message": self.message,
            "reachable": self.reachable, "auth": self.auth, "key_env": self.key_env, "request": self.request,
            "params_from": self.params_from, "records": self.records,
            "fields": {"declared": self.declared, "missing": self.missing, "undeclared": self.undeclared,
                       "unit_changes": self.unit_changes, "type_changes": self.type_changes},
        }


# ----------------------------------------------------------------------------- the request
def read_endpoint(source: Source) -> Endpoint | None:
    """The endpoint a check calls: the first read endpoint (a write is never sent by a check)."""
    return next((e for e in source.endpoints if e.access == "read"), None)


def recorded_probes(source: Source, endpoint: Endpoint, folder: Path | None) -> list[Probe]:
    """Probes rebuilt from recorded, successful requests to ``endpoint`` in ``folder`` (the source's
    recordings: path, query, matchbook and JSON-body values under declared parameter names), largest
    recorded answer first."""
    if folder is None or not folder.is_dir():
        return []
    pattern = _url_pattern(endpoint)
    declared = {p.name: p for p in endpoint.parameters}
    found: list[tuple[int, str, Probe]] = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            document = load_file(path) or {}
        except SchemaRouterError:  # an unreadable or unsafe recording is not a check request
            continue
        if not isinstance(document, dict):
            continue
        for interaction in document.get("interactions") or []:
            request, response = interaction.get("request") or {}, interaction.get("response") or {}
            status = (response.get("status") or {}).get("code")
            if request.get("method") != endpoint.method or not isinstance(status, int) or not 200 <= status < 300:
                continue
            parts = urlsplit(str(request.get("uri", "")))
            match = pattern.fullmatch(f"{parts.scheme}://{parts.netloc}{unquote(parts.path)}")
            if match is None:
                continue
            values: dict[str, Any] = dict(match.groupdict())
            values.update(_query_values(parts.query))
            values.update(_body_values(request.get("body")))
            params = {k: _typed(declared[k], v) for k, v in values.items() if k in declared}
            if not all(p.name in params for p in endpoint.parameters if p.required):
                continue
            size = len(str((response.get("body") or {}).get("string") or ""))
            probe = Probe(endpoint, params, f"recording {path.name}", _recorded_fields(endpoint, values))
            found.append((size, path.name, probe))
    found.sort(key=lambda item: (-item[0], item[1]))
    return [probe for _size, _name, probe in found]


_MATCHBOOK = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\(([^()]*)\)")


def _query_values(query: str) -> dict[str, Any]:
    """key=value pairs, or an AFLUX-style matchbook (``Egap(6*),paging(1,20),auid``) read as such."""
    if "=" in query:
        return dict(parse_qsl(query, keep_blank_values=False))
    text = unquote(query)
    values: dict[str, Any] = {m.group(1): m.group(2) for m in _MATCHBOOK.finditer(text)}
    bare = [w for w in _MATCHBOOK.sub("", text).split(",") if w.strip()]
    if bare:
        values["__keywords__"] = ",".join(w.strip() for w in bare)
    return values


def _recorded_fields(endpoint: Endpoint, values: Mapping[str, Any]) -> list[ResponseField] | None:
    """The declared fields the recorded request asked for through the projection parameter."""
    if endpoint.projection is None:
        return None
    raw = values.get("__keywords__") if endpoint.projection.style == "aflux_keywords" else (
        values.get(endpoint.projection.param))
    if not isinstance(raw, str) or not raw.strip():
        return None
    asked = {k.strip() for k in raw.split(",")}
    return [f for f in endpoint.fields if f.identifier or projection_keys(endpoint, [f])[0] in asked]


def _url_pattern(endpoint: Endpoint) -> re.Pattern[str]:
    url = endpoint.base_url.rstrip("/") + endpoint.path
    pieces = re.split(r"\{([^{}]+)\}", url)
    regex = "".join(
        re.escape(piece) if i % 2 == 0 else f"(?P<{_group(piece, i)}>.+?)" for i, piece in enumerate(pieces)
    )
    return re.compile(regex.rstrip("/") + "/?")


def _group(name: str, index: int) -> str:
    """A regex group name for a path variable (a name that is not an identifier gets a unique stand-in)."""
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else f"_var{index}"


def _body_values(body: Any) -> dict[str, Any]:
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    if not isinstance(body, str) or not body:
        return {}
    try:
        data = json.loads(body)
    except ValueError:
        return dict(parse_qsl(body))
    return dict(data) if isinstance(data, dict) else {}


def _typed(param: Parameter, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        if param.type == "integer":
            return int(value)
        if param.type == "number":
            return float(value)
    except ValueError:
        return value
    if param.type == "boolean" and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def example_params(endpoint: Endpoint) -> dict[str, Any] | None:
    """Required parameters from their examples, plus one narrowing example when none is required;
    None when a required parameter has no example (the check cannot build a request)."""
    params: dict[str, Any] = {}
    for p in endpoint.parameters:
        if p.required:
            first = p.enum[0] if p.enum else None
            value = p.example if p.example is not None else ([first] if p.type == "array" and first is not None else first)
            if value is None:
                return None
            params[p.name] = value
    if not params:
        narrowing = next((p for p in endpoint.parameters if p.concept and p.example is not None), None)
        if narrowing is not None:
            params[narrowing.name] = narrowing.example
    return params


def make_probes(source: Source, recordings: Mapping[str, Path]) -> list[Probe] | str:
    """The requests a check may send for ``source``, best first, or why none can be built.

    Recorded requests come first (offline they are the ones that replay; live they are requests
    known to have worked), then the declared examples."""
    endpoint = read_endpoint(source)
    if endpoint is None:
        return "no read endpoint (only write operations, which a check never calls)"
    probes = recorded_probes(source, endpoint, recordings.get(source.id))
    params = example_params(endpoint)
    if params is not None:
        probes.append(Probe(endpoint, params, "declared examples"))
    if not probes:
        missing = next(p.name for p in endpoint.parameters if p.required and p.example is None and not p.enum)
        return f"required parameter {missing!r} of {endpoint.id} has no example to send"
    return probes


# ----------------------------------------------------------------------------- the answer
def present(record: Any, f: ResponseField, projected: bool) -> bool:
    """Whether the record has the field at all (a null value counts: the key is there)."""
    if projected:
        return isinstance(record, dict) and record.get(f.name) is not None
    if extract(record, f.path) is not None:
        return True
    segments = parse_path(f.path)
    last = segments[-1]
    if last.selectors:
        return False
    parents = [record] if len(segments) == 1 else extract(record, segments[:-1])
    parents = parents if isinstance(parents, list) else [parents]
    return any(isinstance(p, dict) and last.key in p for p in parents)


def undeclared_keys(records: list[Any], fields: list[ResponseField]) -> list[str]:
    """Top-level keys of the records that no declared field's path starts with."""
    read = {segments[0].key for f in fields if (segments := parse_path(f.path))}
    keys: set[str] = set()
    for record in records:
        if isinstance(record, dict):
            keys.update(k for k in record if isinstance(k, str) and k not in read)
    return sorted(keys)


def unit_changes(records: list[Any], endpoint: Endpoint, unit_from: Mapping[str, str], projected: bool) -> list[str]:
    """Declared units that the response contradicts, where the response states a unit."""
    changes: set[str] = set()
    for f in endpoint.fields:
        if f.unit is None:
            continue
        stated: set[str] = set()
        for record in records:
            raw = record.get(f.name) if projected and isinstance(record, dict) else None
            if isinstance(raw, FieldValue) and raw.unit:
                stated.add(raw.unit)
            if f.name in unit_from:
                unit_field = next((u for u in endpoint.fields if u.name == unit_from[f.name]), None)
                value = None if unit_field is None else (
                    record.get(unit_field.name) if projected and isinstance(record, dict)
                    else extract(record, unit_field.path))
                if isinstance(value, str) and value.strip():
                    stated.add(value.strip())
        for unit in sorted(stated):
            if not units.same_unit(unit, f.unit):
                changes.add(f"{f.name}: declared {f.unit}, response says {unit}")
    return sorted(changes)


# ----------------------------------------------------------------------------- running
async def check_source(
    source: Source, adapter: Adapter | None, probes: list[Probe] | str, env: Mapping[str, str],
    client: Any, config: HttpConfig, limits: SourceLimits, *, offline: bool, timeout_s: float,
) -> SourceCheck:
    """Check one source. Live, the first probe is sent; offline, probes are tried in order until
    one replays with records (a recording of an empty answer is kept only when nothing better does)."""
    if isinstance(probes, str):
        return SourceCheck(source.id, None, SKIPPED, probes, key_env=source.auth.env if source.auth else None)
    fallback: SourceCheck | None = None
    for probe in probes if offline else probes[:1]:
        result = await _check_probe(source, adapter, probe, env, client, config, limits,
                                    offline=offline, timeout_s=timeout_s)
        if result.status not in (NOT_RECORDED, NO_RECORDS):
            return result
        if fallback is None or (fallback.status == NOT_RECORDED and result.status == NO_RECORDS):
            fallback = result
    assert fallback is not None
    return fallback


async def _check_probe(
    source: Source, adapter: Adapter | None, probe: Probe, env: Mapping[str, str],
    client: Any, config: HttpConfig, limits: SourceLimits, *, offline: bool, timeout_s: float,
) -> SourceCheck:
    """Send one probe and judge the answer; every failure ends as a status, never an exception."""
    key_env = source.auth.env if source.auth else None
    endpoint = probe.endpoint
    recorded_subset = bool(offline and probe.recorded_fields)
    fields = list(probe.recorded_fields or []) if recorded_subset else list(endpoint.fields)
    result = SourceCheck(source.id, endpoint.id, OK, key_env=key_env, params_from=probe.origin,
                         declared=len(fields))
    if adapter is None:
        result.status, result.message = SKIPPED, "no adapter is installed for this source (planning only)"
        return result
    key_set = bool(key_env and (env.get(key_env) or "").strip())
    if key_env and not key_set and auth_required(adapter):
        result.status, result.auth = MISSING_KEY, "missing"
        result.message = f"set {key_env} to check it (the key is required)"
        return result
    result.auth = "none" if not key_env else ("unknown" if key_set else "none")
    call = StepCall(source, endpoint, dict(probe.params), fields, client, config, limits, env)
    try:
        fetched = await asyncio.wait_for(adapter.fetch(call), timeout_s)
    except E.MissingCredentials as err:
        result.status, result.auth, result.message = MISSING_KEY, "missing", str(err)
        return result
    except (E.NetworkError, E.StepTimeout, TimeoutError) as err:
        not_recorded = offline and "no recording" in str(err)
        result.status = NOT_RECORDED if not_recorded else UNREACHABLE
        result.reachable = False
        result.message = (f"no recording of the check request ({probe.origin}); run with --live"
                          if not_recorded else _one_line(err) or f"no answer within {timeout_s:g} s")
        return result
    except E.RateLimited as err:
        result.status, result.reachable, result.message = RATE_LIMITED, True, _one_line(err)
        return result
    except E.HttpStatusError as err:
        result.reachable = True
        if err.status in (401, 403) and key_env:
            result.status, result.auth = AUTH_FAILED, "failed"
            result.message = f"HTTP {err.status}: the key in {key_env} was refused" if key_set else (
                f"HTTP {err.status}: the source wants a key; set {key_env}")
        else:
            result.status, result.message = HTTP_ERROR, _one_line(err)
        return result
    except E.NoRecords:
        result.status, result.reachable, result.message = NO_RECORDS, True, "answered, but with no records to compare"
        _mark_auth(result, key_set, offline)
        return result
    except E.StepError as err:
        result.status, result.reachable, result.message = ERROR, True, f"{err.kind}: {_one_line(err)}"
        return result
    except Exception as err:  # an adapter bug is reported for this source; the others go on
        result.status, result.message = ERROR, f"adapter error {type(err).__name__}: {_one_line(err)}"
        return result
    result.reachable = True
    result.request = fetched.request
    _mark_auth(result, key_set, offline)
    records = list(fetched.records)
    result.records = len(records)
    if not records:
        result.status, result.message = NO_RECORDS, "answered, but with no records to compare"
        return result
    result.missing = [f.name for f in fields if not any(present(r, f, fetched.projected) for r in records)]
    result.undeclared = [] if fetched.projected else undeclared_keys(records, endpoint.fields)
    result.unit_changes = unit_changes(records, endpoint, fetched.unit_from, fetched.projected)
    result.status = DRIFT if result.missing or result.unit_changes else OK
    # Offline, a recording made with a projection holds only the fields it asked for.
    result.message = _summary(result, "recorded" if recorded_subset else "declared")
    return result


def _mark_auth(result: SourceCheck, key_set: bool, offline: bool) -> None:
    # A replayed answer says nothing about a key: recordings carry none.
    result.auth = "replayed" if offline and result.key_env else ("ok" if key_set else "none")


def _summary(result: SourceCheck, scope: str) -> str:
    present_count = result.declared - len(result.missing)
    auth = {"ok": "key accepted", "none": "no key sent", "replayed": "key not checked offline"}.get(
        result.auth, result.auth)
    parts = [f"{result.records} record(s), {auth}, {present_count}/{result.declared} {scope} fields present"]
    if result.missing:
        parts.append(f"missing: {', '.join(result.missing)}")
    if result.unit_changes:
        parts.append(f"unit changed: {'; '.join(result.unit_changes)}")
    if result.undeclared:
        shown = result.undeclared[:8]
        more = f" (+{len(result.undeclared) - len(shown)} more)" if len(result.undeclared) > len(shown) else ""
        parts.append(f"undeclared: {', '.join(shown)}{more}")
    return "; ".join(parts)


def _one_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else ""


async def check_all(
    sources: list[Source], adapters: Mapping[str, Adapter | None], env: Mapping[str, str],
    recordings: Mapping[str, Path], *, offline: bool, config: HttpConfig | None = None, timeout_s: float = 60.0,
) -> list[SourceCheck]:
    """Check every source concurrently on one HTTP client; results in the order of ``sources``."""
    config = config or HttpConfig(timeout_s=20.0, retries=0)
    limits = SourceLimits(config.per_source_concurrency)
    try:
        async with make_client(config, offline=offline) as client:
            return list(await asyncio.gather(*(
                check_source(s, adapters.get(s.id), make_probes(s, recordings), env, client, config, limits,
                             offline=offline, timeout_s=timeout_s)
                for s in sources
            )))
    finally:  # what adapters opened for the check (an MCP server's session) ends with it
        for adapter in {id(a): a for a in adapters.values() if a is not None}.values():
            close = getattr(adapter, "aclose", None)
            if close is not None:
                with contextlib.suppress(Exception):
                    await close()
