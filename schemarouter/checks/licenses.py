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
    """Every current SPDX license id (exceptions and scancode-only keys left out), case-folded -> id."""
    ids: dict[str, str] = {}
    for symbol in _licensing().known_symbols.values():
        key = str(symbol.key)
        if not getattr(symbol, "is_exception", False) and not key.startswith(LICENSE_REF):
            ids.setdefault(key.casefold(), key)
    return ids


@dataclass(frozen=True)
class LicenseCheck:
    """The verdict on one license id."""

    license_id: str
    known: bool
    suggestion: str | None = None
    spelled_otherwise: bool = False

    def message(self) -> str:
        """Why the license id is not accepted as written, and what to write instead."""
        if self.spelled_otherwise:
            return (f"license id {self.license_id!r} is a deprecated or differently spelled SPDX id; "
                    f"write {self.suggestion!r}")
        hint = f"; did you mean {self.suggestion!r}?" if self.suggestion else ""
        return (f"license id {self.license_id!r} is not on the SPDX license list{hint} "
                f"(terms that are not on it are written {LICENSE_REF}<name>)")


def check(license_id: str) -> LicenseCheck:
    """Whether ``license_id`` is an SPDX id as SPDX spells it, or a ``LicenseRef-`` id."""
    text = license_id.strip()
    if text.startswith(LICENSE_REF) and len(text) > len(LICENSE_REF):
        return LicenseCheck(license_id, True)
    if text.casefold().startswith(LICENSE_REF.casefold()) and len(text) > len(LICENSE_REF):
        return LicenseCheck(license_id, False, LICENSE_REF + text[len(LICENSE_REF):])
    info = _licensing().validate(text)
    if not info.errors and not info.invalid_symbols and info.normalized_expression:
        normalized = str(info.normalized_expression)
        if normalized == text:
            return LicenseCheck(license_id, True)
        # "GPL-2.0" (deprecated) or "mit" (wrong case): the licence is known, the spelling is not SPDX's.
        return LicenseCheck(license_id, False, normalized, spelled_otherwise=True)
    ids = spdx_ids()
    close = difflib.get_close_matches(text.casefold(), list(ids), n=1, cutoff=0.8)
    return LicenseCheck(license_id, False, ids[close[0]] if close else None)
