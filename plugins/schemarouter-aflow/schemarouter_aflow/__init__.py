"""schemarouter source plugin: AFLOW.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import ValuePattern, packaged_source
from schemarouter_aflow.adapter import AflowAdapter

# How its record ids are written (aflow:0123456789abcdef, an AUID): the understand step reads them.
CONCEPT_PATTERNS = {"material_id": [ValuePattern(regex=r"(?i)\b(aflow:[0-9a-f]{16})\b", needs=["aflow:"])]}

plugin = packaged_source(__name__, AflowAdapter, concept_patterns=CONCEPT_PATTERNS)
