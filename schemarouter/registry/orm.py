"""SQLAlchemy ORM tables of the registry. These classes never leave the registry package.

They define the schema (alembic migrations must agree with them, which a test checks); the
registry reads and writes them with Core statements in bulk, because a sync writes thousands of
rows at once.

The layout is normalized so users can ask the registry questions in SQL (see
``docs/registry.md``). Every constraint is named (``naming_convention``) so alembic
migrations are the same on SQLite and Postgres.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from schemarouter.registry.database import META_TABLE

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base whose metadata names every constraint by NAMING_CONVENTION."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class SqlLicense(Base):
    """A license, stored once per distinct declaration (``fingerprint``) and shared by sources and fields."""

    __tablename__ = "licenses"

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    fingerprint: Mapped[str] = mapped_column(String(71), unique=True)
    license_id: Mapped[str] = mapped_column(String(120), index=True)
    name: Mapped[str] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text)
    attribution: Mapped[str | None] = mapped_column(Text)
    verified: Mapped[bool] = mapped_column(Boolean, default=False)


class SqlSource(Base):
    """A source's declaration, with the owner (plugin or local) that declared it and its fingerprint."""

    __tablename__ = "sources"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    domain: Mapped[str] = mapped_column(String(64), index=True)
    description: Mapped[str] = mapped_column(Text, default="")
    homepage: Mapped[str | None] = mapped_column(Text)
    source_type: Mapped[str] = mapped_column(String(20))
    license_pk: Mapped[int] = mapped_column(ForeignKey("licenses.pk"))
    auth: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    priority: Mapped[int] = mapped_column(Integer)
    cache_ttl: Mapped[int | None] = mapped_column(Integer)
    # declared producer -> consumer links, [{"from": "endpoint.field", "to": "endpoint.param"}]
    feeds: Mapped[list[dict[str, str]] | None] = mapped_column(JSON)
    owner_kind: Mapped[str] = mapped_column(String(10))
    owner_name: Mapped[str] = mapped_column(String(200))
    owner_version: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str] = mapped_column(String(71))


