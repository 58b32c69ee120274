"""schemarouter source plugin: AFLOW.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_aflow.adapter import AflowAdapter

plugin = packaged_source(__name__, AflowAdapter)
