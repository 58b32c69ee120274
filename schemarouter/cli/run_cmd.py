"""``schemarouter run QUESTION``: plan, execute, and show attributed values.

Planning uses the router (``schemarouter.router``); ``--plan FILE`` executes a saved plan
(``schemarouter plan --json`` output) instead, and ``--jsonl FILE`` runs a batch of questions. The
run itself is :meth:`schemarouter.api.Router.run` (cache, fallbacks, offline replay), so the CLI
and the Python API behave the same. ``--offline`` replays the recorded cassettes, so a fresh
clone with no keys shows a real end-to-end run. The shared pieces (planning, human output, JSON)
live here and ``ask_cmd`` reuses them.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO, TYPE_CHECKING, Any

import click

from schemarouter.cli import exit_codes
from schemarouter.cli.drift import plan_staleness, plugin_drift, read_plan_file, warn
from schemarouter.cli.hints import hint
from schemarouter.cli.options import db_option, json_option, print_json
from schemarouter.cli.progress import progress
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.context import format_value, render_context
from schemarouter.execution.limits import (
    DEFAULT_STEP_DEADLINE_S,
    DEFAULT_TIMEOUT_S,
    STEP_DEADLINE_ENV,
    TIMEOUT_ENV,
    ExecutionLimits,
    resolve_limits,
)
from schemarouter.execution.results import RunResult
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
                        help="Cassette folder for --offline (default: $SCHEMAROUTER_CASSETTES, else the "
                             "checkout's cassettes/).")(func)
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
    from schemarouter.api import Router, ensure_registry
    from schemarouter.graph import graph_from_url

    if ensure_registry(db_url):
        click.echo("registry was empty: synced the installed plugins' declarations", err=True)
    return Router(graph_from_url(db_url))


def execute(question: str | None, db_url: str | None, mode: str, plan_file: str | None, offline: bool,
            cassettes: str | None, cache: bool = True, fallback: bool = True,
            router: Router | None = None, limits: ExecutionLimits | None = None) -> tuple[Plan, RunResult]:
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
                 else plugin_drift(decls))
        if drift:
            warn(drift)
    result = router.run(plan, offline=offline, cassettes=cassettes, cache=cache, fallback=fallback, limits=limits)
    return plan, result


def result_json(plan: Plan, result: RunResult, offline: bool = False) -> dict[str, Any]:
    """A run as JSON: plan, status, steps with hints, coverage and the rendered context."""
    context = render_context(result)
    steps = []
    for step in result.steps:
        shown = step.model_dump(mode="json")
        shown["hint"] = hint(step.error, offline) if step.error is not None else None
        steps.append(shown)
    return {
        "query": result.query,
        "status": result.status,
        "plan": plan.model_dump(mode="json"),
        "declined": result.declined,
        "steps": steps,
        "coverage": plan.coverage.model_dump(mode="json") if plan.coverage is not None else None,
        "context": {"text": context.text, "tokens": context.tokens, "tokens_chars_div_4": context.estimated_tokens,
                    "encoding": "cl100k_base"},
    }


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
            continue
        cached = " (cached)" if step.cached else ""
        click.echo(f"{head}: {len(step.records)} record(s) from {step.request or 'adapter'}{cached}")
        for record in step.records:
            for value in record.values.values():
                if value.value is None or str(value.value) == record.record_id:
                    continue
                unit = f" {value.unit}" if value.unit else ""
                note = f" ({value.note})" if value.note else ""
                click.echo(
                    f"  {record.record_id} {value.field} = {format_value(value.value, 100)}{unit}{note}"
                    f"  [{value.source} {value.record_id}; {value.source_type}; {value.license}]"
                )
    if result.coverage is not None:
        for item in result.coverage.missing:
            click.echo(f"not covered: {item.kind} {item.name}: {item.why}")
    context = render_context(result)
    click.echo(f"context: {context.lines} lines, {context.tokens} tokens (cl100k_base), "
               f"~{context.estimated_tokens} by chars/4")


def read_batch(path: str) -> list[dict[str, Any]]:
    """``{"id", "query"}`` lines of ``path`` (``-``: stdin); a bad line is a one-line error naming it."""
    try:
        source: IO[str] = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as err:
        raise SchemaRouterError(f"cannot read {path}: {err.strerror}") from None
    rows: list[dict[str, Any]] = []
    try:
        for n, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if not isinstance(row, dict) or not isinstance(row.get("query"), str):
                    raise TypeError
            except (json.JSONDecodeError, TypeError):
                raise SchemaRouterError(f"{path}:{n}: expected a JSON object with a \"query\" string") from None
            rows.append(row)
    finally:
        if source is not sys.stdin:
            source.close()
    return rows


def open_output(output: str | None) -> IO[str]:
    """The file to write results to (standard output when none is named)."""
    try:
        return open(output, "w", encoding="utf-8") if output else sys.stdout
    except OSError as err:
        raise SchemaRouterError(f"cannot write {output}: {err.strerror}") from None


def _run_batch(path: str, output: str | None, db_url: str | None, mode: str, offline: bool, cassettes: str | None,
               cache: bool, fallback: bool, limits: ExecutionLimits | None = None) -> int:
    rows = read_batch(path)
    router = make_router(db_url)
    statuses: list[str] = []
    out = open_output(output)
    try:
        with progress("questions", len(rows)) as advance:
            for row in rows:
                plan, result = execute(row["query"], db_url, mode, None, offline, cassettes, cache, fallback, router,
                                       limits)
                document = {"id": row.get("id"), **result_json(plan, result, offline)}
                out.write(json.dumps(document, ensure_ascii=False) + "\n")
                out.flush()
                statuses.append(result.status)
                advance(1)
    finally:
        if output:
            out.close()
    if output:
        click.echo(f"wrote {len(statuses)} result(s) to {output}", err=True)
    return exit_codes.for_batch(statuses)


@click.command("run", epilog=exit_codes.HELP)
@click.argument("question", required=False)
@db_option
@json_option
@offline_options
@click.option("--jsonl", "jsonl", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="FILE",
              help='Run every {"id", "query"} line of FILE (- for stdin); write one JSON result per line.')
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="With --jsonl: write to FILE.")
@click.option("--allow-writes", "allow_writes", multiple=True, metavar="SOURCE",
              help="Let write endpoints (POST/PUT/PATCH/DELETE that change data) of SOURCE run (repeatable; "
                   "also SCHEMAROUTER_ALLOW_WRITES=src1,src2). Without it a write step fails, nothing is sent.")
def run(question: str | None, db_url: str | None, as_json: bool, mode: str, plan_file: str | None, offline: bool,
        cassettes: str | None, no_cache: bool, no_fallback: bool, timeout: float | None, deadline: float | None,
        jsonl: str | None, output: str | None, allow_writes: tuple[str, ...]) -> None:
    """Plan QUESTION, fetch the planned fields, and print values with unit, source, provenance and license.

    Live results are cached (per-source TTL; --no-cache skips it); a step that fails for a reason of its
    source's (no key, network, 5xx, timeout) is answered by an equivalent source where one exists
    (--no-fallback turns that off).
    """
    limits = resolve_limits(timeout=timeout, deadline=deadline)
    if allow_writes:  # the executor reads the allowed sources from the environment of this process
        named = [s for s in os.environ.get("SCHEMAROUTER_ALLOW_WRITES", "").split(",") if s.strip()]
        os.environ["SCHEMAROUTER_ALLOW_WRITES"] = ",".join([*named, *allow_writes])
    if jsonl is not None:
        if question or plan_file:
            raise click.UsageError("--jsonl runs the questions in FILE: give no QUESTION or --plan with it")
        raise click.exceptions.Exit(_run_batch(jsonl, output, db_url, mode, offline, cassettes, not no_cache,
                                               not no_fallback, limits))
    plan, result = execute(question, db_url, mode, plan_file, offline, cassettes, not no_cache, not no_fallback,
                           limits=limits)
    if as_json:
        print_json(result_json(plan, result, offline))
    else:
        echo_result(result, offline)
    raise click.exceptions.Exit(exit_codes.for_status(result.status))
