"""A source plugin in one line: a packaged ``source.yaml``, its adapter and optional concept aliases.

Most source plugins contribute the same three things: one declaration file shipped inside the
package, one adapter that fetches it, and perhaps a few community words for shared concepts.
Writing the three hook bodies by hand in every plugin made them near copies; instead a plugin's
``__init__.py`` says::

    plugin = packaged_source(__name__, MyAdapter)

and its entry point names that object (``my_source = "my_package:plugin"``). The object carries
only the hooks it has something for, so ``schemarouter plugins`` lists what it really registers.
A plugin that needs more than this implements the hooks of :mod:`schemarouter.hookspecs` itself.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemarouter.declarations import load_source_file
from schemarouter.errors import SchemaRouterError
from schemarouter.hookspecs import hookimpl
from schemarouter.models import DomainConcept, Source, ValuePattern

if TYPE_CHECKING:  # only for annotations: adapters live in the execution layer above this one
    from typing import TypeAlias

    from schemarouter.execution.adapter import Adapter

    # An adapter instance (shared) or its class (instantiated each time adapters are collected).
    AdapterOrClass: TypeAlias = Adapter | type[Adapter]

SOURCE_FILE_NAME = "source.yaml"
RECORDINGS_DIR = "recordings"  # recorded responses shipped in the package (VCR cassettes)


class PackagedSource:
    """A plugin object: registers one declaration file, its adapter and concept aliases."""

    def __init__(
        self,
        name: str,
        source_file: Path,
        adapter: AdapterOrClass | None = None,
        concept_aliases: Mapping[str, Sequence[str]] | None = None,
        concept_patterns: Mapping[str, Sequence[ValuePattern]] | None = None,
    ) -> None:
        # ``__name__`` is what the plugin manager calls a plugin registered without an entry point.
        self.__name__ = name
        self.source_file = source_file
        self.adapter = adapter
        self.concept_aliases = {concept: list(words) for concept, words in (concept_aliases or {}).items()}
        self.concept_patterns = {concept: list(found) for concept, found in (concept_patterns or {}).items()}
        self._source_id: str | None = None
        self.register_sources = self._sources_hook()
        if adapter is not None:
            self.register_adapters = self._adapters_hook(adapter)
        if self.concept_aliases or self.concept_patterns:
            self.register_concepts = self._concepts_hook()
        if self.recordings.is_dir():
            self.register_recordings = self._recordings_hook()

    @property
    def recordings(self) -> Path:
        """The package's folder of recorded responses (``recordings/`` beside the declaration)."""
        return self.source_file.with_name(RECORDINGS_DIR)

    def __repr__(self) -> str:
        return f"PackagedSource({self.__name__!r}, {self.source_file.name!r})"

    def load(self) -> Source:
        """The declaration, read and validated afresh (a caller may keep or change its copy)."""
        source = load_source_file(self.source_file)
        self._source_id = source.id
        return source

    def source_id(self) -> str:
        """The id the declaration file gives its source (a method: pluggy reads every attribute)."""
        return self._source_id or self.load().id

    def _sources_hook(self) -> Callable[[Callable[[Source], None]], None]:
        @hookimpl
        def register_sources(register: Callable[[Source], None]) -> None:
            register(self.load())

        return register_sources

    def _adapters_hook(self, adapter: AdapterOrClass) -> Callable[[Callable[[str, Any], None]], None]:
        @hookimpl
        def register_adapters(register: Callable[[str, Any], None]) -> None:
            # A class gives each collection (each executor) its own instance, so an adapter may
            # keep state for one run (OpenDART's company list) without sharing it across runs.
            register(self.source_id(), adapter() if isinstance(adapter, type) else adapter)

        return register_adapters

    def _recordings_hook(self) -> Callable[[Callable[[str, Path], None]], None]:
        @hookimpl
        def register_recordings(register: Callable[[str, Path], None]) -> None:
            register(self.source_id(), self.recordings)

        return register_recordings

    def _concepts_hook(self) -> Callable[[Callable[[DomainConcept], None]], None]:
        @hookimpl
        def register_concepts(register: Callable[[DomainConcept], None]) -> None:
            for concept in dict.fromkeys([*self.concept_aliases, *self.concept_patterns]):
                register(DomainConcept(name=concept, aliases=self.concept_aliases.get(concept, []),
                                       patterns=self.concept_patterns.get(concept, [])))

        return register_concepts


def packaged_source(
    module: str,
    adapter: AdapterOrClass | None = None,
    *,
    concept_aliases: Mapping[str, Sequence[str]] | None = None,
    concept_patterns: Mapping[str, Sequence[ValuePattern]] | None = None,
    file: str = SOURCE_FILE_NAME,
) -> PackagedSource:
    """The plugin for the declaration ``file`` beside ``module`` (pass ``__name__``), fetched by ``adapter``.

    ``adapter`` is an adapter class (a fresh instance each time adapters are collected) or one
    shared, stateless instance (a configured :class:`HttpJsonAdapter`). ``concept_aliases`` adds a
    community's words to shared concepts (aliases only: descriptions stay with the vocabulary that
    registered the concept); ``concept_patterns`` how the source's own values of a shared concept are
    written (its record identifiers: ``{"material_id": [ValuePattern(regex=r"\\b(mp-\\d+)\\b")]}``), so
    the understand step reads them from a question.
    """
    loaded = sys.modules.get(module)
    where = getattr(loaded, "__file__", None)
    if where is None:
        raise SchemaRouterError(f"packaged_source: {module!r} is not an imported module with a file; pass __name__")
    source_file = Path(where).with_name(file)
    if not source_file.is_file():
        raise SchemaRouterError(f"packaged_source: {module} has no {file} beside it ({source_file})")
    return PackagedSource(module, source_file, adapter, concept_aliases, concept_patterns)
