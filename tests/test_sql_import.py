"""``schemarouter source import-sql``: a database's schema becomes a local source.

The example lab database (docs/examples/halcyon_lab*.sql) is imported from a real SQLite file and a
real Postgres database; both give the same endpoints, fields, units, filters and links. Then the
schema shapes that break naive importers: reserved words and non-ASCII names, a broken view, a type
SQLAlchemy does not know, 2,000 tables, a URL with a password.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from schemarouter.errors import SchemaRouterError
from schemarouter.registry import Registry
from schemarouter.sources.local import load_local_source_file
from schemarouter.sqlsource import import_sql
from schemarouter.sqlsource.comments import read_comment, sqlite_column_comments
from schemarouter.sqlsource.naming import path_segment, singular, slug
from tests.sql_support import (
    LAB_OVERLAY,
    LAB_SQLITE,
    LAB_SQLITE_SCRIPT,
    ODD_SCHEMA,
    lab_sqlite,
    load_postgres,
    sqlite_script,
)
from tests.sr_cli import copy_registry, run_main, synced_template

OVERLAY_TEXT = LAB_OVERLAY.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def registry(template: Path, tmp_path: Path) -> str:
    return copy_registry(template, tmp_path)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def lab_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The lab database on each engine."""
    if request.param == "sqlite":
        return lab_sqlite(tmp_path)
    return load_postgres(request.getfixturevalue("pg_url"))


