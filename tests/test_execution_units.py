"""Pure pieces of execution: casting, XML records, filter/matchbook rendering, projection keys."""

from __future__ import annotations

import pytest
from schemarouter_aflow.adapter import render_matchbook

from schemarouter.execution.casting import cast_value
from schemarouter.execution.http import retry_after_seconds
from schemarouter.execution.httpjson import redact_url
from schemarouter.execution.rendering import projection_keys, render_filter, set_dotted
from schemarouter.execution.xmltree import parse_xml
from schemarouter.field_paths import extract
from schemarouter.models import Endpoint


@pytest.mark.parametrize(("raw", "type_", "value"), [
    ("289.5", "number", 289.5),
    ("195,936,557,000,000", "number", 195_936_557_000_000),
    ("(1,200)", "number", -1200),
    ("2023", "integer", 2023),
    (-99999, "number", None),
    ("na", "number", None),
    ("-", "number", None),
    ("T", "boolean", True),
    ([2012, 3, 21], "date", "2012-03-21"),
    ({"#text": "Hello", "@Name": "Title"}, "string", "Hello"),
    ([{"#text": "A"}, {"#text": "B"}], "array", ["A", "B"]),
    ("x", "array", ["x"]),
])
def test_cast_value(raw: object, type_: str, value: object) -> None:
    cast = cast_value(raw, type_)
    assert cast.value == value and cast.note is None


@pytest.mark.parametrize(("raw", "type_"), [
    ("3.4 eV", "number"), (True, "number"), ({"a": 1}, "string"), (1.5, "integer"), ("maybe", "boolean"),
    ([1, "x"], "date"), ("text", "object"),
])
def test_unexpected_types_become_typed_nulls_with_a_note(raw: object, type_: str) -> None:
    cast = cast_value(raw, type_)
    assert cast.value is None and cast.note and "expected" in cast.note


def test_several_values_for_a_scalar_keep_the_first_and_say_so() -> None:
    cast = cast_value(["1.0", "2.0"], "number")
    assert cast.value == 1.0 and cast.note == "2 values, first kept"


def test_xml_records_follow_the_path_grammar() -> None:
    doc = parse_xml(
        b'<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">'
        b'<entry><title>T</title><author><name>A</name></author><author><name>B</name></author>'
        b'<arxiv:primary_category term="math.CO"/></entry></feed>'
    )
    entry = extract(doc, "feed.entry")
    assert extract(entry, "author[].name") == ["A", "B"]
    assert extract(entry, "arxiv:primary_category.@term") == "math.CO"
    summary = parse_xml(b'<r><DocSum><Item Name="Title" Type="String">X</Item></DocSum></r>')
    assert cast_value(extract(summary, "r.DocSum.Item[@Name=Title]"), "string").value == "X"


def test_filter_styles() -> None:
    assert render_filter([("elements", "C,Si"), ("chemical_formula_reduced", "CSi")], "optimade") == \
        'elements HAS ALL "C","Si" AND chemical_formula_reduced="CSi"'
    assert render_filter([("element_set", "Fe-O")], "oqmd", raw="stability<0.1") == "(stability<0.1) AND element_set=Fe-O"
    assert render_filter([("doi", "10.1/x"), ("from-pub-date", "2020")], "colon") == "doi:10.1/x,from-pub-date:2020"
    assert render_filter([], "colon") is None


def test_matchbook_and_nested_body_keys() -> None:
    assert render_matchbook([("species", "Si,O"), ("Egap", "6*")], ["auid", "Egap"], {"format": "json"}) == \
        "species(Si,O),Egap(6*),auid,format(json)"
    body: dict = {}
    set_dotted(body, "pagination.page_size", 5)
    set_dotted(body, "required.include", ["entry_id"])
    assert body == {"pagination": {"page_size": 5}, "required": {"include": ["entry_id"]}}


def _endpoint(style: str, paths: list[str]) -> Endpoint:
    return Endpoint.model_validate({
        "id": "e", "base_url": "https://x.org", "path": "/", "projection": {"param": "p", "style": style},
        "fields": [{"name": f"f{i}", "path": p, "type": "string", "group": "g", "identifier": i == 0}
                   for i, p in enumerate(paths)]})


def test_projection_keys_per_style() -> None:
    paths = ["id", "symmetry.symbol", "symmetry.number", "attributes._jarvis_ehull", "results.a[0].value"]
    ep = _endpoint("csv", paths)
    assert projection_keys(ep, list(ep.fields)) == ["id", "symmetry", "_jarvis_ehull", "results"]
    ep = _endpoint("json_list", paths)
    assert projection_keys(ep, list(ep.fields))[-1] == "results.a"  # cut after the repeated section


def test_retry_after_and_redaction() -> None:
    assert retry_after_seconds("12") == 12.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == pytest.approx(10.0)
    assert retry_after_seconds("soon") is None
    shown = redact_url("https://x.org/a?q=1&api_key=SECRET&crtfc_key=K2")
    assert "SECRET" not in shown and "K2" not in shown and "q=1" in shown
