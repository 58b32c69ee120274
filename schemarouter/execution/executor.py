"""The executor: run a plan's steps concurrently and collect attributed values.

Each step is checked against the registry declarations (source, endpoint, fields), its key is
checked *before* any request (a missing variable is named), and it runs through the source's
adapter under an overall deadline. Whatever happens in one step ends as a typed error on that
step; the others still return. Two optional hooks: a step-level response cache
(:mod:`~schemarouter.execution.cache`) and a fallback to an equivalent source when a step fails
for a reason of the source's own, run through the ``substitutes`` function the caller hands in
(the router plans them: :mod:`schemarouter.router.substitutes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import httpx

from schemarouter.declarations import Declarations
from schemarouter.errors import clip
from schemarouter.execution import errors as E
from schemarouter.execution.adapter import Adapter, StepCall, auth_required
from schemarouter.execution.cache import StepCache, step_key
from schemarouter.execution.fallback import Alternative, Substitutes, fallback_worthy
from schemarouter.execution.http import HttpConfig, SourceLimits, make_client
from schemarouter.execution.limits import DEFAULT_STEP_DEADLINE_S
from schemarouter.execution.projection import identifier_field, project_record
from schemarouter.execution.protocols import protocol_adapter
from schemarouter.execution.results import Fallback, RunResult, StepFailure, StepResult
from schemarouter.execution.secrets import Secrets
from schemarouter.execution.units import convert
from schemarouter.models import ResponseField, ungiven_required
from schemarouter.plan import Plan, PlanStep, binding_of
from schemarouter.sources.spec import AdapterSpec

# on_step(event, step index, "source.endpoint"): event is "start" or "end"
StepObserver = Callable[[str, int, str], None]

class Executor:
    """Run plans against declared sources.

    ``adapters``: source id -> adapter (see :func:`collect_adapters`). ``specs``: source id ->
    {endpoint id -> AdapterSpec} for sources with no adapter, run through HttpJsonAdapter.
    ``client_factory`` builds the shared httpx client (tests pass a MockTransport). ``cache``: a
    :class:`StepCache` (None: no caching).
    ``substitutes``: equivalent steps for a step that failed for a reason of its source's own (no
    key, network, 5xx, timeout), tried in order; None: no fallbacks.
    ``allow_writes``: source ids whose write endpoints (``access: write``) may run; with the ids in
    ``SCHEMAROUTER_ALLOW_WRITES`` the only ones. Any other write step fails before a request.
    ``secrets``: the key names and values to hide (made from the declarations and ``env`` when not given).
    """

    def __init__(
        self,
        declarations: Declarations,
        adapters: Mapping[str, Adapter] | None = None,
        *,
        specs: Mapping[str, Mapping[str, AdapterSpec]] | None = None,
        config: HttpConfig | None = None,
        env: Mapping[str, str] | None = None,
        client_factory: Callable[[HttpConfig], httpx.AsyncClient] | None = None,
        step_timeout_s: float | None = None,
        cache: StepCache | None = None,
        substitutes: Substitutes | None = None,
        allow_writes: Iterable[str] = (),
        secrets: Secrets | None = None,
        replaying: bool = False,
        on_step: StepObserver | None = None,
    ) -> None:
        self.declarations = declarations
        self.on_step = on_step  # told when each step starts and ends (a CLI shows the slow ones)
        self.replaying = replaying  # recordings answer: adapters may skip what only live calls need
        self.adapters = dict(adapters or {})
        self.specs = dict(specs or {})
        self.config = config or HttpConfig()
        self.env = env if env is not None else os.environ
        self.client_factory = client_factory or (lambda cfg: make_client(cfg, offline=replaying))
        self.step_timeout_s = step_timeout_s or DEFAULT_STEP_DEADLINE_S
        # Every declared key name and value of this run: hidden in whatever a step result shows.
        self.secrets = secrets or Secrets.from_sources(declarations.sources.values(), self.env)
        self.cache = cache
        self.substitutes = substitutes
        self._made: dict[str, Adapter] = {}  # generic adapters made from ``specs``, by source id
        # Write endpoints run only for sources the user named: here or in SCHEMAROUTER_ALLOW_WRITES.
        self.allow_writes = frozenset(allow_writes) | allowed_writes_from_env(self.env)

    def adapter_for(self, source_id: str) -> Adapter:
        """The adapter for a source: a registered one, else the generic adapter of its specs' protocol
        (one per source for the executor's life, so a run's steps share what it opens)."""
        if source_id in self.adapters:
            return self.adapters[source_id]
        if source_id in self.specs:
            made = self._made.get(source_id)
            if made is None:
                specs = self.specs[source_id]
                protocol = next((spec.protocol for spec in specs.values()), "http")
                made = self._made[source_id] = protocol_adapter(protocol, specs)
            return made
        raise E.InvalidStep(f"no adapter is registered for source {source_id!r} (install its plugin)")

    async def aclose(self) -> None:
        """Close what adapters opened for a run (an MCP session, a database connection): each adapter
        with an ``aclose`` coroutine; a failure to close is no failure of the run."""
        for adapter in [*self.adapters.values(), *self._made.values()]:
            close = getattr(adapter, "aclose", None)
            if close is not None:
                with contextlib.suppress(Exception):
                    await close()

    def _prepare(self, step: PlanStep, client: httpx.AsyncClient, limits: SourceLimits) -> tuple[Adapter, StepCall]:
        source = self.declarations.sources.get(step.source)
        if source is None:
            raise E.InvalidStep(f"unknown source {step.source!r} (not in the registry)")
        try:
            endpoint = source.endpoint(step.endpoint)
        except KeyError:
            raise E.InvalidStep(f"source {source.id!r} has no endpoint {step.endpoint!r}") from None
        if endpoint.access == "write" and source.id not in self.allow_writes:
            raise E.WriteNotAllowed(source.id, endpoint.id, endpoint.method)
        ungiven = ungiven_required(endpoint, step.params, source.auth.name if source.auth else None)
        if ungiven:
            raise E.MissingInput(source.id, endpoint.id, [p.name for p in ungiven])
        declared = {f.name: f for f in endpoint.fields}
        unknown = [name for name in step.fields if name not in declared]
        if unknown:
            raise E.InvalidStep(f"{source.id}.{endpoint.id} has no field(s) {', '.join(unknown)}")
        id_field = identifier_field(endpoint)
        fields: list[ResponseField] = [declared[n] for n in step.fields]
        if id_field is not None and id_field.name not in step.fields:
            fields.insert(0, id_field)
        adapter = self.adapter_for(source.id)
        call = StepCall(source, endpoint, dict(step.params), fields, client, self.config, limits, self.env,
                        replaying=self.replaying)
        if source.auth is not None and auth_required(adapter) and not self.env.get(source.auth.env):
            raise E.MissingCredentials(source.id, source.auth.env)
        return adapter, call

    async def _attempt(
        self, index: int, step: PlanStep, client: httpx.AsyncClient, limits: SourceLimits,
    ) -> tuple[StepResult, BaseException | None]:
        """One step against one source: the result, and the exception it failed with (None on success)."""
        result = StepResult(index=index, id=step.id, source=step.source, endpoint=step.endpoint,
                            fields=list(step.fields), params=dict(step.params))
        started = time.perf_counter()
        failure: BaseException | None = None
        try:
            adapter, call = self._prepare(step, client, limits)
            key = self._cache_key(call)
            hit = self.cache.get(key, call.source.id) if self.cache is not None and key else None
            if hit is not None:
                result.records, result.request, result.cached = hit.records, hit.request, True
            else:
                fetched = await asyncio.wait_for(adapter.fetch(call), self.step_timeout_s)
                result.request = fetched.request
                result.records = [
                    project_record(
                        call.source, call.endpoint, call.fields, raw,
                        projected=fetched.projected, unit_from=fetched.unit_from,
                    )
                    for raw in fetched.records
                ]
                if not result.records:
                    raise E.NoRecords(f"{step.source}: no records")
                if self.cache is not None and key:
                    secret = [self.env.get(call.source.auth.env, "")] if call.source.auth else []
                    self.cache.put(key, call.source, result.records, result.request, secrets=secret)
        except E.StepError as err:
            failure = err
            result.error = StepFailure(kind=err.kind, message=str(err))
        except TimeoutError as err:
            failure = err
            result.error = StepFailure(
                kind=E.StepTimeout.kind, message=f"{step.source}: step took longer than {self.step_timeout_s:g} s"
            )
        except Exception as err:  # an adapter bug must not sink the other steps
            failure = err
            result.error = StepFailure(kind="adapter_error", message=clip(f"{step.source}: {type(err).__name__}: {err}", 300))
        result.elapsed_s = round(time.perf_counter() - started, 4)
        return self.secrets.redact_step(result), failure

    def _cache_key(self, call: StepCall) -> str | None:
        """The step's cache key, or None when it must not be cached (a write, a source with TTL 0)."""
        if self.cache is None or call.endpoint.access == "write" or self.cache.ttl(call.source) <= 0:
            return None
        return step_key(call.source, call.endpoint, call.params, [f.name for f in call.fields])

    async def _run_step(
        self, index: int, plan: Plan, client: httpx.AsyncClient, limits: SourceLimits,
        produced: Mapping[str, asyncio.Future[StepResult]] | None = None,
    ) -> StepResult:
        step = plan.steps[index]
        try:
            step = await resolve_bindings(step, produced or {})
        except E.UnresolvedBinding as err:
            return StepResult(index=index, id=step.id, source=step.source, endpoint=step.endpoint,
                              fields=list(step.fields), error=StepFailure(kind=err.kind, message=str(err)))
        if step is not plan.steps[index]:  # fallbacks are found for the step as it is sent
            plan = plan.model_copy(update={"steps": [*plan.steps[:index], step, *plan.steps[index + 1:]]})
        result, failure = await self._attempt(index, step, client, limits)
        if failure is None or self.substitutes is None or not fallback_worthy(failure) or result.error is None:
            return result
        failed: list[str] = []
        for alt in self.substitutes(plan, index):
            source = self.declarations.sources.get(alt.step.source)
            if source is not None and source.auth is not None and not self.env.get(source.auth.env):
                failed.append(f"{alt.step.source}: skipped, needs {source.auth.env}")
                continue
            other, _ = await self._attempt(index, alt.step, client, limits)
            if other.error is None:
                _convert_units(other, alt)
                other.fallback = Fallback(source=step.source, endpoint=step.endpoint, error=result.error,
                                          reason=alt.reason, fields=alt.fields,
                                          conversions=[f"{n}: {a} -> {b}" for n, (a, b) in sorted(alt.units.items())])
                other.fallbacks_failed = failed
                other.elapsed_s = round(other.elapsed_s + result.elapsed_s, 4)
                return other
            failed.append(f"{alt.step.source}: {other.error.kind}: {other.error.message}")
        result.fallbacks_failed = failed
        return result

    async def run(self, plan: Plan) -> RunResult:
        """Run every step; a step bound to earlier steps starts once they have finished."""
        if plan.is_declined:
            return RunResult(query=plan.query, declined=plan.declined, plan=plan)
        limits = SourceLimits(self.config.per_source_concurrency)
        steps = with_bound_fields(plan.steps)
        working = plan.model_copy(update={"steps": steps})
        loop = asyncio.get_running_loop()
        produced: dict[str, asyncio.Future[StepResult]] = {}
        for step in steps:
            if step.id is not None and step.id not in produced:
                produced[step.id] = loop.create_future()

        async def run_one(index: int, step: PlanStep) -> StepResult:
            earlier = {s.id: produced[s.id] for s in steps[:index] if s.id is not None}
            if self.on_step is not None:
                self.on_step("start", index, f"{step.source}.{step.endpoint}")
            try:
                result = await self._run_step(index, working, client, limits, earlier)
            finally:
                if self.on_step is not None:
                    self.on_step("end", index, f"{step.source}.{step.endpoint}")
            future = produced.get(step.id) if step.id is not None else None
            if future is not None and not future.done():
                future.set_result(result)
            return result

        try:
            async with self.client_factory(self.config) as client:
                results = await asyncio.gather(*(run_one(i, step) for i, step in enumerate(steps)))
        finally:
            await self.aclose()
        return RunResult(query=plan.query, steps=list(results), plan=plan)

    def run_sync(self, plan: Plan) -> RunResult:
        """Run the plan from synchronous code."""
        return asyncio.run(self.run(plan))


