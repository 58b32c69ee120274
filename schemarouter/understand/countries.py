"""Countries by name: the ISO 3166-1 codes of a country a question names.

Sources filter by country in codes ("DE", "DEU"), people write names ("Germany"). pycountry
carries the ISO 3166 data and follows its changes, so the project keeps no country list of its
own. Its exact lookup is used (ISO names, common and official names, codes, in any case), never its
fuzzy search: "Mexico City" is no Mexico.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def country_codes(name: str) -> tuple[str, str] | None:
    """The alpha-2 and alpha-3 codes of the country called ``name`` ("Germany", "the United
    States", "USA"), or None."""
    name = name.strip()
    if name[:4] in ("the ", "The "):
        name = name[4:]
    if len(name) < 2 or len(name) > 60:
        return None
    import pycountry  # its data loads on the first country asked about, not with every router

    try:
        country = pycountry.countries.lookup(name)
    except LookupError:
        return None
    return country.alpha_2, country.alpha_3


def is_country(name: str) -> bool:
    """Whether ``name`` is a country's name or code."""
    return country_codes(name) is not None
