"""Write a local source as the YAML ``schemarouter source add`` reads (Source keys + ``adapter:`` blocks).

Used by ``import-openapi --write-yaml`` so an imported source can be reviewed, edited and
kept under version control like a hand-written one.
"""

from __future__ import annotations

from typing import Any

import yaml

from schemarouter.sources.local import LocalSource


def local_source_document(local: LocalSource) -> dict[str, Any]:
    """The local source as a mapping, adapter specs placed on their endpoints."""
    data = local.source.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    for endpoint in data["endpoints"]:
        spec = local.adapter_specs.get(endpoint["id"])
        if spec is not None:
            endpoint["adapter"] = spec.model_dump(mode="json", exclude_defaults=True)
    return data


def local_source_yaml(local: LocalSource) -> str:
    """The local source as a YAML file that ``source add`` reads back."""
    header = f"# Local source {local.source.id}: schemarouter source add THIS_FILE\n"
    return header + yaml.safe_dump(local_source_document(local), sort_keys=False, allow_unicode=True, width=110)