def with_bound_fields(steps: list[PlanStep]) -> list[PlanStep]:
    """The steps, each producer also fetching the fields later steps are bound to."""
    wanted: dict[str, list[str]] = {}
    for step in steps:
        for value in step.params.values():
            b = binding_of(value)
            if b is not None:
                wanted.setdefault(b["from"], []).append(b["field"])
    out = []
    for step in steps:
        extra = [f for f in wanted.get(step.id or "", []) if f not in step.fields]
        out.append(step.model_copy(update={"fields": [*step.fields, *dict.fromkeys(extra)]}) if extra else step)
    return out


async def resolve_bindings(step: PlanStep, produced: Mapping[str, asyncio.Future[StepResult]]) -> PlanStep:
    """``step`` with each bound parameter replaced by the value its producer returned; a producer that
    is not an earlier step, failed, returned no record or no value fails this step, naming it."""
    bound = {name: b for name, value in step.params.items() if (b := binding_of(value)) is not None}
    if not bound:
        return step
    params = dict(step.params)
    for name, b in bound.items():
        producer = b["from"]
        future = produced.get(producer)
        where = f"{step.id or step.source}: parameter {name!r} is bound to {producer}.{b['field']}"
        if future is None:
            raise E.UnresolvedBinding(f"{where}, but no earlier step is called {producer!r}")
        result = await future
        if result.error is not None:
            raise E.UnresolvedBinding(f"{where}, and {producer} failed ({result.error.kind}: {result.error.message})")
        values = [r.values[b["field"]].value for r in result.records if b["field"] in r.values]
        values = [v for v in values if v is not None]
        if not values:
            raise E.UnresolvedBinding(f"{where}, and {producer} returned no value for {b['field']!r}")
        params[name] = values if b.get("pick") == "all" else values[0]
    return step.model_copy(update={"params": params})


