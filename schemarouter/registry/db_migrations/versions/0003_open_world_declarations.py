"""declarations for sources nobody tuned the router for

Endpoints gain ``access`` (read or write: write operations are kept to explain declines, never
executed by default), a ``summary`` and ``tags`` (what an OpenAPI document says, read by the
lexical index). Parameters gain ``format`` and ``pattern`` (how a value is spelled). Sources
gain ``cache_ttl`` (how long a cached response may be reused) and ``feeds`` (declared
producer -> consumer links for chained steps).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sources", schema=None) as batch_op:
        batch_op.add_column(sa.Column("cache_ttl", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("feeds", sa.JSON(), nullable=True))
    with op.batch_alter_table("endpoints", schema=None) as batch_op:
        batch_op.add_column(sa.Column("access", sa.String(length=8), server_default="read", nullable=False))
        batch_op.add_column(sa.Column("summary", sa.Text(), server_default="", nullable=False))
        batch_op.add_column(sa.Column("tags", sa.JSON(), nullable=True))
    with op.batch_alter_table("parameters", schema=None) as batch_op:
        batch_op.add_column(sa.Column("format", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("pattern", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("parameters", schema=None) as batch_op:
        batch_op.drop_column("pattern")
        batch_op.drop_column("format")
    with op.batch_alter_table("endpoints", schema=None) as batch_op:
        batch_op.drop_column("tags")
        batch_op.drop_column("summary")
        batch_op.drop_column("access")
    with op.batch_alter_table("sources", schema=None) as batch_op:
        batch_op.drop_column("feeds")
        batch_op.drop_column("cache_ttl")
