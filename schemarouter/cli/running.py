"""What ``run``, ``ask`` and ``plan`` share: the execution options, the router on a registry, planning
and running one question, and showing a run to a person.

The run itself is :meth:`schemarouter.api.Router.run` (cache, fallbacks, offline replay), so the CLI
and the Python API behave the same; JSON output is :meth:`RunResult.to_json`, the one the HTTP API
and the MCP server serve too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

from schemarouter.cli.drift import plan_staleness, plugin_drift, read_plan_file, warn
from schemarouter.cli.step_progress import SlowSteps
from schemarouter.execution.context import format_value, render_context, shown_unit
from schemarouter.execution.hints import hint
from schemarouter.execution.limits import (
    DEFAULT_STEP_DEADLINE_S,
    DEFAULT_TIMEOUT_S,
    STEP_DEADLINE_ENV,
    TIMEOUT_ENV,
    ExecutionLimits,
)
from schemarouter.execution.results import RunResult, StepResult
from schemarouter.execution.returned import answer_fields, step_label
from schemarouter.plan import Plan
from schemarouter.registry.database import require_existing

if TYPE_CHECKING:  # the router is imported when a command runs, which keeps --help fast
    from schemarouter.api import Router


def offline_options(func: Any) -> Any:
    """Add the plan and execution options: plan file, mode, offline, cassettes, cache, fallback, limits."""
    func = click.option("--deadline", "deadline", metavar="SECONDS", type=float, default=None,
                        help=f"Time limit for one plan step, retries included (default: ${STEP_DEADLINE_ENV}, "
                             f"else {DEFAULT_STEP_DEADLINE_S:g}).")(func)
    func = click.option("--timeout", "timeout", metavar="SECONDS", type=float, default=None,
                        help=f"Time limit for one HTTP request, body included (default: ${TIMEOUT_ENV}, "
                             f"else {DEFAULT_TIMEOUT_S:g}).")(func)
    func = click.option("--no-fallback", "no_fallback", is_flag=True,
                        help="Do not try an equivalent source when a step fails.")(func)
    func = click.option("--no-cache", "no_cache", is_flag=True,
                        help="Neither read nor write the response cache (see: schemarouter cache stats).")(func)
    func = click.option("--cassettes", "cassettes", metavar="DIR", type=click.Path(file_okay=False),
                        help="Recordings for --offline: a folder of VCR yaml files (default: "
                             "$SCHEMAROUTER_CASSETTES, else the recordings the installed plugins ship).")(func)
    func = click.option("--offline", is_flag=True,
                        help="Replay recorded responses (VCR cassettes) instead of the network.")(func)
    func = click.option("--plan", "plan_file", metavar="FILE", type=click.Path(dir_okay=False, exists=True),
                        help="Execute this saved plan (JSON) instead of planning the question.")(func)
    return click.option("--mode", type=click.Choice(["recall", "minimal"]), default="recall", show_default=True,
                        help="Router field-selection mode.")(func)


def read_plan(plan_file: str) -> Plan:
    """A saved plan (``plan --json``, or one line of ``plan --jsonl``, whose ``status`` is dropped)."""
    return read_plan_file(plan_file)


def make_router(db_url: str | None) -> Router:
    """The router on the registry at ``db_url``, syncing the installed plugins first when it is empty."""
    from schemarouter.api import Router, open_graph

    graph, synced = open_graph(db_url)
    if synced:
        click.echo("registry was empty: synced the installed plugins' declarations", err=True)
    return Router(graph)


def execute(question: str | None, db_url: str | None, mode: str, plan_file: str | None, offline: bool,
            cassettes: str | None, cache: bool = True, fallback: bool = True,
            router: Router | None = None, limits: ExecutionLimits | None = None,
            allow_writes: Iterable[str] = ()) -> tuple[Plan, RunResult]:
    """Plan the question (or load the plan file) and run it; the plan and what the run returned."""
    single = router is None  # a batch passes its router and is not warned once per line
    if single:
        require_existing(db_url)  # before make_router, which would create and sync a missing file
    router = router or make_router(db_url)
    if plan_file:
        plan = read_plan(plan_file)
    elif question:
        plan = router.plan(question, mode=mode)  # type: ignore[arg-type]
    else:
        raise click.UsageError("give a QUESTION, --plan FILE or --jsonl FILE")
    if single:
        decls = router.graph.decls
        drift = (plan_staleness(plan, plan_file, router.graph.fingerprint, decls) if plan_file
                 else plugin_drift(decls, router.graph.fingerprint))
        if drift:
            warn(drift)
    slow = SlowSteps(lambda line: click.echo(line, err=True))
    try:
        result = router.run(plan, offline=offline, cassettes=cassettes, cache=cache, fallback=fallback,
                            limits=limits, allow_writes=allow_writes, on_step=slow)
    finally:
        slow.close()
    return plan, result


def echo_result(result: RunResult, offline: bool = False) -> None:
    """Print a run for a person: each step's values or error, what is not covered, the context size."""
    if result.declined:
        click.echo(f"declined: {result.declined}")
        return
    if not result.steps:
        click.echo("the plan has no steps")
    for step in result.steps:
        head = f"{step.source}.{step.endpoint}"
        if step.fallback is not None:
            fb = step.fallback
            click.echo(f"{fb.source}.{fb.endpoint}: failed ({fb.error.kind}: {fb.error.message}); "
                       f"answered by {head} instead: {fb.reason}")
        if step.error is not None:
            click.echo(f"{head}: ERROR {step.error.kind}: {step.error.message}")
            for failed in step.fallbacks_failed:
                click.echo(f"  fallback {failed}")
            advice = hint(step.error, offline)
            if advice:
                click.echo(f"  hint: {advice}")
            _echo_not_returned(result, step)
            continue
        cached = " (cached)" if step.cached else ""
        click.echo(f"{head}: {len(step.records)} record(s) from {step.request or 'adapter'}{cached}")
        for record in step.records:
            for value in record.values.values():
                if value.value is None or str(value.value) == record.record_id:
                    continue
                unit = shown_unit(value.unit)
                note = f" ({value.note})" if value.note else ""
                click.echo(
                    f"  {record.record_id} {value.field} = {format_value(value.value, 100)}{unit}{note}"
                    f"  [{value.source} {value.record_id}; {value.source_type}; {value.license}]"
                )
        _echo_not_returned(result, step)
    if result.coverage is not None:
        for item in result.coverage.missing:
            click.echo(f"not covered: {item.kind} {item.name}: {item.why}")
        for item in result.coverage.covered:
            if item.kind == "structure":  # a polymorph's name: the structure to check the records against
                click.echo(f"check: {item.why} ({', '.join(item.by)})")
    if result.status == "empty":
        click.echo("no value came back for any field that answers the question (status: empty)")
    context = render_context(result)
    # the estimate, not a BPE count: loading the tokenizer would cost a person a second for one number
    click.echo(f"context: {context.lines} lines, ~{context.estimated_tokens} tokens (chars/4; --json counts them)")


def _echo_not_returned(result: RunResult, step: StepResult) -> None:
    """Say which planned fields of a step no record carries: those that answer the question by name,
    the others as a count (a recall plan asks for more than the question names)."""
    missing = step.missing_fields
    if not missing:
        return
    answers = [f for f in answer_fields(result, step) if f in missing]
    shown = answers or missing
    others = len(missing) - len(shown)
    more = f" (and {others} other planned field(s))" if others else ""
    click.echo(f"  not returned for {step_label(step)}: {', '.join(shown)}{more}")
