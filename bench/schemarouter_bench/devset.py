"""The open-world dev sets: real public OpenAPI documents imported as a user would, with gold plans.

Two sets measure routing on sources nobody tuned the router for:

- the imported-sources set: one folder per API under ``data/imported/<source id>/`` holding the
  document (``openapi.json``), the minimal overlay a user must write (``overlay.yaml``), the
  questions with gold plans (``questions.jsonl``) and a ``PROVENANCE.md``; requests that belong
  to no one API (actions, out-of-scope questions, multi-source questions) are in
  ``data/imported/cross_source.jsonl``;
- RestBench's TMDB queries (``data/restbench/``: the TMDB document and the queries with their
  gold call chains, MIT).

Every path goes through :func:`imported_root` or :func:`restbench_root`, so moving the data
elsewhere is one edit.

A question is one JSON object per line: ``id``, ``query``, ``kind`` (``answer``, ``action`` or
``out_of_scope``), ``lang``, ``tags`` (``chain``, ``names_source``, ``doi``, ``curie``, ...),
``gold`` (steps, in order) and ``alternatives`` (equally right step lists); an action may name
the write operation that would do it (``write_source``, ``write_endpoint: "POST /path"``). A
gold step names its endpoint twice, the id the importer gives it and ``call: "METHOD /path"``
of the document, so the gold stays readable and checkable against the document even where
today's importer does not map that operation. Its ``params`` hold the values the question
requires: literals (``{"one_of": [...]}`` where several spellings are right) or a binding
``{"from": "s1", "field": "id", "pick": "first"}`` to an earlier step (which then has an
``id``); ``fields`` are the response fields that answer, and ``identifiers`` the ones among
them that only identify (left out of field recall).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from schemarouter_bench import data_path
from schemarouter_bench.dataset import DatasetError

QUESTIONS = "questions.jsonl"
METATOOL_MORE = "questions_more.jsonl"  # the MetaTool pool for tuning only
CROSS_SOURCE = "cross_source.jsonl"
Kind = Literal["answer", "action", "out_of_scope"]
Split = Literal["tune", "test"]
SPLITS: tuple[Split, ...] = ("tune", "test")


def split_of(question_id: str) -> Split:
    """A question's split, fixed by its id before any rule is chosen: ``test`` when the SHA-256 of the
    id is odd. Rules, thresholds and weights are chosen on ``tune``; figures are reported on ``test``."""
    return "test" if int(hashlib.sha256(question_id.encode("utf-8")).hexdigest(), 16) % 2 else "tune"


def imported_root() -> Path:
    """Folder of the imported-sources dev set (one sub-folder per API)."""
    return data_path("imported")


def restbench_root() -> Path:
    """Folder of RestBench's TMDB document and queries."""
    return data_path("restbench")


def heldout_root() -> Path:
    """Folder of the held-out scientific APIs (laid out as the imported-sources set; all test)."""
    return data_path("heldout_apis")


def science_root() -> Path:
    """Folder of the scientific APIs added to the open world after the re-ranker's weights were
    fitted (laid out as the imported-sources set; tune and test by question id)."""
    return data_path("science_apis")


def beside_root() -> Path:
    """Folder of the large APIs imported beside RestBench's TMDB (laid out as the imported-sources set)."""
    return data_path("restbench_beside")


def tooluse_root() -> Path:
    """Folder of the tool-use suite: ``docs/<source id>.json``, one ``overlay.yaml`` for all, questions."""
    return data_path("tooluse")


def toolbench_root() -> Path:
    """Folder of the ToolBench suite (StableToolBench's solvable queries), laid out as the tool-use suite."""
    return data_path("toolbench")


def load_metatool_more() -> list[DevQuestion]:
    """More of MetaTool's queries over the same tools, none of the suite's: a pool every question of
    which is in the tune split, for rules about requests over tools that do things (see the suite's
    PROVENANCE.md)."""
    questions = read_questions(metatool_root() / METATOOL_MORE)
    if any(q.part != "tune" for q in questions):
        raise DatasetError(f"{metatool_root() / METATOOL_MORE}: every question of the pool is in the tune split")
    return [q.model_copy(update={"api": q.gold[0].source}) for q in questions]


