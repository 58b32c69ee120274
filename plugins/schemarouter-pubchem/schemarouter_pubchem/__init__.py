"""schemarouter source plugin: PubChem.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``;
the plugin also adds this community's words to a few shared concepts (aliases only:
descriptions stay with the core vocabulary).
"""

from schemarouter.adapters import packaged_source
from schemarouter_pubchem.adapter import PubChemAdapter

# Cheminformatics spellings of shared quantities that the core vocabulary lacks.
CONCEPT_ALIASES: dict[str, list[str]] = {
    "logp": ["log Pow", "log P(o/w)", "Kow", "XLogP3"],
    "molecular_weight": ["mol wt", "MolWt", "relative molecular mass"],
    "compound_name": ["common name", "trade name", "generic name"],
    "cid": ["PubChem compound id"],
}

plugin = packaged_source(__name__, PubChemAdapter, concept_aliases=CONCEPT_ALIASES)
