"""schemarouter source plugin: Web search (SearxNG).

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_web_search.adapter import SearxngAdapter

plugin = packaged_source(__name__, SearxngAdapter)
