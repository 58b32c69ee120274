"""parameter default and enum labels: declared data instead of prose

A declared ``example`` illustrates a value and is never sent; ``default`` is what an author (or
an OpenAPI schema's ``default``) says to send when the question leaves the parameter open.
``enum_labels`` says what each code of an enum means, so the router need not read descriptions.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 18:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("parameters", schema=None) as batch_op:
        batch_op.add_column(sa.Column("default_json", sa.Text(), server_default="null", nullable=False))
        batch_op.add_column(sa.Column("enum_labels", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("parameters", schema=None) as batch_op:
        batch_op.drop_column("enum_labels")
        batch_op.drop_column("default_json")