def metatool_root() -> Path:
    """Folder of the MetaTool suite (MetaTool's tool-selection queries over its 199 tools), laid out as
    the tool-use suite."""
    return data_path("metatool")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DevStep(_Strict):
    """One gold step: endpoint (importer id and ``METHOD /path``), parameters and answering fields."""

    id: str | None = None
    source: str
    endpoint: str
    call: str  # "GET /path" exactly as the document spells the path
    params: dict[str, Any] = Field(default_factory=dict)
    fields: list[str] = Field(default_factory=list)
    identifiers: list[str] = Field(default_factory=list)  # fields that only identify: not counted in recall

    @model_validator(mode="after")
    def _check(self) -> DevStep:
        method, _, path = self.call.partition(" ")
        if method not in ("GET", "POST", "PUT", "PATCH", "DELETE") or not path.startswith("/"):
            raise ValueError(f"call {self.call!r} is not 'METHOD /path'")
        stray = sorted(set(self.identifiers) - set(self.fields))
        if stray:
            raise ValueError(f"identifiers {stray} are not among the step's fields")
        return self

    @property
    def counted_fields(self) -> list[str]:
        """The step's fields that count towards recall (identifier-only fields left out)."""
        return [f for f in self.fields if f not in self.identifiers]


def is_binding(value: Any) -> bool:
    """A parameter value that names a producer step's field (a binding; docs/routing.md, chained steps)."""
    return isinstance(value, dict) and "from" in value and "field" in value


def _check_steps(steps: list[DevStep], where: str) -> None:
    seen: set[str] = set()
    for step in steps:
        for name, value in step.params.items():
            if is_binding(value) and value["from"] not in seen:
                raise ValueError(
                    f"{where}: {step.endpoint}.{name} binds to {value['from']!r}, not an earlier step"
                )
        if step.id is not None:
            if step.id in seen:
                raise ValueError(f"{where}: step id {step.id!r} used twice")
            seen.add(step.id)


class DevQuestion(_Strict):
    """A question (or request) with its gold plan and acceptable alternatives."""

    id: str
    query: str
    kind: Kind = "answer"
    lang: str = "en"
    tags: list[str] = Field(default_factory=list)
    gold: list[DevStep] = Field(default_factory=list)
    alternatives: list[list[DevStep]] = Field(default_factory=list)
    write_source: str | None = None
    write_endpoint: str | None = None  # "POST /path" of write_source that would do what an action asks
    note: str | None = None
    split: Split | None = None  # tune or test; by the id's hash when the file does not say (``split_of``)
    origin: str | None = None  # where a question was taken from (another benchmark's id)
    api: str = ""  # the folder it came from ("" for cross_source.jsonl); set by the loader

    @model_validator(mode="after")
    def _check(self) -> DevQuestion:
        if self.kind == "answer" and not self.gold:
            raise ValueError("an answerable question needs gold steps")
        if self.kind != "answer" and (self.gold or self.alternatives):
            raise ValueError(f"a {self.kind} question has no gold steps")
        if (self.write_endpoint is None) != (self.write_source is None):
            raise ValueError("write_endpoint and write_source go together")
        for i, steps in enumerate(self.gold_sets):
            _check_steps(steps, "gold" if i == 0 else f"alternatives[{i - 1}]")
        return self

    @property
    def gold_sets(self) -> list[list[DevStep]]:
        """The gold step list first, then every acceptable alternative."""
        return [list(self.gold), *[list(a) for a in self.alternatives]]

    @property
    def answerable(self) -> bool:
        """Whether the question asks for an answer (not an action, not out of scope)."""
        return self.kind == "answer"

    @property
    def english(self) -> bool:
        """Whether the question is in English."""
        return self.lang == "en"

    @property
    def part(self) -> Split:
        """The split the question is in: its own, else by its id (``split_of``)."""
        return self.split or split_of(self.id)


