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

    Nothing is installed or run. Its tests pass as written once it is installed next to
    schemarouter-core (not on a public index: install the core from a checkout first, as the
    README says); then replace the example API with yours.
    """
    root = scaffold(name, directory)
    n = names(name)
    click.echo(f"created {root}")
    click.echo(f"  source {n['source_id']} in {n['package']}/source.yaml, adapter in {n['package']}/adapter.py")
    click.echo("next: with schemarouter-core installed in this environment (from a checkout: pip install -e "
               "PATH/TO/schemarouter; see the README):")
    click.echo(f"  pip install -e {root} && python -m pytest {root} && schemarouter registry sync")
