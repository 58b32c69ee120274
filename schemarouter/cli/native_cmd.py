"""``schemarouter native``: compile the routing hot path with mypyc, say whether it runs, remove it."""

from __future__ import annotations

import click

from schemarouter import native


@click.group("native")
def native_group() -> None:
    """The compiled build of the router, graph and understander (mypyc).

    \b
    Compiled modules run only while they match their sources; after an edit or a checkout the
    package runs its Python source until the next build. SCHEMAROUTER_PURE=1 runs the source anyway.
    """


@native_group.command("build")
@click.option("--opt-level", type=click.Choice(["0", "1", "2", "3"]), default="3", show_default=True,
              help="The C compiler's optimization level.")
def build_cmd(opt_level: str) -> None:
    """Compile the modules in place (needs mypy, from the dev extra, and a C compiler)."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise click.ClickException("mypyc is not installed: pip install 'schemarouter-core[dev]'") from None
    try:
        state = native.build(opt_level=opt_level)
    except (SystemExit, Exception) as err:  # setuptools ends a failed compile with SystemExit
        raise click.ClickException(f"the build failed ({err}); the package stays pure Python") from None
    click.echo(f"built {len(native.MODULES)} modules; a new process runs: {state}")


@native_group.command("status")
def status_cmd() -> None:
    """Whether this process runs the compiled modules, and why not."""
    click.echo(native.state())


@native_group.command("clean")
def clean_cmd() -> None:
    """Remove the compiled modules, their manifest and the generated C sources."""
    removed = native.clean()
    for path in removed:
        click.echo(f"removed {path.relative_to(native.ROOT)}")
    if not removed:
        click.echo("nothing to remove")
