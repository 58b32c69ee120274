"""What the understand step works out once about a graph (kept in ``graph.memos``; see
:mod:`schemarouter.memos`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class UnderstandGraphMemo:
    """Per graph: answers the understand step reads for every question."""

    # ("param" or "concept", concept) -> intent -> share: ``evidence``
    evidence: dict[tuple[str, str], dict[str, float]] = field(default_factory=dict)
    # the verbs read and write endpoints' summaries open with ("Follow Artists"): ``actions._openers``
    openers: tuple[frozenset[str], frozenset[str]] | None = None
    # verb -> numbers of the read endpoints whose summaries open with it: ``actions``
    read_openers: dict[str, set[int]] | None = None
    # the action verbs that name read endpoints' parameters (``start``): ``actions.parameter_verbs``
    parameter_verbs: frozenset[str] | None = None
    # every source's title and the opening of its description, in lower case, one per line: what a
    # service a question names may be called by where no alias says it (``unregistered``)
    source_prose: str | None = None
