"""schemarouter source plugin: Crystallography Open Database.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import ValuePattern, packaged_source
from schemarouter_cod.adapter import ADAPTER

# How its entry numbers are written ("COD entry 9008564"): the number is the value, and "COD" stays a word
# of the question (it names the source).
CONCEPT_PATTERNS = {"material_id": [ValuePattern(regex=r"\bCOD(?:\s+(?:id|ID|entry|number))?\s*:?\s*#?(?P<value>[1-9]\d{6})\b", needs=["COD"])]}

plugin = packaged_source(__name__, ADAPTER, concept_patterns=CONCEPT_PATTERNS)
