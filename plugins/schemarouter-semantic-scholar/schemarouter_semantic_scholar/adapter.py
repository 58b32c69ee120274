"""Semantic Scholar adapter: ``/graph/v1/paper/search`` through the generic HttpJsonAdapter.

The planned fields go in ``fields`` (``externalIds`` for the DOI); records are ``data``. The key
(``S2_API_KEY``, header ``x-api-key``) is optional: without it the shared, slower pool is used.
"""

from __future__ import annotations

from schemarouter.adapters import AdapterSpec, HttpJsonAdapter

SPEC = AdapterSpec(records="data", notes="Envelope {total, offset, next, data}.")

ADAPTER = HttpJsonAdapter({"paper_search": SPEC}, auth_required=False)
