"""``schemarouter plan``: route a question (or a JSONL file of questions) to a tool plan."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.table import Table

from schemarouter.cli import exit_codes
from schemarouter.cli.batch import open_output, read_batch
from schemarouter.cli.drift import plugin_drift, warn
from schemarouter.cli.options import console, db_option, open_registry
from schemarouter.cli.progress import progress
from schemarouter.errors import SchemaRouterError
from schemarouter.graph import load_graph
from schemarouter.plan import Plan, binding_of
from schemarouter.router import Router
from schemarouter.understand import make_understander
from schemarouter.understand.base import Analysis


@click.command(epilog="\b\nExit codes: 0 planned; 4 declined; 1 error; 2 usage error. With --jsonl: 0 every line\n"
                      "planned, 3 some declined, 4 all declined; each line carries a \"status\" (ok or declined).")
@click.argument("question", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON (the Plan model of schemarouter.plan).")
@click.option("--jsonl", "jsonl", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help='Read {"id", "query"} lines from FILE ("question" works for "query"; - for stdin); '
                   'write one plan per line.')
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="With --jsonl: write plans to FILE.")
@click.option("--explain", is_flag=True,
              help="Show intent evidence, the vocabulary's ranking, and the re-ranker's best candidates with their evidence.")
@click.option("--mode", type=click.Choice(["recall", "minimal"]), default="recall", show_default=True,
              help="recall adds the intent's field groups; minimal keeps identifiers and concept matches.")
@click.option("--understander", metavar="NAME", default=None,
              help="rules (default): offline and deterministic; llm: an OpenAI-compatible endpoint (--llm-url or "
                   "SCHEMAROUTER_LLM_*); or a backend a plugin registers (schemarouter plugins lists them).")
@click.option("--llm-url", metavar="URL", help="OpenAI-compatible base URL for the llm understander (default: "
                                               "$SCHEMAROUTER_LLM_URL); implies --understander llm.")
@click.option("--model", metavar="NAME", help="Model of the llm understander (default: $SCHEMAROUTER_LLM_MODEL).")
@click.option("--llm-fallback", is_flag=True,
              help="With --understander llm: use the rules if the LLM fails (said on stderr and in the plan).")
@db_option
def plan(
    question: str | None, as_json: bool, jsonl: str | None, output: str | None, explain: bool, mode: str,
    understander: str | None, llm_url: str | None, model: str | None, llm_fallback: bool, db_url: str | None,
) -> None:
    """Plan which sources, endpoints, parameters and fields answer QUESTION."""
    if (question is None) == (jsonl is None):
        raise click.UsageError("give a QUESTION or --jsonl FILE (not both)")
    if (llm_url or model) and understander not in (None, "llm"):
        raise click.UsageError(f"--llm-url and --model configure the llm understander, not {understander!r}")
    options: dict[str, Any] = {k: v for k, v in (("base_url", llm_url), ("model", model)) if v}
    understander = understander or ("llm" if options else "rules")
    with open_registry(db_url, read_only=True) as reg:
        graph = load_graph(reg)
    if not graph.decls.sources:
        raise SchemaRouterError("the registry has no sources; run: schemarouter registry sync")
    drift = plugin_drift(graph.decls, graph.fingerprint)
    if drift:
        warn(drift)
    router = Router(graph, make_understander(understander, fallback=llm_fallback, **options))
    if jsonl is not None:
        raise click.exceptions.Exit(_run_jsonl(router, jsonl, output, mode))
    result = router.plan(question or "", mode=mode)  # type: ignore[arg-type]
    _warn_notes(result)
    if as_json:
        click.echo(json.dumps(result.model_dump(mode="json", exclude_none=False), indent=2, ensure_ascii=False))
    else:
        _print_plan(result, explain, router)
    raise click.exceptions.Exit(exit_codes.NOTHING if result.is_declined else exit_codes.OK)


def _run_jsonl(router: Router, path: str, output: str | None, mode: str) -> int:
    """One plan per line, each with a ``status`` (ok or declined); returns the batch's exit code."""
    rows = read_batch(path)
    out = open_output(output)
    statuses: list[str] = []
    try:
        with progress("plans", len(rows)) as advance:
            for row in rows:
                plan_id = None if row.get("id") is None else str(row["id"])
                result = router.plan(row["query"], mode=mode, plan_id=plan_id)  # type: ignore[arg-type]
                _warn_notes(result, f"{path}: {plan_id or row['query'][:60]}: ")
                status = "declined" if result.is_declined else "ok"
                statuses.append(status)
                out.write(json.dumps({**result.model_dump(mode="json"), "status": status}, ensure_ascii=False) + "\n")
                advance(1)
    finally:
        if output:
            out.close()
            click.echo(f"wrote plans to {output}", err=True)
    return exit_codes.for_batch(statuses)


