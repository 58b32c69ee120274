"""Countries by name: the ISO 3166-1 codes of a country a question names.

Sources filter by country in codes ("DE", "DEU"), people write names ("Germany"). pycountry
carries the ISO 3166 data and follows its changes, so the project keeps no country list of its
own. Its exact lookup is used (ISO names, common and official names, codes, in any case), never its
fuzzy search: "Mexico City" is no Mexico. ISO 3166 lists official and common names only, so the
names people say for a few countries that it does not list (a former name, "Turkey", "Burma"; a
colloquial one, "Russia", "the UK", "Holland"; the nations of the United Kingdom) are mapped to
their code here, the one list the project keeps.
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

    said = _SAID.get(name.casefold())
    try:
        country = pycountry.countries.get(alpha_2=said) if said else pycountry.countries.lookup(name)
    except LookupError:
        return None
    return (country.alpha_2, country.alpha_3) if country is not None else None


# names in everyday use that ISO 3166 does not list -> the alpha-2 code of the country meant
_SAID = {
    "russia": "RU", "uk": "GB", "u.k.": "GB", "britain": "GB", "great britain": "GB", "england": "GB",
    "scotland": "GB", "wales": "GB", "northern ireland": "GB", "holland": "NL", "turkey": "TR",
    "burma": "MM", "ivory coast": "CI", "cape verde": "CV", "swaziland": "SZ", "east timor": "TL",
    "macedonia": "MK", "brunei": "BN", "micronesia": "FM", "palestine": "PS", "vatican": "VA",
    "vatican city": "VA", "macau": "MO",
}


def is_country(name: str) -> bool:
    """Whether ``name`` is a country's name or code."""
    return country_codes(name) is not None
