"""Gather every plugin's declarations and check that they fit together.

Plugins register objects one at a time; this module calls each plugin's hooks separately so
that any error names the plugin and the item. It then checks what no single model can:
that endpoints serve known intents, fields sit in known groups, concepts exist, and no source
id is claimed twice. The result, :class:`Declarations`, is what ``registry sync`` writes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from schemarouter.errors import DeclarationError, clip
from schemarouter.models import DomainConcept, FieldGroup, Intent, Source
from schemarouter.plugins import PluginManager, PluginSummary
from schemarouter.safeload import UnsafeDocumentError, load_yaml

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Owner:
    """Who declared a source: an installed plugin, or a local file added by a user."""

    kind: str  # "plugin" | "local"
    name: str
    version: str

    @property
    def label(self) -> str:
        """How messages name the owner: the plugin and its version, or the local source file."""
        return f"{self.name} {self.version}" if self.kind == "plugin" else f"local source file {self.name}"


@dataclass
class Declarations:
    """Everything the registry stores, validated and merged."""

    sources: dict[str, Source] = field(default_factory=dict)
    owners: dict[str, Owner] = field(default_factory=dict)
    intents: dict[str, Intent] = field(default_factory=dict)
    field_groups: dict[str, FieldGroup] = field(default_factory=dict)
    concepts: dict[str, DomainConcept] = field(default_factory=dict)
    # Local sources only: source id -> endpoint id -> adapter spec (JSON object).
    adapter_specs: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    # The registry fingerprint of exactly this content, when read from a registry (one snapshot).
    fingerprint: str | None = None


def describe_validation_error(exc: ValidationError, data: Any = None) -> str:
    """One line per problem, locations spelled with item ids instead of list indices."""
    lines: list[str] = []
    for err in exc.errors():
        parts: list[str] = []
        node = data
        for loc in err["loc"]:
            if isinstance(loc, int) and isinstance(node, list) and loc < len(node):
                node = node[loc]
                label = None
                if isinstance(node, dict):
                    label = node.get("id") or node.get("name")
                parts.append(f"[{label}]" if label else f"[{loc}]")
            else:
                node = node.get(loc) if isinstance(node, dict) else None
                parts.append(f".{loc}" if parts else str(loc))
        where = "".join(parts) or "(top level)"
        message = err["msg"]
        if message.startswith("Value error, "):
            message = message[len("Value error, ") :]
        lines.append(f"{where}: {message}")
    return "; ".join(lines)


def coerce(model: type[M], value: Any, owner: str, kind: str) -> M:
    """Accept a model instance or a plain mapping; raise DeclarationError naming the item."""
    if isinstance(value, model):
        return value
    if isinstance(value, BaseModel):
        value = value.model_dump(by_alias=True)
    label = value.get("id") or value.get("name") if isinstance(value, dict) else None
    item = f"{kind} {clip(str(label))!r}" if label else kind  # a 100 KB id is named, not echoed
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise DeclarationError(owner, item, describe_validation_error(exc, value)) from None


def _call_each(
    pm: PluginManager, hook_name: str, on_item: Callable[[str, Any], None]
) -> None:
    hook = getattr(pm.hook, hook_name)
    for impl in hook.get_hookimpls():  # registration order: defaults first
        plugin_name = impl.plugin_name
        impl.function(register=lambda item, _p=plugin_name: on_item(_p, item))


def collect(pm: PluginManager) -> Declarations:
    """Call every plugin's register hooks and validate the whole set."""
    decls = Declarations()
    group_owner: dict[str, str] = {}
    intent_owner: dict[str, str] = {}

    def label(plugin_name: str) -> str:
        return pm.plugin_info(plugin_name).label

    def add_group(plugin: str, item: Any) -> None:
        group = coerce(FieldGroup, item, label(plugin), "field group")
        if group.name in decls.field_groups and decls.field_groups[group.name] != group:
            raise DeclarationError(
                label(plugin), f"field group {group.name!r}",
                f"already registered differently by {group_owner[group.name]}",
            )
        decls.field_groups[group.name] = group
        group_owner.setdefault(group.name, label(plugin))

    def add_intent(plugin: str, item: Any) -> None:
        intent = coerce(Intent, item, label(plugin), "intent")
        if intent.name in decls.intents and decls.intents[intent.name] != intent:
            raise DeclarationError(
                label(plugin), f"intent {intent.name!r}",
                f"already registered differently by {intent_owner[intent.name]}",
            )
        decls.intents[intent.name] = intent
        intent_owner.setdefault(intent.name, label(plugin))

    def add_concept(plugin: str, item: Any) -> None:
        concept = coerce(DomainConcept, item, label(plugin), "concept")
        known = decls.concepts.get(concept.name)
        if known is None:
            decls.concepts[concept.name] = concept
            return
        if known.description and concept.description and known.description != concept.description:
            raise DeclarationError(
                label(plugin), f"concept {concept.name!r}",
                "registered again with a different description; add aliases without a description",
            )
        seen = {a.casefold() for a in known.aliases}
        merged = list(known.aliases) + [a for a in concept.aliases if a.casefold() not in seen]
        patterns = list(known.patterns) + [p for p in concept.patterns if p not in known.patterns]
        decls.concepts[concept.name] = known.model_copy(
            update={"aliases": merged, "patterns": patterns, "description": known.description or concept.description}
        )

    def add_source(plugin: str, item: Any) -> None:
        info = pm.plugin_info(plugin)
        source = coerce(Source, item, info.label, "source")
        if source.id in decls.sources:
            other = decls.owners[source.id]
            raise DeclarationError(
                info.label, f"source {source.id!r}",
                f"source id is also registered by {other.label}; uninstall one of the two plugins",
            )
        decls.sources[source.id] = source
        decls.owners[source.id] = Owner("plugin", info.distribution or info.name, info.version)

    _call_each(pm, "register_field_groups", add_group)
    _call_each(pm, "register_intents", add_intent)
    _call_each(pm, "register_concepts", add_concept)
    _call_each(pm, "register_sources", add_source)
    validate(decls)
    return decls


