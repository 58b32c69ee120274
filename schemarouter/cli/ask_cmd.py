"""``schemarouter ask QUESTION``: ``run`` plus an answer from a reader LLM that cites provenance.

The reader is any OpenAI-compatible chat-completions endpoint (``--llm-url`` or
``SCHEMAROUTER_LLM_URL``). Without one, ``ask`` prints the attributed values and says so. The exit
code is ``run``'s: it says whether the values behind the answer all came back. A reader that
fails does not cost the fetched values: they are printed, then the error (exit 1).
"""

from __future__ import annotations

import click

from schemarouter.cli import exit_codes
from schemarouter.cli.options import db_option, json_option, print_json
from schemarouter.cli.running import echo_result, execute, offline_options
from schemarouter.execution.context import render_context
from schemarouter.execution.limits import resolve_limits
from schemarouter.execution.reader import ask_reader
from schemarouter.execution.results import RunResult
from schemarouter.llm import LLMConfig, LLMError


@click.command("ask", epilog=exit_codes.HELP.split("\nWith --jsonl")[0])
@click.argument("question", required=False)
@db_option
@json_option
@offline_options
@click.option("--llm-url", metavar="URL", help="OpenAI-compatible base URL (default: $SCHEMAROUTER_LLM_URL).")
@click.option("--model", metavar="NAME", help="Reader model (default: $SCHEMAROUTER_LLM_MODEL).")
def ask(question: str | None, db_url: str | None, as_json: bool, mode: str, plan_file: str | None, offline: bool,
        cassettes: str | None, no_cache: bool, no_fallback: bool, timeout: float | None, deadline: float | None,
        llm_url: str | None, model: str | None) -> None:
    """Answer QUESTION from the fetched values, citing source, record and license for each."""
    limits = resolve_limits(timeout=timeout, deadline=deadline)
    plan, result = execute(question, db_url, mode, plan_file, offline, cassettes, not no_cache, not no_fallback,
                           limits=limits)
    question = question or plan.query
    context = render_context(result)
    config = LLMConfig.from_env(base_url=llm_url, model=model)
    answer, failure = None, None
    if config and context.text:
        try:
            answer = ask_reader(config, question, context.text)
        except LLMError as err:  # the values are fetched already: show them, then say why no answer
            failure = str(err).splitlines()[0]
    if as_json:
        document = result.to_json(offline)
        document["answer"] = answer
        document["reader"] = {"url": config.base_url, "model": config.model} if config else None
        document["reader_error"] = failure
        print_json(document)
    else:
        _echo(result, offline, answer, failure, config, context.text)
    if failure is not None:
        click.echo(f"Error: the reader failed, the values above are what was fetched: {failure}", err=True)
        raise click.exceptions.Exit(exit_codes.ERROR)
    raise click.exceptions.Exit(exit_codes.for_status(result.status))


def _echo(result: RunResult, offline: bool, answer: str | None, failure: str | None, config: LLMConfig | None,
          context: str) -> None:
    """The values for a person, then the reader's answer or why there is none."""
    echo_result(result, offline)
    if answer is not None:
        click.echo(f"\nanswer ({config.model if config else ''}):\n{answer}")
    elif config is None or failure is not None:
        why = "no reader configured (set SCHEMAROUTER_LLM_URL or pass --llm-url)" if failure is None else \
            "no answer from the reader"
        click.echo(f"\n{why}: the attributed values above are the answer's evidence:\n" + context)