class SqlSourceAlias(Base):
    """An alternative name of a source, with its normalized form for lookup."""

    __tablename__ = "source_aliases"
    __table_args__ = (UniqueConstraint("source_id", "alias"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    source_id: Mapped[str] = mapped_column(ForeignKey("sources.id", ondelete="CASCADE"))
    alias: Mapped[str] = mapped_column(String(120))
    normalized: Mapped[str] = mapped_column(String(120), index=True)
    position: Mapped[int] = mapped_column(Integer)


class SqlEndpoint(Base):
    """An endpoint of a source, in declaration order, with its request details and fingerprint."""

    __tablename__ = "endpoints"
    __table_args__ = (UniqueConstraint("source_id", "id"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    source_id: Mapped[str] = mapped_column(ForeignKey("sources.id", ondelete="CASCADE"))
    id: Mapped[str] = mapped_column(String(64))
    position: Mapped[int] = mapped_column(Integer)
    method: Mapped[str] = mapped_column(String(8))
    access: Mapped[str] = mapped_column(String(8), default="read", server_default="read")
    scope: Mapped[str] = mapped_column(String(8), default="public", server_default="public")
    base_url: Mapped[str] = mapped_column(Text)
    path: Mapped[str] = mapped_column(Text)
    summary: Mapped[str] = mapped_column(Text, default="", server_default="")
    description: Mapped[str] = mapped_column(Text, default="")
    tags: Mapped[list[str] | None] = mapped_column(JSON)
    projection_param: Mapped[str | None] = mapped_column(String(120))
    projection_style: Mapped[str | None] = mapped_column(String(20))
    fingerprint: Mapped[str] = mapped_column(String(71))
    # Execution facts of a local source's endpoint (records path, parameter locations, fixed
    # params), JSON text; plugin endpoints keep theirs in code, so NULL there.
    adapter_spec: Mapped[str | None] = mapped_column(Text)


class SqlParameter(Base):
    """A request parameter of an endpoint; its example and default values are kept as JSON text."""

    __tablename__ = "parameters"
    __table_args__ = (UniqueConstraint("endpoint_pk", "name"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    endpoint_pk: Mapped[int] = mapped_column(ForeignKey("endpoints.pk", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(128))
    position: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(10))
    required: Mapped[bool] = mapped_column(Boolean, default=False)
    concept: Mapped[str | None] = mapped_column(ForeignKey("concepts.name"), index=True)
    description: Mapped[str] = mapped_column(Text, default="")
    # JSON text in a TEXT column: a JSON column has NUMERIC affinity on SQLite, which turns 1.0 into 1.
    example_json: Mapped[str] = mapped_column(Text)
    default_json: Mapped[str] = mapped_column(Text, default="null", server_default="null")
    enum_labels: Mapped[dict[str, str] | None] = mapped_column(JSON)
    enum: Mapped[list[Any] | None] = mapped_column(JSON)
    format: Mapped[str | None] = mapped_column(String(64))
    pattern: Mapped[str | None] = mapped_column(Text)


class SqlField(Base):
    """A response field of an endpoint, in a field group, optionally overriding source type and license."""

    __tablename__ = "fields"
    __table_args__ = (UniqueConstraint("endpoint_pk", "name"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    endpoint_pk: Mapped[int] = mapped_column(ForeignKey("endpoints.pk", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(128), index=True)
    position: Mapped[int] = mapped_column(Integer)
    path: Mapped[str] = mapped_column(Text)
    type: Mapped[str] = mapped_column(String(10))
    unit: Mapped[str | None] = mapped_column(String(40))
    group_name: Mapped[str] = mapped_column(ForeignKey("field_groups.name"), index=True)
    identifier: Mapped[bool] = mapped_column(Boolean, default=False)
    description: Mapped[str] = mapped_column(Text, default="")
    source_type: Mapped[str | None] = mapped_column(String(20))
    license_pk: Mapped[int | None] = mapped_column(ForeignKey("licenses.pk"))


class SqlFieldGroup(Base):
    """A field group of the vocabulary, which response fields and intents refer to."""

    __tablename__ = "field_groups"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    description: Mapped[str] = mapped_column(Text, default="")


class SqlConcept(Base):
    """A domain concept of the vocabulary, which parameters and response fields can refer to."""

    __tablename__ = "concepts"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    description: Mapped[str] = mapped_column(Text, default="")


class SqlConceptAlias(Base):
    """An alternative name of a concept, with its normalized form for lookup."""

    __tablename__ = "concept_aliases"
    __table_args__ = (UniqueConstraint("concept", "alias"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    concept: Mapped[str] = mapped_column(ForeignKey("concepts.name", ondelete="CASCADE"))
    alias: Mapped[str] = mapped_column(String(120))
    normalized: Mapped[str] = mapped_column(String(120), index=True)
    position: Mapped[int] = mapped_column(Integer)


class SqlConceptPattern(Base):
    """How a value of a concept is written (a regular expression), in registration order."""

    __tablename__ = "concept_patterns"

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    concept: Mapped[str] = mapped_column(ForeignKey("concepts.name", ondelete="CASCADE"), index=True)
    regex: Mapped[str] = mapped_column(String(500))
    needs: Mapped[list[str]] = mapped_column(JSON, default=list)
    position: Mapped[int] = mapped_column(Integer)


class SqlFieldConcept(Base):
    """Links a response field to a concept it carries, in declaration order."""

    __tablename__ = "field_concepts"

    field_pk: Mapped[int] = mapped_column(ForeignKey("fields.pk", ondelete="CASCADE"), primary_key=True)
    concept: Mapped[str] = mapped_column(ForeignKey("concepts.name"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_field_concepts_concept", "concept"),)


class SqlFieldAlias(Base):
    """An alternative name of a response field, with its normalized form for lookup."""

    __tablename__ = "field_aliases"
    __table_args__ = (UniqueConstraint("field_pk", "alias"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    field_pk: Mapped[int] = mapped_column(ForeignKey("fields.pk", ondelete="CASCADE"))
    alias: Mapped[str] = mapped_column(String(120))
    normalized: Mapped[str] = mapped_column(String(120), index=True)
    position: Mapped[int] = mapped_column(Integer)


class SqlIntent(Base):
    """An intent of the vocabulary, in declaration order, with its description, domains and keywords."""

    __tablename__ = "intents"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(Text, default="")
    domains: Mapped[list[str]] = mapped_column(JSON)
    keywords: Mapped[list[str]] = mapped_column(JSON)


class SqlIntentGroup(Base):
    """Links an intent to one of its field groups, in declaration order."""

    __tablename__ = "intent_groups"

    intent: Mapped[str] = mapped_column(ForeignKey("intents.name", ondelete="CASCADE"), primary_key=True)
    group_name: Mapped[str] = mapped_column(ForeignKey("field_groups.name"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)


class SqlEndpointIntent(Base):
    """Links an endpoint to an intent it serves, in declaration order."""

    __tablename__ = "endpoint_intents"

    endpoint_pk: Mapped[int] = mapped_column(ForeignKey("endpoints.pk", ondelete="CASCADE"), primary_key=True)
    intent: Mapped[str] = mapped_column(ForeignKey("intents.name"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_endpoint_intents_intent", "intent"),)


class SqlRegistryMeta(Base):
    """Registry-wide key/value facts: format version, fingerprints and last sync time."""

    __tablename__ = META_TABLE

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
