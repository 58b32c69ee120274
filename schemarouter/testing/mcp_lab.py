"""A small MCP server built with the official SDK, for tests and the benchmark: a materials lab.

Its tools declare ``outputSchema``s (from their pydantic return types) and behave like the tools
of a real science server: ``get_material`` returns one wide record (the kind of result an agent
pays for in full when it calls the tool directly), ``search_materials`` a list of records in an
envelope, ``get_synthesis_notes`` JSON text with no ``outputSchema``, ``delete_material`` is a
destructive write and ``count_materials`` a tool without annotations. The values are
illustrative, not measurements. Run it over stdio::

    python -m schemarouter.testing.mcp_lab          # add --hang to make every tool call hang
    python -m schemarouter.testing.mcp_lab --http 8765   # streamable HTTP at http://127.0.0.1:8765/mcp

``$LAB_MCP_STARTS``, when set, names a file that gets one line per start (tests count sessions).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from pydantic import BaseModel, Field

MATERIALS: dict[str, dict[str, Any]] = {
    "LiFePO4": {"material_id": "lab-19017", "band_gap": 3.69, "formation_energy_per_atom": -2.54, "density": 3.53,
                "volume": 300.1, "energy_above_hull": 0.0, "crystal_system": "orthorhombic", "space_group": "Pnma",
                "space_group_number": 62, "elements": ["Fe", "Li", "O", "P"], "nsites": 28,
                "lattice": {"a": 4.75, "b": 6.05, "c": 10.44}, "total_magnetization": 16.0},
    "Si": {"material_id": "lab-149", "band_gap": 0.61, "formation_energy_per_atom": 0.0, "density": 2.28,
           "volume": 40.9, "energy_above_hull": 0.0, "crystal_system": "cubic", "space_group": "Fd-3m",
           "space_group_number": 227, "elements": ["Si"], "nsites": 2,
           "lattice": {"a": 3.87, "b": 3.87, "c": 3.87}, "total_magnetization": 0.0},
    "GaN": {"material_id": "lab-804", "band_gap": 1.73, "formation_energy_per_atom": -0.69, "density": 5.97,
            "volume": 46.6, "energy_above_hull": 0.0, "crystal_system": "hexagonal", "space_group": "P6_3mc",
            "space_group_number": 186, "elements": ["Ga", "N"], "nsites": 4,
            "lattice": {"a": 3.22, "b": 3.22, "c": 5.24}, "total_magnetization": 0.0},
    "TiO2": {"material_id": "lab-2657", "band_gap": 1.78, "formation_energy_per_atom": -3.51, "density": 4.13,
             "volume": 64.2, "energy_above_hull": 0.0, "crystal_system": "tetragonal", "space_group": "P4_2/mnm",
             "space_group_number": 136, "elements": ["O", "Ti"], "nsites": 6,
             "lattice": {"a": 4.65, "b": 4.65, "c": 2.97}, "total_magnetization": 0.0},
    "SiC": {"material_id": "lab-8062", "band_gap": 2.3, "formation_energy_per_atom": -0.2, "density": 3.21,
            "volume": 41.5, "energy_above_hull": 0.0, "crystal_system": "hexagonal", "space_group": "P6_3mc",
            "space_group_number": 186, "elements": ["C", "Si"], "nsites": 4,
            "lattice": {"a": 3.09, "b": 3.09, "c": 5.06}, "total_magnetization": 0.0},
}
# What a real record also carries and a question rarely needs: provenance, calculation settings, history.
_BULK = {
    "origins": [{"name": name, "task_id": f"task-{n}", "last_updated": "2024-11-02T10:14:00"}
                for n, name in enumerate(["structure", "energy", "band_structure", "magnetism", "elasticity"])],
    "calc_settings": {"functional": "GGA+U", "encut_ev": 520, "kpoint_density": 1000, "spin_polarized": True,
                      "pseudopotentials": ["PAW_PBE Li_sv", "PAW_PBE Fe_pv", "PAW_PBE P", "PAW_PBE O"]},
    "warnings": ["structure relaxed with a larger cell", "magnetic moments initialised ferromagnetic"],
    "history": [{"version": f"2024.{m}.1", "change": "recomputed with updated pseudopotentials"} for m in range(1, 7)],
    "description": ("A computed entry of the lab's materials database. Values come from density functional "
                    "theory calculations and their post-processing; they are illustrative test data."),
}


class Lattice(BaseModel):
    """Lattice lengths of the conventional cell."""

    a: float = Field(description="lattice length a (angstrom)")
    b: float = Field(description="lattice length b (angstrom)")
    c: float = Field(description="lattice length c (angstrom)")


class Origin(BaseModel):
    """Which calculation a property came from."""

    name: str
    task_id: str
    last_updated: str


class CalcSettings(BaseModel):
    """How the entry was calculated."""

    functional: str
    encut_ev: int
    kpoint_density: int
    spin_polarized: bool
    pseudopotentials: list[str]


class HistoryEntry(BaseModel):
    """One change to the entry."""

    version: str
    change: str


class Material(BaseModel):
    """One computed material."""

    material_id: str = Field(description="the lab's id of the material")
    formula: str = Field(description="reduced chemical formula")
    band_gap: float = Field(description="electronic band gap")
    formation_energy_per_atom: float = Field(description="formation energy per atom")
    density: float = Field(description="mass density")
    volume: float = Field(description="cell volume")
    energy_above_hull: float = Field(description="energy above the convex hull (stability)")
    crystal_system: str
    space_group: str = Field(description="space group symbol")
    space_group_number: int
    elements: list[str]
    nsites: int = Field(description="number of sites in the cell")
    lattice: Lattice
    total_magnetization: float
    origins: list[Origin]
    calc_settings: CalcSettings
    warnings: list[str]
    history: list[HistoryEntry]
    description: str


class MaterialSummary(BaseModel):
    """A search hit."""

    material_id: str
    formula: str
    band_gap: float
    density: float
    crystal_system: str


class SearchResult(BaseModel):
    """Search hits in an envelope, as many servers return them."""

    total: int
    materials: list[MaterialSummary]


class Deleted(BaseModel):
    """What a delete did."""

    material_id: str
    deleted: bool


def material(formula: str) -> dict[str, Any]:
    """The full record of ``formula`` (ValueError for an unknown one)."""
    found = MATERIALS.get(formula)
    if found is None:
        raise ValueError(f"no material {formula!r} in the lab (known: {', '.join(MATERIALS)})")
    return {"formula": formula, **found, **_BULK}


def create_server(hang: bool = False) -> Any:
    """The lab's MCP server; ``hang``: every tool call sleeps for an hour (a server that hangs)."""
    from mcp.server.mcpserver import MCPServer
    from mcp_types import ToolAnnotations

    server = MCPServer("lab-materials", version="1.0",
                       instructions="Computed properties of inorganic materials from the lab's database.")
    read = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

    def maybe_hang() -> None:
        if hang:
            time.sleep(3600)

    @server.tool(description="Get the computed properties of a material by its chemical formula: band gap, "
                             "formation energy, density, volume, crystal system, space group and lattice.",
                 annotations=read)
    def get_material(formula: str = Field(description="chemical formula, e.g. LiFePO4")) -> Material:
        maybe_hang()
        return Material.model_validate(material(formula))

    @server.tool(description="Search materials containing an element; returns formula, band gap, density and "
                             "crystal system of each hit.", annotations=read)
    def search_materials(element: str = Field(description="chemical element symbol, e.g. Fe"),
                         limit: int = Field(default=10, description="largest number of hits")) -> SearchResult:
        maybe_hang()
        hits = [MaterialSummary.model_validate({"formula": f, **m}) for f, m in MATERIALS.items()
                if element in m["elements"]]
        return SearchResult(total=len(hits), materials=hits[:limit])

    @server.tool(description="Synthesis notes of a material: precursors, temperature and atmosphere.",
                 annotations=read, structured_output=False)
    def get_synthesis_notes(formula: str = Field(description="chemical formula")) -> str:
        maybe_hang()
        import json

        notes = {"formula": formula, "precursors": ["Li2CO3", "FeC2O4", "NH4H2PO4"], "temperature_c": 700,
                 "atmosphere": "argon"}
        return json.dumps(notes)

    @server.tool(description="Delete a material from the lab's database.",
                 annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))
    def delete_material(material_id: str = Field(description="the lab's id of the material")) -> Deleted:
        return Deleted(material_id=material_id, deleted=True)

    @server.tool(description="Count the materials in the lab's database.")
    def count_materials() -> int:
        return len(MATERIALS)

    return server


def main(argv: list[str] | None = None) -> None:
    """Serve over stdio (a line is appended to the file ``$LAB_MCP_STARTS`` names, if set, at each start)."""
    args = sys.argv[1:] if argv is None else argv
    starts = os.environ.get("LAB_MCP_STARTS")
    if starts:
        with open(starts, "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()}\n")
    server = create_server(hang="--hang" in args)
    if "--http" in args:  # streamable HTTP on 127.0.0.1:PORT/mcp
        server.run("streamable-http", host="127.0.0.1", port=int(args[args.index("--http") + 1]))
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
