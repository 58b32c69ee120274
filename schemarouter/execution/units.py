"""Unit compatibility and conversion for fallbacks, with pint (a maintained units library).

A fallback may answer with a field whose unit differs from the planned one (GPa vs kbar, K vs
degC). pint decides whether two declared unit strings measure the same dimension and converts
between them; hand-written conversion tables would miss most of the units sources declare.
Two definitions are added to pint's defaults: ``atom`` as a count of its own dimension (so
``eV/atom`` is not confused with ``eV``) and the ``Angstrom`` spelling the declarations use.
A unit pint does not know is compatible only with the identical string.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def registry() -> Any:
    """pint's default registry plus the per-atom count and the ``Angstrom`` spelling (built once; ~0.5 s)."""
    import pint

    ureg: Any = pint.UnitRegistry()
    ureg.define("atom = [atom_count] = atoms")
    ureg.define("@alias angstrom = Angstrom")
    return ureg


@lru_cache(maxsize=512)
def _dimensionality(unit: str) -> str | None:
    try:
        return str(registry().parse_units(unit).dimensionality)
    except Exception:  # noqa: BLE001 - pint raises several error types for unknown or malformed units
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
