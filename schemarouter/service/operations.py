"""The operations both transports expose (plan, run, list and describe sources, health), with their errors.

Every request reads the current registry snapshot once. A plan given to ``run`` must have been
made on the registry state the server now serves: a plan from another fingerprint is reported
stale (after one check that this server is not itself behind), and a plan that names what the
registry lacks is refused before anything is sent to a source.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from pydantic import ValidationError

from schemarouter.declarations import describe_validation_error
from schemarouter.errors import SchemaRouterError
from schemarouter.models import Source
from schemarouter.plan import Plan
from schemarouter.router import validate_plan
from schemarouter.service import errors as E
from schemarouter.service.config import ServiceConfig
from schemarouter.service.execution import ReplayGate, execute
from schemarouter.service.lean import lean_run
from schemarouter.service.redact import redact, secret_values
from schemarouter.service.state import RegistryState, Snapshot

MODES = ("recall", "minimal")


class Service:
    """Plan, run and browse over one registry, for the HTTP API, the web page and MCP."""

    def __init__(self, state: RegistryState, config: ServiceConfig) -> None:
        self.state = state
        self.config = config
        self.started = time.time()
        self._gate: ReplayGate | None = None
        self.watch_method = "none"

    @property
    def gate(self) -> ReplayGate:
        """The gate that keeps replayed runs apart from other runs."""
        if self._gate is None:  # created on first use, inside the serving event loop
            self._gate = ReplayGate()
        return self._gate

    # -- reads ------------------------------------------------------------------------------
    def _snapshot(self) -> Snapshot:
        snapshot = self.state.current
        if not snapshot.graph.sources:
            raise E.ServiceError(
                503, "empty_registry", "the registry has no sources; run: schemarouter registry sync"
            )
        return snapshot

    def health(self) -> dict[str, Any]:
        """Liveness and the registry state this server serves."""
        snapshot = self.state.current
        return {
            "status": "ok",
            "registry_fingerprint": snapshot.fingerprint,
            "sources": len(snapshot.graph.sources),
            "live_execution": self.config.live,
            "registry_watch": self.watch_method,
            "graph_source": snapshot.graph_source,
            "uptime_s": round(time.time() - self.started, 1),
        }

    def list_sources(self) -> dict[str, Any]:
        """Every source of the current registry state, one summary row each."""
        snapshot = self.state.current
        return {
            "registry_fingerprint": snapshot.fingerprint,
            "sources": [
                source_summary(s) for s in sorted(snapshot.graph.sources.values(), key=lambda s: s.id)
            ],
        }

    def describe_source(self, source_id: str) -> dict[str, Any]:
        """One source's whole declaration (404 with the closest id when unknown)."""
        snapshot = self.state.current
        source = snapshot.graph.sources.get(source_id)
        if source is None:
            import difflib

            close = difflib.get_close_matches(source_id, list(snapshot.graph.sources), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise E.not_found(f"no source {source_id[:100]!r} in the registry{hint}")
        described = source.model_dump(mode="json", by_alias=True, exclude_none=True)
        owner = snapshot.graph.decls.owners.get(source_id)
        described["owner"] = (
            {"kind": owner.kind, "name": owner.name, "version": owner.version} if owner else None
        )
        described["registry_fingerprint"] = snapshot.fingerprint
        return described

    # -- planning ---------------------------------------------------------------------------
    def _question(self, question: Any) -> str:
        if not isinstance(question, str) or not question.strip():
            raise E.bad_request("give a non-empty 'question' string")
        if len(question) > self.config.max_question_chars:
            raise E.ServiceError(
                413, "too_large", f"question longer than {self.config.max_question_chars:,} characters"
            )
        return question

    @staticmethod
    def _mode(mode: Any) -> str:
        if mode not in MODES:
            raise E.bad_request(f"mode must be one of {', '.join(MODES)}, not {str(mode)[:40]!r}")
        return str(mode)

    def plan(self, question: Any, mode: Any = "recall") -> Plan:
        """The plan for ``question`` on the current registry."""
        text, chosen = self._question(question), self._mode(mode)
        return self._snapshot().router.plan(text, mode=chosen)  # type: ignore[arg-type]

    # -- running ----------------------------------------------------------------------------
    def _plan_document(self, plan: Any) -> Plan:
        if isinstance(plan, Plan):
            return plan
        if not isinstance(plan, dict):
            raise E.bad_request("'plan' must be a plan object (the output of plan)")
        try:
            return Plan.model_validate(plan)
        except ValidationError as err:
            raise E.invalid(
                "not a valid plan: " + describe_validation_error(err, plan).replace("\n", "; "),
                "invalid_plan",
            ) from None

    async def _current_for(self, plan: Plan) -> Snapshot:
        snapshot = self._snapshot()
        if plan.registry_fingerprint != snapshot.fingerprint:
            await asyncio.to_thread(self.state.refresh)  # this server may be the one behind
            snapshot = self._snapshot()
        if plan.registry_fingerprint != snapshot.fingerprint:
            raise E.ServiceError(
                409,
                "stale_plan",
                f"stale plan: made on registry {plan.registry_fingerprint}, the registry is now "
                f"{snapshot.fingerprint}; plan the question again",
            )
        problems = validate_plan(plan, snapshot.graph)
        if problems:
            raise E.invalid("invalid plan: " + "; ".join(problems[:5]), "invalid_plan")
        return snapshot

    async def run(
        self, question: Any = None, plan: Any = None, mode: Any = "recall", offline: Any = None,
        include_plan: Any = False,
    ) -> dict[str, Any]:
        """Plan ``question`` (or take ``plan``), execute it and return attributed values (JSON).

        ``offline`` left out means what this server allows: replay on a server without live
        execution, so an agent's first call works. The answer is the lean view
        (:func:`~schemarouter.service.lean.lean_run`); ``include_plan`` adds the plan, every step
        in full and the coverage.
        """
        if offline is None:
            offline = not self.config.live
        if not isinstance(offline, bool):
            raise E.bad_request("'offline' must be true or false")
        if not isinstance(include_plan, bool):
            raise E.bad_request("'include_plan' must be true or false")
        if (question is None) == (plan is None):
            raise E.bad_request("give either 'question' or 'plan' (not both)")
        if not offline and not self.config.live:
            raise E.ServiceError(
                403,
                "live_disabled",
                "live execution is disabled on this server; ask for offline replay ('offline': true)",
            )
        if plan is not None:
            chosen = self._plan_document(plan)
            snapshot = await self._current_for(chosen)
        else:
            snapshot = self._snapshot()
            chosen = snapshot.router.plan(self._question(question), mode=self._mode(mode))  # type: ignore[arg-type]
        try:
            result = await execute(
                snapshot, chosen, self.gate, offline, self.config.run_timeout_s, self.config.cassettes
            )
        except TimeoutError:
            raise E.ServiceError(
                504, "timeout", f"the run took longer than {self.config.run_timeout_s:g} s"
            ) from None
        except SchemaRouterError as err:
            raise E.ServiceError(503, "unavailable", str(err).splitlines()[0]) from None
        document = result.to_json(offline)
        document["registry_fingerprint"] = snapshot.fingerprint
        document["offline"] = offline
        return self.scrub(lean_run(document, include_plan), snapshot)

    def scrub(self, document: dict[str, Any], snapshot: Snapshot) -> dict[str, Any]:
        """``document`` with every known secret value masked."""
        secrets = secret_values(snapshot.graph.sources.values(), self.config.token)
        if not secrets:
            return document
        text = json.dumps(document, ensure_ascii=False)
        cleaned = redact(text, secrets)
        return document if cleaned == text else dict(json.loads(cleaned))


def source_summary(source: Source) -> dict[str, Any]:
    """One registry row: what a browsing person or agent needs to pick a source."""
    return {
        "id": source.id,
        "title": source.title,
        "domain": source.domain,
        "source_type": source.source_type.value,
        "license": source.license.id,
        "description": source.description,
        "auth_env": source.auth.env if source.auth else None,
        "endpoints": [e.id for e in source.endpoints],
        "fields": sum(len(e.fields) for e in source.endpoints),
    }
