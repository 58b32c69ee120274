"""schemarouter source plugin: Stack Exchange.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_stack_exchange.adapter import StackExchangeAdapter

plugin = packaged_source(__name__, StackExchangeAdapter)
