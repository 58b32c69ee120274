"""schemarouter source plugin: Materials Cloud MC3D.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import ValuePattern, packaged_source
from schemarouter_materials_cloud.adapter import ADAPTER

# How its record ids are written (mc3d-1234): the understand step reads them from questions.
CONCEPT_PATTERNS = {"material_id": [ValuePattern(regex=r"(?i)\b(mc3d-\d+)\b", needs=["mc3d-"])]}

plugin = packaged_source(__name__, ADAPTER, concept_patterns=CONCEPT_PATTERNS)
