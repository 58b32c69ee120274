"""Declaration checks: units through pint, license ids through the SPDX list, names two sources share,
and how ``registry sync``, ``registry check`` and ``source add`` report them (``--strict`` refuses them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemarouter.checks import licenses, units
from schemarouter.checks.declarations import (
    StrictError,
    alias_collisions,
    check_source,
    check_sources,
    enforce,
)
from schemarouter.declarations import collect
from schemarouter.execution.units import compatible
from schemarouter.models import Source
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from tests.sr_cli import EXAMPLES, REPO, copy_registry, run_main, synced_template

EXAMPLE = EXAMPLES / "halcyon_synthesis.yaml"
SHARED_INVENTORY = REPO.parent / "shared" / "bench" / "inventory.yaml"


@pytest.fixture(scope="module")
def installed() -> dict[str, Source]:
    return collect(make_plugin_manager()).sources


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def sr(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    return lambda *args: run_main(capsys, monkeypatch, *args)


def _source(**field: Any) -> Source:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    for endpoint in data["endpoints"]:
        endpoint.pop("adapter", None)
    data["endpoints"] = data["endpoints"][:1]
    data["endpoints"][0]["fields"].append({"name": "probe_field", "path": "probe", "group": "physical_property", **field})
    return Source.model_validate(data)


# ---------------------------------------------------------------- units
def test_every_unit_the_first_party_plugins_and_the_inventory_use_is_known(installed: dict[str, Source]) -> None:
    used = {f.unit for s in installed.values() for e in s.endpoints for f in e.fields if f.unit}
    if SHARED_INVENTORY.exists():
        used |= {str(u) for u in _units_in(yaml.safe_load(SHARED_INVENTORY.read_text(encoding="utf-8")))}
    assert {"eV/atom", "GPa", "g/mol", "K", "Angstrom", "KRW", "mu_B", "degC"} <= used
    unknown = {u: units.check(u).message() for u in used if not units.check(u).known}
    assert not unknown


def _units_in(node: Any) -> set[Any]:
    if isinstance(node, dict):
        found = {node["unit"]} if isinstance(node.get("unit"), str) else set()
        return found.union(*(_units_in(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_units_in(v) for v in node))
    return set()


@pytest.mark.parametrize("unit", ["USD", "min", "h", "count", "1", "dimensionless", "%", "atoms", "Å", "°C",
                                  "kcal/mol", "cm^-1", "mAh/g", "W/(m*K)", "meV/atom"])
def test_project_and_everyday_units_are_known(unit: str) -> None:
    assert units.check(unit).known, units.check(unit).message()


@pytest.mark.parametrize(("typo", "meant"), [
    ("Gpa", "GPa"), ("ev", "eV"), ("eV/atomm", "eV/atom"), ("Angstrem", "Angstrom"), ("kelvn", "kelvin"),
])
def test_a_typo_is_caught_with_the_nearest_unit(typo: str, meant: str) -> None:
    verdict = units.check(typo)
    assert not verdict.known and verdict.suggestion == meant
    assert repr(meant) in verdict.message()


def test_a_typo_that_parses_only_through_an_odd_prefix_is_caught() -> None:
    # pint reads "aton" as atto-ton; no data source means that.
    verdict = units.check("eV/aton")
    assert not verdict.known and "atto-ton" in verdict.message() and verdict.suggestion == "eV/atom"


def test_a_unit_no_library_knows_is_reported_without_a_guess() -> None:
    verdict = units.check("florbs/qux")
    assert not verdict.known and "undefined" in verdict.message()


def test_units_compare_by_meaning() -> None:
    assert units.same_unit("degC", "°C") and units.same_unit("Angstrom", "Å") and units.same_unit("K", "kelvin")
    assert not units.same_unit("eV", "meV") and not units.same_unit("degC", "K")
    # The check and the fallback's conversions share one registry: what the check accepts converts.
    assert compatible("meV/atom", "eV/atom") and compatible("Angstrom^3", "Å^3")
    assert not compatible("eV/atom", "eV"), "per-atom and per-cell energies must not convert silently"
    assert not compatible("eV/atom", "kJ/mol"), "per atom is not per mole of compound"
    assert not compatible("USD", "KRW"), "currencies have no fixed rate"


# ---------------------------------------------------------------- licenses
@pytest.mark.parametrize("license_id", ["CC-BY-4.0", "CC0-1.0", "MIT", "Apache-2.0", "LicenseRef-NIST-public-data"])
def test_spdx_ids_and_licenseref_ids_pass(license_id: str) -> None:
    assert licenses.check(license_id).known


@pytest.mark.parametrize(("license_id", "suggestion"), [
    ("CC-BY-4", "CC-BY-4.0"), ("cc-by-4.0", "CC-BY-4.0"), ("GPL-2.0", "GPL-2.0-only"), ("Licenseref-x", "LicenseRef-x"),
])
def test_wrong_license_ids_get_the_spdx_spelling(license_id: str, suggestion: str) -> None:
    verdict = licenses.check(license_id)
    assert not verdict.known and verdict.suggestion == suggestion and repr(suggestion) in verdict.message()


def test_the_first_party_license_ids_are_all_valid(installed: dict[str, Source]) -> None:
    ids = {s.license.id for s in installed.values()}
    assert {i for i in ids if not licenses.check(i).known} == set()


# ---------------------------------------------------------------- one source, many sources
def test_numeric_fields_without_a_unit_warn_but_identifiers_and_pure_numbers_do_not() -> None:
    warned = check_source(_source(type="number"))
    assert [(w.kind, w.where) for w in warned] == [("unit_missing", "runs.probe_field")]
    assert check_source(_source(type="number", unit="1")) == []
    assert check_source(_source(type="integer", identifier=True)) == []
    assert check_source(_source(type="integer", group="identity")) == [], "a key (a database's foreign key) is a name"
    assert check_source(_source(type="string")) == []
    assert check_source(_source(type="number"), unit_from={("runs", "probe_field")}) == [], (
        "a field whose unit comes with each record needs no declared unit")


def test_unknown_units_and_license_ids_warn() -> None:
    warned = check_source(_source(type="number", unit="eV/aton", license={"id": "CC-BY-4", "name": "x"}))
    assert [w.kind for w in warned] == ["unit_unknown", "license_unknown"]
    assert "did you mean 'eV/atom'" in warned[0].message and "did you mean 'CC-BY-4.0'" in warned[1].message


def test_two_sources_answering_to_one_name_are_reported(installed: dict[str, Source]) -> None:
    assert alias_collisions(installed) == [], "the first-party sources share no name"
    clash = _source(type="string").model_copy(update={"id": "lab_mp", "aliases": ["Materials Project", "lab copy"]})
    found = alias_collisions({**installed, "lab_mp": clash}, involving=["lab_mp"])
    assert [(w.source, w.kind) for w in found] == [("lab_mp", "alias_collision")]
    assert "'materials project' also belongs to materials_project" in found[0].message


def test_strict_turns_any_warning_into_one_line_error() -> None:
    warned = check_sources({"halcyon_synthesis": _source(type="number")})
    enforce(warned, strict=False)
    with pytest.raises(StrictError, match=r"^--strict: 1 declaration warning\(s\) in 1 source\(s\)") as caught:
        enforce(warned, strict=True)
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------- the commands
def test_the_shipped_plugins_sync_strict_without_a_warning(sr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = f"sqlite:///{tmp_path / 'r.db'}"
    strict = sr("registry", "sync", "--db", db, "--strict", "--json")
    assert strict.code == 0, strict.err
    report = json.loads(strict.out)
    assert report["added"] and report["warnings"] == [], "every count, year and ratio declares unit 1"
    again = sr("registry", "sync", "--db", db)
    assert again.code == 0 and "warning" not in again.err
    listed = sr("registry", "check", "--db", db, "--json")
    assert listed.code == 0 and json.loads(listed.out)["warnings"] == []
    assert sr("registry", "check", "--db", db, "--strict").code == 0


def test_a_unit_that_comes_with_each_record_needs_no_declared_unit(
    sr, tmp_path: Path, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    from schemarouter.cli import registry_cmd

    # MPDS states each measured value's unit in the record (its adapter's unit_from); without that
    # knowledge the value is a unitless number, warned about in one line and refused by --strict
    monkeypatch.setattr(registry_cmd, "plugin_unit_from", lambda _ids: {})
    db = f"sqlite:///{tmp_path / 'r.db'}"
    warned = sr("registry", "sync", "--db", db, "--json")
    assert [w["where"] for w in json.loads(warned.out)["warnings"]] == ["properties.property_value"]
    text = sr("registry", "sync", "--db", db)
    assert text.err.count("\n") == 1 and "list them: schemarouter registry check" in text.err
    assert sr("registry", "check", "--db", db, "--strict").code == 1


def test_strict_sync_writes_nothing(sr, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from schemarouter.cli import registry_cmd

    monkeypatch.setattr(registry_cmd, "plugin_unit_from", lambda _ids: {})
    db = f"sqlite:///{tmp_path / 'r.db'}"
    ran = sr("registry", "sync", "--db", db, "--strict")
    assert ran.code == 1 and ran.err.startswith("Error: --strict:") and "Traceback" not in ran.err
    with Registry.open(db) as reg:
        assert reg.list_sources() == [] and reg.fingerprint() is None


def _variant(tmp_path: Path, **changes: Any) -> Path:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    fields = data["endpoints"][0]["fields"]
    next(f for f in fields if f["name"] == "anneal_hours")["unit"] = changes.get("unit", "h")
    data["aliases"] = data["aliases"] + changes.get("aliases", [])
    path = tmp_path / "variant.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def test_source_add_prints_its_warnings_and_strict_refuses_them(sr, template: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = copy_registry(template, tmp_path)
    clean = sr("source", "add", str(EXAMPLE), "--db", db, "--strict")
    assert clean.code == 0 and "warning" not in clean.err, "the documented example is clean"
    variant = _variant(tmp_path, unit="hr_s", aliases=["OQMD"])
    refused = sr("source", "add", str(variant), "--db", db, "--strict")
    assert refused.code == 1 and "--strict: 2 declaration warning(s)" in refused.err
    with Registry.open(db) as reg:
        source, _ = reg.source("halcyon_synthesis")
    assert next(f for f in source.endpoints[0].fields if f.name == "anneal_hours").unit == "h", "nothing written"
    added = sr("source", "add", str(variant), "--db", db)
    assert added.code == 0
    lines = [line for line in added.err.splitlines() if line.startswith("warning:")]
    assert any("runs.anneal_hours: unit 'hr_s' is not a known unit" in line for line in lines)
    assert any("the name 'oqmd' also belongs to oqmd" in line for line in lines)


def test_import_openapi_strict_passes_on_the_documented_example(sr, template: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = copy_registry(template, tmp_path)
    ran = sr("source", "import-openapi", str(EXAMPLES / "labstore_openapi.yaml"), "--id", "labstore",
             "--overlay", str(EXAMPLES / "labstore_overlay.yaml"), "--db", db, "--strict", "--json")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["warnings"] == []
