"""The field-path grammar: parsing, errors that say where, and extraction from records."""

import pytest

from schemarouter.field_paths import PathSyntaxError, extract, parse_path, projection_key


@pytest.mark.parametrize(
    "path",
    [
        "material_id",
        "symmetry.symbol",
        "title[0]",
        "authorships[].author.display_name",
        "Section[TOCHeading=Chemical and Physical Properties].Section[TOCHeading=Melting Point].Information[].Value",
        "Item[@Name=ArticleIds].Item[@Name=doi]",
        "arxiv:primary_category.@term",
        "results.properties.electronic.band_gap[0].value",
        "is-referenced-by-count",
        "dose rate.value",  # a key whose words a space separates, as some APIs name a property
        "Ar e Ventilação",
    ],
)
def test_inventory_paths_parse_and_render_back(path: str) -> None:
    segments = parse_path(path)
    assert ".".join(s.render() for s in segments) == path


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("", "empty path"),
        ("a..b", "empty segment"),
        ("a[", "unclosed"),
        ("a]", "unbalanced"),
        ("a[x y]", "bad selector"),
        ("a.1b", "does not start with a key"),
        (" a", "whitespace"),
        ("a[0]b", "unexpected"),
        ("a .b", "unexpected"),  # a space only between the words of a key
        ("a.  b", "does not start with a key"),
        ("a  b", "unexpected"),
    ],
)
def test_bad_paths_name_the_problem(path: str, message: str) -> None:
    with pytest.raises(PathSyntaxError, match=message):
        parse_path(path)


def test_extract_nested_list_and_selector_paths() -> None:
    record = {
        "symmetry": {"symbol": "Pnma"},
        "title": ["First", "Second"],
        "authorships": [{"author": {"display_name": "A"}}, {"author": {"display_name": "B"}}],
        "Section": [
            {"TOCHeading": "Other", "Value": 1},
            {"TOCHeading": "Melting Point", "Information": [{"Value": "80 degC"}, {"Value": "81 degC"}]},
        ],
    }
    assert extract(record, "symmetry.symbol") == "Pnma"
    assert extract(record, "title[0]") == "First"
    assert extract(record, "title[5]") is None
    assert extract(record, "authorships[].author.display_name") == ["A", "B"]
    assert extract(record, "Section[TOCHeading=Melting Point].Information[].Value") == ["80 degC", "81 degC"]
    assert extract(record, "missing.key") is None


def test_projection_key_is_first_segment() -> None:
    assert projection_key("bulk_modulus.vrh") == "bulk_modulus"
    assert projection_key("title[0]") == "title"
