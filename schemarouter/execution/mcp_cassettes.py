"""Recorded MCP sessions: tool calls and their results in YAML, replayed offline like the HTTP cassettes.

A recording is a YAML file named ``*.mcp.yaml`` (beside the HTTP cassettes, under
``cassettes/<source id>/``) holding ``mcp_interactions``: each a source id, a tool name, the call's
arguments and the raw ``tools/call`` result (``content``, ``structuredContent``, ``isError``).
``run --offline`` serves MCP steps from every recording under the cassette folder
(:func:`mcp_replay`) and never starts a server; a call no recording holds fails its step. With
``SCHEMAROUTER_MCP_RECORD=DIR`` set, live runs append what they call to ``DIR/<source>.mcp.yaml``
(:func:`record_calls`), secrets replaced first. The same files give the importer sample results
for tools that declare no ``outputSchema``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from schemarouter.errors import SchemaRouterError
from schemarouter.safeload import UnsafeDocumentError, load_yaml

SUFFIX = ".mcp.yaml"
RECORD_ENV = "SCHEMAROUTER_MCP_RECORD"
HEADER = "# Recorded MCP tool calls (schemarouter): replayed by run --offline\n"


@dataclass(frozen=True)
class Interaction:
    """One recorded ``tools/call``: who was asked what, and the raw result."""

    source: str
    tool: str
    arguments: dict[str, Any]
    result: dict[str, Any]

    def key(self) -> tuple[str, str, str]:
        """What a replayed call is matched on: source, tool and the arguments (None values left out)."""
        return call_key(self.source, self.tool, self.arguments)

    def as_dict(self) -> dict[str, Any]:
        """The interaction as it is written."""
        return {"source": self.source, "tool": self.tool, "arguments": self.arguments, "result": self.result}


def call_key(source: str, tool: str, arguments: dict[str, Any]) -> tuple[str, str, str]:
    """Source, tool and canonical JSON arguments."""
    clean = {k: v for k, v in arguments.items() if v is not None}
    return source, tool, json.dumps(clean, sort_keys=True, default=str, ensure_ascii=False)


def load_recording(path: Path) -> list[Interaction]:
    """The interactions of one ``*.mcp.yaml`` file, or a SchemaRouterError naming the file and the problem."""
    try:
        data = load_yaml(path.read_bytes(), name=f"MCP recording {path}")
    except OSError as exc:
        raise SchemaRouterError(f"MCP recording {path} cannot be read: {exc.strerror}") from None
    except UnsafeDocumentError as exc:
        raise SchemaRouterError(str(exc)) from None
    items = data.get("mcp_interactions") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise SchemaRouterError(f"MCP recording {path} has no 'mcp_interactions' list")
    out = []
    for index, item in enumerate(items):
        if not (isinstance(item, dict) and isinstance(item.get("source"), str) and isinstance(item.get("tool"), str)
                and isinstance(item.get("arguments", {}), dict) and isinstance(item.get("result"), dict)):
            raise SchemaRouterError(
                f"MCP recording {path}: interaction {index + 1}: expected source, tool, arguments and a result mapping"
            )
        out.append(Interaction(item["source"], item["tool"], dict(item.get("arguments") or {}), item["result"]))
    return out


def load_folder(folder: Path) -> list[Interaction]:
    """Every interaction recorded under ``folder`` (recursively), in file order."""
    if folder.is_file():
        return load_recording(folder)
    return [i for path in sorted(folder.rglob("*" + SUFFIX)) for i in load_recording(path)]


class Replay:
    """Recorded results by (source, tool, arguments)."""

    def __init__(self, interactions: Iterable[Interaction], where: str) -> None:
        self.where = where
        self.calls: dict[tuple[str, str, str], dict[str, Any]] = {}
        for item in interactions:
            self.calls.setdefault(item.key(), item.result)

    def lookup(self, source: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
        """The recorded result of this call, or None."""
        return self.calls.get(call_key(source, tool, arguments))


_REPLAY: ContextVar[Replay | None] = ContextVar("schemarouter_mcp_replay", default=None)


def current_replay() -> Replay | None:
    """The offline replay in effect, if any: MCP steps are then served from it."""
    return _REPLAY.get()


@contextmanager
def mcp_replay(folders: str | Path | Iterable[Path]) -> Iterator[Replay]:
    """Serve MCP steps from the recordings under ``folders`` (one or several) for the duration of the block."""
    paths = [Path(folders)] if isinstance(folders, (str, Path)) else [Path(f) for f in folders]
    interactions = [i for path in paths if path.exists() for i in load_folder(path)]
    replay = Replay(interactions, ", ".join(str(p) for p in paths))
    token = _REPLAY.set(replay)
    try:
        yield replay
    finally:
        _REPLAY.reset(token)


def write_recording(path: Path, interactions: Iterable[Interaction]) -> int:
    """Add ``interactions`` to the recording at ``path`` (created if absent; a call recorded again replaces
    the old result). Returns how many the file holds."""
    existing = load_recording(path) if path.exists() else []
    merged: dict[tuple[str, str, str], Interaction] = {i.key(): i for i in existing}
    for item in interactions:
        merged[item.key()] = item
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump({"mcp_interactions": [i.as_dict() for i in merged.values()]}, sort_keys=False,
                          allow_unicode=True, width=110)
    path.write_text(HEADER + text, encoding="utf-8")
    return len(merged)


def record_calls(folder: str | Path, source: str, interactions: list[Interaction]) -> None:
    """Append a run's calls of one source to ``folder/<source>.mcp.yaml``."""
    if interactions:
        write_recording(Path(folder) / f"{source}{SUFFIX}", interactions)
