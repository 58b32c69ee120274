"""schemarouter source plugin: Wikipedia.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_wikipedia.adapter import WikipediaAdapter

plugin = packaged_source(__name__, WikipediaAdapter)
