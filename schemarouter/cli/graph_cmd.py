"""``schemarouter registry graph``: export the schema graph built from the registry."""

from __future__ import annotations

from pathlib import Path

import click

from schemarouter.cli.options import db_option, open_registry
from schemarouter.errors import SchemaRouterError
from schemarouter.graph import load_graph
from schemarouter.graph.export import FORMATS, export


@click.command()
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="json", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write to FILE instead of stdout.")
@db_option
def graph(fmt: str, output: str | None, db_url: str | None) -> None:
    """Export the schema graph (typed nodes and edges) as JSON, GraphML or DOT."""
    with open_registry(db_url, read_only=True) as reg:
        g = load_graph(reg)
    if not g.decls.sources:
        raise SchemaRouterError("the registry has no sources; run: schemarouter registry sync")
    text = export(g, fmt)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as err:
        raise SchemaRouterError(f"cannot write {output}: {err.strerror}") from None
    click.echo(f"wrote the schema graph ({len(g.nodes)} nodes, {len(g.edges)} edges) to {output}")
