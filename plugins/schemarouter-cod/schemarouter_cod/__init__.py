"""schemarouter source plugin: Crystallography Open Database.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_cod.adapter import ADAPTER

plugin = packaged_source(__name__, ADAPTER)
