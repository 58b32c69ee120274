"""AdapterSpec: the inventory's ``adapter:`` block as a model.

Declarations say *what* a source returns; an AdapterSpec says the few request/response facts a
generic HTTP adapter needs beyond that: where records sit in the response, where parameters
that are not plain query-string parameters go, constant parameters, and which field names the
unit of another. The shape is exactly the inventory's ``adapter:`` block, so a spec can be
written in Python or loaded from the same YAML.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

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

    def location(self, param: str) -> Location:
        """Where a parameter is sent; the query string unless declared otherwise."""
        return self.locations.get(param, "query")
