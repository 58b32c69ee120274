"""A misbehaving MCP stdio server, for the bad-input tests of the MCP importer and adapter.

It speaks raw JSON-RPC (no SDK), so it can send exactly what a broken server sends. One mode per
run, the first argument::

    python -m schemarouter.testing.mcp_faults MODE [N]

``silent`` never answers, not even ``initialize``; ``hang`` answers everything but ``tools/call``;
``huge`` answers a call with one line of N bytes (default 50 MB); ``deep`` with JSON nested N deep
(default 10,000); ``exit`` exits (code 3, a line on stderr) in the middle of a call; ``mismatch``
returns structured content that breaks its own ``outputSchema``; ``selfref`` lists a tool whose
``outputSchema`` refers to itself; ``collide`` lists tool names that are one name once normalised;
``many`` lists N tools (default 5,000), 500 a page; ``good`` behaves. Every mode but ``silent``
lists the tool ``lookup`` (a read with an ``outputSchema``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

LOOKUP_OUTPUT = {"type": "object", "properties": {"id": {"type": "string"}, "value": {"type": "number"}},
                 "required": ["id", "value"]}
LOOKUP = {"name": "lookup", "description": "Look up a value by id.",
          "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "the id"}},
                          "required": ["id"]},
          "outputSchema": LOOKUP_OUTPUT, "annotations": {"readOnlyHint": True}}
SELFREF = {"name": "tree", "description": "A taxonomy node and its children.",
           "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
           "outputSchema": {"type": "object", "properties": {
               "name": {"type": "string"}, "rank": {"type": "string"}, "parent": {"$ref": "#"},
               "children": {"type": "array", "items": {"$ref": "#"}}}},
           "annotations": {"readOnlyHint": True}}
PAGE = 500


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _tools(mode: str, count: int) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = [LOOKUP]
    if mode == "selfref":
        tools.append(SELFREF)
    if mode == "collide":
        for name in ("get-data", "get_data", "Get Data", "get.data"):
            tools.append({**LOOKUP, "name": name, "description": f"Get data ({name})."})
    if mode == "many":
        tools += [{**LOOKUP, "name": f"tool_{n:05d}", "description": f"Look up value {n}."} for n in range(count - 1)]
    return tools


def _call(mode: str, n: int, request_id: Any, params: dict[str, Any]) -> None:
    ident = str((params.get("arguments") or {}).get("id", "x"))
    if mode == "hang":
        time.sleep(3600)
    if mode == "exit":
        sys.stderr.write("fault server: crashed on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    if mode == "huge":
        head = f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":{{"content":[{{"type":"text","text":"'
        sys.stdout.write(head + "x" * max(0, n - len(head) - 10) + '"}]}}\n')
        sys.stdout.flush()
        return
    if mode == "deep":
        nested = "[" * n + "]" * n
        sys.stdout.write(f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":{{"content":[],'
                         f'"structuredContent":{{"id":"{ident}","value":{nested}}}}}}}\n')
        sys.stdout.flush()
        return
    structured: dict[str, Any] = {"id": ident, "value": 42.0}
    if mode == "mismatch":
        structured = {"id": ident, "value": "forty-two"}
    _send({"jsonrpc": "2.0", "id": request_id, "result": {
        "content": [{"type": "text", "text": json.dumps(structured)}], "structuredContent": structured}})


def main(argv: list[str] | None = None) -> None:
    """Answer JSON-RPC on stdin/stdout the way ``MODE`` misbehaves."""
    args = sys.argv[1:] if argv is None else argv
    mode = args[0] if args else "good"
    default = {"huge": 50 * 1024 * 1024, "deep": 10_000, "many": 5_000}.get(mode, 0)
    n = int(args[1]) if len(args) > 1 else default
    for line in sys.stdin:
        if mode == "silent":
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue  # a notification
        params = message.get("params") or {}
        if method == "initialize":
            _send({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}}, "serverInfo": {"name": f"faults-{mode}", "version": "0"}}})
        elif method == "tools/list":
            tools = _tools(mode, n)
            start = int(params.get("cursor") or 0)
            page: dict[str, Any] = {"tools": tools[start:start + PAGE]}
            if start + PAGE < len(tools):
                page["nextCursor"] = str(start + PAGE)
            _send({"jsonrpc": "2.0", "id": request_id, "result": page})
        elif method == "tools/call":
            _call(mode, n, request_id, params)
        else:
            _send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": f"no method {method}"}})


if __name__ == "__main__":
    main()
