"""Cassettes for materials_project (see ../materials_project/README.md for provenance)."""

from __future__ import annotations

from urllib.parse import urlencode

from cassettelib import interaction, load_json, write

RECORDED = "materials_project/mp_materials_summary_search_data_array_fields_subset_mp-react-components_storybook_2022.json"
BASE = "https://api.materialsproject.org"
# Synthetic: the keys mp-api's client reads from /heartbeat (db_version, access_controlled_batch_ids).
HEARTBEAT = interaction("GET", f"{BASE}/heartbeat", {
    "status": "OK", "db_version": "2022.01.06", "access_controlled_batch_ids": [], "version": "0.86.0",
})
FIELDS = "material_id,formula_pretty,formation_energy_per_atom,energy_above_hull,is_stable,density,symmetry"


def summary_uri(**params: str) -> str:
    return f"{BASE}/materials/summary/?" + urlencode({**params, "_limit": "1000", "_fields": FIELDS})


def envelope(records: list[dict]) -> dict:
    """The summary envelope as mp-react-components' captured MSW mock shows it (2021 beta)."""
    return {"data": records, "meta": {"max_limit": 1000, "default_fields": ["material_id"],
                                      "total_doc": len(records)}}


def project(record: dict) -> dict:
    return {k: record[k] for k in FIELDS.split(",") if k in record}


def main() -> None:
    records = load_json(RECORDED)
    by_formula: dict[str, list[dict]] = {}
    for record in records:
        by_formula.setdefault(record["formula_pretty"], []).append(project(record))
    for formula in ("SmPO4", "Be", "C"):
        write("materials_project", f"summary_formula_{formula}.yaml",
              [HEARTBEAT, interaction("GET", summary_uri(formula=formula), envelope(by_formula[formula]))])
    write("materials_project", "summary_formula_Xe_empty.yaml",
          [HEARTBEAT, interaction("GET", summary_uri(formula="Xe"), envelope([]))])
    write("materials_project", "summary_formula_Zz_500.yaml",
          [HEARTBEAT, interaction("GET", summary_uri(formula="Zz"), "Internal Server Error", status=500,
                                  content_type="text/plain")])


if __name__ == "__main__":
    main()
