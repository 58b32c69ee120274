"""schemarouter source plugin: OpenDART.

The declaration is ``source.yaml`` beside this module and the adapter is in ``adapter.py``;
the plugin also adds this community's words to a few shared concepts (aliases only:
descriptions stay with the core vocabulary).
"""

from schemarouter.adapters import packaged_source
from schemarouter_dart.adapter import DartAdapter

# Korean disclosure vocabulary (as printed in OpenDART filings) for the shared corporate concepts.
CONCEPT_ALIASES: dict[str, list[str]] = {
    "corp_name": ["회사명", "기업명", "법인명"],
    "fiscal_year": ["사업연도", "회계연도"],
    "report_code": ["사업보고서", "반기보고서", "분기보고서"],
    "corp_code": ["고유번호"],
}

plugin = packaged_source(__name__, DartAdapter, concept_aliases=CONCEPT_ALIASES)
