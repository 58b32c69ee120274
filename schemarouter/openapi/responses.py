"""Reading an operation's success response: its schema or example, where its records sit, and whether
the document says nothing of its body at all.

Split from :mod:`schemarouter.openapi.mapper` (which maps operations, parameters and bodies) as a
mixin of :class:`~schemarouter.openapi.mapper.Mapper`: the response side of an operation is its
own concern, and it reads the mapper's resolver, flattener and report.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from schemarouter.openapi.errors import OpenAPIImportError, mapping
from schemarouter.openapi.naming import has_id_property
from schemarouter.openapi.report import ImportReport
from schemarouter.openapi.resolver import CircularRef
from schemarouter.openapi.schema import Flattener
from schemarouter.safeload import UnsafeDocumentError, load_json

RECORDS_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_:\-]*$")  # a key the field-path grammar can name
JSON_TYPE = re.compile(r"^application/([\w.+-]*\+)?json$|^application/json$|^\*/\*$")


def is_json_type(media_type: str) -> bool:
    """Whether a media type (parameters after ``;`` aside) carries JSON."""
    return bool(JSON_TYPE.match(media_type.split(";")[0].strip())) or media_type.endswith("+json")


def success_code(codes: Iterable[str]) -> str | None:
    """The success response to read: 200, else the first 2xx, else None."""
    codes = list(codes)
    return "200" if "200" in codes else min((c for c in codes if c.startswith("2")), default=None)


def _names_a_path_param(node: dict[str, Any], path_params: Sequence[str]) -> bool:
    """Whether an object schema has a property named like a path parameter: the operation addresses
    one record by that value, and the object is that record (not an envelope around its lists)."""
    wanted = {p.lower() for p in path_params}
    return bool(wanted) and any(str(k).lower() in wanted for k in node.get("properties") or {})


class ResponseReading:
    """The response side of :class:`~schemarouter.openapi.mapper.Mapper` (which sets these)."""

    file: str
    overlay_file: str
    report: ImportReport
    flattener: Flattener

    def _resolve(self, node: Any, place: str) -> Any:
        raise NotImplementedError  # the mapper's: resolves a $ref, reporting where it cannot

    def _undescribed_body(self, op: dict[str, Any]) -> bool:
        """Whether the success response exists but says nothing of its body (no content, or JSON with
        no schema and no example): what it returns is then read as one whole value."""
        responses = op.get("responses")
        if not isinstance(responses, dict):
            return False
        by_code = {str(code): value for code, value in responses.items()}  # YAML: 200 is an int
        code = success_code(by_code)
        if code is None:
            return False
        try:
            response = self._resolve(by_code[code], "response")
        except OpenAPIImportError:
            return False
        content = response.get("content") if isinstance(response, dict) else None
        if not content:
            return True
        if not isinstance(content, dict):
            return False
        media = [m for t, m in content.items() if is_json_type(str(t))]
        return bool(media) and all(not isinstance(m, dict) or ("schema" not in m and "example" not in m) for m in media)

    def _response_schema(self, op: dict[str, Any], place: str, report: bool = True) -> tuple[Any, Any]:
        """The JSON schema of the success response, and its example (None when there is none); where
        there is none, why goes in the import report unless ``report`` is false."""
        add = self.report.add if report else lambda *_args: None
        raw = mapping(op.get("responses"), self.file, f"{place} responses", "'responses'")
        responses = {str(code): value for code, value in raw.items()}  # YAML: 200 is an int
        code = success_code(responses)
        if code is None:
            add(place, "no 2xx response")
            return None, None
        response = self._resolve(responses[code], f"{place} response {code}")
        where = f"{place} response {code}"
        content = mapping(mapping(response, self.file, where, "a response").get("content"), self.file, where, "'content'")
        json_types = [t for t in map(str, content) if is_json_type(t)]
        if not json_types:
            if content:
                add(place, "non-JSON response", ", ".join(map(str, content)))
                return None, None
            return None, None  # the document says nothing of the body: read as one whole value
        # application/json first, and a type that has a schema before one that only has examples
        json_types.sort(key=lambda t: (not isinstance(content[t], dict) or "schema" not in content[t],
                                       not t.startswith("application/json")))
        media = mapping(content[json_types[0]], self.file, f"{where} {json_types[0]}", "a media type")
        schema = media.get("schema")
        if schema is None:
            example = self._example(media, None, where)
            if example is None:
                add(place, "JSON response without a schema")
            return None, example
        return schema, self._example(media, schema, where)

    def _example(self, media: dict[str, Any], schema: Any, place: str) -> Any:
        """The media type's example, its first ``examples`` value, or the schema's example; JSON text parsed."""
        value: Any = media.get("example")
        if value is None and isinstance(media.get("examples"), dict):
            first = next(iter(media["examples"].values()), None)
            first = self._resolve(first, f"{place} examples") if first is not None else None
            value = first.get("value") if isinstance(first, dict) else None
        if value is None and isinstance(schema, dict):
            value = schema.get("example")
        if isinstance(value, str) and value.lstrip()[:1] in ("{", "[") and len(value) <= 1_000_000:
            try:
                value = load_json(value, name=f"{place} example")
            except UnsafeDocumentError:
                return None
        return value if isinstance(value, (dict, list)) else None

    def _records(
        self, schema: Any, place: str, wanted: str | None, endpoint_id: str, path_params: Sequence[str] = ()
    ) -> tuple[str, Any, tuple[str, ...]]:
        """Where records sit: the overlay's path, a root list, or the one list of objects. An object with
        an id-like property, or with a property named like a parameter in ``path_params`` (the one the
        path ends with: ``GET /studies/{urn}`` answering ``{"urn": ..., "targets": [...]}``), is the
        record itself."""
        where = f"{place} response"
        try:
            node, chain = self.flattener.normalize(schema, where, (), union_root=True)
        except CircularRef:
            return "", schema, ()
        if node is None:
            return "", schema, ()
        if wanted is not None:
            return wanted, self._follow(node, chain, wanted, place, endpoint_id), chain
        if self.flattener.value_type(node, where) == "array":
            return "", node.get("items", {}), chain
        if has_id_property(node) or _names_a_path_param(node, path_params):
            return "", node, chain  # a record with an id of its own, not an envelope around a list
        lists = self._record_lists(node, chain, where)
        if not lists:
            # an envelope inside the envelope ({"response": {"docs": [...], "meta": {...}}}): the one
            # list of objects one object further down
            for key, child in self._object_children(node, chain, where):
                lists += [(f"{key}.{inner}", items, inner_chain)
                          for inner, items, inner_chain in self._record_lists(child[0], child[1], f"{where} {key}")]
        if len(lists) == 1:
            return lists[0]
        return "", node, chain

    def _record_lists(self, node: dict[str, Any], chain: tuple[str, ...],
                      where: str) -> list[tuple[str, Any, tuple[str, ...]]]:
        """The properties of ``node`` that are lists of objects: (key, item schema, chain)."""
        lists = []
        for key, child in (node.get("properties") or {}).items():
            try:
                child_node, child_chain = self.flattener.normalize(child, f"{where} {key}", chain)
                if child_node is None or self.flattener.value_type(child_node, where) != "array":
                    continue
                items, _ = self.flattener.normalize(child_node.get("items", {}), f"{where} {key}[]", child_chain)
            except CircularRef:
                continue
            if (items is not None and self.flattener.value_type(items, where) == "object" and items.get("properties")
                    and RECORDS_KEY.match(str(key))):
                lists.append((str(key), child_node.get("items", {}), child_chain))
        return lists

    def _object_children(self, node: dict[str, Any], chain: tuple[str, ...],
                         where: str) -> list[tuple[str, tuple[dict[str, Any], tuple[str, ...]]]]:
        """The properties of ``node`` that are objects without an id of their own (envelopes)."""
        out = []
        for key, child in (node.get("properties") or {}).items():
            try:
                child_node, child_chain = self.flattener.normalize(child, f"{where} {key}", chain)
            except CircularRef:
                continue
            if (child_node is not None and self.flattener.value_type(child_node, where) == "object"
                    and child_node.get("properties") and not has_id_property(child_node)
                    and RECORDS_KEY.match(str(key))):
                out.append((str(key), (child_node, child_chain)))
        return out

    def _follow(self, node: dict[str, Any], chain: tuple[str, ...], path: str, place: str, endpoint_id: str) -> Any:
        if path == "":
            return node.get("items", {}) if self.flattener.value_type(node, place) == "array" else node
        current: Any = node
        for key in path.split("."):
            props = (current or {}).get("properties") or {}
            if key not in props:
                raise OpenAPIImportError(
                    self.overlay_file, f"endpoints.{endpoint_id}.records",
                    f"{path!r}: the response has no property {key!r} (has: {', '.join(map(str, props)) or 'none'})",
                )
            try:
                current, chain = self.flattener.normalize(props[key], f"{place} response {key}", chain)
            except CircularRef:
                current = None
        if current is not None and self.flattener.value_type(current, place) == "array":
            return current.get("items", {})
        return current
