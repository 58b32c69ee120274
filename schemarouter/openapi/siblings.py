"""What one operation of a document says about a value, read for its sibling operations too.

Documents declare a parameter's shape once and leave it off elsewhere: FastAPI applications put
``pattern=r"^\\d{7}$"`` on ``GET /platforms/{platform_number}`` and a bare string on
``GET /platforms/{platform_number}/profiles``; the record ``GET /platforms/{platform_number}``
answers is keyed by ``platform_number``, while the list ``GET /platforms`` of the same records names
no key. A path parameter of one name addresses one kind of record across a document, so:

- a path parameter that declares no pattern, enum, format, example or description takes those of
  the first sibling of the same name and type that declares some (noted in the report);
- a read endpoint left without an identifier takes, as its record key, a top-level property named
  like a parameter some path of the document ends with (``/platforms/{platform_number}``).
"""

from __future__ import annotations

import dataclasses

from schemarouter.openapi.mapper import DraftEndpoint, DraftParam
from schemarouter.openapi.naming import last_path_parameter
from schemarouter.openapi.report import ImportReport


def _bare(p: DraftParam) -> bool:
    return not (p.pattern or p.enum or p.format or p.example is not None or p.description)


def share_across_siblings(drafts: list[DraftEndpoint], report: ImportReport) -> None:
    """Fill in, in place, what a draft's siblings declare and it leaves out (see the module docstring)."""
    declared: dict[tuple[str, str], tuple[DraftParam, str]] = {}
    for draft in drafts:
        for p in draft.params:
            if p.location == "path" and not _bare(p):
                declared.setdefault((p.name, p.type), (p, draft.place))
    for draft in drafts:
        for i, p in enumerate(draft.params):
            found = declared.get((p.name, p.type)) if p.location == "path" and _bare(p) else None
            if found is None:
                continue
            sibling, place = found
            draft.params[i] = dataclasses.replace(
                p, pattern=sibling.pattern, enum=sibling.enum, format=sibling.format, example=sibling.example,
                description=sibling.description, enum_labels=sibling.enum_labels)
            report.notes.append(f"{draft.place}: parameter {p.name!r} declares nothing of its values; "
                                f"read as {place} declares it")
    addressed = {last.lower() for d in drafts if d.access == "read" and (last := last_path_parameter(d.path))}
    for draft in drafts:
        if draft.access != "read" or draft.identifier is not None or not addressed:
            continue
        draft.identifier = next((name for f, name in zip(draft.fields, draft.names, strict=True)
                                 if not f.in_list and "." not in f.path and f.type in ("string", "integer")
                                 and f.key.lower() in addressed), None)