def allowed_writes_from_env(env: Mapping[str, str]) -> frozenset[str]:
    """Source ids in ``SCHEMAROUTER_ALLOW_WRITES`` (comma-separated)."""
    return frozenset(s.strip() for s in env.get("SCHEMAROUTER_ALLOW_WRITES", "").split(",") if s.strip())


def load_executor(registry_url: str | None = None, **kwargs: Any) -> Executor:
    """An executor on the registry's declarations with every installed plugin's adapters."""
    from schemarouter.execution.registry_adapters import collect_adapters, stored_adapters
    from schemarouter.registry import Registry

    with Registry.open(registry_url) as registry:
        declarations = registry.load()
    # Local sources (schemarouter source add / import-openapi) run through HttpJsonAdapter with the
    # adapter specs stored beside their endpoints; an invalid stored spec fails only its own steps.
    adapters = {**stored_adapters(declarations.adapter_specs), **collect_adapters()}
    return Executor(declarations, adapters, **kwargs)


def _convert_units(result: StepResult, alt: Alternative) -> None:
    """Express a fallback's values in the planned units where pint says they convert; each says so."""
    for record in result.records:
        for value in record.values.values():
            units = alt.units.get(value.field)
            if units is None or not isinstance(value.value, (int, float)) or isinstance(value.value, bool):
                continue
            offered, planned = units
            original = value.value
            value.value = convert(float(original), offered, planned)
            value.unit = planned
            value.note = f"converted from {original:g} {offered}" + (f"; {value.note}" if value.note else "")
