"""An element a question names for a parameter that takes an atomic number.

Cosmic-ray and nuclear-data APIs take a particle by its atomic number ("z: Particle atomic number"),
where a scientist writes the element: "the flux of galactic cosmic-ray oxygen nuclei" is Z = 8. The
element's name is read with the particles it is said of (nuclei, ions, atoms, isotopes), since an
element's name alone is too often an everyday word ("lead actor", "gold medal"); the number comes
from the periodic order of the element list the entity reader already has.
"""

from __future__ import annotations

import re
from functools import lru_cache

from schemarouter.understand.chemistry import ELEMENT_BY_NAME, ELEMENTS

# a parameter that takes an element as its atomic number ("Particle atomic number", "charge number Z")
_ATOMIC_NUMBER = re.compile(r"\b(?:atomic|proton|charge)[\s_-]+number\b", re.IGNORECASE)
# what a question calls the particles of an element ("oxygen nuclei", "iron ions")
PARTICLE_NOUNS = ("nuclei", "nucleus", "ion", "ions", "atom", "atoms", "isotope", "isotopes")
_ELEMENT_PARTICLES = re.compile(r"\b(" + "|".join(sorted(ELEMENT_BY_NAME, key=len, reverse=True)) + r")[\s-]+(?:"
                                + "|".join(PARTICLE_NOUNS) + r")\b", re.IGNORECASE)
_ATOMIC_NUMBERS = {symbol: z for z, symbol in enumerate(ELEMENTS, start=1)}  # ELEMENTS is in periodic order


@lru_cache(maxsize=65_536)  # per name and description: the value reading asks of every number parameter it reads
def takes_atomic_number(name: str, description: str) -> bool:
    """Whether a parameter's name or description says it takes an atomic number."""
    return _ATOMIC_NUMBER.search(f"{name.replace('_', ' ')} {description}") is not None


def atomic_number(name: str, description: str, question: str, taken: set[str]) -> tuple[int, str] | None:
    """(the atomic number, the element's name as written) for a parameter whose name or description
    says it takes an atomic number, where the question names the particles of an element by the
    element's name ("galactic cosmic-ray oxygen nuclei" -> 8, "iron ions" -> 26); None otherwise. A
    symbol alone is too often a word ("I", "In"), and a name alone too ("lead actor")."""
    if not takes_atomic_number(name, description):
        return None
    for m in _ELEMENT_PARTICLES.finditer(question):
        if m.group(1) not in taken:
            return _ATOMIC_NUMBERS[ELEMENT_BY_NAME[m.group(1).lower()]], m.group(1)
    return None