def _warn_notes(p: Plan, where: str = "") -> None:
    """Say on stderr what the plan's notes say (an LLM that failed and the rules that planned instead)."""
    for note in p.notes:
        click.echo(f"warning: {where}{note}", err=True)


def _show_params(params: dict[str, Any]) -> str:
    """Parameters as JSON, a bound one as ``name <- s1.field`` (the chain is visible at a glance)."""
    literal = {k: v for k, v in params.items() if binding_of(v) is None}
    bound = [f"{k} <- {b['from']}.{b['field']}" + (" (all)" if b.get("pick") == "all" else "")
             for k, v in params.items() if (b := binding_of(v)) is not None]
    shown = json.dumps(literal, ensure_ascii=False)
    return shown + ("" if not bound else " · " + ", ".join(bound))


# the re-ranking features --explain shows, by the column each gets
_SHOWN_FEATURES = (("retrieval", "lexical"), ("route's pick", "current"), ("buildable", "buildable"),
                   ("values spent", "spent"), ("explained", "explained"), ("path unsaid", "unsaid"),
                   ("guessed", "guessed"), ("dense", "dense"))
RERANK_SHOWN = 6


def _print_reranking(router: Router, analysis: Analysis) -> None:
    """The re-ranker's best candidates: the probability it gives each, and the evidence behind it
    (retrieval's BM25F score over the best, whether the routes planned it, what its chain spends,
    explains and leaves unsaid; docs/routing.md says what each means)."""
    found = router.evidence(analysis, RERANK_SHOWN)
    if not found:
        return
    table = Table("re-ranked", "probability", *(name for name, _f in _SHOWN_FEATURES))
    for label, chance, features in found:
        table.add_row(label, f"{chance:.2f}", *(f"{features[f]:.2f}" for _name, f in _SHOWN_FEATURES))
    console().print(table)


def _print_plan(p: Plan, explain: bool, router: Router) -> None:
    out = console()
    u = p.understanding
    out.print(f"[bold]question[/bold] {p.query}")
    out.print(
        f"intent {u.intent or '-'} · concepts {', '.join(u.concepts) or '-'} · params {json.dumps(u.params, ensure_ascii=False)}"
        f" · named {', '.join(u.named_tools) or '-'} · constraint {u.source_constraint or '-'} · mode {p.mode}"
    )
    if p.prompt_tokens:
        out.print(f"routing prompt tokens {p.prompt_tokens}")
    if p.declined:
        out.print(f"[yellow]declined[/yellow]: {p.declined}")
        return
    chained = any(binding_of(v) is not None for step in p.steps for v in step.params.values())
    for step in p.steps:
        score = f" (score {step.score:g})" if explain and step.score is not None else ""
        label = f"{step.id} " if chained and step.id else ""
        out.print(f"\n[bold]{label}{step.source}.{step.endpoint}[/bold]{score} params {_show_params(step.params)}")
        table = Table("field", "unit", "source type", "license", "why")
        for name in step.fields:
            m = step.meta[name]
            table.add_row(name, m.unit or "", m.source_type, m.license, step.why.get(name, ""))
        out.print(table)
        if "_params" in step.why:
            out.print(f"note: {step.why['_params']}")
    if p.coverage is not None:
        for item in p.coverage.missing:
            out.print(f"[yellow]not covered[/yellow]: {item.kind} {item.name}: {item.why}")
    if explain:
        analysis = router.understander.understand(p.query, router.graph)
        scores = ", ".join(f"{k} {v:g}" for k, v in sorted(analysis.intent_scores.items(), key=lambda kv: -kv[1]))
        out.print(f"\nintent evidence: {scores or '-'}")
        table = Table("candidate", "entity fit", "concept score", "serves intent", "non-web", "group coverage",
                      "intent evidence", "priority", "-fields")
        for c in router.candidates(analysis)[:8]:
            table.add_row(c.info.label, *(f"{v:g}" if isinstance(v, float) else str(v) for v in c.key))
        out.print(table)
        _print_reranking(router, analysis)
    out.print(f"\nregistry {p.registry_fingerprint}")