def validate(decls: Declarations) -> None:
    """Cross-reference checks: every name a declaration uses must be registered."""
    for intent in decls.intents.values():
        for group in intent.field_groups:
            if group not in decls.field_groups:
                raise DeclarationError(
                    "vocabulary", f"intent {intent.name!r}", f"unknown field group {group!r}"
                )
    for source_id, source in decls.sources.items():
        owner = decls.owners[source_id].label
        for endpoint in source.endpoints:
            where = f"source {source_id!r} endpoint {endpoint.id!r}"
            for intent_name in endpoint.intents:
                if intent_name not in decls.intents:
                    raise DeclarationError(
                        owner, where, f"unknown intent {intent_name!r}{_hint(intent_name, decls.intents)}"
                    )
            for param in endpoint.parameters:
                if param.concept and param.concept not in decls.concepts:
                    raise DeclarationError(
                        owner, f"{where} parameter {param.name!r}",
                        f"unknown concept {param.concept!r}{_hint(param.concept, decls.concepts)}",
                    )
            for fld in endpoint.fields:
                if fld.group not in decls.field_groups:
                    raise DeclarationError(
                        owner, f"{where} field {fld.name!r}",
                        f"unknown field group {fld.group!r}{_hint(fld.group, decls.field_groups)}",
                    )
                for concept in fld.concepts:
                    if concept not in decls.concepts:
                        raise DeclarationError(
                            owner, f"{where} field {fld.name!r}",
                            f"unknown concept {concept!r}{_hint(concept, decls.concepts)}",
                        )


def _hint(name: str, known: dict[str, Any]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def summarize(pm: PluginManager) -> list[PluginSummary]:
    """What each plugin registers, without validating across plugins."""
    summaries = {name: PluginSummary(pm.plugin_info(name)) for name, _ in pm.list_name_plugin()}
    for hook_name, attr in [
        ("register_sources", "sources"),
        ("register_intents", "intents"),
        ("register_field_groups", "field_groups"),
        ("register_concepts", "concepts"),
        ("register_adapters", "adapters"),
        ("register_understanders", "understanders"),
        ("register_commands", "commands"),
    ]:
        def on_item(plugin: str, *items: Any, _attr: str = attr) -> None:
            item = items[0]
            key = item if isinstance(item, str) else getattr(item, "id", None) or getattr(item, "name", None)
            if isinstance(item, dict):
                key = item.get("id") or item.get("name")
            getattr(summaries[plugin], _attr).append(str(key))

        hook = getattr(pm.hook, hook_name)
        for impl in hook.get_hookimpls():
            summaries[impl.plugin_name].hooks.append(hook_name)
            impl.function(register=lambda *a, _p=impl.plugin_name, _f=on_item: _f(_p, *a))
    return list(summaries.values())


def read_yaml(path: Path) -> Any:
    """Parse a YAML (or JSON) file within bounds; any problem is one line with the position.

    Aliases, nesting and size are bounded (:mod:`schemarouter.safeload`): a billion-laughs
    anchor in a parameter example, a recursive anchor or a binary file is refused, not expanded.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DeclarationError(str(path), "file", f"cannot read: {exc.strerror}") from None
    try:
        return load_yaml(data, name=str(path))
    except UnsafeDocumentError as exc:
        raise DeclarationError(str(path), exc.where or "file", exc.problem) from None


def load_source_file(path: str | Path) -> Source:
    """Read one Source declaration from a YAML (or JSON) file."""
    path = Path(path)
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise DeclarationError(str(path), "file", "expected a mapping with the keys of a Source declaration")
    return coerce(Source, data, str(path), "source")
