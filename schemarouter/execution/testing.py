"""Test kit for adapter tests: cassette folders, the shared VCR config, one-step runs.

In a plugin's ``tests/test_<source>_adapter.py``::

    from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

    @pytest.fixture
    def vcr_cassette_dir() -> str:
        return cassette_dir("crossref")

    @pytest.mark.vcr("works_doi.yaml")
    def test_doi_lookup() -> None:
        step = run_step("crossref", "works", {"doi": "10.1371/..."}, ["title"])

``vcr_config`` (imported, it becomes the module's fixture) keeps keys out of cassettes: the
general credential names, every installed source's declared auth name and the keys themselves
(read from the declared variables) are filtered from requests and responses before recording;
replay only is pytest-recording's default (``--record-mode=none``). Re-record with a real
key by running pytest with ``--record-mode=once --block-network=false`` after deleting the cassette.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import pytest

from schemarouter.declarations import Declarations, collect
from schemarouter.execution import offline
from schemarouter.execution.executor import Executor
from schemarouter.execution.http import HttpConfig
from schemarouter.execution.registry_adapters import collect_adapters
from schemarouter.execution.results import StepResult
from schemarouter.execution.secrets import Secrets
from schemarouter.plan import Plan, PlanStep
from schemarouter.plugins import make_plugin_manager


def cassette_dir(source_id: str) -> str:
    """The folder of recorded responses the installed plugin of ``source_id`` ships."""
    folder = offline.recording_folders().get(source_id)
    if folder is None:
        raise LookupError(f"no installed plugin registers recordings for source {source_id!r}")
    return str(folder)


@pytest.fixture
def vcr_config() -> dict[str, Any]:
    """pytest-recording's VCR settings, with every installed source's credentials filtered out."""
    declarations, _adapters = installed()
    config = offline.vcr_config(Secrets.from_sources(declarations.sources.values(), os.environ))
    # pytest-recording's --record-mode (default "none") must win, so re-recording works.
    config.pop("record_mode")
    return config


@lru_cache(maxsize=1)
def installed() -> tuple[Declarations, dict[str, Any]]:
    """The installed plugins' declarations and adapters."""
    pm = make_plugin_manager()
    return collect(pm), collect_adapters(pm)


def run_step(
    source: str,
    endpoint: str,
    params: dict[str, Any],
    fields: list[str],
    *,
    env: Mapping[str, str] | None = None,
    config: HttpConfig | None = None,
    replaying: bool = False,
) -> StepResult:
    """Run one plan step through the installed plugin's adapter (keys default to placeholders);
    ``replaying`` tells the adapter the run replays recordings, as ``run --offline`` does."""
    declarations, adapters = installed()
    if env is None:
        env = offline.offline_env({}, [s.auth.env for s in declarations.sources.values() if s.auth])
    executor = Executor(declarations, adapters, env=env,
                        config=config or HttpConfig(retries=1, backoff_s=0.0), replaying=replaying)
    plan = Plan(query="test", registry_fingerprint=None,
                steps=[PlanStep(source=source, endpoint=endpoint, params=params, fields=fields)])
    return executor.run_sync(plan).steps[0]
