"""The understand pipeline: a backend's own reading of a question, then the reading all backends share.

What a backend decides is the understanding a plan records (intent, concepts, entity values, named
sources, a provenance constraint) and whether the question asks to act. What no backend should
decide differently, the values and words the question carries (names, identifiers, dates, counts,
labelled values, content terms), is read here once, after the backend, from the text it read and
around the source names it found; so is a question that names a service no registered source is
(:mod:`schemarouter.understand.unregistered`), declined here for every backend, as is text that
only greets or thanks (:mod:`schemarouter.understand.smalltalk`). A new backend
subclasses :class:`Backend` and writes :meth:`read`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from schemarouter.understand.base import Analysis
from schemarouter.understand.reading import read_values
from schemarouter.understand.smalltalk import small_talk
from schemarouter.understand.unregistered import unregistered_sources

if TYPE_CHECKING:
    from schemarouter.graph import SchemaGraph


class Backend(ABC):
    """An understand backend: :meth:`read` is its own, :meth:`understand` the pipeline around it."""

    name: str = ""

    @abstractmethod
    def read(self, question: str, graph: SchemaGraph) -> Analysis:
        """The backend's reading of ``question``: the understanding, entities, matched phrases, and, for
        the shared reading after it, ``text`` (what was read), ``source_spans`` (where source names
        are) and ``action`` (the verb of a request to act, as
        :func:`~schemarouter.understand.actions.requested_action` reads it; None when it asks for data)."""

    def understand(self, question: str, graph: SchemaGraph) -> Analysis:
        """The :class:`Analysis` of ``question``: :meth:`read`, then the shared reading."""
        analysis = self.read(question, graph)
        known = graph.lexical.structural.__contains__
        read_values(analysis, analysis.text or question, analysis.source_spans, known=known, action=analysis.action,
                    together=graph.lexical.together)
        if analysis.decline is None and small_talk(question):
            analysis.decline = "greets, thanks or takes leave and asks nothing: there is nothing to look up"
        if analysis.decline is None and not analysis.understanding.named_tools:
            strangers = unregistered_sources(analysis.text or question, graph, known)
            if strangers:
                # "Use the Spotify API ...": a constraint no registered source meets (as a named source
                # that cannot answer is: router.core), not a topic for whichever endpoint the words reach
                analysis.decline = (f"names {strangers[0]}, which is not a registered source "
                                    "(schemarouter registry list shows those that are)")
        return analysis
