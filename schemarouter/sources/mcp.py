"""What a local source stores to reach an MCP server: the server's address and each endpoint's tool.

An endpoint of protocol ``mcp`` is one tool of one MCP server. Its :class:`AdapterSpec` ``options``
hold an :class:`McpToolOptions`: the server (a stdio command line, or a streamable HTTP URL), the
tool's name as the server lists it, and the ``outputSchema`` the tool declared when it was imported
(results are checked against it). Secrets are never stored: only the *names* of the environment
variables a stdio server is handed (``env``) and the source's ``auth`` declaration (whose key goes
to a stdio server as the variable ``auth.name``, to an HTTP server as the header ``auth.name``).
The model sits beside the adapter spec because both the importer and the adapter read it.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from schemarouter.models import ENV_VAR_PATTERN

EnvName = Annotated[str, StringConstraints(pattern=ENV_VAR_PATTERN.pattern)]
MAX_ARGS = 64
MAX_ARG_CHARS = 1000
# A stored output schema larger than this is dropped (results are then not checked against it).
MAX_STORED_SCHEMA_CHARS = 200_000
_URL = re.compile(r"^https?://[^\s@/]+(/\S*)?$")  # no user:password@ in a stored URL


class McpServer(BaseModel):
    """How to reach one MCP server: ``command`` (argv of a stdio server) or ``url`` (streamable HTTP)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command: list[Annotated[str, StringConstraints(min_length=1, max_length=MAX_ARG_CHARS)]] | None = None
    url: Annotated[str, StringConstraints(max_length=2000)] | None = None
    # names of environment variables handed to a stdio server (values read when it starts)
    env: list[EnvName] = Field(default_factory=list)
    cwd: Annotated[str, StringConstraints(min_length=1, max_length=1000)] | None = None

    @model_validator(mode="after")
    def _one_transport(self) -> McpServer:
        if (self.command is None) == (self.url is None):
            raise ValueError("an MCP server is either a command (stdio) or a url (streamable HTTP), exactly one")
        if self.command is not None and not self.command:
            raise ValueError("the command of a stdio MCP server is empty")
        if self.command is not None and len(self.command) > MAX_ARGS:
            raise ValueError(f"the command has more than {MAX_ARGS} arguments")
        if self.url is not None and not _URL.match(self.url):
            raise ValueError(f"{self.url[:80]!r} is not an http(s) URL without credentials")
        if self.url is not None and (self.env or self.cwd):
            raise ValueError("env and cwd apply to a stdio server only")
        return self

    @property
    def transport(self) -> str:
        """``stdio`` or ``http``."""
        return "stdio" if self.command is not None else "http"

    def label(self) -> str:
        """The server as one short line (its command line or URL)."""
        if self.command is not None:
            text = " ".join(self.command)
            return text if len(text) <= 120 else text[:119] + "…"
        return str(self.url)

    def key(self) -> str:
        """A stable identity: endpoints with the same key share one session per run."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True)


class McpToolOptions(BaseModel):
    """The ``options`` of an MCP endpoint's adapter spec."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    server: McpServer
    tool: Annotated[str, StringConstraints(min_length=1, max_length=256)]
    output_schema: dict[str, Any] | None = None


def tool_options(options: dict[str, Any]) -> McpToolOptions:
    """Validate an MCP endpoint's options; ValueError with a one-line reason when they are wrong."""
    try:
        return McpToolOptions.model_validate(options)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "options"
        raise ValueError(f"MCP options {where}: {first.get('msg', 'invalid')}") from None


def storable_schema(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The output schema to keep beside the endpoint, or None when there is none or it is too big."""
    if schema is None:
        return None
    return schema if len(json.dumps(schema, default=str)) <= MAX_STORED_SCHEMA_CHARS else None
