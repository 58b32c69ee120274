"""schemarouter source plugin: Open Quantum Materials Database.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import ValuePattern, packaged_source
from schemarouter_oqmd.adapter import OqmdAdapter

# How its record ids are written (oqmd-1234): the understand step reads them from questions.
CONCEPT_PATTERNS = {"material_id": [ValuePattern(regex=r"(?i)\b(oqmd-\d+)\b", needs=["oqmd-"])]}

plugin = packaged_source(__name__, OqmdAdapter, concept_patterns=CONCEPT_PATTERNS)
