"""schemarouter source plugin: MPDS (PAULING FILE).

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_mpds.adapter import MpdsAdapter

plugin = packaged_source(__name__, MpdsAdapter)
