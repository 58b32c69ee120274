"""Unit compatibility and conversion for fallbacks, with pint (a maintained units library).

A fallback may answer with a field whose unit differs from the planned one (GPa vs kbar, K vs
degC). pint decides whether two declared unit strings measure the same dimension and converts
between them; hand-written conversion tables would miss most of the units sources declare.
A few definitions are added to pint's defaults (:data:`PROJECT_DEFINITIONS`): ``atom`` as a count
of its own dimension (so ``eV/atom`` is confused neither with ``eV`` nor with a molar ``kJ/mol``,
which in chemistry is per mole of compound), the ``Angstrom`` spelling the declarations use, and
currencies, each its own dimension (no fixed rate between them). The declaration checks
(:mod:`schemarouter.checks.units`) use the same registry. A unit pint does not know is compatible
only with the identical string.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

# Definitions in pint's own syntax, added to its default registry.
PROJECT_DEFINITIONS: tuple[str, ...] = (
    "atom = [atom_count] = atoms",
    "@alias angstrom = Angstrom",
    "@alias count = counts",
    *(f"{code} = [currency_{code}]" for code in (
        "USD", "EUR", "GBP", "JPY", "CNY", "KRW", "CHF", "CAD", "AUD", "INR", "BRL", "SEK", "NOK", "DKK",
        "PLN", "CZK", "HUF", "MXN", "SGD", "HKD", "TWD", "NZD", "ZAR", "TRY", "ILS", "RUB",
    )),
)


@lru_cache(maxsize=1)
def registry() -> Any:
    """pint's default registry plus :data:`PROJECT_DEFINITIONS` (built once; ~0.5 s)."""
    import pint

    ureg: Any = pint.UnitRegistry()
    for line in PROJECT_DEFINITIONS:
        ureg.define(line)
    return ureg


@lru_cache(maxsize=512)
def _dimensionality(unit: str) -> str | None:
    try:
        return str(registry().parse_units(unit).dimensionality)
    except Exception:  # pint raises several error types for unknown or malformed units
        return None


def compatible(planned: str | None, offered: str | None) -> bool:
    """Whether a value in ``offered`` can stand for one in ``planned`` (same unit, or convertible)."""
    if planned == offered:
        return True
    if planned is None or offered is None:
        return False
    dimension = _dimensionality(planned)
    return dimension is not None and dimension == _dimensionality(offered)


def convert(value: float, offered: str, planned: str) -> float:
    """``value`` in ``offered`` expressed in ``planned`` (offset units such as degC handled)."""
    ureg = registry()
    return float(ureg.Quantity(value, offered).to(planned).magnitude)
