"""Keep secrets out of what the service sends: every known secret value is masked in responses.

Adapters already keep keys out of the request strings they report; this is the second line:
the values of every key variable a source declares, the LLM key and the bearer token are
replaced wherever they would appear in a response body.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from schemarouter.models import Source

MASK = "***"
LLM_KEY_ENV = "SCHEMAROUTER_LLM_API_KEY"
MIN_SECRET_CHARS = 6  # shorter values would mask ordinary words and numbers


def secret_values(
    sources: Iterable[Source], token: str | None, env: Mapping[str, str] | None = None
) -> list[str]:
    """The secret strings this process knows, longest first (so a longer one is masked whole)."""
    env = os.environ if env is None else env
    names = {s.auth.env for s in sources if s.auth is not None} | {LLM_KEY_ENV}
    values = {env[n] for n in names if env.get(n)}
    if token:
        values.add(token)
    return sorted((v for v in values if len(v) >= MIN_SECRET_CHARS), key=len, reverse=True)


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret value masked."""
    for value in secrets:
        if value in text:
            text = text.replace(value, MASK)
    return text
