"""The adapter contract: how the executor asks a source for one plan step's records.

An adapter implements one async method, :meth:`Adapter.fetch`, and returns raw records (the
executor projects them by each field's declared ``path``) or, when the adapter already mapped
values itself (e.g. parsing PubChem's experimental values), projected ones. Plugins register
adapters with the ``register_adapters`` hook: ``register(source_id, adapter)``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import httpx

from schemarouter.execution.errors import MissingCredentials
from schemarouter.execution.http import HttpConfig, Response, SourceLimits, send
from schemarouter.execution.secrets import Secrets
from schemarouter.models import Endpoint, ResponseField, Source


@dataclass(frozen=True)
class FieldValue:
    """A value an adapter already extracted, with a unit or note of its own when it has one."""

    value: Any
    unit: str | None = None
    note: str | None = None


@dataclass
class FetchResult:
    """Records for one step.

    ``records`` are raw records (projected by the executor through each field's ``path``), or,
    with ``projected=True``, dicts of field name -> raw value or :class:`FieldValue`.
    ``unit_from`` maps a field to the field whose value is its unit (MPDS). ``request`` is a
    description of what was asked, with no key in it.
    """

    records: list[Any]
    request: str | None = None
    projected: bool = False
    unit_from: Mapping[str, str] = field(default_factory=dict)


@dataclass
class StepCall:
    """Everything an adapter needs for one step."""

    source: Source
    endpoint: Endpoint
    params: dict[str, Any]
    fields: list[ResponseField]
    client: httpx.AsyncClient
    config: HttpConfig = field(default_factory=HttpConfig)
    limits: SourceLimits = field(default_factory=SourceLimits)
    env: Mapping[str, str] = field(default_factory=lambda: os.environ)
    # the run replays recordings: an adapter may skip what only a live call needs (a heavy client library)
    replaying: bool = False

    def api_key(self, required: bool = True) -> str | None:
        """The key from the env var the declaration names; MissingCredentials when required and unset."""
        auth = self.source.auth
        if auth is None:
            return None
        key = self.env.get(auth.env) or None
        if key is None and required:
            raise MissingCredentials(self.source.id, auth.env)
        return key

    async def send(self, request: httpx.Request) -> Response:
        """Send through the shared client (retries, caps, credentials kept to their origin)."""
        secrets = Secrets.from_sources([self.source], self.env)
        return await send(
            self.client, request, source=self.source.id, config=self.config, limits=self.limits, secrets=secrets
        )


@runtime_checkable
class Adapter(Protocol):
    """Fetch one step's records. Raise a :class:`~schemarouter.execution.errors.StepError` on failure.

    ``auth_required`` (optional attribute, default True): whether a declared key must be set;
    when it must and is not, the executor fails the step before calling :meth:`fetch`.
    """

    async def fetch(self, call: StepCall) -> FetchResult:
        """Call the source for one step and return its raw records."""


def auth_required(adapter: Any) -> bool:
    """Whether the adapter needs its source's key to be set (true unless it says otherwise)."""
    return bool(getattr(adapter, "auth_required", True))
