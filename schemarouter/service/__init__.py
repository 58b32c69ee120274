"""schemarouter as a service: an HTTP API with a web page (``schemarouter serve``) and an MCP server
(``schemarouter mcp``), both over one registry whose changes every running server picks up.

The transports are thin: :class:`~schemarouter.service.operations.Service` holds the operations
(plan, run, list and describe sources) and their errors, so HTTP and MCP answer the same way.
"""

from schemarouter.service.config import ServiceConfig
from schemarouter.service.errors import ServiceError
from schemarouter.service.operations import Service

__all__ = ["Service", "ServiceConfig", "ServiceError"]
