"""schemarouter source plugin: JARVIS-DFT.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_jarvis_dft.adapter import JarvisAdapter

plugin = packaged_source(__name__, JarvisAdapter)
