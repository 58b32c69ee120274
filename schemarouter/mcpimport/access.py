"""Whether an MCP tool reads or writes: the overlay's word, else the tool's annotations, else its name.

MCP annotations are hints: ``readOnlyHint: true`` reads; ``readOnlyHint: false`` or
``destructiveHint: true`` writes. A tool with neither is read as a write when its name starts with a
verb of change (``create_issue``, ``git_commit``: the verb may follow a prefix), as a read
otherwise; the import notes each such tool so that the overlay can say better. A write gets the
HTTP method of its verb (delete -> DELETE, update -> PATCH, else POST), so that a request to act
is declined naming the write that would do it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_DELETE_VERBS = ("delete", "remove", "drop", "purge", "erase", "destroy", "cancel", "revoke", "unsubscribe")
_CHANGE_VERBS = ("update", "set", "edit", "modify", "rename", "move", "patch", "replace", "change")
_WRITE_VERBS = (*_DELETE_VERBS, *_CHANGE_VERBS, "create", "add", "insert", "write", "put", "post", "send",
                "upload", "commit", "push", "merge", "reset", "checkout", "init", "apply", "run", "execute",
                "start", "stop", "kill", "restart", "install", "submit", "publish", "save", "store", "import")


@dataclass(frozen=True)
class ToolAccess:
    """Whether a tool reads or writes, and why."""

    access: str  # "read" | "write"
    method: str  # GET for reads; POST, PATCH or DELETE for writes
    annotated: bool  # whether a readOnlyHint (or destructiveHint) said so


def _verb(name: str) -> str:
    words = re.findall(r"[a-z]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).lower())
    # "git_commit": the first word is the server's prefix; the verb may be the second
    return next((w for w in words[:2] if w in _WRITE_VERBS), "")


def tool_access(tool: Mapping[str, Any], override: str | None = None) -> ToolAccess:
    """Read or write, from the overlay's ``access``, else the tool's annotations, else its name's verb."""
    verb = _verb(str(tool.get("name", "")))
    annotations: dict[str, Any] = found if isinstance(found := tool.get("annotations"), dict) else {}
    read_only = annotations.get("readOnlyHint")
    destructive = annotations.get("destructiveHint")
    if override is not None:
        access, annotated = override, True
    elif read_only is True:
        access, annotated = "read", True
    elif read_only is False or destructive is True:
        access, annotated = "write", True
    else:
        access, annotated = ("write" if verb else "read"), False
    if access == "read":
        return ToolAccess("read", "GET", annotated)
    method = "DELETE" if verb in _DELETE_VERBS else "PATCH" if verb in _CHANGE_VERBS else "POST"
    return ToolAccess("write", method, annotated)
