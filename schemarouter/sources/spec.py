"""AdapterSpec: the inventory's ``adapter:`` block as a model.

Declarations say *what* a source returns; an AdapterSpec says the few request/response facts a
generic adapter needs beyond that: where records sit in the response, where parameters that are
not plain query-string parameters go, constant parameters, and which field names the unit of
another. The shape is exactly the inventory's ``adapter:`` block, so a spec can be written in
Python or loaded from the same YAML.

``protocol`` says which generic adapter runs a local source's endpoint: ``http`` (the default, an
HTTP JSON API) or another one :mod:`schemarouter.execution.protocols` knows. A spec of the default
protocol serializes exactly as before the field existed, so stored fingerprints do not move.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)

Location = Literal["query", "path", "body", "body_query", "q_json", "filter", "matchbook", "client"]


class AdapterSpec(BaseModel):
    """How to call one endpoint and where its records are.

    * ``records``: dotted path to the list of records; ``""`` is the response root (a list, or
      one record object).
    * ``locations``: parameter name -> where it goes when not a plain query parameter.
    * ``fixed``: constant request parameters always sent (query, or body for POST endpoints).
    * ``unit_from``: field -> the field whose value is the unit of the first.
    * ``notes``: free text (envelope shape, quirks).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    records: str = ""
    locations: dict[str, Location] = Field(default_factory=dict)
    fixed: dict[str, Any] = Field(default_factory=dict)
    unit_from: dict[str, str] = Field(default_factory=dict)
    notes: str = ""
    # which generic adapter runs the endpoint (schemarouter.execution.protocols); "http" when unsaid
    protocol: str = "http"
    # settings of that protocol's adapter (a table and its columns, an MCP tool...); none for http
    options: dict[str, Any] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _without_http_defaults(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            if data.get("protocol") == "http":
                del data["protocol"]
            if data.get("options") == {}:
                del data["options"]
        return data

    def location(self, param: str) -> Location:
        """Where a parameter is sent; the query string unless declared otherwise."""
        return self.locations.get(param, "query")
