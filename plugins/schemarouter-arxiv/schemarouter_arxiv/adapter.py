"""arXiv adapter: the ``query`` endpoint through the ``arxiv`` package.

``arxiv.Client`` builds the export API URL (``search_query``, ``id_list``, ``sortBy``,
``sortOrder``, ``start``, ``max_results``), parses the Atom feed, pages, and waits between
requests as arXiv asks. Each ``arxiv.Result`` is turned back into the record shape the declared
paths use (Atom element names, ``arxiv:`` prefixes, ``@term`` attributes), so the executor's
projection is the same as for any other source. The client is synchronous: it runs in a thread.
"""

from __future__ import annotations

import asyncio
from typing import Any

from schemarouter.adapters import (
    FetchResult,
    HttpStatusError,
    NetworkError,
    NoRecords,
    RateLimited,
    StepCall,
    StepError,
    UnparseableBody,
    as_list,
)

MAX_PAGE = 100
ARXIV_DELAY_S = 3.0  # arXiv's API terms: no more than one request every three seconds


def to_record(result: Any) -> dict[str, Any]:
    """An ``arxiv.Result`` in the Atom shape the declared field paths address."""
    return {
        "id": result.entry_id,
        "title": result.title,
        "author": [{"name": author.name} for author in result.authors],
        "summary": result.summary,
        "published": result.published.isoformat() if result.published else None,
        "arxiv:primary_category": {"@term": result.primary_category},
        "arxiv:doi": result.doi,
        "arxiv:journal_ref": result.journal_ref,
    }


def _search_args(params: dict[str, Any]) -> tuple[dict[str, Any], int, int]:
    import arxiv

    max_results = int(params.get("max_results") or MAX_PAGE)
    kwargs: dict[str, Any] = {
        "query": str(params.get("search_query") or ""),
        "id_list": [str(i) for i in as_list(params["id_list"])] if params.get("id_list") else [],
        "max_results": max_results,
    }
    if params.get("sortBy"):
        kwargs["sort_by"] = arxiv.SortCriterion(params["sortBy"])
    if params.get("sortOrder"):
        kwargs["sort_order"] = arxiv.SortOrder(params["sortOrder"])
    return kwargs, min(max_results, MAX_PAGE), int(params.get("start") or 0)


def _run(params: dict[str, Any], retries: int, delay_s: float) -> list[dict[str, Any]]:
    import arxiv

    kwargs, page_size, start = _search_args(params)
    client = arxiv.Client(page_size=page_size, delay_seconds=delay_s, num_retries=retries)
    return [to_record(r) for r in client.results(arxiv.Search(**kwargs), offset=start)]


def _translate(source: str, exc: Exception) -> StepError:
    name, text = type(exc).__name__, str(exc)
    if name == "CannotOverwriteExistingCassetteException":
        asked = next((ln.strip() for ln in text.splitlines() if ln.strip().startswith(("GET ", "POST "))), "")
        return NetworkError(f"{source}: offline replay has no recording for {asked or 'this request'}")
    status = getattr(exc, "status", None)
    if name == "HTTPError" and isinstance(status, int):
        if status == 429:
            return RateLimited(f"{source}: rate limited (HTTP 429) after retries")
        return HttpStatusError(f"{source}: HTTP {status} from the arXiv API (bad id or query?)", status)
    if name in ("UnexpectedEmptyPageError", "ParseError", "XMLSyntaxError"):
        return UnparseableBody(f"{source}: arXiv feed could not be read ({name})")
    if isinstance(exc, ValueError):
        return HttpStatusError(f"{source}: invalid parameter: {text[:120]}", 0)
    return NetworkError(f"{source}: {name}: {text[:160]}")


class ArxivAdapter:
    auth_required = False

    async def fetch(self, call: StepCall) -> FetchResult:
        delay = ARXIV_DELAY_S if call.config.backoff_s > 0 else 0.0
        try:
            records = await asyncio.to_thread(_run, dict(call.params), call.config.retries, delay)
        except Exception as exc:  # the arxiv package raises its own errors
            raise _translate(call.source.id, exc) from None
        if not records:
            raise NoRecords(f"{call.source.id}: arXiv returned no entries for {call.params}")
        kwargs, page_size, start = _search_args(call.params)
        request = (f"https://export.arxiv.org/api/query (search_query={kwargs['query']!r}, "
                   f"id_list={kwargs['id_list']}, start={start}, max_results={page_size})")
        return FetchResult(records=records, request=request)
