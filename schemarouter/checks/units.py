"""Unit strings, parsed by pint: is a declared unit known, what was meant by a typo, are two equal.

pint is the maintained units library of the scientific Python stack: it parses compound units
("eV/atom", "W/(m*K)", "g/cm^3"), knows prefixes, and can say whether two units share a dimension.
The registry, with the few units data sources use that pint does not define ("Angstrom", "atom",
currencies), is the one fallbacks convert with (:mod:`schemarouter.execution.units`), so a unit the
check accepts is a unit a fallback can convert.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from schemarouter.execution.units import registry

# Spellings for a number with no dimension; pint reads "dimensionless", and "1" is the SI way.
DIMENSIONLESS = frozenset({"1", "dimensionless"})

_TOKEN = re.compile(r"[A-Za-z_µμÅ°Ω][A-Za-z0-9_µμÅ°Ω]*")


@dataclass(frozen=True)
class UnitCheck:
    """The verdict on one unit string: known or not, and a suggestion when it looks like a typo."""

    unit: str
    known: bool
    problem: str = ""
    suggestion: str | None = None

    def message(self) -> str:
        """Why the unit is not known, with a suggestion when there is one."""
        hint = f"; did you mean {self.suggestion!r}?" if self.suggestion else ""
        return f"unit {self.unit!r} is not a known unit ({self.problem}){hint}"


def parse(unit: str) -> Any:
    """pint's Unit for ``unit``; raises ValueError naming the part it does not know."""
    text = unit.strip()
    if text in DIMENSIONLESS:
        return registry().dimensionless
    if not text:
        raise ValueError("empty unit")
    try:
        parsed = registry().parse_units(text)
    except Exception as err:  # pint raises several types (undefined, syntax, tokenizer)
        undefined = getattr(err, "unit_names", None)
        if undefined:
            names = undefined if isinstance(undefined, (list, tuple)) else [undefined]
            raise ValueError(f"{', '.join(repr(n) for n in names)} is undefined") from None
        raise ValueError(f"cannot parse it: {type(err).__name__}") from None
    return parsed


# Prefixes units in data are written with. pint accepts every SI prefix on every unit, so a typo
# can parse as something absurd ("eV/aton" is eV per atto-ton); a word that only parses with a
# prefix outside this list is treated as unknown and explained.
COMMON_PREFIXES = frozenset({
    "", "kilo", "mega", "giga", "tera", "peta", "milli", "micro", "nano", "pico", "femto", "centi", "deci",
    "kibi", "mebi", "gibi", "tebi",
})


def check(unit: str) -> UnitCheck:
    """Whether pint (with the project definitions) knows ``unit``; a suggestion if it is close to one."""
    try:
        parse(unit)
    except ValueError as err:
        return UnitCheck(unit, False, str(err), suggest(unit))
    for word in _TOKEN.findall(unit):
        reading = _odd_reading(word)
        if reading:
            return UnitCheck(unit, False, f"{word!r} only reads as {reading}", suggest(unit))
    return UnitCheck(unit, True)


def _odd_reading(word: str) -> str | None:
    """How pint reads ``word`` when every reading needs an uncommon prefix ("atto-ton"), else None."""
    readings = registry().parse_unit_name(word)
    if not readings or any(prefix in COMMON_PREFIXES for prefix, _unit, _suffix in readings):
        return None
    prefix, name, _suffix = readings[0]
    return f"{prefix}-{name}"


def same_unit(a: str, b: str) -> bool:
    """True when two unit strings name the same unit ("degC" and "°C", "Angstrom" and "Å")."""
    if a.strip() == b.strip():
        return True
    try:
        ua, ub = parse(a), parse(b)
    except ValueError:
        return False
    if ua == ub:
        return True
    try:
        quantity = registry().Quantity(1.0, ua).to(ub)
    except Exception:  # different dimensions, or offset units such as degC vs K
        return False
    return abs(float(quantity.magnitude) - 1.0) < 1e-9


def suggest(unit: str) -> str | None:
    """A known unit string close to ``unit``: each unknown word replaced by the nearest known one."""
    changed = False

    def fix(match: re.Match[str]) -> str:
        nonlocal changed
        word = match.group(0)
        if _known_word(word):
            return word
        better = _nearest_word(word)
        if better is None:
            return word
        changed = True
        return better

    candidate = _TOKEN.sub(fix, unit.strip())
    if changed and check_known(candidate):
        return candidate
    return None


def check_known(unit: str) -> bool:
    """Whether ``unit`` parses with every word read plainly (no uncommon prefix)."""
    try:
        parse(unit)
    except ValueError:
        return False
    return all(_odd_reading(word) is None for word in _TOKEN.findall(unit))


def _known_word(word: str) -> bool:
    try:
        registry().parse_units(word)
    except Exception:  # any parse failure means "not a unit word"
        return False
    return _odd_reading(word) is None


@lru_cache(maxsize=1)
def _names() -> tuple[str, ...]:
    ureg = registry()
    names = set(ureg._units) | set(getattr(ureg, "_units_casei", {}) or {})
    prefixed = {p + u for p in ("k", "M", "G", "m", "µ", "n") for u in ("eV", "Pa", "J", "g", "m", "s", "K", "W", "mol")}
    return tuple(sorted(n for n in names | prefixed if isinstance(n, str)))


def _nearest_word(word: str) -> str | None:
    # A wrong letter case is the commonest slip ("Gpa", "ev", "angstrom"): try the case variants first.
    # Prefix + capitalised symbol comes first ("Gpa" -> "GPa", "ev" -> "eV"); all upper case comes
    # last because it often parses as an unintended prefix ("EV" is exavolt).
    for variant in (word[:1] + word[1:].capitalize(), word[:1].lower() + word[1:].capitalize(),
                    word.lower(), word.capitalize(), word.upper()):
        if variant != word and _known_word(variant):
            return variant
    # Close names, a plural dropped where its singular is there too; then the nearest in length
    # ("aton" -> "atom", not "ton": a wrong letter is likelier than a lost one), best match first.
    close = [c for c in difflib.get_close_matches(word, _names(), n=5, cutoff=0.75) if _known_word(c)]
    close = [c for c in close if not (c.endswith("s") and c[:-1] in close)]
    close.sort(key=lambda c: abs(len(c) - len(word)))  # stable: difflib's order among equals
    return close[0] if close else None
