"""The ``schemarouter`` command line: a click group assembled from small command modules.

Errors a user can act on (:class:`~schemarouter.errors.SchemaRouterError`) print as one line
and exit 1; usage errors exit 2; ``run``/``ask``/``plan`` exit 3 (partial) or 4 (nothing returned,
declined) as :mod:`schemarouter.cli.exit_codes` documents. Nothing prints a traceback unless
``SCHEMAROUTER_DEBUG=1``.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from schemarouter import __version__
from schemarouter.config import CONFIG_ENV, use_file
from schemarouter.errors import SchemaRouterError

if TYPE_CHECKING:
    from schemarouter.plugins import PluginManager


def plugin_commands(own: Iterable[str], pm: PluginManager | None = None) -> dict[str, click.Command]:
    """The commands plugins register (``register_commands``; of ``pm``, default the process's
    plugins), by name; a name among ``own`` or registered twice is an error naming the plugin."""
    from schemarouter.plugins import plugin_manager

    taken = set(own)
    found: dict[str, click.Command] = {}
    for impl in (pm or plugin_manager()).hook.register_commands.get_hookimpls():

        def register(command: click.Command, _plugin: str = impl.plugin_name) -> None:
            name = getattr(command, "name", None) or ""
            if not isinstance(command, click.Command) or not name:
                raise SchemaRouterError(f"plugin {_plugin} registered a command that is not a named click.Command")
            if name in taken or name in found:
                raise SchemaRouterError(f"plugin {_plugin} registers command {name!r}, which is already taken")
            found[name] = command

        impl.function(register=register)
    return found


# schemarouter's own commands: name -> the module of this package that defines it (as an attribute of
# the same name). A command's module is imported when the command is asked for, so ``schemarouter plan``
# does not import what ``run``, ``ask`` or ``serve`` need (an HTTP client, the executor, the web service).
OWN_COMMANDS = {name: f"{name}_cmd" for name in (
    "ask", "cache", "db", "keys", "mcp", "plan", "plugin", "plugins", "registry", "run", "serve", "source", "sources",
)}


def own_command(name: str) -> click.Command:
    """One of schemarouter's own commands, its module imported now."""
    command = getattr(importlib.import_module(f"schemarouter.cli.{OWN_COMMANDS[name]}"), name)
    assert isinstance(command, click.Command)
    return command


class _Commands(click.Group):
    """schemarouter's own commands (each module imported when its command is asked for), then those
    plugins register (``register_commands``), looked up only when a name is not one of its own, so
    ``schemarouter run`` imports no plugin for it."""

    def _plugin_commands(self) -> dict[str, click.Command]:
        return plugin_commands([*OWN_COMMANDS, *self.commands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in OWN_COMMANDS:
            return own_command(cmd_name)
        own = super().get_command(ctx, cmd_name)
        return own if own is not None else self._plugin_commands().get(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*OWN_COMMANDS, *super().list_commands(ctx), *self._plugin_commands()})


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="schemarouter")
@click.option("--config", "config_path", metavar="PATH", type=click.Path(dir_okay=False),
              help=f"TOML config file (default: ${CONFIG_ENV}, else config.toml in the data directory).")
def cli(config_path: str | None) -> None:
    """Route questions to exactly the data sources and response fields they need.

    \b
    Quick start (offline, SQLite registry in your data directory):
      schemarouter registry sync      # write installed plugins' declarations
      schemarouter registry list      # what the registry knows

    Every command that touches the registry takes --db URL (or SCHEMAROUTER_DATABASE_URL),
    e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test.

    \b
    Environment: SCHEMAROUTER_HOME (data directory: registry, response cache),
    SCHEMAROUTER_CASSETTES (recordings for --offline), SCHEMAROUTER_CACHE=0 (no response cache),
    SCHEMAROUTER_DEBUG=1 (show tracebacks instead of one-line errors).
    Shell completion (bash; zsh and fish alike):
      eval "$(_SCHEMAROUTER_COMPLETE=bash_source schemarouter)"
    """
    use_file(config_path)
    from schemarouter.config import load, unknown_environment

    load()  # a malformed config file is reported once, up front
    for warning in unknown_environment():
        click.echo(f"warning: {warning}", err=True)



def main() -> None:
    """Run the CLI: a known error is one line on stderr, and the process exits with the command's code."""
    try:
        code = cli.main(standalone_mode=False, prog_name="schemarouter")
        if isinstance(code, int) and code:  # a command's exit code (click returns it in this mode)
            sys.exit(code)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as err:
        err.show()
        sys.exit(err.exit_code)
    except SchemaRouterError as err:
        if os.environ.get("SCHEMAROUTER_DEBUG") == "1":
            raise
        click.echo(f"Error: {err}", err=True)
        sys.exit(1)
    except click.exceptions.Exit as err:
        sys.exit(err.exit_code)
