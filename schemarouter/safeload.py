"""Load YAML and JSON from outside the project (users' files, downloaded specs) within fixed bounds.

``yaml.safe_load`` refuses to build arbitrary objects, but it is not safe against size: an
anchor referred to ten times, ten levels deep (the "billion laughs"), composes as a few hundred
shared nodes that every later walk, copy or ``json.dumps`` expands to a billion; an anchor that
contains an alias to itself makes a cyclic structure; and a few thousand nested brackets end in a
``RecursionError`` traceback. Every file the project reads from outside goes through this module,
which composes the YAML node graph itself, without recursion, and refuses:

* more than ``max_alias_nodes`` nodes produced through aliases (each alias counts the whole
  subtree it stands for, so a doubling chain is caught after a few levels),
* an alias to an anchor that is still open (a recursive structure),
* nesting deeper than ``max_depth`` (real documents stay far below; the default also keeps any
  recursive walker of the result under Python's recursion limit),
* more than ``max_bytes`` of input, NUL bytes (binary data), and text that is not UTF-8/UTF-16.

Every refusal and every syntax error is one :class:`UnsafeDocumentError` whose message is one
line naming the file and, where known, the line. Without aliases, the result is exactly what
``yaml.safe_load`` / ``json.loads`` return.
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from schemarouter.errors import SchemaRouterError

MAX_DEPTH = 200
MAX_ALIAS_NODES = 200_000
MAX_BYTES = 64 * 1024 * 1024

_BASE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when built with it


class UnsafeDocumentError(SchemaRouterError):
    """A document that cannot be loaded, or not within the bounds; names the file and the line."""

    def __init__(self, name: str, problem: str, line: int | None = None, column: int | None = None) -> None:
        self.name = name
        self.problem = " ".join(problem.split())  # one line, whatever the parser said
        self.line = line
        self.column = column
        super().__init__(f"{name}: {self.where}: {self.problem}" if self.where else f"{name}: {self.problem}")

    @property
    def where(self) -> str:
        """``line L, column C`` (1-based), ``line L``, or ``""`` when the position is unknown."""
        if self.line is None:
            return ""
        return f"line {self.line}" + (f", column {self.column}" if self.column is not None else "")


@dataclass
class _Open:
    """A sequence or mapping being composed: its node, pending mapping key and expanded size."""

    node: SequenceNode | MappingNode
    anchor: str | None
    size: int = 1
    key: Node | None = None
    items: list[Any] = field(default_factory=list)


class _BoundedComposer:
    """Compose one YAML document from parser events into a node graph, iteratively and within bounds."""

    def __init__(self, loader: Any, name: str, max_depth: int, max_alias_nodes: int) -> None:
        self.loader = loader
        self.name = name
        self.max_depth = max_depth
        self.max_alias_nodes = max_alias_nodes
        self.anchors: dict[str, tuple[Node, int]] = {}  # anchor -> (node, expanded size)
        self.open_anchors: set[str] = set()
        self.alias_nodes = 0

    def _refuse(self, problem: str, event: Any) -> UnsafeDocumentError:
        mark = getattr(event, "start_mark", None)
        return UnsafeDocumentError(self.name, problem, mark.line + 1 if mark else None, mark.column + 1 if mark else None)

    def _tag(self, kind: type[Node], event: Any, value: str | None) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(kind, value, event.implicit)
        return str(tag)

    def _anchor(self, event: Any) -> None:
        anchor = event.anchor
        if anchor is not None and anchor in self.anchors:
            first = self.anchors[anchor][0].start_mark
            raise self._refuse(f"invalid YAML: duplicate anchor {anchor!r} (first at line {first.line + 1})", event)

    def compose(self) -> Node:
        """The next node of the stream (the parser stands before it)."""
        stack: list[_Open] = []
        while True:
            event = self.loader.get_event()
            start: Any = event.start_mark  # libyaml's Mark; the stubs know only the pure-Python one
            end: Any = event.end_mark
            node: Node
            size = 1
            if isinstance(event, AliasEvent):
                anchor = event.anchor
                if anchor in self.open_anchors:
                    raise self._refuse(f"recursive YAML anchor {anchor!r} (an alias inside the node it names)", event)
                if anchor not in self.anchors:
                    raise yaml.composer.ComposerError(None, None, f"found undefined alias {anchor!r}", start)
                node, size = self.anchors[anchor]
                self.alias_nodes += size
                if self.alias_nodes > self.max_alias_nodes:
                    raise self._refuse(
                        f"YAML aliases expand to more than {self.max_alias_nodes:,} nodes "
                        f"(an alias bomb such as the 'billion laughs')", event,
                    )
            elif isinstance(event, ScalarEvent):
                self._anchor(event)
                node = ScalarNode(self._tag(ScalarNode, event, event.value), event.value, start, end, style=event.style)
                if event.anchor is not None:
                    self.anchors[event.anchor] = (node, 1)
            elif isinstance(event, (SequenceStartEvent, MappingStartEvent)):
                self._anchor(event)
                if len(stack) >= self.max_depth:
                    raise self._refuse(f"nesting deeper than {self.max_depth} levels", event)
                kind: type[SequenceNode | MappingNode] = (
                    SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
                )
                opened = kind(self._tag(kind, event, None), [], start, None, flow_style=event.flow_style)
                stack.append(_Open(opened, event.anchor))
                if event.anchor is not None:
                    self.open_anchors.add(event.anchor)
                continue
            elif isinstance(event, (SequenceEndEvent, MappingEndEvent)):
                frame = stack.pop()
                node, size = frame.node, frame.size
                node.end_mark = end
                node.value = frame.items
                if frame.anchor is not None:
                    self.open_anchors.discard(frame.anchor)
                    self.anchors[frame.anchor] = (node, size)
            else:  # the parser guarantees node events here; anything else is a parser bug
                raise self._refuse(f"unexpected YAML event {type(event).__name__}", event)
            if not stack:
                return node
            parent = stack[-1]
            parent.size += size
            if isinstance(parent.node, SequenceNode):
                parent.items.append(node)
            elif parent.key is None:
                parent.key = node
            else:
                parent.items.append((parent.key, node))
                parent.key = None


def _loader_class(name: str, max_depth: int, max_alias_nodes: int) -> type[Any]:
    class BoundedLoader(_BASE_LOADER):  # type: ignore[misc]
        """The safe loader (libyaml's parser where available) with the bounded composer."""

        def get_single_node(self) -> Node | None:
            self.get_event()  # stream start
            document = None
            if not self.check_event(StreamEndEvent):
                document = self._document()
            if not self.check_event(StreamEndEvent):
                event = self.get_event()
                raise yaml.composer.ComposerError(
                    "expected a single document in the stream", document.start_mark if document else None,
                    "but found another document", event.start_mark,
                )
            self.get_event()  # stream end
            return document

        def _document(self) -> Node:
            start = self.get_event()
            if not isinstance(start, DocumentStartEvent):  # pragma: no cover - the parser's contract
                raise UnsafeDocumentError(name, f"unexpected YAML event {type(start).__name__}")
            node = _BoundedComposer(self, name, max_depth, max_alias_nodes).compose()
            end = self.get_event()
            if not isinstance(end, DocumentEndEvent):  # pragma: no cover - the parser's contract
                raise UnsafeDocumentError(name, f"unexpected YAML event {type(end).__name__}")
            return node

    return BoundedLoader


def _text(data: str | bytes, name: str, max_bytes: int) -> str:
    """Decode ``data`` (UTF-8, or UTF-16/32 with a byte order mark); refuse binary or oversized input."""
    if isinstance(data, str):
        if len(data) > max_bytes:
            raise UnsafeDocumentError(name, f"larger than the limit of {max_bytes // (1024 * 1024)} MiB")
        text = data
    else:
        if len(data) > max_bytes:
            raise UnsafeDocumentError(name, f"larger than the limit of {max_bytes // (1024 * 1024)} MiB")
        encoding = "utf-8-sig"
        for bom, enc in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
            if data.startswith(bom):
                encoding = enc
                break
        if encoding == "utf-8-sig" and b"\x00" in data:
            line = data[: data.index(b"\x00")].count(b"\n") + 1
            raise UnsafeDocumentError(name, "binary data (a NUL byte), not a text document", line)
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise UnsafeDocumentError(
                name, f"not {encoding.removesuffix('-sig').upper()} text "
                f"(byte 0x{data[exc.start]:02x} cannot be decoded)", line
            ) from None
    if "\x00" in text:
        raise UnsafeDocumentError(name, "binary data (a NUL character), not a text document",
                                  text[: text.index("\x00")].count("\n") + 1)
    return text.removeprefix("\ufeff")


def load_yaml(
    text: str | bytes, *, name: str, max_depth: int = MAX_DEPTH, max_alias_nodes: int = MAX_ALIAS_NODES,
    max_bytes: int = MAX_BYTES,
) -> Any:
    """Parse one YAML document like ``yaml.safe_load``, with aliases, nesting and size bounded."""
    source = _text(text, name, max_bytes)
    loader = _loader_class(name, max_depth, max_alias_nodes)(source)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "syntax error"
        if exc.context and problem.startswith("but "):  # "expected ..., but found ..."
            problem = f"{exc.context}, {problem}"
        if "nesting depth" in problem:  # libyaml's own guard, met before the composer's
            problem = f"nesting deeper than {max_depth} levels"
            raise UnsafeDocumentError(name, problem, mark.line + 1 if mark else None) from None
        raise UnsafeDocumentError(
            name, f"invalid YAML: {problem}", mark.line + 1 if mark else None, mark.column + 1 if mark else None
        ) from None
    except yaml.YAMLError as exc:
        raise UnsafeDocumentError(name, f"invalid YAML: {exc}") from None
    except (ValueError, TypeError, OverflowError) as exc:  # e.g. a timestamp 2020-13-45, a 5,000-digit int
        raise UnsafeDocumentError(name, f"invalid YAML value: {exc}") from None
    finally:
        loader.dispose()


def _check_depth(value: Any, name: str, max_depth: int) -> None:
    """Refuse parsed JSON nested deeper than ``max_depth``: one level of containers at a time, no recursion."""
    level: list[Any] = [value] if type(value) in (dict, list) else []
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            raise UnsafeDocumentError(name, f"nesting deeper than {max_depth} levels")
        deeper: list[Any] = []
        for node in level:
            children = node.values() if type(node) is dict else node
            deeper.extend([child for child in children if type(child) in (dict, list)])
        level = deeper


def load_json(text: str | bytes, *, name: str, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES) -> Any:
    """Parse JSON like ``json.loads``, with nesting and size bounded and binary input refused."""
    source = _text(text, name, max_bytes)
    try:
        value = json.loads(source)
    except json.JSONDecodeError as exc:
        raise UnsafeDocumentError(name, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise UnsafeDocumentError(name, f"nesting deeper than {max_depth} levels") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise UnsafeDocumentError(name, f"invalid JSON value: {exc}") from None
    _check_depth(value, name, max_depth)
    return value


_JSON_START = re.compile(r"^\s*[\[{]")


def load_document(text: str | bytes, *, name: str, **limits: int) -> Any:
    """JSON when the text starts like JSON (``{`` or ``[``), else YAML; both bounded as above."""
    source = _text(text, name, limits.get("max_bytes", MAX_BYTES))
    if _JSON_START.match(source[:4096]):
        return load_json(source, name=name, **{k: v for k, v in limits.items() if k != "max_alias_nodes"})
    return load_yaml(source, name=name, **limits)


def load_file(path: str | Path, *, name: str | None = None, **limits: int) -> Any:
    """Read and parse a JSON or YAML file (see :func:`load_document`); unreadable files are refused too."""
    path = Path(path)
    label = name or str(path)
    max_bytes = limits.get("max_bytes", MAX_BYTES)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise UnsafeDocumentError(label, f"larger than the limit of {max_bytes // (1024 * 1024)} MiB")
        data = path.read_bytes()
    except OSError as exc:
        raise UnsafeDocumentError(label, f"cannot read: {exc.strerror or exc}") from None
    return load_document(data, name=label, **limits)


__all__ = [
    "MAX_ALIAS_NODES", "MAX_BYTES", "MAX_DEPTH", "UnsafeDocumentError", "load_document", "load_file", "load_json",
    "load_yaml",
]
