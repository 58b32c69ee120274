"""initial registry schema

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-29 20:09:55.073289
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('concepts',
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_concepts'))
    )
    op.create_table('field_groups',
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_field_groups'))
    )
    op.create_table('intents',
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('domains', sa.JSON(), nullable=False),
    sa.Column('keywords', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_intents'))
    )
    op.create_table('licenses',
    sa.Column('pk', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('fingerprint', sa.String(length=71), nullable=False),
    sa.Column('license_id', sa.String(length=120), nullable=False),
    sa.Column('name', sa.Text(), nullable=False),
    sa.Column('url', sa.Text(), nullable=True),
    sa.Column('attribution', sa.Text(), nullable=True),
    sa.Column('verified', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_licenses')),
    sa.UniqueConstraint('fingerprint', name=op.f('uq_licenses_fingerprint'))
    )
    with op.batch_alter_table('licenses', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_licenses_license_id'), ['license_id'], unique=False)

    op.create_table('registry_meta',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_registry_meta'))
    )
    op.create_table('concept_aliases',
    sa.Column('pk', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('concept', sa.String(length=64), nullable=False),
    sa.Column('alias', sa.String(length=120), nullable=False),
    sa.Column('normalized', sa.String(length=120), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['concept'], ['concepts.name'], name=op.f('fk_concept_aliases_concept_concepts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_concept_aliases')),
    sa.UniqueConstraint('concept', 'alias', name=op.f('uq_concept_aliases_concept_alias'))
    )
    with op.batch_alter_table('concept_aliases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_concept_aliases_normalized'), ['normalized'], unique=False)

    op.create_table('intent_groups',
    sa.Column('intent', sa.String(length=64), nullable=False),
    sa.Column('group_name', sa.String(length=64), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['group_name'], ['field_groups.name'], name=op.f('fk_intent_groups_group_name_field_groups')),
    sa.ForeignKeyConstraint(['intent'], ['intents.name'], name=op.f('fk_intent_groups_intent_intents'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('intent', 'group_name', name=op.f('pk_intent_groups'))
    )
    op.create_table('sources',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('domain', sa.String(length=64), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('homepage', sa.Text(), nullable=True),
    sa.Column('source_type', sa.String(length=20), nullable=False),
    sa.Column('license_pk', sa.Integer(), nullable=False),
    sa.Column('auth', sa.JSON(), nullable=True),
    sa.Column('priority', sa.Integer(), nullable=False),
    sa.Column('owner_kind', sa.String(length=10), nullable=False),
    sa.Column('owner_name', sa.String(length=200), nullable=False),
    sa.Column('owner_version', sa.String(length=64), nullable=False),
    sa.Column('fingerprint', sa.String(length=71), nullable=False),
    sa.ForeignKeyConstraint(['license_pk'], ['licenses.pk'], name=op.f('fk_sources_license_pk_licenses')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sources'))
    )
    with op.batch_alter_table('sources', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sources_domain'), ['domain'], unique=False)

    op.create_table('endpoints',
    sa.Column('pk', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('source_id', sa.String(length=64), nullable=False),
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('method', sa.String(length=8), nullable=False),
    sa.Column('base_url', sa.Text(), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('projection_param', sa.String(length=120), nullable=True),
    sa.Column('projection_style', sa.String(length=20), nullable=True),
    sa.Column('fingerprint', sa.String(length=71), nullable=False),
    sa.ForeignKeyConstraint(['source_id'], ['sources.id'], name=op.f('fk_endpoints_source_id_sources'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_endpoints')),
    sa.UniqueConstraint('source_id', 'id', name=op.f('uq_endpoints_source_id_id'))
    )
    op.create_table('source_aliases',
    sa.Column('pk', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('source_id', sa.String(length=64), nullable=False),
    sa.Column('alias', sa.String(length=120), nullable=False),
    sa.Column('normalized', sa.String(length=120), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['source_id'], ['sources.id'], name=op.f('fk_source_aliases_source_id_sources'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_source_aliases')),
    sa.UniqueConstraint('source_id', 'alias', name=op.f('uq_source_aliases_source_id_alias'))
    )
    with op.batch_alter_table('source_aliases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_source_aliases_normalized'), ['normalized'], unique=False)

    op.create_table('endpoint_intents',
    sa.Column('endpoint_pk', sa.Integer(), nullable=False),
    sa.Column('intent', sa.String(length=64), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['endpoint_pk'], ['endpoints.pk'], name=op.f('fk_endpoint_intents_endpoint_pk_endpoints'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['intent'], ['intents.name'], name=op.f('fk_endpoint_intents_intent_intents')),
    sa.PrimaryKeyConstraint('endpoint_pk', 'intent', name=op.f('pk_endpoint_intents'))
    )
    with op.batch_alter_table('endpoint_intents', schema=None) as batch_op:
        batch_op.create_index('ix_endpoint_intents_intent', ['intent'], unique=False)

    op.create_table('fields',
    sa.Column('pk', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('endpoint_pk', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('type', sa.String(length=10), nullable=False),
    sa.Column('unit', sa.String(length=40), nullable=True),
    sa.Column('group_name', sa.String(length=64), nullable=False),
    sa.Column('identifier', sa.Boolean(), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('source_type', sa.String(length=20), nullable=True),
    sa.Column('license_pk', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['endpoint_pk'], ['endpoints.pk'], name=op.f('fk_fields_endpoint_pk_endpoints'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['group_name'], ['field_groups.name'], name=op.f('fk_fields_group_name_field_groups')),
    sa.ForeignKeyConstraint(['license_pk'], ['licenses.pk'], name=op.f('fk_fields_license_pk_licenses')),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_fields')),
    sa.UniqueConstraint('endpoint_pk', 'name', name=op.f('uq_fields_endpoint_pk_name'))
    )
    with op.batch_alter_table('fields', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fields_group_name'), ['group_name'], unique=False)
        batch_op.create_index(batch_op.f('ix_fields_name'), ['name'], unique=False)

    op.create_table('parameters',
    sa.Column('pk', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('endpoint_pk', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=10), nullable=False),
    sa.Column('required', sa.Boolean(), nullable=False),
    sa.Column('concept', sa.String(length=64), nullable=True),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('example_json', sa.Text(), nullable=False),
    sa.Column('enum', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['concept'], ['concepts.name'], name=op.f('fk_parameters_concept_concepts')),
    sa.ForeignKeyConstraint(['endpoint_pk'], ['endpoints.pk'], name=op.f('fk_parameters_endpoint_pk_endpoints'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_parameters')),
    sa.UniqueConstraint('endpoint_pk', 'name', name=op.f('uq_parameters_endpoint_pk_name'))
    )
    with op.batch_alter_table('parameters', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_parameters_concept'), ['concept'], unique=False)

    op.create_table('field_aliases',
    sa.Column('pk', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('field_pk', sa.Integer(), nullable=False),
    sa.Column('alias', sa.String(length=120), nullable=False),
    sa.Column('normalized', sa.String(length=120), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['field_pk'], ['fields.pk'], name=op.f('fk_field_aliases_field_pk_fields'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_field_aliases')),
    sa.UniqueConstraint('field_pk', 'alias', name=op.f('uq_field_aliases_field_pk_alias'))
    )
    with op.batch_alter_table('field_aliases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_field_aliases_normalized'), ['normalized'], unique=False)

    op.create_table('field_concepts',
    sa.Column('field_pk', sa.Integer(), nullable=False),
    sa.Column('concept', sa.String(length=64), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['concept'], ['concepts.name'], name=op.f('fk_field_concepts_concept_concepts')),
    sa.ForeignKeyConstraint(['field_pk'], ['fields.pk'], name=op.f('fk_field_concepts_field_pk_fields'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('field_pk', 'concept', name=op.f('pk_field_concepts'))
    )
    with op.batch_alter_table('field_concepts', schema=None) as batch_op:
        batch_op.create_index('ix_field_concepts_concept', ['concept'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('field_concepts', schema=None) as batch_op:
        batch_op.drop_index('ix_field_concepts_concept')

    op.drop_table('field_concepts')
    with op.batch_alter_table('field_aliases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_field_aliases_normalized'))

    op.drop_table('field_aliases')
    with op.batch_alter_table('parameters', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_parameters_concept'))

    op.drop_table('parameters')
    with op.batch_alter_table('fields', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_fields_name'))
        batch_op.drop_index(batch_op.f('ix_fields_group_name'))

    op.drop_table('fields')
    with op.batch_alter_table('endpoint_intents', schema=None) as batch_op:
        batch_op.drop_index('ix_endpoint_intents_intent')

    op.drop_table('endpoint_intents')
    with op.batch_alter_table('source_aliases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_source_aliases_normalized'))

    op.drop_table('source_aliases')
    op.drop_table('endpoints')
    with op.batch_alter_table('sources', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sources_domain'))

    op.drop_table('sources')
    op.drop_table('intent_groups')
    with op.batch_alter_table('concept_aliases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_concept_aliases_normalized'))

    op.drop_table('concept_aliases')
    op.drop_table('registry_meta')
    with op.batch_alter_table('licenses', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_licenses_license_id'))

    op.drop_table('licenses')
    op.drop_table('intents')
    op.drop_table('field_groups')
    op.drop_table('concepts')
