"""endpoint adapter spec for local sources

Local sources (``schemarouter source add`` / ``source import-openapi``) have no plugin code
that knows where records sit in a response or where each parameter goes; those facts are stored
beside the endpoint as JSON text. Nullable: plugin-owned endpoints keep them in code.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 20:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("endpoints", schema=None) as batch_op:
        batch_op.add_column(sa.Column("adapter_spec", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("endpoints", schema=None) as batch_op:
        batch_op.drop_column("adapter_spec")
