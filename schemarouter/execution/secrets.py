"""Credentials: which names carry keys, and hiding keys wherever text leaves the process.

A key reaches a source as a header or a query parameter named by the source's ``auth``
declaration, with its value read from an environment variable. Hiding it by a fixed list of
names misses a source's own name (``appid``), so :class:`Secrets` knows three things: a general
list of credential names, every name a declared source uses, and the secret values themselves
(read from the declared variables). Run output, ``--json`` request fields, error details that
servers echo back and cassettes all pass through it; a cross-origin redirect gets a request
stripped of every credential header and query parameter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, quote_plus

import httpx

from schemarouter.execution.results import StepResult
from schemarouter.models import Auth, Source

REDACTED = "REDACTED"
# Header and query-parameter names that carry credentials in common APIs (compared case-insensitively).
CREDENTIAL_NAMES = frozenset({
    "apikey", "api_key", "api-key", "x-api-key", "x-apikey", "appid", "app_id", "app_key", "appkey",
    "token", "access_token", "auth_token", "x-auth-token", "x-access-token", "id_token", "refresh_token",
    "key", "crtfc_key", "client_secret", "secret", "password", "passwd", "signature", "sig",
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-lab-token", "x-goog-api-key",
})
# A secret value shorter than this is hidden by name only: replacing every "abc" in a text would
# mangle it while protecting nothing.
MIN_VALUE_LENGTH = 6


@dataclass(frozen=True)
class Secrets:
    """The credential names and values of one run; ``redact`` hides both in any text."""

    names: frozenset[str] = CREDENTIAL_NAMES
    values: tuple[str, ...] = ()

    @classmethod
    def from_sources(cls, sources: Iterable[Source], env: Mapping[str, str]) -> Secrets:
        """General names plus each source's declared auth name; values from the declared variables."""
        return cls.from_auths([s.auth for s in sources if s.auth is not None], env)

    @classmethod
    def from_auths(cls, auths: Iterable[Auth], env: Mapping[str, str]) -> Secrets:
        """:meth:`from_sources` from the sources' auth declarations alone."""
        names = set(CREDENTIAL_NAMES)
        values: set[str] = set()
        for auth in auths:
            names.add(auth.name.lower())
            value = env.get(auth.env) or ""
            if len(value) >= MIN_VALUE_LENGTH:
                values.update(_encodings(value))
        # Longest first, so a value that contains another is replaced whole.
        return cls(frozenset(names), tuple(sorted(values, key=lambda v: (-len(v), v))))

    def is_credential(self, name: str) -> bool:
        """Whether a parameter or header name is one that carries a credential."""
        return name.lower() in self.names

    # ------------------------------------------------------------------ text
    def redact(self, text: str, *, prose: bool = True) -> str:
        """``text`` with every secret value and every credential-named value hidden.

        Credential names are looked for as ``name=value`` (query strings) and, with ``prose``, as
        ``name: value`` and ``"name": "value"`` (headers, JSON error details). Record values use
        ``prose=False``: "key: 3" in a data field is data.
        """
        for value in self.values:
            if value in text:
                text = text.replace(value, REDACTED)
        if "=" in text or (prose and ":" in text):
            text = _name_pattern(self.names, prose).sub(_hide_match, text)
        return text

    def redact_any(self, value: Any, *, prose: bool = False) -> Any:
        """Redact the strings inside a JSON-like value (lists, dicts, scalars)."""
        if isinstance(value, str):
            return self.redact(value, prose=prose)
        if isinstance(value, list):
            return [self.redact_any(v, prose=prose) for v in value]
        if isinstance(value, dict):
            return {k: self.redact_any(v, prose=prose) for k, v in value.items()}
        return value

    def redact_step(self, step: StepResult) -> StepResult:
        """Hide secrets in everything a step result shows: request, error, record values, notes."""
        if step.request:
            step.request = self.redact(step.request)
        if step.error is not None:
            step.error.message = self.redact(step.error.message)
        for record in step.records:
            if record.record_id:
                record.record_id = self.redact(record.record_id, prose=False)
            for value in record.values.values():
                value.value = self.redact_any(value.value)
                if value.record_id:
                    value.record_id = self.redact(value.record_id, prose=False)
                if value.note:
                    value.note = self.redact(value.note)
        return step

    # ------------------------------------------------------------------ requests
    def strip_url(self, url: httpx.URL) -> httpx.URL:
        """``url`` without credential query parameters (untouched when it has none)."""
        if not any(self.is_credential(k) for k in url.params):
            return url
        kept = [(k, v) for k, v in url.params.multi_items() if not self.is_credential(k)]
        return url.copy_with(params=kept) if kept else url.copy_with(query=None)

    def strip_headers(self, headers: httpx.Headers) -> None:
        """Remove every credential header in place."""
        for name in [k for k in headers if self.is_credential(k)]:
            del headers[name]

    def redact_url(self, url: httpx.URL | str) -> str:
        """A URL to show: credential parameters replaced by REDACTED, secret values hidden anywhere."""
        parsed = httpx.URL(str(url))
        if any(self.is_credential(k) for k in parsed.params):
            pairs = [(k, REDACTED if self.is_credential(k) else v) for k, v in parsed.params.multi_items()]
            parsed = parsed.copy_with(params=pairs)
        # Untouched otherwise: re-encoding would mangle raw queries such as AFLUX matchbooks.
        return self.redact(str(parsed))


def _encodings(value: str) -> set[str]:
    """The value as it may appear in text: raw, percent-encoded, form-encoded."""
    return {value, quote(value, safe=""), quote_plus(value)}


# "needs an API key: set the environment variable ..." is a sentence, not a header: a value made of
# letters only that the sentence goes on after (a space, then another lowercase word) is prose.
_SENTENCE_GOES_ON = re.compile(r"\s+[a-z]+\b")


def _hide_match(match: re.Match[str]) -> str:
    value = match.group(3)
    if ":" in match.group(2) and value.isalpha() and _SENTENCE_GOES_ON.match(match.string, match.end()):
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}{REDACTED}"


_PATTERNS: dict[tuple[frozenset[str], bool], re.Pattern[str]] = {}


def _name_pattern(names: frozenset[str], prose: bool) -> re.Pattern[str]:
    """``name=value``; with ``prose`` also ``name: value`` (headers) and ``"name": "value"`` (JSON)."""
    pattern = _PATTERNS.get((names, prose))
    if pattern is None:
        alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        separator = r"=|%3D|:" if prose else r"=|%3D"
        pattern = re.compile(
            rf"(?i)(?<![\w-])(\"?(?:{alternatives})\"?)(\s*(?:{separator})\s*\"?)(?!{REDACTED})"
            rf"((?:Bearer\s+|Basic\s+|Token\s+)?[^&\s\"',;<>#]+)"
        )
        if len(_PATTERNS) > 64:
            _PATTERNS.clear()
        _PATTERNS[(names, prose)] = pattern
    return pattern
