"""Keep secrets out of what the service sends: every known secret value is masked in responses.

The executor already hides keys in what a run reports (:mod:`schemarouter.execution.secrets`);
this is the second line for a server, which also holds its bearer token and possibly the LLM key:
their values and those of every key variable a source declares are masked wherever they would
appear in a response body.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from schemarouter.execution.secrets import MIN_VALUE_LENGTH, REDACTED, Secrets
from schemarouter.models import Source

MASK = REDACTED
LLM_KEY_ENV = "SCHEMAROUTER_LLM_API_KEY"


def secret_values(
    sources: Iterable[Source], token: str | None, env: Mapping[str, str] | None = None
) -> list[str]:
    """The secret strings this process knows (as they may appear in text), longest first."""
    env = os.environ if env is None else env
    values = set(Secrets.from_sources(sources, env).values)
    for extra in (token, env.get(LLM_KEY_ENV)):
        if extra and len(extra) >= MIN_VALUE_LENGTH:
            values.add(extra)
    return sorted(values, key=lambda v: (-len(v), v))


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret value masked (values only: record data stays as it is)."""
    for value in secrets:
        if value in text:
            text = text.replace(value, MASK)
    return text
