"""concept value patterns: how a value of a concept is written in a question

A concept (doi, material_id) can say how its values look (``10.1038/...``, ``mp-149``) as regular
expressions, so the understand step reads identifiers from what the vocabulary and the plugins
declare instead of patterns kept in code. Several plugins may add patterns to one concept.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03 23:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "concept_patterns",
        sa.Column("pk", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("concept", sa.String(length=64), nullable=False),
        sa.Column("regex", sa.String(length=500), nullable=False),
        sa.Column("needs", sa.JSON(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["concept"], ["concepts.name"], name=op.f("fk_concept_patterns_concept_concepts"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("pk", name=op.f("pk_concept_patterns")),
    )
    with op.batch_alter_table("concept_patterns", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_concept_patterns_concept"), ["concept"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("concept_patterns", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_concept_patterns_concept"))
    op.drop_table("concept_patterns")
