"""Which recorded request answers a replayed one: the same question, read from the declarations.

A recorded request and a replayed one ask the same question when they go to the same endpoint with
the same values; the fields they project may differ, since the router may ask for other fields than
the recording did. Where an endpoint sends its projection is declared (``Endpoint.projection``: a
query parameter, a path segment, a JSON body key, or the bare keywords of an AFLUX matchbook), so
no source is named here: :class:`QuestionKeys` finds the endpoint a request was sent to by its host
and path template, sets the projection aside, and keeps the rest as the request's question.

Parameters that never change which records answer are set aside too: a client's contact details
(``mailto``, ``email``, ``tool``) and page sizes. Keys never reach a comparison (the recording
filters take them out of both requests first).

``projection`` says how the projected fields may differ: ``"any"`` (the recording may have asked
for other fields: they are projected locally; ``sources check`` reads recordings so), or
``"covering"`` (offline runs: the recording asked for some of the planned fields besides the
record identifier, never for others alone; of the recordings of the same question the one that
holds the most asked fields answers, and the fields it lacks come back empty, reported as not
returned). A replay must never answer a different question than the one asked: a recording made
for other fields would come back as records with every asked field empty.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from schemarouter.execution.rendering import projection_keys
from schemarouter.models import Endpoint, Source

# parameters that say who asks or how many per page, never which records answer
NEUTRAL_QUERY = frozenset({"mailto", "email", "tool", "_limit", "limit", "per_page", "per-page", "rows", "page_size"})
_VARIABLE = re.compile(r"\{([^{}]+)\}")

ProjectionRule = Literal["any", "covering"]


@dataclass(frozen=True)
class _Route:
    """One declared endpoint as a request to it looks: method, host and a pattern of its path."""

    method: str
    host: str
    path: re.Pattern[str]
    literal: int  # characters of the template outside variables: the most specific route wins
    endpoint: Endpoint


@dataclass(frozen=True)
class Question:
    """What a request asks once its projection is set aside, and the fields it projects (None: all)."""

    key: tuple[Any, ...]
    projected: frozenset[str] | None
    identity: frozenset[str] = frozenset()  # the projection keys of the record identifier, always asked

    def held(self, asked: Question) -> int:
        """How many of the fields ``asked`` projects, the identifier aside, this recording holds (-1:
        none, so it answers a different question; a large number: one of them projects nothing)."""
        if asked.projected is None or self.projected is None:
            return 1 << 20
        wanted = (asked.projected - asked.identity) or asked.projected
        return len(wanted & self.projected) or -1


class QuestionKeys:
    """Reads requests as questions, knowing the endpoints of ``sources``."""

    def __init__(self, sources: Iterable[Source] = (), projection: ProjectionRule = "any") -> None:
        self.projection = projection
        self._questions: dict[int, tuple[Any, Question]] = {}  # id(recorded request) -> it, its question
        self._routes: dict[str, list[_Route]] = {}  # host -> its endpoints' routes
        for source in sources:
            for endpoint in source.endpoints:
                base = urlsplit(endpoint.base_url)
                template = base.path.rstrip("/") + endpoint.path
                route = _Route(endpoint.method, (base.hostname or "").lower(), _path_pattern(template),
                               sum(len(p) for p in _VARIABLE.split(template)[::2]), endpoint)
                self._routes.setdefault(route.host, []).append(route)

    def route(self, host: str, path: str) -> tuple[Endpoint, re.Match[str]] | None:
        """The declared endpoint a request goes to, with the match of its path, or None. By host and
        path only: an adapter may send a declared GET as a POST whose body carries a path variable
        (a long identifier list), so the method and a variable's segment may differ from the
        declaration; the method stays part of the question."""
        best: tuple[_Route, re.Match[str]] | None = None
        for route in self._routes.get(host.lower(), ()):
            found = route.path.fullmatch(unquote(path)) or route.path.fullmatch(path)
            if found is not None and (best is None or route.literal > best[0].literal):
                best = (route, found)
        return (best[0].endpoint, best[1]) if best else None

    def question(self, request: Any) -> Question:
        """The question of a vcrpy request (``method``, ``host``, ``path``, ``uri``, ``query``, ``body``)."""
        routed = self.route(request.host or "", request.path)
        projection = routed[0].projection if routed else None
        path = request.path
        query = [(k, v) for k, v in request.query if k not in NEUTRAL_QUERY]
        body = _json_body(request.body)
        projected: frozenset[str] | None = None
        if routed is not None and projection is not None:
            endpoint, match = routed
            if projection.style == "path_csv":
                template_names = _VARIABLE.findall(urlsplit(endpoint.base_url).path + endpoint.path)
                for i, name in enumerate(template_names):
                    group = f"v{2 * i + 1}"
                    if name == projection.param and match.group(group) is not None:
                        projected = _listed(unquote(match.group(group)))
                        start, end = match.span(group)
                        path = unquote(path)[:start] + "*" + unquote(path)[end:]
            elif projection.style == "csv":
                projected = frozenset(x for k, v in query if k == projection.param for x in _listed(v)) or None
                query = [(k, v) for k, v in query if k != projection.param]
            elif projection.style == "json_list" and isinstance(body, dict):
                body, listed = _pop_dotted(body, projection.param)
                projected = frozenset(str(x) for x in listed) if isinstance(listed, list) else None
            elif projection.style == "aflux_keywords":
                raw = unquote(urlsplit(request.uri).query)
                parts = [p for p in raw.split(",") if p]
                projected = frozenset(p for p in parts if "(" not in p) or None
                query = sorted((p, "") for p in parts if "(" in p)
        key = (request.method.upper(), (request.host or "").lower(), path, tuple(sorted(query)),
               json.dumps(body, sort_keys=True) if not isinstance(body, (bytes, str)) else body)
        identity = frozenset(projection_keys(routed[0], [f for f in routed[0].fields if f.identifier])) if routed else frozenset()
        return Question(key, projected, identity)

    def same_question(self, live: Any, recorded: Any) -> bool:
        """Whether ``recorded`` answers ``live`` (see the module docstring for ``projection``)."""
        asked, held = self.question(live), self.question(recorded)
        if asked.key != held.key:
            return False
        if self.projection == "any":
            return True
        # the recording holds some of what is asked besides the identifier; never only other fields
        return held.held(asked) >= 0

    def answers(self, live: Any, recorded: Any, held: Iterable[Any] = ()) -> bool:
        """Whether ``recorded`` answers ``live``: the same question, and under ``"covering"`` no other
        of ``held`` (every recorded request) asks it for more of the asked fields."""
        if not self.same_question(live, recorded):
            return False
        if self.projection == "any":
            return True
        asked = self.question(live)
        mine = self._recorded(recorded).held(asked)
        return not any(q.key == asked.key and q.held(asked) > mine for q in map(self._recorded, held))

    def _recorded(self, request: Any) -> Question:
        """The question of a recorded request, read once (the recordings do not change during a replay)."""
        seen = self._questions.get(id(request))
        if seen is None or seen[0] is not request:
            seen = self._questions[id(request)] = (request, self.question(request))
        return seen[1]


def _path_pattern(template: str) -> re.Pattern[str]:
    """A pattern of a path template: each ``{variable}`` a named group ``v<i>`` (``i`` its index in
    ``_VARIABLE.split``), a whole ``/{variable}`` segment optional (an adapter may send it elsewhere)."""
    pieces = _VARIABLE.split(template)
    out: list[str] = []
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            literal = piece
            optional = i + 1 < len(pieces) and literal.endswith("/") and (i + 2 >= len(pieces) or pieces[i + 2][:1] in ("/", ""))
            out.append(re.escape(literal[:-1] if optional else literal))
            if optional:
                out.append("(?:/")
        else:
            out.append(f"(?P<v{i}>[^/]+)")
            if out[-2] == "(?:/":
                out.append(")?")
    return re.compile("".join(out))


def _listed(text: str) -> frozenset[str]:
    return frozenset(x.strip() for x in text.split(",") if x.strip())


def _json_body(body: Any) -> Any:
    if body is None or body in (b"", ""):
        return None
    raw = body.encode() if isinstance(body, str) else body
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return body


def _pop_dotted(body: dict[str, Any], dotted: str) -> tuple[dict[str, Any], Any]:
    """``body`` without the value at ``dotted`` (and without objects that held only it), and that value."""
    head, _, rest = dotted.partition(".")
    if head not in body:
        return body, None
    out = dict(body)
    if not rest:
        return out, out.pop(head)
    inner = out[head]
    if not isinstance(inner, dict):
        return body, None
    remaining, value = _pop_dotted(inner, rest)
    if remaining:
        out[head] = remaining
    else:
        del out[head]
    return out, value