def _overlay(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "overlay.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _shape(url: str) -> dict[str, Any]:
    """What an import declares, without what differs by engine (the URL, the spelled column types)."""
    local = import_sql(url, "labdb", LAB_OVERLAY).local
    return {
        "endpoints": {e.id: (e.path, e.summary, [(p.name, p.type, p.required) for p in e.parameters],
                             [(f.name, f.type, f.unit, f.group, f.identifier, f.description) for f in e.fields])
                      for e in local.source.endpoints},
        "feeds": sorted((f.from_, f.to) for f in local.source.feeds),
        "filters": {eid: spec.options["params"] for eid, spec in local.adapter_specs.items()},
    }


# ---------------------------------------------------------------- the example
def test_the_lab_database_maps_to_tables_filters_units_and_links(lab_url: str) -> None:
    result = import_sql(lab_url, "labdb", LAB_OVERLAY)
    source, report = result.local.source, result.report
    assert (source.title, source.source_type.value, source.license.id) == (
        "Halcyon lab database", "experimental", "LicenseRef-Halcyon-Internal")
    assert [e.id for e in source.endpoints] == [
        "experiments", "measurements", "sample_band_gaps", "samples", "measurements_of_experiment",
        "measurements_of_sample", "experiment", "sample"]
    assert (report.tables, report.views, report.key_endpoints, report.record_endpoints, report.unmapped) == (
        3, 1, 2, 2, [])
    measurements = source.endpoint("measurements")
    gap = measurements.field("band_gap")
    assert (gap.type, gap.unit, gap.description) == ("number", "eV", "optical band gap"), "unit from the comment"
    assert measurements.field("density").unit == "g/cm^3" and measurements.field("resistivity").unit == "ohm*m"
    assert measurements.field("measurement_id").identifier and measurements.field("sample_id").group == "identity"
    assert source.endpoint("samples").summary == "Table samples: every sample the lab has made"
    assert source.endpoint("sample_band_gaps").field("band_gap").unit == "eV", "a view's column: the table's unit"
    filters = result.local.spec("samples").options["params"]
    assert filters["sample_name"] == {"column": "name", "op": "eq"}, "a unique text column; a generic name qualified"
    assert filters["formula_contains"] == {"column": "formula", "op": "contains"}
    assert filters["synthesis_temperature_min"] == {"column": "synthesis_temperature", "op": "min"}
    assert filters["synthesized_on_from"] == {"column": "synthesized_on", "op": "min"}
    shaping = {name: filters[name]["op"] for name in ("sort_by", "descending", "limit")}
    assert shaping == {"sort_by": "sort", "descending": "desc", "limit": "limit"}, "rows ordered and cut"
    order = measurements.parameter("sort_by")
    assert order.enum is not None and "band_gap" in order.enum and "measurement_id" not in order.enum, "no key"
    by_sample = source.endpoint("measurements_of_sample")
    assert by_sample.path == "/samples/{sample_id}/measurements"
    assert by_sample.parameter("sample_id").required and not measurements.parameter("sample_id").required
    feeds = {(f.from_, f.to) for f in source.feeds}
    assert ("samples.sample_id", "measurements_of_sample.sample_id") in feeds
    assert ("measurements.sample_id", "samples.sample_id") in feeds, "and back, from a measurement to its sample"
    one = source.endpoint("sample")  # a sample by the key a measurement holds: "the sample of measurement 7"
    assert one.path == "/samples/{sample_id}" and [p.name for p in one.parameters] == ["sample_id"]
    assert one.parameter("sample_id").required and ("measurements.sample_id", "sample.sample_id") in feeds
    assert result.local.spec("measurements").protocol == "sql"
    assert "password" not in source.endpoints[0].base_url and source.auth is None


@pytest.mark.postgres
def test_sqlite_and_postgres_give_the_same_source(tmp_path: Path, pg_url: str) -> None:
    assert _shape(lab_sqlite(tmp_path)) == _shape(load_postgres(pg_url))


def test_the_shipped_sqlite_file_is_its_script(tmp_path: Path) -> None:
    rebuilt = tmp_path / "rebuilt.sqlite"
    sqlite_script(rebuilt, LAB_SQLITE_SCRIPT.read_text(encoding="utf-8"))
    dumps = []
    for path in (LAB_SQLITE, rebuilt):
        conn = sqlite3.connect(path)
        dumps.append(list(conn.iterdump()))
        conn.close()
    assert dumps[0] == dumps[1], "rebuild it: sqlite3 docs/examples/halcyon_lab.sqlite < docs/examples/halcyon_lab.sql"


def test_the_overlay_leaves_tables_out_and_sets_units_and_caps(tmp_path: Path) -> None:
    overlay = _overlay(tmp_path, OVERLAY_TEXT + (
        "exclude: [sample_*]\nrow_cap: 50\n"
        "tables:\n  measurements:\n    row_cap: 5\n    fields: {temperature: {unit: degC, concepts: [band_gap]}}\n"))
    local = import_sql(lab_sqlite(tmp_path), "labdb", overlay).local
    ids = [e.id for e in local.source.endpoints]
    assert "sample_band_gaps" not in ids and "samples" in ids, "a shell pattern, not a prefix"
    assert local.spec("measurements").options["row_cap"] == 5 and local.spec("samples").options["row_cap"] == 50
    assert local.source.endpoint("measurements").field("temperature").unit == "degC"


@pytest.mark.parametrize(("extra", "message"), [
    ("tables: {mesurements: {row_cap: 3}}", "tables.mesurements: no table or view 'mesurements' in the import; "
                                            "did you mean 'measurements'?"),
    ("fields: {band_gapp: {unit: eV}}", "fields.band_gapp: no field 'band_gapp' in the import; did you mean 'band_gap'?"),
    ("fields: {band_gap: {path: x}}", "fields.band_gap.path: a database field reads its column; it has no path"),
    ("tables: {samples: {parameters: {name: {concept: formula}}}}",
     "tables.samples.parameters.name: no parameter 'name' in samples"),
    ("row_cap: 0", "row_cap"),
])
def test_an_overlay_mistake_is_one_line_naming_the_key(tmp_path: Path, extra: str, message: str) -> None:
    overlay = _overlay(tmp_path, OVERLAY_TEXT + extra + "\n")
    with pytest.raises(SchemaRouterError) as caught:
        import_sql(lab_sqlite(tmp_path), "labdb", overlay)
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(("text", "key"), [
    ("title: x\nlicense: {id: LicenseRef-X, name: x}\n", "source_type"),
    ("title: x\nsource_type: experimental\n", "license"),
])
def test_source_type_and_license_must_come_from_the_overlay(tmp_path: Path, text: str, key: str) -> None:
    with pytest.raises(SchemaRouterError, match=rf"overlay.yaml: {key}: a database"):
        import_sql(lab_sqlite(tmp_path), "labdb", _overlay(tmp_path, text))


@pytest.mark.parametrize(("url", "message"), [
    ("mysql://root@localhost/lab", "'mysql' is not supported; import-sql reads sqlite and postgresql"),
    ("not a url", "not a database URL"),
    ("sqlite://", "an in-memory SQLite database holds nothing to import"),
])
def test_a_url_that_cannot_be_a_source_is_one_line(url: str, message: str) -> None:
    with pytest.raises(SchemaRouterError, match=message):
        import_sql(url, "labdb", LAB_OVERLAY)


def test_a_missing_sqlite_file_is_refused_and_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nope.sqlite"
    with pytest.raises(SchemaRouterError, match="no SQLite database file at"):
        import_sql(f"sqlite:///{missing}", "labdb", LAB_OVERLAY)
    assert not missing.exists()


def test_only_the_named_tables_are_imported(tmp_path: Path) -> None:
    local = import_sql(lab_sqlite(tmp_path), "labdb", LAB_OVERLAY, tables=["samples", "measure*"]).local
    assert [e.id for e in local.source.endpoints] == ["measurements", "samples", "measurements_of_sample", "sample"]
    with pytest.raises(SchemaRouterError, match="--table: sampels: no table or view matches; did you mean 'samples'"):
        import_sql(lab_sqlite(tmp_path), "labdb", LAB_OVERLAY, tables=["sampels"])


# ---------------------------------------------------------------- awkward schemas


def test_reserved_words_and_non_ascii_names_become_slugs_and_keep_their_spelling(tmp_path: Path) -> None:
    url = sqlite_script(tmp_path / "odd.sqlite", ODD_SCHEMA)
    result = import_sql(url, "odd", LAB_OVERLAY)
    local, report = result.local, result.report
    order = local.source.endpoint("order")
    assert order.path == "/order"
    names = [f.name for f in order.fields]
    assert names == ["id", "select", "groesse_k", "column_4", "proben_name", "payload", "untyped"]
    assert order.field("groesse_k").unit == "K" and order.field("groesse_k").aliases == ["größe (K)"]
    assert order.field("column_4").aliases == ["温度"], "nothing ASCII is left: a stand-in name, the column's as alias"
    assert "binary data" in order.field("payload").description
    columns = local.spec("order").options["columns"]
    assert columns["column_4"] == "温度" and columns["select"] == "select"
    assert "order_id" in {p.name for p in order.parameters}, "a generic column name is qualified by its table"
    proben = local.source.endpoint("proben_daten")
    assert proben.path == "/Proben%20Daten" and local.spec("proben_daten").options["table"] == "Proben Daten"
    assert local.source.endpoint("proben_daten_of_order").path == "/order/{order}/Proben%20Daten"
    assert local.spec("conditions").unit_from == {"value": "unit", "pressure": "pressure_unit"}
    assert [(u.place, u.construct) for u in report.unmapped] == [("broken", "cannot be read")]
    assert "no such table" in report.unmapped[0].detail


def test_two_thousand_tables_import_in_seconds(tmp_path: Path) -> None:
    statements = [f"CREATE TABLE t{i:04d} (id INTEGER PRIMARY KEY, name TEXT UNIQUE, x REAL, d DATE"
                  + (f", parent_id INTEGER REFERENCES t{i - 1:04d} (id)" if i else "") + ");" for i in range(2000)]
    url = sqlite_script(tmp_path / "many.sqlite", "\n".join(statements))
    started = time.monotonic()
    result = import_sql(url, "many", LAB_OVERLAY)
    elapsed = time.monotonic() - started
    # each table but the last is a parent: its rows by foreign key, and its record by primary key
    assert (result.report.tables, result.report.endpoints, result.report.links) == (2000, 5998, 7996)
    assert elapsed < 30, f"took {elapsed:.1f} s"


def test_a_time_budget_stops_reflection_and_says_so(tmp_path: Path) -> None:
    with pytest.raises(SchemaRouterError, match="no table or view to import") as caught:
        import_sql(lab_sqlite(tmp_path), "labdb", LAB_OVERLAY, budget_s=0.0)
    report = caught.value.report  # type: ignore[attr-defined]
    assert [(u.place, u.construct) for u in report.unmapped][:2] == [
        ("experiments", "over the time budget"), ("measurements", "over the time budget")]


@pytest.mark.postgres
def test_a_postgres_type_sqlalchemy_does_not_know_is_read_as_text_and_reported(pg_url: str) -> None:
    load_postgres(pg_url, """
        CREATE TYPE pair AS (a int, b int);
        CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
        CREATE TABLE odd (id serial PRIMARY KEY, p point, pr pair, m mood);
        COMMENT ON COLUMN odd.p IS 'where it sits [deprecated]';""")
    result = import_sql(pg_url, "odd", LAB_OVERLAY)
    odd = result.local.source.endpoint("odd")
    assert [(f.name, f.type) for f in odd.fields] == [("id", "integer"), ("p", "string"), ("pr", "string"), ("m", "string")]
    assert [(u.place, u.construct) for u in result.report.unmapped] == [
        ("odd.p", "unknown column type"), ("odd.pr", "unknown column type")]
    assert "POINT is not a type SQLAlchemy knows; read as text" in result.report.unmapped[0].detail
    assert odd.parameter("m").enum == ["sad", "ok", "happy"], "an enum type's members"
    assert any("[deprecated] is not a unit" in n for n in result.report.notes) and odd.field("p").unit is None


# ---------------------------------------------------------------- secrets
@pytest.mark.postgres
def test_a_password_in_the_url_is_never_stored_or_printed(
    pg_url: str, registry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    load_postgres(pg_url)
    secret = "pw-Sup3r-s3cret"
    with_password = pg_url.replace("postgres@", f"postgres:{secret}@")  # trust auth: any password connects
    written = tmp_path / "labpg.yaml"
    ran = run_main(capsys, monkeypatch, "source", "import-sql", with_password, "--id", "labpg",
                   "--overlay", str(LAB_OVERLAY), "--db", registry, "--write-yaml", str(written))
    assert ran.code == 0, ran.err
    assert "the password is not stored: the source reads it from $LABPG_PASSWORD" in ran.out
    assert "postgres:***@" in ran.out
    again = run_main(capsys, monkeypatch, "source", "import-sql", with_password, "--id", "labpg",
                     "--overlay", str(LAB_OVERLAY), "--db", registry, "--json", "--dry-run")
    assert json.loads(again.out)["password_env"] == "LABPG_PASSWORD"
    for text in (ran.out, ran.err, again.out, again.err, written.read_text(encoding="utf-8")):
        assert secret not in text
    assert secret.encode() not in Path(registry.removeprefix("sqlite:///")).read_bytes()
    with Registry.open(registry) as reg:
        source, _ = reg.source("labpg")
    assert source.auth is not None and (source.auth.env, source.auth.location) == ("LABPG_PASSWORD", "connection")
    assert all(secret not in e.base_url and "@" in e.base_url for e in source.endpoints)
    assert load_local_source_file(written).source == source, "the YAML reads back as the same source"


def test_importing_again_changes_nothing_and_the_yaml_reads_back(
    registry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = lab_sqlite(tmp_path)
    written = tmp_path / "labdb.yaml"
    args = ("source", "import-sql", url, "--id", "labdb", "--overlay", str(LAB_OVERLAY), "--db", registry)
    ran = run_main(capsys, monkeypatch, *args, "--write-yaml", str(written))
    assert ran.code == 0, ran.err
    assert "3 tables, 1 view, 8 endpoints (2 by foreign key, 2 by primary key)" in ran.out
    assert "added local source labdb" in ran.out
    again = run_main(capsys, monkeypatch, *args)
    assert again.code == 0 and "local source labdb unchanged" in again.out, again.out + again.err
    assert load_local_source_file(written) == import_sql(url, "labdb", LAB_OVERLAY).local


def test_an_import_refused_for_want_of_an_overlay_says_why_and_shows_no_empty_counts(
    registry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran = run_main(capsys, monkeypatch, "source", "import-sql", lab_sqlite(tmp_path), "--id", "labdb", "--db", registry)
    assert ran.code == 1 and "give source_type in the overlay" in ran.err
    assert "0 endpoints" not in ran.out, "no summary of a source that was never built"


def test_a_dry_run_writes_nothing(
    registry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = Path(registry.removeprefix("sqlite:///")).read_bytes()
    ran = run_main(capsys, monkeypatch, "source", "import-sql", lab_sqlite(tmp_path), "--id", "labdb",
                   "--overlay", str(LAB_OVERLAY), "--db", registry, "--dry-run")
    assert ran.code == 0 and ran.out.rstrip().endswith("dry run: nothing written"), ran.out + ran.err
    assert Path(registry.removeprefix("sqlite:///")).read_bytes() == before


def test_a_refusal_is_one_line_with_the_report(
    registry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    overlay = _overlay(tmp_path, "title: x\n")
    ran = run_main(capsys, monkeypatch, "source", "import-sql", lab_sqlite(tmp_path), "--id", "labdb",
                   "--overlay", str(overlay), "--db", registry)
    assert ran.code != 0 and ran.err.count("\n") == 1 and "source_type" in ran.err and "Traceback" not in ran.err
    assert "3 tables, 1 view" in ran.out


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["endpoints"][0]["adapter"]["options"]["columns"].pop("title"), "no column for field 'title'"),
    (lambda d: d["endpoints"][0]["adapter"]["options"]["params"].pop("experiment_id"),
     "no filter for parameter 'experiment_id'"),
    (lambda d: d.update(auth={"env": "LAB_KEY", "in": "header", "name": "X-Key"}), "declared with in: connection"),
    (lambda d: [e.pop("adapter") for e in d["endpoints"]], "a database URL needs adapter: {protocol: sql}"),
])
def test_a_hand_edited_database_source_is_checked_on_add(tmp_path: Path, change: Any, message: str) -> None:
    import yaml

    from schemarouter.openapi.yamlout import local_source_document

    data = local_source_document(import_sql(lab_sqlite(tmp_path), "labdb", LAB_OVERLAY, tables=["experiments"]).local)
    change(data)
    path = tmp_path / "edited.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(SchemaRouterError, match=message.replace("{", r"\{").replace("}", r"\}")):
        load_local_source_file(path)


def test_a_connection_password_is_no_http_auth(tmp_path: Path) -> None:
    text = (Path(__file__).parents[1] / "docs" / "examples" / "halcyon_synthesis.yaml").read_text(encoding="utf-8")
    path = tmp_path / "http.yaml"
    path.write_text(text.replace("in: header", "in: connection"), encoding="utf-8")
    with pytest.raises(SchemaRouterError, match="in: connection is a database password"):
        load_local_source_file(path)


# ---------------------------------------------------------------- small parts
def test_comments_give_units_groups_concepts_and_descriptions() -> None:
    facts = read_comment("optical band gap [eV]; group: electronic; concepts: band_gap, Not A Slug; aliases: gap, Eg")
    assert (facts.description, facts.unit, facts.group, facts.concepts, facts.aliases) == (
        "optical band gap", "eV", "electronic", ["band_gap"], ["gap", "Eg"])
    kept = read_comment("see [deprecated] column")
    assert (kept.unit, kept.description, kept.not_units) == (None, "see [deprecated] column", ["deprecated"])
    assert read_comment("unit: g/cm^3; mass density").unit == "g/cm^3"


def test_sqlite_comments_are_read_from_the_create_statement() -> None:
    found = sqlite_column_comments(
        'CREATE TABLE "m" ( -- the table\n'
        "  -- still the table\n"
        "  id INTEGER PRIMARY KEY,\n"
        "  note TEXT DEFAULT '-- not a comment', -- the note [K]\n"
        "  -- about nothing in particular\n"
        '  , "a b" REAL -- spaced\n'
        "  , FOREIGN KEY (id) REFERENCES s (id) -- a constraint\n"
        ")")
    assert found == {"": "the table still the table", "note": "the note [K]", "a b": "spaced"}


def test_names() -> None:
    assert [singular(w) for w in ("samples", "entries", "boxes", "status", "analysis", "data")] == [
        "sample", "entry", "box", "status", "analysis", "data"]
    assert slug("SampleRuns", "t") == "sample_runs" and slug("2024 runs", "table") == "table_2024_runs"
    assert slug("温度", "column_4") == "column_4" and slug("Größe", "c") == "groesse"
    assert path_segment("Proben Daten/{x}") == "Proben%20Daten%2F%7Bx%7D" and path_segment("größe") == "größe"


def test_the_walkthrough_shows_what_the_import_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    repo = LAB_SQLITE.parents[2]
    monkeypatch.chdir(repo)
    report = import_sql("sqlite:///docs/examples/halcyon_lab.sqlite", "labdb", "docs/examples/halcyon_lab_overlay.yaml").report
    walkthrough = (repo / "docs" / "private-sources.md").read_text(encoding="utf-8")
    assert report.summary() in walkthrough.splitlines()
    assert all(f"  note: {note}" in walkthrough for note in report.notes)


@pytest.mark.postgres
def test_a_postgres_schema_and_its_materialized_views_are_read(pg_url: str, template: Path, tmp_path: Path) -> None:
    from schemarouter.execution.executor import load_executor
    from schemarouter.plan import Plan, PlanStep
    from schemarouter.registry.local import add_local_source

    load_postgres(pg_url, """
        CREATE SCHEMA lab;
        CREATE TABLE lab.samples (sample_id integer PRIMARY KEY, name text UNIQUE);
        CREATE TABLE lab.measurements (id integer PRIMARY KEY, sample_id integer REFERENCES lab.samples (sample_id),
                                       band_gap double precision);
        COMMENT ON COLUMN lab.measurements.band_gap IS 'optical band gap [eV]';
        CREATE MATERIALIZED VIEW lab.gaps AS SELECT sample_id, band_gap FROM lab.measurements;
        CREATE TABLE public.elsewhere (x integer);
        INSERT INTO lab.samples VALUES (1, 'HX-0042');
        INSERT INTO lab.measurements VALUES (1, 1, 3.62);
        REFRESH MATERIALIZED VIEW lab.gaps;""")
    result = import_sql(pg_url, "labschema", LAB_OVERLAY, schema="lab")
    local = result.local
    assert [e.id for e in local.source.endpoints] == ["gaps", "measurements", "samples", "measurements_of_sample", "sample"]
    assert local.spec("measurements").options["schema"] == "lab" and result.report.views == 1
    registry = copy_registry(template, tmp_path)
    with Registry.open(registry) as reg:
        add_local_source(reg, local, "test")
    (step,) = load_executor(registry).run_sync(Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="labschema", endpoint="measurements_of_sample", params={"sample_id": 1}, fields=["band_gap"]),
    ])).steps
    assert step.error is None and (step.records[0].values["band_gap"].value, step.records[0].values["band_gap"].unit) \
        == (3.62, "eV")
    assert "FROM lab.measurements" in (step.request or "")


