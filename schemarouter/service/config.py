"""Service settings: where to listen, which registry, what to allow, and the request limits.

The bearer token is read from an environment variable (never from an option value, so it does
not show in a process list or shell history) and kept out of ``repr``. Binding anything but a
loopback address without a token is refused: the API would otherwise be open to the network.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from schemarouter.errors import SchemaRouterError

TOKEN_ENV = "SCHEMAROUTER_API_TOKEN"
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
MIN_TOKEN_CHARS = 16


@dataclass(frozen=True)
class ServiceConfig:
    """Everything ``serve`` and ``mcp`` can be told; defaults are the safe ones."""

    registry_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8765
    live: bool = True  # False: runs replay the recorded cassettes only
    cassettes: str | None = None
    token: str | None = field(default=None, repr=False)
    token_env: str = TOKEN_ENV
    max_body_bytes: int = 1_000_000
    max_question_chars: int = 2_000
    run_timeout_s: float = 60.0
    poll_s: float | None = None  # None: 2 s on SQLite, 30 s on Postgres (NOTIFY does the fast path)
    max_connections: int = 512

    @classmethod
    def from_env(cls, token_env: str = TOKEN_ENV, **values: object) -> ServiceConfig:
        """A config whose token comes from ``token_env`` (unset or empty: no token)."""
        token = os.environ.get(token_env) or None
        return cls(token=token, token_env=token_env, **values)  # type: ignore[arg-type]

    def check(self) -> None:
        """Refuse settings that would expose the API or make no sense, with one line saying which."""
        if self.token is not None and len(self.token) < MIN_TOKEN_CHARS:
            raise SchemaRouterError(
                f"the bearer token in {self.token_env} is shorter than {MIN_TOKEN_CHARS} characters; "
                "use a long random one"
            )
        if self.host not in LOOPBACK and self.token is None:
            raise SchemaRouterError(
                f"binding {self.host} exposes the API beyond this machine: set a bearer token in "
                f"{self.token_env} (e.g. export {self.token_env}="
                "$(python -c 'import secrets; print(secrets.token_urlsafe(32))'))"
            )
        if self.max_body_bytes < 1024:
            raise SchemaRouterError("--max-body must be at least 1024 bytes")
        if self.run_timeout_s <= 0:
            raise SchemaRouterError("--run-timeout must be positive")
