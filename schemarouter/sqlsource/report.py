"""What an SQL import mapped and, item by item, what it left out.

Like the OpenAPI import's report (:mod:`schemarouter.openapi.report`, whose :class:`Unmapped` items it
shares): a table, view or column the import cannot express is listed with its place, never guessed.
The database URL in it is the one shown to people, its password masked.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from schemarouter.openapi.report import Unmapped


@dataclass
class SqlImportReport:
    """What an import mapped, counted, and what it left out or noted."""

    url: str  # the database, password masked
    source_id: str
    dialect: str = ""
    schema: str | None = None
    tables: int = 0
    views: int = 0
    endpoints: int = 0
    key_endpoints: int = 0  # "rows of one parent" endpoints made from foreign keys
    record_endpoints: int = 0  # "one row by its primary key" endpoints of the tables foreign keys point to
    parameters: int = 0
    fields: int = 0
    links: int = 0
    endpoint_ids: list[str] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)  # endpoint id -> the table or view it reads
    excluded: list[str] = field(default_factory=list)  # tables and views the overlay left out
    password_env: str | None = None  # the variable the password is read from at run time
    unmapped: list[Unmapped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, place: str, construct: str, detail: str = "") -> None:
        """Record an item that was not mapped."""
        self.unmapped.append(Unmapped(place, construct, detail))

    def counts(self) -> dict[str, int]:
        """How many unmapped items there are of each kind."""
        return dict(sorted(Counter(u.construct for u in self.unmapped).items()))

    def summary(self) -> str:
        """One line: database, tables, views, endpoints, parameters, fields, links, items not mapped
        (for an import refused before its endpoints were made, only what was read)."""
        if not self.endpoints:
            return (f"{self.url} ({self.dialect}) -> source {self.source_id}: {_n(self.tables, 'table')}, "
                    f"{_n(self.views, 'view')} read; no endpoint made")
        made = [f"{self.key_endpoints} by foreign key"] if self.key_endpoints else []
        made += [f"{self.record_endpoints} by primary key"] if self.record_endpoints else []
        keys = f" ({', '.join(made)})" if made else ""
        return (
            f"{self.url} ({self.dialect}) -> source {self.source_id}: {_n(self.tables, 'table')}, "
            f"{_n(self.views, 'view')}, {_n(self.endpoints, 'endpoint')}{keys}, {_n(self.parameters, 'parameter')}, "
            f"{_n(self.fields, 'field')}, {_n(self.links, 'link')}; {len(self.unmapped)} items not mapped"
        )

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "url": self.url, "source_id": self.source_id, "dialect": self.dialect, "schema": self.schema,
            "tables": self.tables, "views": self.views, "endpoints": self.endpoints,
            "key_endpoints": self.key_endpoints, "record_endpoints": self.record_endpoints,
            "parameters": self.parameters, "fields": self.fields,
            "links": self.links, "endpoint_ids": self.endpoint_ids, "places": self.places,
            "excluded": self.excluded, "password_env": self.password_env, "seconds": round(self.seconds, 3),
            "unmapped": [{"place": u.place, "construct": u.construct, "detail": u.detail} for u in self.unmapped],
            "unmapped_counts": self.counts(), "notes": self.notes,
        }


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
