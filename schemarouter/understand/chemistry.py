"""Chemical formulas: recognition against real element symbols, composition and the spellings
different sources expect (reduced as written, OPTIMADE alphabetical, Hill with spaces).

A token counts as a formula only if it parses completely into element symbols with counts;
capitalised acronyms without digits or lower-case letters (DFT, MP, COD, PBE, VASP) are not
formulas even when their letters happen to be symbols.
"""

from __future__ import annotations

import re

ELEMENTS: dict[str, str] = dict(
    pair.split(":")
    for pair in ["H:hydrogen", "He:helium", "Li:lithium", "Be:beryllium", "B:boron", "C:carbon", "N:nitrogen", "O:oxygen", "F:fluorine", "Ne:neon", "Na:sodium", "Mg:magnesium", "Al:aluminium", "Si:silicon", "P:phosphorus", "S:sulfur", "Cl:chlorine", "Ar:argon", "K:potassium", "Ca:calcium", "Sc:scandium", "Ti:titanium", "V:vanadium", "Cr:chromium", "Mn:manganese", "Fe:iron", "Co:cobalt", "Ni:nickel", "Cu:copper", "Zn:zinc", "Ga:gallium", "Ge:germanium", "As:arsenic", "Se:selenium", "Br:bromine", "Kr:krypton", "Rb:rubidium", "Sr:strontium", "Y:yttrium", "Zr:zirconium", "Nb:niobium", "Mo:molybdenum", "Tc:technetium", "Ru:ruthenium", "Rh:rhodium", "Pd:palladium", "Ag:silver", "Cd:cadmium", "In:indium", "Sn:tin", "Sb:antimony", "Te:tellurium", "I:iodine", "Xe:xenon", "Cs:caesium", "Ba:barium", "La:lanthanum", "Ce:cerium", "Pr:praseodymium", "Nd:neodymium", "Pm:promethium", "Sm:samarium", "Eu:europium", "Gd:gadolinium", "Tb:terbium", "Dy:dysprosium", "Ho:holmium", "Er:erbium", "Tm:thulium", "Yb:ytterbium", "Lu:lutetium", "Hf:hafnium", "Ta:tantalum", "W:tungsten", "Re:rhenium", "Os:osmium", "Ir:iridium", "Pt:platinum", "Au:gold", "Hg:mercury", "Tl:thallium", "Pb:lead", "Bi:bismuth", "Po:polonium", "At:astatine", "Rn:radon", "Fr:francium", "Ra:radium", "Ac:actinium", "Th:thorium", "Pa:protactinium", "U:uranium", "Np:neptunium", "Pu:plutonium", "Am:americium", "Cm:curium", "Bk:berkelium", "Cf:californium", "Es:einsteinium", "Fm:fermium", "Md:mendelevium", "No:nobelium", "Lr:lawrencium", "Rf:rutherfordium", "Db:dubnium", "Sg:seaborgium", "Bh:bohrium", "Hs:hassium", "Mt:meitnerium", "Ds:darmstadtium", "Rg:roentgenium", "Cn:copernicium", "Nh:nihonium", "Fl:flerovium", "Mc:moscovium", "Lv:livermorium", "Ts:tennessine", "Og:oganesson"]
)
ELEMENT_BY_NAME: dict[str, str] = {name: sym for sym, name in ELEMENTS.items()}
ELEMENT_BY_NAME.update({"aluminum": "Al", "cesium": "Cs", "sulphur": "S"})

# Two-letter symbols that are also everyday words or units when written alone.
_AMBIGUOUS_ALONE = frozenset(["In", "As", "At", "Be", "He", "No", "Am", "Ho", "Pa", "Es", "Re", "La", "Po", "Ra", "Ne", "Bi", "Co", "Md", "Lr", "Hs", "Ds", "Mt", "Cm", "Fm"])

_PART = re.compile(r"([A-Z][a-z]?)(\d+(?:\.\d+)?)?|(\()|(\))(\d+)?")
FORMULA_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-/.])(?:[A-Z][a-z]?\d*(?:\.\d+)?|\((?:[A-Z][a-z]?\d*)+\)\d*)+(?![A-Za-z0-9_/])")


