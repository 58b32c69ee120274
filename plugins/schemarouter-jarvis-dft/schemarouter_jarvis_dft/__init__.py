"""schemarouter source plugin: JARVIS-DFT.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import ValuePattern, packaged_source
from schemarouter_jarvis_dft.adapter import JarvisAdapter

# How its record ids are written (JVASP-1002): the understand step reads them from questions.
CONCEPT_PATTERNS = {"material_id": [ValuePattern(regex=r"(?i)\b(JVASP-\d+)\b", needs=["jvasp-"])]}

plugin = packaged_source(__name__, JarvisAdapter, concept_patterns=CONCEPT_PATTERNS)
