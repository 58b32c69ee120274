"""What an import mapped and, item by item, what it could not map.

The importer never guesses: a construct it cannot express as a declaration (``oneOf``, a
header parameter, an XML response, an external ``$ref``) is left out and listed here with its
place in the document, so the user can add it by hand or in the overlay.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Unmapped:
    """One construct of the document that the import did not map, and where."""

    place: str  # where in the document, e.g. "GET /movie/{movie_id} response genres[]"
    construct: str  # short kind: oneOf, header parameter, non-JSON response, ...
    detail: str = ""

    def line(self) -> str:
        """The item as one line."""
        return f"{self.place}: {self.construct}" + (f" ({self.detail})" if self.detail else "")


@dataclass
class ImportReport:
    """What an import mapped, counted, and what it left out or noted."""

    spec: str
    source_id: str
    openapi_version: str = ""
    operations: int = 0
    endpoints: int = 0
    parameters: int = 0
    fields: int = 0
    endpoint_ids: list[str] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)  # endpoint id -> "GET /path" it came from
    write_endpoints: int = 0
    converted_from: str | None = None  # "Swagger 2.0" when the document was converted on import
    needs_base_url: bool = False  # no absolute server URL: the endpoints wait for the overlay's base_url
    unmapped: list[Unmapped] = field(default_factory=list)
    # operations left out for want of response fields ("GET /apod" -> its endpoint id): the overlay
    # may declare their fields under ``endpoints.<id>.fields`` with a path each
    undescribed: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    _seen: set[Unmapped] = field(default_factory=set, repr=False, compare=False)

    def add(self, place: str, construct: str, detail: str = "") -> None:
        """Record an unmapped construct once."""
        item = Unmapped(place, construct, detail)
        if item not in self._seen:  # a set: real documents report thousands of items
            self._seen.add(item)
            self.unmapped.append(item)

    def counts(self) -> dict[str, int]:
        """How many unmapped items there are of each construct."""
        return dict(sorted(Counter(u.construct for u in self.unmapped).items()))

    def summary(self) -> str:
        """One line: document, version, operations, endpoints, parameters, fields, unmapped items."""
        version = f"OpenAPI {self.openapi_version}" + (f", converted from {self.converted_from}" if self.converted_from else "")
        writes = f" ({self.write_endpoints} writes)" if self.write_endpoints else ""
        return (
            f"{self.spec} ({version}) -> source {self.source_id}: {self.operations} read operations, "
            f"{self.endpoints} endpoints{writes}, {self.parameters} parameters, {self.fields} fields; "
            f"{len(self.unmapped)} items not mapped"
        )

    def unmapped_lines(self) -> list[str]:
        """Every unmapped item and note, one line each."""
        return [u.line() for u in self.unmapped] + [f"note: {n}" for n in self.notes]

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "spec": self.spec, "source_id": self.source_id, "openapi_version": self.openapi_version,
            "operations": self.operations, "endpoints": self.endpoints, "parameters": self.parameters,
            "fields": self.fields, "endpoint_ids": self.endpoint_ids, "places": self.places,
            "write_endpoints": self.write_endpoints, "converted_from": self.converted_from,
            "needs_base_url": self.needs_base_url,
            "unmapped": [{"place": u.place, "construct": u.construct, "detail": u.detail} for u in self.unmapped],
            "unmapped_counts": self.counts(), "notes": self.notes,
        }
