"""Materials Project adapter: summary search through the official ``mp-api`` client.

``mp-api``'s ``SummaryRester.search`` is the supported way to query ``/materials/summary/``:
it sends ``_fields`` (we pass only the planned fields' projection keys), pages with ``_limit``,
and retries 429/502/504 itself. It is synchronous (requests), so it runs in a worker thread.
The key comes from ``MP_API_KEY`` (the executor refuses the step before any request when unset).

Importing ``mp_api`` takes seconds, and a replayed run needs none of what it does (paging,
retries, the heartbeat): replay sends the one request ``mp-api`` would send for the first page
(:func:`summary_query`) through the executor's client, and the recording answers it. So
``mp_api`` is imported only by a live call.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

import httpx

from schemarouter.adapters import (
    FetchResult,
    HttpStatusError,
    NoRecording,
    NoRecords,
    RateLimited,
    StepCall,
    StepError,
    StepTimeout,
    UnparseableBody,
    as_list,
    projection_keys,
)

ENDPOINT = "https://api.materialsproject.org"
# Declared range parameters -> (search keyword, which end of the (min, max) tuple).
RANGES = {
    "band_gap_min": ("band_gap", 0), "band_gap_max": ("band_gap", 1),
    "energy_above_hull_max": ("energy_above_hull", 1),
}
RANGE_DEFAULTS = {"band_gap": (0.0, 1000.0), "energy_above_hull": (0.0, 1000.0)}
LIST_PARAMS = {"material_ids", "elements"}


def search_kwargs(params: dict[str, Any]) -> dict[str, Any]:
    """Declared parameters -> ``SummaryRester.search`` keyword arguments."""
    kwargs: dict[str, Any] = {}
    ranges: dict[str, list[float]] = {}
    for name, value in params.items():
        if value is None:
            continue
        if name in RANGES:
            key, end = RANGES[name]
            ranges.setdefault(key, list(RANGE_DEFAULTS[key]))[end] = float(value)
        elif name == "_per_page":
            kwargs["chunk_size"] = int(value)
            kwargs["num_chunks"] = 1
        elif name in LIST_PARAMS:
            kwargs[name] = [str(v) for v in as_list(value)]
        else:
            kwargs[name] = value
    kwargs.update({key: tuple(bounds) for key, bounds in ranges.items()})
    return kwargs


def summary_query(kwargs: dict[str, Any], fields: list[str]) -> list[tuple[str, str]]:
    """The query ``SummaryRester.search(fields=..., **kwargs)`` sends for its first page: ranges as
    ``name_min``/``name_max``, lists joined with commas, ``_limit`` (the chunk size, 1000 unless
    given) and ``_fields``."""
    query: list[tuple[str, str]] = []
    limit = 1000
    for key, value in kwargs.items():
        if key == "chunk_size":
            limit = int(value)
        elif key == "num_chunks":
            continue
        elif isinstance(value, tuple):
            query += [(f"{key}_min", str(value[0])), (f"{key}_max", str(value[1]))]
        elif isinstance(value, list):
            query.append((key, ",".join(str(v) for v in value)))
        elif isinstance(value, bool):
            query.append((key, "true" if value else "false"))
        else:
            query.append((key, str(value)))
    return [*query, ("_limit", str(limit)), ("_fields", ",".join(fields))]


def _translate(source: str, exc: Exception) -> StepError:
    text = str(exc)
    name = type(exc).__name__
    if name == "CannotOverwriteExistingCassetteException":
        asked = next((line.strip() for line in text.splitlines() if line.strip().startswith(("GET ", "POST "))), "")
        return NoRecording(f"{source}: offline replay has no recording for {asked or 'this request'}")
    if "status code 429" in text:
        return RateLimited(f"{source}: rate limited (HTTP 429) after mp-api's retries")
    if "timed out" in text or "Timeout" in name:
        return StepTimeout(f"{source}: {text.splitlines()[0]}")
    if "status code" in text:
        code = int(text.split("status code", 1)[1].split()[0])
        return HttpStatusError(f"{source}: HTTP {code}: {text.splitlines()[-1][:160]}", code)
    if "JSON" in name or "Decode" in name or "Expecting" in text:
        return UnparseableBody(f"{source}: response body is not valid JSON ({text[:80]})")
    return HttpStatusError(f"{source}: {name}: {text.splitlines()[0][:200] if text else ''}", 0)


class MaterialsProjectAdapter:
    """``summary`` through ``mp_api.client``'s SummaryRester (documents as dicts)."""

    auth_required = True

    def __init__(self, endpoint: str = ENDPOINT) -> None:
        self.endpoint = endpoint

    def _search(self, key: str, kwargs: dict[str, Any], fields: list[str]) -> list[dict[str, Any]]:
        from mp_api.client.routes.materials.summary import SummaryRester

        rester = SummaryRester(
            api_key=key, endpoint=self.endpoint + "/",
            use_document_model=False, mute_progress_bars=True,
        )
        try:
            # use_document_model=False makes the rester return plain dicts, which its return type cannot say
            return list(cast(list[dict[str, Any]], rester.search(fields=fields, **kwargs)))
        finally:
            rester.session.close()

    async def _replayed(self, call: StepCall, key: str, kwargs: dict[str, Any], fields: list[str]) -> list[Any]:
        """The first page as a recording answers it, without mp-api (see the module docstring)."""
        request = httpx.Request("GET", f"{self.endpoint}/materials/summary/", params=tuple(summary_query(kwargs, fields)),
                                headers={"X-API-KEY": key})
        response = await call.send(request)
        if response.status >= 400:
            raise HttpStatusError(f"{call.source.id}: HTTP {response.status}", response.status)
        try:
            body = json.loads(response.content)
        except ValueError:
            raise UnparseableBody(f"{call.source.id}: response body is not valid JSON") from None
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list):
            raise UnparseableBody(f"{call.source.id}: response has no 'data' list")
        return data

    async def fetch(self, call: StepCall) -> FetchResult:
        key = call.api_key(required=True)
        assert key is not None
        fields = projection_keys(call.endpoint, call.fields)
        kwargs = search_kwargs(call.params)
        try:
            if call.replaying:
                docs = await self._replayed(call, key, kwargs, fields)
            else:
                docs = await asyncio.to_thread(self._search, key, kwargs, fields)
        except StepError:
            raise
        except Exception as exc:  # mp-api raises MPRestError, requests and vcr errors
            raise _translate(call.source.id, exc) from None
        if not docs:
            shown = ", ".join(f"{k}={v!r}" for k, v in call.params.items())
            raise NoRecords(f"{call.source.id}: no materials match {shown}")
        if call.replaying:
            request = str(httpx.URL(f"{self.endpoint}/materials/summary/", params=tuple(summary_query(kwargs, fields))))
        else:
            request = f"{self.endpoint}/materials/summary/ (mp-api search {kwargs}, _fields={','.join(fields)})"
        return FetchResult(records=docs, request=request)
