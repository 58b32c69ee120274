"""The context renderer: what a reader LLM sees, one compact attributed line per record.

``materials_project mp-19017 LiFePO4: band_gap=3.69 eV [calculated; CC-BY-4.0; Materials Project]``

Tokens are counted (:mod:`schemarouter.tokens`) when first asked for, with a real BPE that works
offline; the paper's 4-characters-per-token estimate is reported beside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemarouter.tokens import count_tokens, estimate_tokens

if TYPE_CHECKING:
    from schemarouter.execution.results import Record, RunResult, Value

# Fields that name a record better than its identifier does (shown after the id).
LABEL_FIELDS = ("formula_pretty", "chemical_formula_reduced", "formula", "compound", "name", "MolecularFormula",
                "chemical_formula", "corp_name", "title", "Title")


# Units that say "a pure number": declared so a check can tell a count from a forgotten unit, never
# printed after the number.
DIMENSIONLESS = frozenset({"1", "dimensionless"})


def significant(value: Any, digits: int = 6) -> Any:
    """``value`` with every float (also inside lists and objects) cut to ``digits`` significant
    digits, for people: -3.4798433111507934 -> -3.47984. JSON output keeps the full value."""
    if isinstance(value, float):
        return float(f"{value:.{digits}g}")
    if isinstance(value, list):
        return [significant(v, digits) for v in value]
    if isinstance(value, dict):
        return {k: significant(v, digits) for k, v in value.items()}
    return value


def format_value(value: Any, max_chars: int = 160) -> str:
    """A value as one line of at most ``max_chars``: floats to six significant digits (inside lists
    and objects too), lists and objects as JSON."""
    if isinstance(value, float):
        text = f"{value:.6g}"
    elif isinstance(value, (list, dict)):
        text = json.dumps(significant(value), ensure_ascii=False, separators=(",", ":"))
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


def shown_unit(unit: str | None) -> str:
    """The unit as printed after a value: `` eV``, or nothing for none and for a pure number."""
    return f" {unit}" if unit and unit not in DIMENSIONLESS else ""


def _shown(value: Value) -> str:
    rendered = f"{value.field}={format_value(value.value)}"
    return f"{rendered}{shown_unit(value.unit)}" if value.value is not None else rendered


def render_record(record: Record) -> str:
    """One record as a context line: source, id and label, then values with units and provenance."""
    values = [v for v in record.values.values() if v.field != _id_field(record)]
    label = next((format_value(record.values[f].value, 60) for f in LABEL_FIELDS
                  if f in record.values and record.values[f].value is not None), None)
    head = " ".join(p for p in (record.source, record.record_id, label) if p)
    shown = [v for v in values if v.value is not None and format_value(v.value, 60) != label]
    body = ", ".join(_shown(v) for v in shown) or "(no values)"
    tags = sorted({(v.source_type, v.license, v.source_title or v.source) for v in values})
    tag = "; ".join(" | ".join(sorted({t[i] for t in tags if t[i]})) for i in range(3)) if tags else ""
    return f"{head}: {body} [{tag}]" if tag else f"{head}: {body}"


def _id_field(record: Record) -> str | None:
    for name, v in record.values.items():
        if v.value is not None and str(v.value) == record.record_id:
            return name
    return None


@dataclass
class Context:
    """The text a reader gets from a run, with its size in lines and tokens (counted when first read)."""

    text: str
    lines: int
    _tokens: int | None = field(default=None, repr=False)

    @property
    def tokens(self) -> int:
        """Tokens of the text (cl100k_base), counted on first use."""
        if self._tokens is None:
            self._tokens = count_tokens(self.text)
        return self._tokens

    @property
    def estimated_tokens(self) -> int:
        """The paper's chars/4 estimate of the tokens."""
        return estimate_tokens(self.text)


def render_context(run: RunResult) -> Context:
    """Render every record of a run, then every step error, as the reader's context."""
    lines = [render_record(record) for step in run.steps for record in step.records]
    lines += [f"{step.source}.{step.endpoint}: error {step.error.kind}: {step.error.message}"
              for step in run.steps if step.error is not None]
    text = "\n".join(lines)
    return Context(text=text, lines=len(lines))
