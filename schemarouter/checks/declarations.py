"""Checks a declaration can pass and still be wrong: units, license ids, names two sources share.

The models reject what is malformed; these checks report what is suspicious in a well-formed
declaration, as warnings (``--strict`` makes them errors):

* a numeric field without a unit (an identifier, or any field of the ``identity`` group such as a
  foreign key, is a name, not a quantity, and is exempt; a pure number says ``unit: "1"``), or a unit pint does not know, with the nearest known spelling;
* a license id that is neither on the SPDX list nor a ``LicenseRef-`` id;
* a name (id, title or alias) that two sources answer to: the router would pick one silently.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from schemarouter.checks import licenses, units
from schemarouter.errors import SchemaRouterError
from schemarouter.graph.text import humanize, normalize
from schemarouter.models import Source

NUMERIC = ("number", "integer")


@dataclass(frozen=True)
class DeclarationWarning:
    """One finding about one source."""

    kind: str  # unit_missing | unit_unknown | license_unknown | alias_collision
    source: str
    where: str
    message: str

    def line(self) -> str:
        """The finding as one line: source, place and message."""
        where = f" {self.where}" if self.where else ""
        return f"{self.source}{where}: {self.message}"

    def as_dict(self) -> dict[str, str]:
        """The finding as JSON-ready data."""
        return {"kind": self.kind, "source": self.source, "where": self.where, "message": self.message}


class StrictError(SchemaRouterError):
    """``--strict`` and at least one warning: nothing was written."""


def check_source(source: Source, unit_from: Collection[tuple[str, str]] = ()) -> list[DeclarationWarning]:
    """Unit and license warnings for one source. ``unit_from`` lists (endpoint, field) pairs whose
    unit comes with each record (an adapter's ``unit_from``): those need no declared unit."""
    found: list[DeclarationWarning] = []
    verdict = licenses.check(source.license.id)
    if not verdict.known:
        found.append(DeclarationWarning("license_unknown", source.id, "license", verdict.message()))
    for endpoint in source.endpoints:
        for fld in endpoint.fields:
            where = f"{endpoint.id}.{fld.name}"
            if fld.unit is not None:
                unit = units.check(fld.unit)
                if not unit.known:
                    found.append(DeclarationWarning("unit_unknown", source.id, where, unit.message()))
            elif fld.type in NUMERIC and not fld.identifier and fld.group != "identity" \
                    and (endpoint.id, fld.name) not in unit_from:
                found.append(DeclarationWarning(
                    "unit_missing", source.id, where,
                    f"{fld.type} field without a unit (a pure number, such as a count, an index or a year, declares unit: \"1\")",
                ))
            if fld.license is not None:
                verdict = licenses.check(fld.license.id)
                if not verdict.known:
                    found.append(DeclarationWarning("license_unknown", source.id, f"{where} license", verdict.message()))
    return found


def source_names(source: Source) -> set[str]:
    """Every normalized name a question may call the source by (as the schema graph indexes them)."""
    return {normalize(name) for name in (source.id, humanize(source.id), source.title, *source.aliases)} - {""}


def alias_collisions(sources: Mapping[str, Source], involving: Collection[str] | None = None) -> list[DeclarationWarning]:
    """Names two or more sources answer to; with ``involving``, only collisions touching those sources."""
    owners: dict[str, set[str]] = defaultdict(set)
    for source_id, source in sources.items():
        for name in source_names(source):
            owners[name].add(source_id)
    found: list[DeclarationWarning] = []
    for name in sorted(owners):
        ids = sorted(owners[name])
        if len(ids) < 2 or (involving is not None and not set(ids) & set(involving)):
            continue
        for source_id in ids if involving is None else [i for i in ids if i in involving]:
            others = ", ".join(i for i in ids if i != source_id)
            found.append(DeclarationWarning(
                "alias_collision", source_id, "aliases",
                f"the name {name!r} also belongs to {others}; a question naming it may reach either source",
            ))
    return found


def check_sources(
    sources: Mapping[str, Source], unit_from: Mapping[str, Collection[tuple[str, str]]] | None = None,
    only: Collection[str] | None = None,
) -> list[DeclarationWarning]:
    """Every warning for ``only`` (default: all sources), alias collisions checked against all of them."""
    selected = sorted(sources) if only is None else sorted(only)
    found: list[DeclarationWarning] = []
    for source_id in selected:
        found.extend(check_source(sources[source_id], (unit_from or {}).get(source_id, ())))
    found.extend(alias_collisions(sources, None if only is None else selected))
    return found


def summary(found: Iterable[DeclarationWarning]) -> str:
    """One line: how many warnings of which kind, in how many sources."""
    items = list(found)
    kinds: dict[str, int] = defaultdict(int)
    for item in items:
        kinds[item.kind] += 1
    labels = {"unit_missing": "numeric field(s) without a unit", "unit_unknown": "unknown unit(s)",
              "license_unknown": "license id(s) not on the SPDX list", "alias_collision": "shared source name(s)"}
    parts = ", ".join(f"{n} {labels.get(k, k)}" for k, n in sorted(kinds.items()))
    return f"{len(items)} declaration warning(s) in {len({i.source for i in items})} source(s): {parts}"


def enforce(found: list[DeclarationWarning], strict: bool) -> None:
    """Under ``strict``, any warning is an error (one line: the count and the first one)."""
    if strict and found:
        more = f" (and {len(found) - 1} more: schemarouter registry check lists them)" if len(found) > 1 else ""
        raise StrictError(f"--strict: {summary(found)}; first: {found[0].line()}{more}")
