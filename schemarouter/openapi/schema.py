"""Flatten a JSON Schema (OpenAPI dialect) into field paths with types.

Objects become dotted paths, arrays of objects ``[]`` paths (their fields are lists, so typed
``array`` as in the inventory), ``allOf`` parts are merged, and a ``oneOf``/``anyOf`` whose only
alternatives are one schema and ``null`` is read as that schema. Every other union, ``not``, an
untyped leaf, an external ``$ref`` or a property name the path grammar cannot spell is reported,
not guessed. Nesting deeper than ``max_depth`` objects stops with an ``object`` field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from schemarouter.openapi.errors import OpenAPIImportError, mapping, sequence
from schemarouter.openapi.report import ImportReport
from schemarouter.openapi.resolver import ExternalRef, Resolver

_PATH_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_:\-]*$")
_SCALARS = {"string", "integer", "number", "boolean"}
_DATE_FORMATS = {"date", "date-time"}
MAX_DEPTH = 4


@dataclass(frozen=True)
class FlatField:
    path: str
    type: str
    description: str = ""
    unit: str | None = None
    in_list: bool = False  # under a [] selector: one value per list element
    item_type: str | None = None  # element type of a list-valued field

    @property
    def key(self) -> str:
        return self.path.replace("[]", "").rsplit(".", 1)[-1]


def _unit(node: dict[str, Any]) -> str | None:
    for key in ("x-unit", "x-units"):
        value = node.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


class Flattener:
    def __init__(self, resolver: Resolver, report: ImportReport, max_depth: int = MAX_DEPTH) -> None:
        self.resolver = resolver
        self.report = report
        self.max_depth = max_depth

    # ------------------------------------------------------------------ normalizing one node
    def normalize(self, node: Any, place: str, chain: tuple[str, ...]) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
        """Resolve refs, merge allOf, unwrap nullable unions; None (reported) when unsupported."""
        try:
            node, chain = self.resolver.resolve(node, place, chain)
        except ExternalRef as ext:
            self.report.add(place, "external $ref", ext.ref)
            return None, chain
        if not isinstance(node, dict):
            self.report.add(place, "schema is not an object")
            return None, chain
        self._check_shape(node, place)
        if "allOf" in node:
            merged = self._merge_all_of(node, place, chain)
            if merged is None:
                return None, chain
            node = merged
        for keyword in ("oneOf", "anyOf"):
            if keyword in node:
                branches = node[keyword] if isinstance(node[keyword], list) else []
                real = [b for b in branches if not _is_null_schema(self.resolver, b, place, chain)]
                numeric = [_scalar_type(self.resolver, b, place, chain) for b in real]
                if len(real) > 1 and set(numeric) <= {"integer", "number"}:
                    # integer | number is a number: the one union real specs use for scores
                    rest = {k: v for k, v in node.items() if k != keyword}
                    return {**rest, "type": "number"}, chain
                if len(real) == 1:
                    rest = {k: v for k, v in node.items() if k != keyword}
                    inner, chain = self.normalize(real[0], place, chain)
                    if inner is None:
                        return None, chain
                    return {**inner, **{k: v for k, v in rest.items() if k in ("description", "x-unit", "x-units")}}, chain
                self.report.add(place, keyword, f"{len(real)} alternatives")
                return None, chain
        if "not" in node:
            self.report.add(place, "not")
            return None, chain
        return node, chain

    def _check_shape(self, node: dict[str, Any], place: str) -> None:
        """Keywords with the wrong JSON type are bad input, named with their place."""
        file = self.resolver.file
        mapping(node.get("properties"), file, place, "'properties'")
        for keyword in ("allOf", "oneOf", "anyOf"):
            sequence(node.get(keyword), file, place, f"'{keyword}'")
        kind = node.get("type")
        if kind is not None and not isinstance(kind, (str, list)):
            raise OpenAPIImportError(file, place, f"'type' must be a string or a list, not {type(kind).__name__}")

    def _merge_all_of(self, node: dict[str, Any], place: str, chain: tuple[str, ...]) -> dict[str, Any] | None:
        merged: dict[str, Any] = {k: v for k, v in node.items() if k != "allOf"}
        properties: dict[str, Any] = dict(merged.get("properties") or {})
        for index, part in enumerate(node["allOf"] or []):
            resolved, _ = self.normalize(part, f"{place} allOf[{index}]", chain)
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
        """Fields of one record whose schema is ``node``."""
        out: list[FlatField] = []
        node, chain = self.normalize(node, place, chain)
        if node is None:
            return out
        kind = self.value_type(node, place)
        if kind == "object" and node.get("properties"):
            self._object(node, "", place, chain, 1, False, out)
        elif kind in _SCALARS or kind == "array":
            self.report.add(place, "record is not an object", f"a bare {kind}; no field path can name it")
        elif kind == "object":
            self.report.add(place, "free-form object", "no properties declared")
        else:
            self.report.add(place, "untyped schema")
        return out

    def _object(
        self, node: dict[str, Any], prefix: str, place: str, chain: tuple[str, ...], depth: int,
        in_list: bool, out: list[FlatField],
    ) -> None:
        units = node.get("x-units") if isinstance(node.get("x-units"), dict) else {}
        for key, child in (node.get("properties") or {}).items():
            child_place = f"{place} {prefix}{key}"  # place is the record's place; prefix the path so far
            if not _PATH_KEY.match(str(key)):
                self.report.add(child_place, "property name not expressible as a field path", repr(key))
                continue
            self._value(child, f"{prefix}{key}", child_place, chain, depth, in_list, out, units.get(key))

    def _value(
        self, child: Any, path: str, place: str, chain: tuple[str, ...], depth: int, in_list: bool,
        out: list[FlatField], unit_hint: str | None,
    ) -> None:
        node, chain = self.normalize(child, place, chain)
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
                out.append(FlatField(path, "array", description, unit, True, leaf))
            else:
                out.append(FlatField(path, leaf, description, unit))
            return
        if kind == "object":
            if not node.get("properties"):
                out.append(FlatField(path, "array" if in_list else "object", description, unit, in_list, "object"))
                return
            if depth >= self.max_depth:
                self.report.add(place, "nesting deeper than the depth limit", f"kept as one object field ({self.max_depth} levels)")
                out.append(FlatField(path, "array" if in_list else "object", description, unit, in_list, "object"))
                return
            self._object(node, f"{path}.", _record_place(place, path), chain, depth + 1, in_list, out)
            return
        if kind == "array":
            items, item_chain = self.normalize(node.get("items", {}), f"{place}[]", chain)
            item_kind = self.value_type(items, f"{place}[]") if items is not None else None
            if items is not None and item_kind == "object" and items.get("properties") and depth < self.max_depth:
                self._object(items, f"{path}[].", _record_place(place, path), item_chain, depth + 1, True, out)
                return
            if items is not None and item_kind == "object" and items.get("properties"):
                self.report.add(place, "nesting deeper than the depth limit", f"kept as one list field ({self.max_depth} levels)")
            leaf = item_kind
            if leaf == "string" and items is not None and _format(items) in _DATE_FORMATS:
                leaf = "date"
            out.append(FlatField(path, "array", description, unit or (_unit(items) if items else None), in_list, leaf))
            return
        self.report.add(place, f"unsupported type {kind!r}")


def _is_null_schema(resolver: Resolver, branch: Any, place: str, chain: tuple[str, ...]) -> bool:
    try:
        node, _ = resolver.resolve(branch, place, chain)
    except ExternalRef:
        return False
    return isinstance(node, dict) and (node.get("type") == "null" or node.get("enum") == [None])


def _record_place(place: str, path: str) -> str:
    """The record-level place of a field's ``place`` (which ends with its path)."""
    return place[: -len(path)].rstrip() if place.endswith(path) else place


def _scalar_type(resolver: Resolver, branch: Any, place: str, chain: tuple[str, ...]) -> str | None:
    try:
        node, _ = resolver.resolve(branch, place, chain)
    except ExternalRef:
        return None
    kind = node.get("type") if isinstance(node, dict) else None
    return kind if isinstance(kind, str) else None


def _format(node: dict[str, Any]) -> str | None:
    value = node.get("format")
    return value if isinstance(value, str) else None
