"""The real Redis at 127.0.0.1:6379 for tests: a key prefix of one test's own, deleted afterwards, or a
skip with the reason where Redis cannot be reached."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from schemarouter.execution.redis_cache import redis_client

REDIS_URL = "redis://127.0.0.1:6379/0"


@contextmanager
def own_prefix(suffix: str = "") -> Iterator[str]:
    """A fresh ``sr-test-<random>:<suffix>`` key prefix; every key under it is deleted on exit."""
    client = redis_client(REDIS_URL)
    try:
        client.ping()
    except Exception as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"Redis unreachable: {exc}")
    name = f"sr-test-{uuid.uuid4().hex[:12]}:{suffix}"
    try:
        yield name
    finally:
        for key in client.scan_iter(match=f"{name}*"):
            client.delete(key)