@dataclass(frozen=True)
class DevAPI:
    """One imported API of the dev set."""

    source_id: str
    folder: Path

    @property
    def spec(self) -> Path:
        """The API's OpenAPI document."""
        return self.folder / "openapi.json"

    @property
    def overlay(self) -> Path:
        """The API's minimal import overlay."""
        return self.folder / "overlay.yaml"

    @property
    def questions(self) -> Path:
        """The API's question file."""
        return self.folder / QUESTIONS


def dev_apis(root: Path | None = None) -> list[DevAPI]:
    """The dev set's APIs, one per folder, sorted by source id."""
    root = root or imported_root()
    if not root.is_dir():
        raise DatasetError(f"imported-sources dev set not found at {root}")
    return [
        DevAPI(p.name, p) for p in sorted(root.iterdir()) if p.is_dir() and (p / "openapi.json").is_file()
    ]


def read_questions(path: Path, api: str = "") -> list[DevQuestion]:
    """Validate one questions file; errors name the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise DatasetError(f"cannot read {path}: {err.strerror or err}") from None
    out: list[DevQuestion] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            if not isinstance(raw, dict):
                raise DatasetError(f"{path}:{number}: expected a JSON object")
            out.append(DevQuestion.model_validate({**raw, "api": api}))
        except json.JSONDecodeError as err:
            raise DatasetError(f"{path}:{number}: not valid JSON ({err.msg} at column {err.colno})") from None
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "(line)"
            raise DatasetError(f"{path}:{number}: {where}: {first['msg']}") from None
    return out


def load_dev_questions(root: Path | None = None) -> list[DevQuestion]:
    """Every question of a set laid out as the imported-sources dev set (per-API files, then the
    cross-source file); default: the imported-sources set."""
    root = root or imported_root()
    questions: list[DevQuestion] = []
    for api in dev_apis(root):
        questions += read_questions(api.questions, api.source_id)
    cross = root / CROSS_SOURCE
    if cross.is_file():
        questions += read_questions(cross)
    seen: set[str] = set()
    for q in questions:
        if q.id in seen:
            raise DatasetError(f"question id {q.id!r} is used twice in the dev set")
        seen.add(q.id)
    return questions


# -- RestBench TMDB ----------------------------------------------------------------------------
TMDB_SOURCE = "tmdb"


class TmdbQuery(_Strict):
    """A RestBench query and its gold call chain ("GET /search/person", ...)."""

    id: str
    query: str
    solution: list[str]

    @property
    def part(self) -> Split:
        """The split the query is in (by its id: ``split_of``)."""
        return split_of(self.id)


def tmdb_spec() -> Path:
    """RestBench's TMDB OpenAPI document."""
    return restbench_root() / "tmdb_oas.json"


def tmdb_overlay() -> Path:
    """The import overlay for RestBench's TMDB document."""
    return restbench_root() / "overlay.yaml"


def load_tmdb_queries() -> list[TmdbQuery]:
    """RestBench's TMDB queries, numbered in file order (``tmdb-001`` ...)."""
    path = restbench_root() / "tmdb_queries.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise DatasetError(f"cannot read RestBench queries {path}: {err}") from None
    if not isinstance(raw, list):
        raise DatasetError(f"{path}: expected a JSON list of queries")
    out = []
    for i, item in enumerate(raw, start=1):
        try:
            out.append(TmdbQuery(id=f"tmdb-{i:03d}", query=item["query"], solution=list(item["solution"])))
        except (KeyError, TypeError, ValidationError):
            raise DatasetError(f"{path}: query {i} lacks 'query' or 'solution'") from None
    return out


def load_tooluse_questions(root: Path | None = None) -> list[DevQuestion]:
    """The questions of a suite laid out as the tool-use suite: by default the tool-use suite's own
    (BFCL and ToolAlpaca, over their documents imported together); ``root``: another such folder
    (:func:`toolbench_root`)."""
    path = (root or tooluse_root()) / QUESTIONS
    questions = read_questions(path)
    seen: set[str] = set()
    for q in questions:
        if q.id in seen:
            raise DatasetError(f"{path}: question id {q.id!r} is used twice")
        seen.add(q.id)
    return [q.model_copy(update={"api": q.gold[0].source if q.gold else ""}) for q in questions]
