"""schemarouter source plugin: PubMed.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_pubmed.adapter import PubMedAdapter

plugin = packaged_source(__name__, PubMedAdapter)
