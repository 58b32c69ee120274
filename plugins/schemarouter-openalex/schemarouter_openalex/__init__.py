"""schemarouter source plugin: OpenAlex.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_openalex.adapter import OpenAlexAdapter

plugin = packaged_source(__name__, OpenAlexAdapter)
