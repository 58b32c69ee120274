"""``schemarouter plugin new``: scaffold a source plugin distribution (see :mod:`schemarouter.scaffold`)."""

from __future__ import annotations

import click

from schemarouter.scaffold import names, scaffold


@click.group()
def plugin() -> None:
    """Write your own source plugin (``schemarouter plugins`` lists the installed ones)."""


@plugin.command()
@click.argument("name")
@click.option("--dir", "directory", default=".", show_default=True, type=click.Path(file_okay=False),
              help="Folder to create the plugin distribution in.")
def new(name: str, directory: str) -> None:
    """Create schemarouter-NAME/: declaration, adapter, cassette, tests and README.

    It installs (pip install -e) and passes its own tests as generated; then replace the
    example API with yours.
    """
    root = scaffold(name, directory)
    n = names(name)
    click.echo(f"created {root}")
    click.echo(f"  source {n['source_id']} in {n['package']}/source.yaml, adapter in {n['package']}/adapter.py")
    click.echo(f"next: pip install -e {root} && python -m pytest {root} && schemarouter registry sync")
