"""schemarouter source plugin: arXiv.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_arxiv.adapter import ArxivAdapter

plugin = packaged_source(__name__, ArxivAdapter)
