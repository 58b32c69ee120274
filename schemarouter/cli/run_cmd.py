"""``schemarouter run QUESTION``: plan, execute, and show attributed values.

Planning uses the router (``schemarouter.router``); ``--plan FILE`` executes a saved plan
(``schemarouter plan --json`` output) instead. ``--offline`` replays the recorded cassettes, so
a fresh clone with no keys shows a real end-to-end run. The shared pieces (planning, offline
set-up, human output) live here and ``ask_cmd`` reuses them.
"""

from __future__ import annotations

import json
import os
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click

from schemarouter.cli.options import db_option, json_option, print_json
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.context import format_value, render_context
from schemarouter.execution.results import RunResult
from schemarouter.plan import Plan


def offline_options(func: Any) -> Any:
    func = click.option("--cassettes", "cassettes", metavar="DIR", type=click.Path(file_okay=False),
                        help="Cassette folder for --offline (default: the checkout's cassettes/).")(func)
    func = click.option("--offline", is_flag=True,
                        help="Replay recorded responses (VCR cassettes) instead of the network.")(func)
    func = click.option("--plan", "plan_file", metavar="FILE", type=click.Path(dir_okay=False, exists=True),
                        help="Execute this saved plan (JSON) instead of planning the question.")(func)
    return click.option("--mode", type=click.Choice(["recall", "minimal"]), default="recall", show_default=True,
                        help="Router field-selection mode.")(func)


def _registry_declarations(db_url: str | None) -> tuple[Any, dict[str, dict[str, Any]]]:
    """The registry's declarations, and the adapter specs of local sources (run by HttpJsonAdapter)."""
    from schemarouter.declarations import collect
    from schemarouter.execution.spec import AdapterSpec
    from schemarouter.plugins import make_plugin_manager
    from schemarouter.registry import Registry

    with Registry.open(db_url) as registry:
        if not registry.list_sources():
            registry.sync(collect(make_plugin_manager()))
            click.echo("registry was empty: synced the installed plugins' declarations", err=True)
        declarations = registry.load()
        specs: dict[str, dict[str, Any]] = {}
        for source_id, owner in declarations.owners.items():
            if owner.kind == "local" and hasattr(registry, "adapter_specs"):
                raw = registry.adapter_specs(source_id)
                specs[source_id] = {eid: AdapterSpec.model_validate(spec) for eid, spec in raw.items()}
    return declarations, specs


def make_plan(question: str, db_url: str | None, mode: str, plan_file: str | None) -> Plan:
    if plan_file:
        try:
            return Plan.model_validate(json.loads(Path(plan_file).read_text(encoding="utf-8")))
        except (ValueError, OSError) as exc:
            raise SchemaRouterError(f"cannot read plan file {plan_file}: {str(exc).splitlines()[0]}") from None
    try:
        from schemarouter.router import Router  # type: ignore[attr-defined]
    except ImportError:
        raise SchemaRouterError("no router is installed in this checkout: pass --plan FILE") from None
    router = Router.from_registry(db_url)
    try:
        return router.plan(question, mode=mode)
    except TypeError:  # a router without modes
        return router.plan(question)


def execute(question: str, db_url: str | None, mode: str, plan_file: str | None, offline: bool,
            cassettes: str | None) -> tuple[Plan, RunResult]:
    from schemarouter.execution.executor import Executor
    from schemarouter.execution.offline import offline_env, replay
    from schemarouter.execution.registry_adapters import collect_adapters

    declarations, specs = _registry_declarations(db_url)
    plan = make_plan(question, db_url, mode, plan_file)
    env: dict[str, str] = dict(os.environ)
    if offline:
        env = offline_env(env, [s.auth.env for s in declarations.sources.values() if s.auth is not None])
    executor = Executor(declarations, collect_adapters(), specs=specs, env=env)
    with replay(cassettes) if offline else nullcontext():
        result = executor.run_sync(plan)
    return plan, result


def result_json(plan: Plan, result: RunResult) -> dict[str, Any]:
    context = render_context(result)
    return {
        "query": result.query,
        "plan": plan.model_dump(mode="json"),
        "declined": result.declined,
        "steps": [s.model_dump(mode="json") for s in result.steps],
        "context": {"text": context.text, "tokens": context.tokens, "tokens_chars_div_4": context.estimated_tokens,
                    "encoding": "cl100k_base"},
    }


def echo_result(result: RunResult) -> None:
    if result.declined:
        click.echo(f"declined: {result.declined}")
        return
    if not result.steps:
        click.echo("the plan has no steps")
    for step in result.steps:
        head = f"{step.source}.{step.endpoint}"
        if step.error is not None:
            click.echo(f"{head}: ERROR {step.error.kind}: {step.error.message}")
            continue
        click.echo(f"{head}: {len(step.records)} record(s) from {step.request or 'adapter'}")
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
    context = render_context(result)
    click.echo(f"context: {context.lines} lines, {context.tokens} tokens (cl100k_base), "
               f"~{context.estimated_tokens} by chars/4")


@click.command("run")
@click.argument("question")
@db_option
@json_option
@offline_options
def run(question: str, db_url: str | None, as_json: bool, mode: str, plan_file: str | None, offline: bool,
        cassettes: str | None) -> None:
    """Plan QUESTION, fetch the planned fields, and print values with unit, source, provenance and license."""
    plan, result = execute(question, db_url, mode, plan_file, offline, cassettes)
    if as_json:
        print_json(result_json(plan, result))
    else:
        echo_result(result)
