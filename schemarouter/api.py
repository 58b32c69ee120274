"""The Python API: plan and run questions from a program or a notebook, with typed results.

    import schemarouter
    result = schemarouter.run("What is the band gap of SiC?", offline=True)
    result.status, result.values, result.coverage, result.plan

    router = schemarouter.Router.from_registry()
    plan = router.plan("Bulk modulus of diamond from the Materials Project")
    result = router.run(plan)

``schemarouter.Router`` is the router (``schemarouter.router.Router``) plus :meth:`Router.run`, which
executes a plan with every installed adapter, the response cache and fallbacks; the CLI's ``run``
and ``ask`` go through the same function, so the Python API and the command line cannot drift.
Results are the pydantic models of :mod:`schemarouter.execution.results` (``RunResult``,
``StepResult``, ``Value``) and :mod:`schemarouter.plan` (``Plan``, ``Coverage``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemarouter.execution.cache import StepCache, cache_settings
from schemarouter.execution.limits import ExecutionLimits
from schemarouter.execution.redis_cache import open_step_cache
from schemarouter.execution.results import RunResult
from schemarouter.graph import SchemaGraph
from schemarouter.plan import Mode, Plan
from schemarouter.router.core import Router as _Planner

if TYPE_CHECKING:
    from schemarouter.registry import Registry



def open_graph(db_url: str | None = None) -> tuple[SchemaGraph, bool]:
    """The schema graph of the registry at ``db_url`` (from the process's graph cache when current),
    syncing the installed plugins first when it has no sources: one registry connection for both.
    The second item says whether it synced."""
    from schemarouter.graph.cache import load_graph
    from schemarouter.registry import Registry

    with Registry.open(db_url) as registry:
        synced = _sync_if_empty(registry)
        return load_graph(registry), synced


def _sync_if_empty(registry: Registry) -> bool:
    from schemarouter.declarations import collect
    from schemarouter.plugins import plugin_manager

    if registry.list_sources():
        return False
    registry.sync(collect(plugin_manager()))
    return True


class Router(_Planner):
    """Plans questions over one registry's schema graph (:meth:`plan`) and runs plans (:meth:`run`)."""

    def run(
        self,
        plan: Plan | str,
        *,
        mode: Mode = "recall",
        offline: bool = False,
        cassettes: str | Path | None = None,
        cache: bool | StepCache = True,
        fallback: bool = True,
        env: Mapping[str, str] | None = None,
        limits: ExecutionLimits | None = None,
        allow_writes: Iterable[str] = (),
        on_step: Callable[[str, int, str], None] | None = None,
    ) -> RunResult:
        """Execute ``plan`` (or plan and execute a question) and return the attributed values.

        ``offline`` replays recorded responses (``cassettes``: a folder of them, default the recordings
        the installed plugins ship) and
        neither reads nor writes the cache. ``cache``: True for the configured response cache, False for
        none, or a :class:`StepCache`. ``fallback``: try an equivalent source when a step fails.
        ``env``: where API keys are read (default ``os.environ``). ``limits``: the per-request timeout and
        per-step deadline (default: :func:`~schemarouter.execution.limits.resolve_limits`, i.e. the
        environment, then the defaults). ``allow_writes``: source ids whose write endpoints may run
        (besides those in ``SCHEMAROUTER_ALLOW_WRITES``); any other write step fails before a request.
        ``on_step(event, index, "source.endpoint")`` is told when each step starts and ends.
        """
        from schemarouter.execution.executor import Executor
        from schemarouter.execution.http import HttpConfig
        from schemarouter.execution.limits import resolve_limits
        from schemarouter.execution.mcp_cassettes import mcp_replay
        from schemarouter.execution.offline import offline_env, recording_folders, replay
        from schemarouter.execution.registry_adapters import collect_adapters, stored_adapters
        from schemarouter.execution.secrets import Secrets

        if isinstance(plan, str):
            plan = self.plan(plan, mode=mode)
        decls = self.graph.decls
        environ: dict[str, str] = dict(os.environ if env is None else env)
        if offline:
            environ = offline_env(environ, [auth.env for auth in self.graph.source_auths()])
        limits = limits or resolve_limits(env=environ)
        # Local sources run through HttpJsonAdapter with their stored specs; an invalid one fails only its steps.
        adapters = {**stored_adapters(decls.adapter_specs), **collect_adapters()}
        store: StepCache | None
        if offline or cache is False:
            store = None  # replay is deterministic: it neither serves live data nor stores cassette data
        elif cache is True:
            store = open_step_cache(cache_settings())
        else:
            store = cache
        # every key's value is hidden from what the run shows (from the graph: no source is read back for it)
        secrets = Secrets.from_auths(self.graph.source_auths(), environ)
        executor = Executor(decls, adapters, env=environ, cache=store, substitutes=self.substitutes if fallback else None,
                            config=HttpConfig(timeout_s=limits.timeout_s), step_timeout_s=limits.step_deadline_s,
                            allow_writes=allow_writes, secrets=secrets, replaying=offline,
                            on_step=on_step)
        with replay(cassettes, secrets, decls.sources.values()) if offline else nullcontext(), \
                mcp_replay(recording_folders(cassettes).values()) if offline else nullcontext():
            return executor.run_sync(plan)


def run(question: str, *, db: str | None = None, mode: Mode = "recall", **options: Any) -> RunResult:
    """Plan and run ``question`` on the registry at ``db`` (default: the user's, synced on first use);
    ``options`` are those of :meth:`Router.run` (offline, cassettes, cache, fallback, env)."""
    router = _router(db)
    return router.run(router.plan(question, mode=mode), **options)


def _router(db: str | None) -> Router:
    return Router(open_graph(db)[0])