@pytest.mark.postgres
def test_a_failed_connection_is_one_line_without_the_password(pg_url: str) -> None:
    secret = "pw-Sup3r-s3cret"
    for url in (f"postgresql://nobody:{secret}@127.0.0.1:9/lab", pg_url.replace("postgres@", f"nobody:{secret}@")):
        with pytest.raises(SchemaRouterError) as caught:
            import_sql(url, "labpg", LAB_OVERLAY)
        message = str(caught.value)
        assert "cannot read the schema (connection failed" in message and "nobody:***@" in message
        assert secret not in message and "\n" not in message


def test_self_references_and_two_keys_to_one_table_each_get_their_endpoint(tmp_path: Path) -> None:
    url = sqlite_script(tmp_path / "fk.sqlite", """
        CREATE TABLE samples (sample_id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES samples (sample_id));
        CREATE TABLE pairs (id INTEGER PRIMARY KEY, a INTEGER REFERENCES samples (sample_id),
                            b INTEGER REFERENCES samples (sample_id), c INTEGER, d INTEGER,
                            FOREIGN KEY (c, d) REFERENCES elsewhere (p, q));""")
    result = import_sql(url, "fk", LAB_OVERLAY)
    paths = {e.id: e.path for e in result.local.source.endpoints}
    assert paths["samples_of_sample"] == "/samples/{parent_id}/samples"
    assert {paths["pairs_of_sample"], paths["pairs_by_a"]} == {"/samples/{a}/pairs", "/samples/{b}/pairs"}
    feeds = {(f.from_, f.to) for f in result.local.source.feeds}
    assert ("samples.sample_id", "samples_of_sample.parent_id") in feeds
    assert [(u.place, u.construct) for u in result.report.unmapped] == [("pairs (c, d) -> elsewhere", "composite foreign key")]


def test_a_numeric_column_named_with_its_unit_carries_that_unit(tmp_path: Path) -> None:
    db = tmp_path / "rides.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE rides (ride_id INTEGER PRIMARY KEY, distance_km REAL, duration_min REAL, "
                     "temp_min REAL, Milliseconds INTEGER, start_lat REAL, label TEXT)")
    result = import_sql(f"sqlite:///{db}", "rides", _overlay(tmp_path, OVERLAY_TEXT))
    fields = {f.name: f.unit for f in result.local.source.endpoint("rides").fields}
    assert fields["distance_km"] == "km" and fields["duration_min"] == "min" and fields["milliseconds"] == "ms"
    assert fields["start_lat"] == "degree"
    assert fields["temp_min"] is None, "beside no word of time, min is a minimum"
    assert fields["label"] is None
    assert any("distance_km: unit km read from the column's name" in n for n in result.report.notes)
