"""Declaration models reject bad declarations with messages that name the item."""

import pytest
from pydantic import ValidationError

from schemarouter.declarations import coerce
from schemarouter.errors import DeclarationError
from schemarouter.models import Source, SourceType
from tests.factories import BASE_SOURCE, source, source_dict


def _error(data: dict) -> str:
    with pytest.raises(DeclarationError) as info:
        coerce(Source, data, "my-plugin 1.0", "source")
    return str(info.value)


def test_valid_source_round_trips_through_json() -> None:
    model = source()
    assert model.source_type is SourceType.experimental
    assert Source.model_validate(model.model_dump(mode="json", by_alias=True)) == model
    assert model.model_dump(by_alias=True)["auth"]["in"] == "header"


def test_models_are_frozen_and_forbid_extra_keys() -> None:
    model = source()
    with pytest.raises(ValidationError, match="frozen"):
        model.id = "other"  # type: ignore[misc]
    message = _error(source_dict(colour="blue"))
    assert "colour" in message and "Extra inputs are not permitted" in message


def test_id_must_be_a_slug() -> None:
    message = _error(source_dict(id="Lab Store"))
    assert message.startswith("my-plugin 1.0: source 'Lab Store':") and "id" in message


def test_endpoint_without_identifier_field_is_valid() -> None:
    # an identifier helps attribution, but a search or list endpoint may have none
    data = source_dict()
    data["endpoints"][0]["fields"][0]["identifier"] = False
    model = coerce(Source, data, "my-plugin 1.0", "source")
    assert model.endpoints[0].identifier_fields == []


@pytest.mark.parametrize(
    ("method", "access", "needle"),
    [("GET", "write", "a GET cannot be a write"), ("DELETE", "read", "declare it with access: write"),
     ("PATCH", "read", "declare it with access: write")],
)
def test_write_operations_must_say_so(method: str, access: str, needle: str) -> None:
    data = source_dict()
    data["endpoints"][0].update(method=method, access=access)
    message = _error(data)
    assert "endpoints[samples]" in message and needle in message


def test_a_post_may_be_a_read_or_a_write() -> None:
    for access in ("read", "write"):
        data = source_dict()
        data["endpoints"][0].update(method="POST", access=access)
        assert coerce(Source, data, "p 1.0", "source").endpoints[0].access == access


def test_parameter_pattern_must_compile() -> None:
    data = source_dict()
    data["endpoints"][0]["parameters"][0]["pattern"] = "([A-Z"
    message = _error(data)
    assert "parameters[formula].pattern" in message and "regular expression" in message


def test_feeds_must_name_a_field_and_a_parameter_of_the_source() -> None:
    data = source_dict()
    endpoint = data["endpoints"][0]
    second = {**endpoint, "id": "detail", "parameters": [{"name": "sample_id", "type": "string", "required": True}]}
    data["endpoints"] = [endpoint, second]
    field = endpoint["fields"][0]["name"]
    data["feeds"] = [{"from": f"samples.{field}", "to": "detail.sample_id"}]
    model = coerce(Source, data, "p 1.0", "source")
    assert model.feeds[0].split() == (("samples", field), ("detail", "sample_id"))
    assert model.model_dump(by_alias=True)["feeds"] == [{"from": f"samples.{field}", "to": "detail.sample_id"}]
    data["feeds"] = [{"from": "samples.nope", "to": "detail.sample_id"}]
    assert "'samples.nope' names no field" in _error(data)
    data["feeds"] = [{"from": f"samples.{field}", "to": "detail.nope"}]
    assert "'detail.nope' names no parameter" in _error(data)


def test_field_type_comes_from_a_closed_set() -> None:
    data = source_dict()
    data["endpoints"][0]["fields"][1]["type"] = "float"
    message = _error(data)
    assert "endpoints[samples].fields[gap].type" in message


def test_parameter_type_comes_from_a_closed_set() -> None:
    data = source_dict()
    data["endpoints"][0]["parameters"][0]["type"] = "str"
    assert "parameters[formula].type" in _error(data)


def test_field_path_must_parse() -> None:
    data = source_dict()
    data["endpoints"][0]["fields"][1]["path"] = "optics..gap"
    message = _error(data)
    assert "fields[gap].path" in message and "empty segment" in message


def test_auth_must_name_a_variable_not_hold_a_key() -> None:
    secret = "sk-3f9a8b7c6d5e4f3a2b1c"
    message = _error(source_dict(auth={"env": secret, "in": "header", "name": "x-api-key"}))
    assert "auth.env must name an environment variable" in message
    assert secret not in message, "the suspected key must not be echoed back"


def test_duplicate_fields_and_endpoints_are_rejected() -> None:
    data = source_dict()
    data["endpoints"][0]["fields"].append(dict(data["endpoints"][0]["fields"][1]))
    assert "duplicate field 'gap'" in _error(data)
    data = source_dict()
    data["endpoints"].append(dict(data["endpoints"][0]))
    assert "duplicate endpoint id 'samples'" in _error(data)


def test_source_needs_endpoints() -> None:
    assert "declares no endpoints" in _error(source_dict(endpoints=[]))


def test_base_source_fixture_is_valid() -> None:
    assert coerce(Source, BASE_SOURCE, "x", "source").id == "lab_store"


def test_a_license_may_be_written_as_its_id_alone() -> None:
    model = coerce(Source, source_dict(license="CC-BY-4.0"), "my-plugin 1.0", "source")
    assert (model.license.id, model.license.name) == ("CC-BY-4.0", "CC-BY-4.0")
    # the mapping form is unchanged, and a string that is no license id is refused by the id's rule
    assert coerce(Source, source_dict(license={"id": "MIT", "name": "MIT License"}), "p", "source").license.name == "MIT License"
    message = _error(source_dict(license="not a license id"))
    assert "license" in message and "pattern" in message


@pytest.mark.parametrize(("name", "ok"), [("page[size]", True), ("filter[name]", True), ("ids[]", True),
                                          ("page[size", False), ("[size]", False), ("a b", False)])
def test_a_parameter_name_may_carry_brackets_as_query_styles_write_them(name: str, ok: bool) -> None:
    data = source_dict()
    data["endpoints"][0]["parameters"] = [{"name": name, "type": "string"}]
    if ok:
        assert coerce(Source, data, "p", "source").endpoints[0].parameters[0].name == name
    else:
        assert "name" in _error(data)
