"""``schemarouter serve``: the HTTP API and the web page, on uvicorn."""

from __future__ import annotations

from typing import Any

import click

from schemarouter.cli.service_options import banner, bind, make_service, require_extra, service_options


@click.command("serve")
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to bind (non-loopback needs a token)."
)
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@service_options
def serve(host: str, port: int, **options: Any) -> None:
    """Serve the HTTP API (/v1/plan, /v1/run, /v1/sources), its OpenAPI document and the web page at /.

    \b
    Several servers may share one registry (Postgres): each picks up a sync, source add or
    import without a restart. Examples:
      schemarouter serve --no-live                      # offline replay only, http://127.0.0.1:8765
      SCHEMAROUTER_API_TOKEN=... schemarouter serve --host 0.0.0.0 --db postgresql+psycopg://...
    """
    require_extra("fastapi", "uvicorn")
    import uvicorn

    from schemarouter.service.api import create_app

    service = make_service(options, host, port)
    sock = bind(host, port)  # the banner comes after the port is ours
    click.echo(banner(service, "API and web page", f"http://{host}:{port}/"), err=True)
    config = uvicorn.Config(
        create_app(service),
        host=host,
        port=port,
        log_level=options["log_level"],
        access_log=False,
        limit_concurrency=service.config.max_connections,
        timeout_keep_alive=30,
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])
