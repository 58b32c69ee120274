"""schemarouter source plugin: Open Quantum Materials Database.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_oqmd.adapter import OqmdAdapter

plugin = packaged_source(__name__, OqmdAdapter)