def parse(formula: str) -> dict[str, float] | None:
    """Element counts of ``formula`` (parentheses allowed; counts may be fractional, Fe0.5O), in the
    order first written, or None if it is not a formula."""
    stack: list[dict[str, float]] = [{}]
    pos = 0
    while pos < len(formula):
        m = _PART.match(formula, pos)
        if not m:
            return None
        pos = m.end()
        symbol, count, open_, close, mult = m.groups()
        if symbol:
            if symbol not in ELEMENTS:
                return None
            n = float(count) if count else 1.0
            if n <= 0 or n > 99:
                return None
            stack[-1][symbol] = stack[-1].get(symbol, 0.0) + n
        elif open_:
            stack.append({})
        elif close:
            if len(stack) < 2:
                return None
            inner = stack.pop()
            k = int(mult) if mult else 1
            for el, amount in inner.items():
                stack[-1][el] = stack[-1].get(el, 0.0) + amount * k
    if len(stack) != 1 or not stack[0]:
        return None
    return stack[0]


def is_formula_token(token: str) -> bool:
    """Whether a word written in running text should be read as a chemical formula."""
    if not any(c.isdigit() for c in token) and not any(c.islower() for c in token):
        return False  # DFT, MP, COD, VASP, CRISPR, SK ...
    comp = parse(token)
    if comp is None:
        return False
    if len(comp) == 1 and not any(c.isdigit() for c in token):
        return len(token) == 2 and token not in _AMBIGUOUS_ALONE
    return True


def elements_in_order(formula: str) -> list[str]:
    """The element symbols of ``formula`` in the order they are written, each once."""
    seen: list[str] = []
    for m in re.finditer(r"[A-Z][a-z]?", formula):
        if m.group() in ELEMENTS and m.group() not in seen:
            seen.append(m.group())
    return seen


def _fmt(n: float) -> str:
    return "" if n == 1 else (str(int(n)) if float(n).is_integer() else f"{n:g}")


def alphabetical(formula: str) -> str:
    """OPTIMADE ``chemical_formula_reduced``: elements alphabetical, counts reduced (GaAs -> AsGa)."""
    comp = parse(formula)
    if comp is None:
        return formula
    counts = _reduced(comp)
    return "".join(f"{el}{_fmt(counts[el])}" for el in sorted(counts))


def hill(formula: str, sep: str = " ") -> str:
    """Hill order (C, H, then alphabetical; alphabetical without carbon): CaCO3 -> 'C Ca O3'."""
    comp = parse(formula)
    if comp is None:
        return formula
    order = sorted(comp)
    if "C" in comp:
        order = ["C"] + (["H"] if "H" in comp else []) + [el for el in order if el not in ("C", "H")]
    return sep.join(f"{el}{_fmt(comp[el])}" for el in order)


def _reduced(comp: dict[str, float]) -> dict[str, float]:
    from math import gcd

    if all(float(v).is_integer() for v in comp.values()):
        d = 0
        for v in comp.values():
            d = gcd(d, int(v))
        return {el: v / d for el, v in comp.items()}
    return dict(comp)


def same_composition(a: str, b: str) -> bool:
    """Formulas with the same reduced composition, whatever the order or spacing."""
    ca, cb = parse(a.replace(" ", "")), parse(b.replace(" ", ""))
    return ca is not None and cb is not None and _reduced(ca) == _reduced(cb)


_PREFIX = {1: "", 2: "di", 3: "tri", 4: "tetra", 5: "penta", 6: "hexa", 7: "hepta"}
_ANION = {"O": "oxide", "S": "sulfide", "Se": "selenide", "Te": "telluride", "N": "nitride", "P": "phosphide",
          "C": "carbide", "F": "fluoride", "Cl": "chloride", "Br": "bromide", "I": "iodide", "H": "hydride",
          "B": "boride", "As": "arsenide", "Si": "silicide"}


def systematic_name(formula: str) -> str | None:
    """A name for a simple binary compound (MoS2 -> 'molybdenum disulfide'), else None."""
    comp = parse(formula)
    if comp is None or len(comp) != 2:
        return None
    order = elements_in_order(formula)
    cation, anion = order
    if anion not in _ANION or not all(float(v).is_integer() and v <= 7 for v in comp.values()):
        return None
    first = _PREFIX[int(comp[cation])]
    second = _PREFIX[int(comp[anion])] or ("mono" if first else "")
    anion_name = _ANION[anion]
    if second.endswith(("a", "o")) and anion_name.startswith("o"):
        second = second[:-1]
    return f"{first}{ELEMENTS[cation]} {second}{anion_name}"
