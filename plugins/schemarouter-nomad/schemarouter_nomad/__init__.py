"""schemarouter source plugin: NOMAD.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``.
"""

from schemarouter.adapters import packaged_source
from schemarouter_nomad.adapter import NomadAdapter

plugin = packaged_source(__name__, NomadAdapter)
