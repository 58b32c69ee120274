"""Europe PMC adapter: ``/search`` through the generic HttpJsonAdapter (``format=json``, ``resultType=core``).

``resultType=core`` is fixed because only core results carry ``abstractText`` and the nested
``journalInfo.journal.title``; ``pubYear`` arrives as a string and is cast to an integer.
"""

from __future__ import annotations

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter

SPEC = AdapterSpec(records="resultList.result", fixed={"format": "json", "resultType": "core"})

ADAPTER = HttpJsonAdapter({"search": SPEC}, auth_required=False)
