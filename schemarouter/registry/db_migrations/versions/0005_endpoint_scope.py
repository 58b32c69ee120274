"""endpoint scope: public records, or the caller's own account

An OpenAPI operation that needs the user's authorization while others of its document need none
reads the caller's private space (``/account/articles``); the router then plans it only for
questions about the asker's own records.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 23:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("endpoints", schema=None) as batch_op:
        batch_op.add_column(sa.Column("scope", sa.String(length=8), server_default="public", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("endpoints", schema=None) as batch_op:
        batch_op.drop_column("scope")
