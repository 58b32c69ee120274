"""The registry: installed sources' declarations in SQLite or Postgres, owned by alembic.

Only declaration models cross this package's boundary; the ``Sql*`` ORM classes stay inside.
"""

from schemarouter.registry.database import default_url, display
from schemarouter.registry.store import (
    LocalBatch,
    LocalItem,
    LocalOutcome,
    Registry,
    SyncReport,
    dump_export,
    parse_export,
)

__all__ = ["LocalBatch", "LocalItem", "LocalOutcome", "Registry", "SyncReport", "default_url", "display", "dump_export", "parse_export"]
