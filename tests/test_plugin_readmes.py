"""Every first-party plugin ships a README that says what a user needs before calling the source.

A README says what the source is, its endpoints, auth (which environment variable), rate
limits, license and attribution, unverified facts, and how to re-record cassettes. The checks
tie the README to the declaration, so a README left behind after a declaration change fails.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml
from schemarouter_bench import data_path

from schemarouter.declarations import load_source_file

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
SOURCE_IDS = [tool["id"] for tool in yaml.safe_load(data_path("inventory.yaml").read_text())["tools"]]
DISTRIBUTIONS = sorted("schemarouter-" + source_id.replace("_", "-") for source_id in SOURCE_IDS)
SECTIONS = ["## Endpoints", "## Authentication", "## Rate limits", "## License and attribution",
            "## Not verified", "## Re-recording cassettes"]


@pytest.mark.parametrize("distribution", DISTRIBUTIONS)
def test_readme_documents_the_declaration(distribution: str) -> None:
    plugin = importlib.import_module(distribution.replace("-", "_")).plugin
    source = load_source_file(plugin.source_file)
    readme = (PLUGINS / distribution / "README.md").read_text(encoding="utf-8")
    for heading in SECTIONS:
        assert heading in readme, f"{distribution}/README.md lacks {heading!r}"
    for endpoint in source.endpoints:
        assert f"{endpoint.base_url}{endpoint.path}" in readme, f"{distribution}: endpoint {endpoint.id} URL"
    assert source.license.id in readme
    if source.license.attribution:
        assert source.license.attribution in readme
    if source.auth is not None:
        assert f"`{source.auth.env}`" in readme
        assert f"{source.auth.env}=... " in readme, "the re-recording recipe names the key variable"
    assert f"-m pytest plugins/{distribution} --record-mode=once --block-network=false" in readme
    assert f"{distribution.replace('-', '_')}/recordings/" in readme
    assert 30 <= len(readme.splitlines()) <= 90, "keep the README concise"
