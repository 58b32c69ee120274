"""``schemarouter mcp``: the MCP server, on stdio (default) or streamable HTTP."""

from __future__ import annotations

from typing import Any

import click

from schemarouter.cli.service_options import banner, bind, make_service, require_extra, service_options


@click.command("mcp")
@click.option("--http", "http", is_flag=True, help="Serve streamable HTTP at /mcp instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="With --http: address to bind.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8766, show_default=True, help="With --http: port."
)
@service_options
def mcp(http: bool, host: str, port: int, **options: Any) -> None:
    """Serve the MCP tools plan, run, list_sources and describe_source, and the registry resources.

    \b
    An agent's MCP configuration (stdio):
      {"command": "schemarouter", "args": ["mcp", "--no-live"]}
    """
    require_extra("mcp", *(("uvicorn",) if http else ()))
    from schemarouter.service.mcp_server import create_server
    from schemarouter.service.watcher import RegistryWatcher

    service = make_service(options, host if http else "127.0.0.1", port)
    server = create_server(service)
    watcher = RegistryWatcher(service.state, service.config.poll_s).start()
    service.watch_method = watcher.method
    try:
        if not http:
            click.echo(banner(service, "MCP server", "stdio"), err=True)
            server.run("stdio")
            return
        import uvicorn

        from schemarouter.service.limits import BearerAuth, BodyLimit

        app: Any = server.streamable_http_app(host=host, max_request_body_size=service.config.max_body_bytes)
        if service.config.token:
            app = BearerAuth(app, service.config.token, protected=("/mcp",))
        sock = bind(host, port)  # the banner comes after the port is ours
        click.echo(banner(service, "MCP server (streamable HTTP)", f"http://{host}:{port}/mcp"), err=True)
        config = uvicorn.Config(
            BodyLimit(app, service.config.max_body_bytes),
            host=host,
            port=port,
            log_level=options["log_level"],
            access_log=False,
            server_header=False,
        )
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        watcher.stop()
