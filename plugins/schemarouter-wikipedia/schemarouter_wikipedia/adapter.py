"""Wikipedia adapter: REST ``page/summary/{title}`` through HttpJsonAdapter.

Titles are sent in Wikipedia's URL form (spaces as underscores). A ``disambiguation`` summary
means the title was ambiguous: the step ends with ``no_records`` and says so rather than
returning the disambiguation page as if it were the answer.
"""

from __future__ import annotations

from typing import Any

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter, NoRecords, StepCall

SPEC = AdapterSpec(records="", locations={"title": "path"})


class WikipediaAdapter(HttpJsonAdapter):
    def __init__(self) -> None:
        super().__init__({"page_summary": SPEC}, auth_required=False)

    async def resolve_client_params(self, call: StepCall, params: dict[str, Any]) -> dict[str, Any]:
        if params.get("title"):
            params["title"] = str(params["title"]).strip().replace(" ", "_")
        return params

    def check_body(self, call: StepCall, body: Any) -> None:
        if isinstance(body, dict) and body.get("type") == "disambiguation":
            raise NoRecords(f"{call.source.id}: {body.get('title')!r} is a disambiguation page; name the article")
