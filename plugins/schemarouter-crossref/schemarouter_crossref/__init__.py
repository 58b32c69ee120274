"""schemarouter source plugin: Crossref.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_crossref.adapter import CrossrefAdapter

plugin = packaged_source(__name__, CrossrefAdapter)
