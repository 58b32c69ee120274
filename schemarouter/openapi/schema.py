"""Flatten a JSON Schema (OpenAPI dialect) into field paths with types.

Objects become dotted paths, arrays of objects ``[]`` paths (their fields are lists, so typed
``array`` as in the inventory), ``allOf`` parts are merged, and a ``oneOf``/``anyOf`` whose only
alternatives are one schema and ``null`` is read as that schema. Every other union, ``not``, an
untyped leaf, an external or dangling ``$ref`` or a property name the path grammar cannot spell
is reported, not guessed. Nesting deeper than ``max_depth`` objects stops with an ``object``
field, and so does a schema that refers to itself once it has been followed one more time
(reported as a recursive schema). A record whose root is a union of objects (a ``oneOf`` of
``Cat`` and ``Dog``) gets the fields of every alternative. Every walk is bounded: by the depth
limits, and by ``max_fields`` per record, past which the nesting limit is lowered until the
record fits (so a record with very wide nested schemas keeps its outer fields).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from schemarouter.field_paths import is_plain_key
from schemarouter.openapi.report import ImportReport
from schemarouter.openapi.resolver import CircularRef, DanglingRef, ExternalRef, Resolver

_SCALARS = {"string", "integer", "number", "boolean"}
_DATE_FORMATS = {"date", "date-time"}
MAX_DEPTH = 4
MAX_FIELDS = 400  # per record; past it the nesting limit is lowered
# A document's budget (real ones stay far below; a few very large ones, thousands of operations with
# wide schemas, would otherwise take minutes and gigabytes): past the soft limit records keep at most
# REDUCED_FIELDS top-level fields, past the hard limit at most MINIMAL_FIELDS, so every endpoint still
# exists and the total stays bounded.
DOCUMENT_FIELDS_SOFT = 15_000
DOCUMENT_FIELDS_HARD = 30_000
REDUCED_FIELDS = 60
MINIMAL_FIELDS = 6
MAX_SCHEMA_NESTING = 32  # allOf/oneOf wrapped in allOf/oneOf ... (inline, without $ref)


class _TooManyFields(Exception):
    """Internal: the record has more than ``max_fields`` fields at the current nesting limit."""


@dataclass(frozen=True)
class FlatField:
    """One scalar or list leaf of a response schema, by its dotted path."""

    path: str
    type: str
    description: str = ""
    unit: str | None = None
    in_list: bool = False  # under a [] selector: one value per list element
    item_type: str | None = None  # element type of a list-valued field

    @property
    def key(self) -> str:
        """The last key of the path, without list selectors."""
        return self.path.replace("[]", "").rsplit(".", 1)[-1]


def _unit(node: dict[str, Any]) -> str | None:
    for key in ("x-unit", "x-units"):
        value = node.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


class Flattener:
    """Flattens response schemas into fields, within depth and field-count budgets."""

    def __init__(
        self, resolver: Resolver, report: ImportReport, max_depth: int = MAX_DEPTH, max_fields: int = MAX_FIELDS
    ) -> None:
        self.resolver = resolver
        self.report = report
        self.max_depth = max_depth
        self.max_fields = max_fields
        self._limit = max_depth  # the nesting limit of the record being flattened
        self._count = 0
        self._visits = 0
        self.document_fields = 0  # every record's fields so far: the document's budget
        self._cache: dict[tuple[int, tuple[str, ...], bool], tuple[Any, Any, list[tuple[str, str, str]]]] = {}
        self._reduced_noted = False

    # ------------------------------------------------------------------ normalizing one node
    def resolve(self, node: Any, place: str, chain: tuple[str, ...]) -> tuple[Any, tuple[str, ...]] | None:
        """``Resolver.resolve`` with external and dangling references reported (None); cycles propagate."""
        try:
            return self.resolver.resolve(node, chain)
        except ExternalRef as ext:
            self.report.add(place, "external $ref", ext.ref)
        except DanglingRef as bad:
            self.report.add(place, "dangling $ref", f"{bad.ref}: {bad.problem}")
        return None

    def normalize(
        self, node: Any, place: str, chain: tuple[str, ...], nesting: int = 0, union_root: bool = False,
    ) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
        """Resolve refs, merge allOf, unwrap nullable unions; None (reported) when unsupported.

        Raises :class:`CircularRef` for a schema that refers to itself (the caller decides).
        ``union_root``: a union of object schemas is merged (used for a record's own schema).

        Real documents return the same schemas from many operations; a result is computed once per
        (schema, chain) and what it reported is reported again at each new place.
        """
        if nesting or not isinstance(node, dict):
            return self._normalize(node, place, chain, nesting, union_root)
        key = (id(node), chain, union_root)
        cached = self._cache.get(key)
        if cached is None:
            mark = len(self.report.unmapped)
            try:
                result: Any = self._normalize(node, place, chain, nesting, union_root)
            except CircularRef as loop:
                result = loop
            reported = [(u.place[len(place):], u.construct, u.detail) for u in self.report.unmapped[mark:]
                        if u.place.startswith(place)]
            cached = self._cache[key] = (node, result, reported)  # the node is kept: its id stays its own
        else:
            for suffix, construct, detail in cached[2]:
                self.report.add(place + suffix, construct, detail)
        if isinstance(cached[1], CircularRef):
            raise cached[1]
        return cached[1]  # type: ignore[no-any-return]

    def _normalize(
        self, node: Any, place: str, chain: tuple[str, ...], nesting: int, union_root: bool,
    ) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
        if nesting > MAX_SCHEMA_NESTING:
            self.report.add(place, "schema nesting too deep", f"more than {MAX_SCHEMA_NESTING} allOf/oneOf levels")
            return None, chain
        resolved = self.resolve(node, place, chain)
        if resolved is None:
            return None, chain
        node, chain = resolved
        if not isinstance(node, dict):
            self.report.add(place, "schema is not an object")
            return None, chain
        if not self._well_formed(node, place):
            return None, chain
        if "allOf" in node:
            merged = self._merge_all_of(node, place, chain, nesting)
            if merged is None:
                return None, chain
            node = merged
        for keyword in ("oneOf", "anyOf"):
            if keyword in node:
                branches = node[keyword] if isinstance(node[keyword], list) else []
                real = [b for b in branches if not _is_null_schema(self.resolver, b, chain)]
                numeric = [_scalar_type(self.resolver, b, chain) for b in real]
                rest = {k: v for k, v in node.items() if k != keyword}
                if len(real) > 1 and len(set(numeric)) == 1 and numeric[0] in _SCALARS:
                    # one scalar type in several spellings (a date-time or a date): that type
                    return {**rest, **_same_scalar(self.resolver, real, chain, numeric[0])}, chain
                if len(real) > 1 and set(numeric) <= {"integer", "number"}:
                    # integer | number is a number: the one union real specs use for scores
                    return {**rest, "type": "number"}, chain
                if len(real) == 1:
                    inner, chain = self.normalize(real[0], place, chain, nesting + 1, union_root)
                    if inner is None:
                        return None, chain
                    return {**inner, **{k: v for k, v in rest.items() if k in ("description", "x-unit", "x-units")}}, chain
                if union_root and real:
                    merged_union = self._merge_union(rest, real, place, chain, nesting, keyword)
                    if merged_union is not None:
                        return merged_union, chain
                self.report.add(place, keyword, f"{len(real)} alternatives")
                return None, chain
        if "not" in node:
            self.report.add(place, "not")
            return None, chain
        return node, chain

    def _well_formed(self, node: dict[str, Any], place: str) -> bool:
        """Keywords with the wrong JSON type: the schema is reported (with its place) and left out."""
        problems = []
        if node.get("properties") is not None and not isinstance(node["properties"], dict):
            problems.append(f"'properties' must be a mapping, not {type(node['properties']).__name__}")
        for keyword in ("allOf", "oneOf", "anyOf"):
            if node.get(keyword) is not None and not isinstance(node[keyword], list):
                problems.append(f"'{keyword}' must be a list, not {type(node[keyword]).__name__}")
        kind = node.get("type")
        if kind is not None and not isinstance(kind, (str, list)):
            problems.append(f"'type' must be a string or a list, not {type(kind).__name__}")
        if problems:
            self.report.add(place, "malformed schema", "; ".join(problems))
        return not problems

    def _merge_union(
        self, rest: dict[str, Any], branches: list[Any], place: str, chain: tuple[str, ...], nesting: int, keyword: str,
    ) -> dict[str, Any] | None:
        """A record that is one of several objects (or lists of objects): the properties of them all."""
        properties: dict[str, Any] = dict(rest.get("properties") or {})
        kinds = set()
        for index, branch in enumerate(branches):
            where = f"{place} {keyword}[{index}]"
            try:
                resolved, branch_chain = self.normalize(branch, where, chain, nesting + 1)
                kind = self.value_type(resolved, place) if resolved is not None else None
                if resolved is not None and kind == "array":
                    resolved, _ = self.normalize(resolved.get("items", {}), f"{where}[]", branch_chain, nesting + 1)
            except CircularRef:
                resolved = None
            if resolved is None or self.value_type(resolved, place) != "object" or not resolved.get("properties"):
                return None
            kinds.add(kind)
            for key, value in resolved["properties"].items():
                properties.setdefault(key, value)
        if len(kinds) != 1:
            return None
        self.report.notes.append(f"{place}: {keyword} of {len(branches)} record shapes; fields of every alternative")
        merged = {"type": "object", "properties": properties}
        return {**rest, **merged} if kinds == {"object"} else {**rest, "type": "array", "items": merged}

    def _merge_all_of(
        self, node: dict[str, Any], place: str, chain: tuple[str, ...], nesting: int = 0,
    ) -> dict[str, Any] | None:
        merged: dict[str, Any] = {k: v for k, v in node.items() if k != "allOf"}
        properties: dict[str, Any] = dict(merged.get("properties") or {})
        for index, part in enumerate(node["allOf"] or []):
            try:
                resolved, _ = self.normalize(part, f"{place} allOf[{index}]", chain, nesting + 1)
            except CircularRef as loop:
                self.report.add(f"{place} allOf[{index}]", "recursive schema", f"{loop.loop}; part left out")
                continue
            if resolved is None:
                return None
            properties.update(resolved.get("properties") or {})
            for key, value in resolved.items():
                if key not in ("properties", "required"):
                    merged.setdefault(key, value)
        if properties:
            merged["properties"] = properties
            merged.setdefault("type", "object")
        return merged

    def value_type(self, node: dict[str, Any], place: str) -> str | None:
        """The declared type (nullable forms unwrapped), inferred only from properties/items."""
        raw = node.get("type")
        if isinstance(raw, list):
            real = [t for t in raw if t != "null" and isinstance(t, str)]
            if len(real) != 1:
                self.report.add(place, "multi-type schema", "/".join(map(str, raw)))
                return None
            raw = real[0]
        if raw is None:
            if "properties" in node:
                return "object"
            if "items" in node:
                return "array"
            return None
        return str(raw)

    # ------------------------------------------------------------------ flattening
    def fields(self, node: Any, place: str, chain: tuple[str, ...] = ()) -> list[FlatField]:
        """Fields of one record whose schema is ``node`` (at most ``max_fields``)."""
        try:
            normalized, chain = self.normalize(node, place, chain, union_root=True)
        except CircularRef as loop:
            self.report.add(place, "recursive schema", loop.loop)
            return []
        if normalized is None:
            return []
        kind = self.value_type(normalized, place)
        if kind == "object" and normalized.get("properties"):
            reduced = self.document_fields >= DOCUMENT_FIELDS_SOFT
            if reduced and not self._reduced_noted:
                self._reduced_noted = True
                self.report.notes.append(
                    f"a very large document: after {DOCUMENT_FIELDS_SOFT:,} fields, records keep their first "
                    f"{REDUCED_FIELDS} top-level fields only, and after {DOCUMENT_FIELDS_HARD:,} their first "
                    f"{MINIMAL_FIELDS}")
            out = self._flatten(normalized, place, chain, 1 if reduced else self.max_depth)
            if reduced:
                out = out[: MINIMAL_FIELDS if self.document_fields >= DOCUMENT_FIELDS_HARD else REDUCED_FIELDS]
            self.document_fields += len(out)
            return out
        if kind in _SCALARS or kind == "array":
            self.report.add(place, "record is not an object", f"a bare {kind}; no field path can name it")
        elif kind == "object":
            self.report.add(place, "free-form object", "no properties declared")
        else:
            self.report.add(place, "untyped schema")
        return []

    def _flatten(self, node: dict[str, Any], place: str, chain: tuple[str, ...], max_depth: int) -> list[FlatField]:
        """The record's fields at the deepest nesting limit (<= ``max_depth``) that keeps them under ``max_fields``."""
        out: list[FlatField] = []
        for limit in range(max_depth, 0, -1):
            out = []
            self._limit, self._count, self._visits = limit, 0, 0
            try:
                self._object(node, "", place, chain, 1, False, out)
            except _TooManyFields:
                continue
            if limit < max_depth:
                self.report.add(place, "more fields than the limit",
                                f"over {self.max_fields} fields; nesting kept to {limit} level(s)")
            return out
        return out

    def _emit(self, out: list[FlatField], item: FlatField) -> None:
        self._count += 1
        if self._count > self.max_fields and self._limit > 1:
            raise _TooManyFields
        out.append(item)

    def _object(
        self, node: dict[str, Any], prefix: str, place: str, chain: tuple[str, ...], depth: int,
        in_list: bool, out: list[FlatField],
    ) -> None:
        units: dict[str, Any] = node["x-units"] if isinstance(node.get("x-units"), dict) else {}
        for key, child in (node.get("properties") or {}).items():
            child_place = f"{place} {prefix}{key}"  # place is the record's place; prefix the path so far
            if not is_plain_key(str(key)):
                self.report.add(child_place, "property name not expressible as a field path", repr(key))
                continue
            self._value(child, f"{prefix}{key}", child_place, chain, depth, in_list, out, units.get(key))

    def _value(
        self, child: Any, path: str, place: str, chain: tuple[str, ...], depth: int, in_list: bool,
        out: list[FlatField], unit_hint: str | None,
    ) -> None:
        self._visits += 1
        if self._visits > 10 * self.max_fields and self._limit > 1:
            raise _TooManyFields  # wide schemas that yield few fields still cost a walk each
        try:
            node, chain = self.normalize(child, place, chain)
        except CircularRef as loop:
            self.report.add(place, "recursive schema", f"{loop.loop}; kept as one object field")
            self._emit(out, FlatField(path, "array" if in_list else "object", "", None, in_list, "object"))
            return
        if node is None:
            return
        kind = self.value_type(node, place)
        description = str(node.get("description") or node.get("title") or "").strip()
        unit = _unit(node) or (unit_hint if isinstance(unit_hint, str) else None)
        if kind is None:
            self.report.add(place, "untyped schema")
            return
        if kind in _SCALARS:
            leaf = "date" if kind == "string" and _format(node) in _DATE_FORMATS else kind
            if in_list:
                self._emit(out, FlatField(path, "array", description, unit, True, leaf))
            else:
                self._emit(out, FlatField(path, leaf, description, unit))
            return
        if kind == "object":
            if not node.get("properties"):
                self._emit(out, FlatField(path, "array" if in_list else "object", description, unit, in_list, "object"))
                return
            if depth >= self._limit:
                if self._limit == self.max_depth:
                    self.report.add(place, "nesting deeper than the depth limit",
                                    f"kept as one object field ({self.max_depth} levels)")
                self._emit(out, FlatField(path, "array" if in_list else "object", description, unit, in_list, "object"))
                return
            self._object(node, f"{path}.", _record_place(place, path), chain, depth + 1, in_list, out)
            return
        if kind == "array":
            try:
                items, item_chain = self.normalize(node.get("items", {}), f"{place}[]", chain)
            except CircularRef as loop:
                self.report.add(place, "recursive schema", f"{loop.loop}; kept as one list field")
                items, item_chain = None, chain
            item_kind = self.value_type(items, f"{place}[]") if items is not None else None
            if items is not None and item_kind == "object" and items.get("properties") and depth < self._limit:
                self._object(items, f"{path}[].", _record_place(place, path), item_chain, depth + 1, True, out)
                return
            if items is not None and item_kind == "object" and items.get("properties") and self._limit == self.max_depth:
                self.report.add(place, "nesting deeper than the depth limit", f"kept as one list field ({self.max_depth} levels)")
            item_leaf = item_kind
            if item_leaf == "string" and items is not None and _format(items) in _DATE_FORMATS:
                item_leaf = "date"
            self._emit(out, FlatField(path, "array", description, unit or (_unit(items) if items else None), in_list,
                                      item_leaf))
            return
        self.report.add(place, f"unsupported type {kind!r}")


def _is_null_schema(resolver: Resolver, branch: Any, chain: tuple[str, ...]) -> bool:
    try:
        node, _ = resolver.resolve(branch, chain)
    except (ExternalRef, DanglingRef, CircularRef):
        return False
    return isinstance(node, dict) and (node.get("type") == "null" or node.get("enum") == [None])


def _record_place(place: str, path: str) -> str:
    """The record-level place of a field's ``place`` (which ends with its path)."""
    return place[: -len(path)].rstrip() if place.endswith(path) else place


def _scalar_type(resolver: Resolver, branch: Any, chain: tuple[str, ...]) -> str | None:
    try:
        node, _ = resolver.resolve(branch, chain)
    except (ExternalRef, DanglingRef, CircularRef):
        return None
    kind = node.get("type") if isinstance(node, dict) else None
    return kind if isinstance(kind, str) else None




def _same_scalar(resolver: Resolver, branches: list[Any], chain: tuple[str, ...], kind: str) -> dict[str, Any]:
    """The schema of a union whose branches are all ``kind``: their format when they share one, and
    ``date`` for dates and date-times (a date is a value every branch accepts)."""
    formats = set()
    for branch in branches:
        try:
            node, _ = resolver.resolve(branch, chain)
        except (ExternalRef, DanglingRef, CircularRef):
            node = {}
        formats.add(_format(node) if isinstance(node, dict) else None)
    if len(formats) == 1 and None not in formats:
        return {"type": kind, "format": formats.pop()}
    if formats <= _DATE_FORMATS:
        return {"type": kind, "format": "date"}
    return {"type": kind}


def _format(node: dict[str, Any]) -> str | None:
    value = node.get("format")
    return value if isinstance(value, str) else None


def schema_from_example(value: Any, depth: int = 0) -> dict[str, Any]:
    """A JSON schema describing ``value`` (objects, lists, scalars; ``null`` left untyped), depth-bounded."""
    if depth > 8:
        return {}
    if isinstance(value, dict):
        return {"type": "object", "properties": {str(k): schema_from_example(v, depth + 1) for k, v in
                                                 list(value.items())[:500]}}
    if isinstance(value, list):
        objects = [v for v in value[:50] if isinstance(v, dict)]
        if objects:
            merged: dict[str, Any] = {}
            for obj in objects:
                for k, v in obj.items():
                    if merged.get(k) is None:
                        merged[k] = v
            return {"type": "array", "items": schema_from_example(merged, depth + 1)}
        first = next((v for v in value if v is not None), None)
        return {"type": "array", "items": schema_from_example(first, depth + 1) if first is not None else {}}
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        return {"type": "string"}
    return {}
