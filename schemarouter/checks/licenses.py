"""License ids, checked against the SPDX license list bundled with ``license-expression``.

``license-expression`` (maintained by nexB for ScanCode) ships the SPDX license and exception
index inside the package, so the check works offline and follows SPDX releases through ordinary
upgrades; hand-copying the list would go stale. ``LicenseRef-...`` ids are SPDX's own way of
naming terms that are not on the list, and are accepted as they are.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

LICENSE_REF = "LicenseRef-"


@lru_cache(maxsize=1)
def _licensing() -> Any:
    from license_expression import get_spdx_licensing

    return get_spdx_licensing()


@lru_cache(maxsize=1)
def spdx_ids() -> dict[str, str]:
    """Every SPDX license id, case-folded -> as SPDX spells it (deprecated ids included)."""
    licensing = _licensing()
    ids: dict[str, str] = {}
    for symbol in licensing.known_symbols.values():
        key = str(symbol.key)
        ids.setdefault(key.casefold(), key)
    return ids


@dataclass(frozen=True)
class LicenseCheck:
    """The verdict on one license id."""

    license_id: str
    known: bool
    suggestion: str | None = None

    def message(self) -> str:
        hint = f"; did you mean {self.suggestion!r}?" if self.suggestion else ""
        return (f"license id {self.license_id!r} is not on the SPDX license list{hint} "
                f"(terms that are not on it are written {LICENSE_REF}<name>)")


def check(license_id: str) -> LicenseCheck:
    """Whether ``license_id`` is an SPDX id (exact spelling) or a ``LicenseRef-`` id."""
    text = license_id.strip()
    if text.startswith(LICENSE_REF) and len(text) > len(LICENSE_REF):
        return LicenseCheck(license_id, True)
    ids = spdx_ids()
    base = text[:-1] if text.endswith("+") else text  # "GPL-2.0+" is SPDX's "or later" operator
    exact = ids.get(base.casefold())
    if exact is not None and exact == base:
        return LicenseCheck(license_id, True)
    if exact is not None:  # right id, wrong letter case: SPDX ids are matched case-insensitively,
        return LicenseCheck(license_id, False, exact + text[len(base):])  # but spelled one way
    if text.casefold().startswith(LICENSE_REF.casefold()):
        return LicenseCheck(license_id, False, LICENSE_REF + text[len(LICENSE_REF):])
    close = difflib.get_close_matches(base.casefold(), list(ids), n=1, cutoff=0.8)
    return LicenseCheck(license_id, False, ids[close[0]] if close else None)
