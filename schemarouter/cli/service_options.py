"""Options ``serve`` and ``mcp`` share, and the service they build from them."""

from __future__ import annotations

import logging
import socket
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from schemarouter.cli.options import db_option
from schemarouter.errors import SchemaRouterError

F = TypeVar("F", bound=Callable[..., Any])


def service_options(func: F) -> F:
    """--db, --no-live, --cassettes, --token-env, --max-body, --run-timeout, --poll, --log-level."""
    for option in reversed(
        [
            click.option(
                "--live/--no-live",
                default=True,
                show_default=True,
                help="Allow runs that call the sources; --no-live serves offline replay only.",
            ),
            click.option(
                "--cassettes",
                metavar="DIR",
                type=click.Path(file_okay=False),
                help="Recordings for offline replay: a folder of VCR yaml files (default: $SCHEMAROUTER_CASSETTES, "
                     "else the recordings the installed plugins ship).",
            ),
            click.option(
                "--token-env",
                default="SCHEMAROUTER_API_TOKEN",
                show_default=True,
                metavar="NAME",
                help="Environment variable with the bearer token (required to bind a non-loopback host).",
            ),
            click.option(
                "--max-body",
                "max_body",
                type=click.IntRange(min=1024),
                default=1_000_000,
                show_default=True,
                metavar="BYTES",
                help="Largest request body accepted.",
            ),
            click.option(
                "--run-timeout",
                "run_timeout",
                type=click.FloatRange(min=0.1),
                default=60.0,
                show_default=True,
                metavar="SECONDS",
                help="Time limit of one run.",
            ),
            click.option(
                "--poll",
                "poll_s",
                type=click.FloatRange(min=0.1),
                default=None,
                metavar="SECONDS",
                help="Registry fingerprint poll interval [default: 2 on SQLite; 30 on Postgres, which also "
                "uses LISTEN/NOTIFY].",
            ),
            click.option(
                "--log-level",
                type=click.Choice(["debug", "info", "warning", "error"]),
                default="info",
                show_default=True,
            ),
            db_option,
        ]
    ):
        func = option(func)
    return func


def require_extra(*modules: str) -> None:
    """A clear one-line error when the ``service`` extra is not installed."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise SchemaRouterError(
            f"{', '.join(missing)} not installed: pip install 'schemarouter-core[service]' "
            "(make setup installs it)"
        )


def make_service(options: dict[str, Any], host: str, port: int) -> Any:
    """The checked config and the service over the registry (errors as one line)."""
    from schemarouter.service import Service, ServiceConfig
    from schemarouter.service.state import RegistryState

    logging.basicConfig(
        level=options["log_level"].upper(),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    for chatty in ("httpx", "httpcore", "urllib3", "vcr"):
        # their request lines carry full URLs, which for some sources hold a key in the query
        logging.getLogger(chatty).setLevel(logging.WARNING)
    config = ServiceConfig.from_env(
        options["token_env"],
        registry_url=options["db_url"],
        host=host,
        port=port,
        live=options["live"],
        cassettes=options["cassettes"],
        max_body_bytes=options["max_body"],
        run_timeout_s=options["run_timeout"],
        poll_s=options["poll_s"],
    )
    config.check()
    return Service(RegistryState(config.registry_url), config)


def banner(service: Any, what: str, url: str) -> str:
    """One line saying what is served where (never the token, never a database password)."""
    from schemarouter.registry import default_url, display

    snapshot = service.state.current
    config = service.config
    return (
        f"schemarouter {what} on {url}: registry {display(config.registry_url or default_url())}, "
        f"{len(snapshot.graph.sources)} sources, fingerprint {snapshot.fingerprint or '-'}; live runs "
        f"{'on' if config.live else 'off (offline replay only)'}; bearer token "
        f"{'required (' + config.token_env + ')' if config.token else 'off'}"
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, bound before anything says the server is up: a busy
    port or an address this machine does not have is one clear error, not a banner then a crash."""
    sock: socket.socket | None = None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except (OSError, UnicodeError) as err:
        if sock is not None:
            sock.close()
        why = getattr(err, "strerror", None) or str(err)
        raise SchemaRouterError(f"cannot serve on {host}:{port}: {why}") from None
    sock.set_inheritable(True)
    return sock
