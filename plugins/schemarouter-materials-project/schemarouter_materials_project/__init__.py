"""schemarouter source plugin: Materials Project.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``;
the plugin also adds this community's words to a few shared concepts (aliases only:
descriptions stay with the core vocabulary).
"""

from schemarouter.adapters import ValuePattern, packaged_source
from schemarouter_materials_project.adapter import MaterialsProjectAdapter

# Symbols materials scientists write for shared quantities that the core vocabulary lacks.
CONCEPT_ALIASES: dict[str, list[str]] = {
    "band_gap": ["E_g", "Egap", "band-gap energy", "Kohn-Sham band gap"],
    "formation_energy": ["E_form", "ΔH_f", "formation enthalpy per atom"],
    "energy_above_hull": ["E_hull", "e_above_hull", "above-hull energy"],
    "bulk_modulus": ["B_0", "elastic bulk modulus"],
    "magnetization": ["magnetic moment per cell", "Bohr magnetons"],
}

# How its record ids are written (mp-149, mvc-12): the understand step reads them from questions.
CONCEPT_PATTERNS = {"material_id": [ValuePattern(regex=r"(?i)\b(mp-\d+|mvc-\d+)\b", needs=["mp-", "mvc-"])]}

plugin = packaged_source(__name__, MaterialsProjectAdapter, concept_aliases=CONCEPT_ALIASES, concept_patterns=CONCEPT_PATTERNS)
