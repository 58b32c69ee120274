"""Places as a parameter asks for them: a role's word picks which place goes where, and a parameter
that asks for "City, State" gets the region the question writes after the place."""

from __future__ import annotations

import pytest

from schemarouter.models import Parameter
from schemarouter.router.places import country_spelling, role_of, wants_region, with_region, world_city
from schemarouter.router.values import open_values
from schemarouter.understand.names import proper_names
from tests.open_world_support import read_question

CITY_STATE = "The city, in the format of 'City, State', such as 'Berkeley, CA' or 'New York, NY'."


def _values(question: str, *params: Parameter) -> dict[str, object]:
    return open_values(list(params), read_question(question), "/route").values


@pytest.mark.parametrize(("words", "role"), [
    (("from", "city"), "source"), (("origin",), "source"), (("start", "location"), "source"),
    (("to",), "target"), (("destination", "airport"), "target"), (("end", "city"), "target"),
    (("city",), "place"), (("location",), "place"),  # where something is
    (("from", "to"), None), (("cuisine",), None),  # both ends, or no place: none
])
def test_a_parameter_name_gives_its_role(words: tuple[str, ...], role: str | None) -> None:
    assert role_of(words) == role


def test_from_and_to_decide_which_place_goes_where() -> None:
    origin = Parameter(name="origin", type="string", required=True)
    destination = Parameter(name="destination", type="string", required=True)
    # the destination is written first in the question: order alone would swap them
    got = _values("Find the fastest route to Los Angeles from San Francisco", origin, destination)
    assert got == {"origin": "San Francisco", "destination": "Los Angeles"}


def test_between_and_gives_both_ends_of_one_name() -> None:
    start = Parameter(name="start_city", type="string", required=True)
    end = Parameter(name="end_city", type="string", required=True)
    got = _values("Find the shortest distance between New York and Boston by train", start, end)
    assert got == {"start_city": "New York", "end_city": "Boston"}


def test_a_region_format_takes_the_region_written_after_the_place() -> None:
    city = Parameter(name="city", type="string", required=True, description=CITY_STATE)
    assert _values("Any music events in Portland, OR this weekend?", city) == {"city": "Portland, OR"}
    assert _values("Weather in Long Beach CA tomorrow?", city) == {"city": "Long Beach, CA"}
    # a state's name is written as its postal code, as the examples do
    assert _values("A salon in Berkeley California, please", city) == {"city": "Berkeley, CA"}
    # ... or said to hold the place: "Lafayette in Louisiana" (Lafayette, IN is another city)
    assert _values("A hair stylist in Lafayette in Louisiana, please", city) == {"city": "Lafayette, LA"}
    assert _values("Events in Springfield in the state of Illinois", city) == {"city": "Springfield, IL"}
    # what follows "in" must be a region: a month or a scale is none
    assert _values("Events in Springfield in March", city) == {"city": "Springfield"}


def test_a_region_is_never_guessed_nor_added_where_not_asked() -> None:
    city = Parameter(name="city", type="string", required=True, description=CITY_STATE)
    plain = Parameter(name="city", type="string", required=True, description="The city.")
    abroad = Parameter(name="city", type="string", required=True, description="City and country, e.g. Paris, France")
    # one name, several cities of a size (Springfield, MA / MO / IL), or a larger one abroad (Vancouver)
    assert _values("Any music events in Springfield this weekend?", city) == {"city": "Springfield"}
    assert _values("Any music events in Vancouver this weekend?", city) == {"city": "Vancouver"}
    assert _values("Any music events in Portland, OR this weekend?", plain) == {"city": "Portland"}
    assert _values("Any music events in Portland this weekend?", abroad) == {"city": "Portland"}, "no US state"


def test_a_us_city_the_gazetteer_knows_gets_its_state_where_one_is_asked() -> None:
    city = Parameter(name="city", type="string", required=True, description=CITY_STATE)
    example = Parameter(name="location", type="string", required=True,
                        description="Where the salon is, such as 'New York, NY'.")
    assert _values("Any music events in Portland this weekend?", city) == {"city": "Portland, OR"}
    assert _values("I'm in New York, and I need a hair stylist", example) == {"location": "New York, NY"}
    # what the question writes comes first: a state written after the place is that state
    assert _values("Any music events in Portland, ME this weekend?", city) == {"city": "Portland, ME"}


def test_both_ends_may_share_a_region() -> None:
    source = Parameter(name="from_city", type="string", required=True, description=CITY_STATE)
    target = Parameter(name="to_city", type="string", required=True, description=CITY_STATE)
    got = _values("Trains from Anaheim, CA to Berkeley, CA on April 10?", source, target)
    assert got == {"from_city": "Anaheim, CA", "to_city": "Berkeley, CA"}


@pytest.mark.parametrize(("description", "example", "wanted"), [
    (CITY_STATE, None, "state"),
    ("The city and state, e.g. Los Angeles, CA", None, "state"),
    ("The city, such as 'Berkeley, CA'.", None, "state"),  # a US state's code in the example
    ("Location of the event.", "Paris, France", "any"),
    ("The name of the city.", None, ""),
    ("Comma-separated list of tags, e.g. red, blue", None, ""),
])
def test_a_region_format_is_read_from_the_declaration(description: str, example: str | None, wanted: str) -> None:
    p = Parameter(name="location", type="string", description=description, example=example)
    assert wants_region(p) == wanted


@pytest.mark.parametrize(("description", "spelling"), [
    ("In the format of 'City, State' or 'City, Country', such as 'Paris, France' or 'New York, NY'.", "name"),
    ("Such as 'Paris, FR' or 'New York, NY'.", "code"),  # FR is a country, NY a state
    ("The city, for example 'London, UK'.", "code"),
    ("City and country of the venue.", "name"),
    (CITY_STATE, ""),  # a US state only
])
def test_how_a_declaration_writes_a_country_after_a_place(description: str, spelling: str) -> None:
    assert country_spelling(Parameter(name="location", type="string", description=description)) == spelling


def test_a_city_abroad_gets_its_country_where_the_parameter_asks_for_one() -> None:
    by_name = Parameter(name="location", type="string", required=True,
                        description="The city, in the format of 'City, State' or 'City, Country', such as 'Paris, France'.")
    by_code = Parameter(name="location", type="string", required=True, description="Such as 'Paris, FR' or 'Austin, TX'.")
    state_only = Parameter(name="location", type="string", required=True, description=CITY_STATE)
    assert _values("Museums in Paris for kids", by_name) == {"location": "Paris, France"}
    assert _values("Museums in Paris for kids", by_code) == {"location": "Paris, FR"}
    assert _values("Museums in Paris for kids", state_only) == {"location": "Paris"}, "no US state of that name"
    assert _values("Museums in Austin for kids", by_name) == {"location": "Austin, TX"}, "a US city keeps its state"
    assert _values("Museums in Bogotá for kids", by_name) == {"location": "Bogotá, Colombia"}
    assert _values("Museums in Bogota for kids", by_name) == {"location": "Bogota, Colombia"}, "spelled without accents"
    # a name two cities of about the same size share is completed with neither
    assert world_city("San Jose") is None and world_city("Springfield") is None
    assert _values("Weather in Moscow, Idaho", by_name) == {"location": "Moscow, ID"}, "the region written wins"


def test_an_unknown_trailing_word_is_no_region() -> None:
    assert with_region("Springfield", read_question("Events in Springfield Tonight please")) is None


@pytest.mark.parametrize(("text", "names"), [
    ("I need a hotel in Vancouver. I'll need one room.", ["Vancouver"]),
    ("A Music event in Philadelphia. Find what's available?", ["Music", "Philadelphia"]),
    ("I'm planning a trip to Paris and I'm interested in museums", ["Paris"]),
    ("Flights from St. Louis to Washington D.C. tomorrow", ["St. Louis", "Washington D.C."]),  # its initials whole
    # an abbreviation's full stop ends the sentence where a question or a request opens the next
    ("The balance sheet of Apple Inc. Can you also give its income?", ["Apple Inc"]),
    ("Flights to Washington D.C. Is there one tomorrow?", ["Washington D.C."]),
])
def test_a_name_ends_with_its_sentence_and_i_is_no_name(text: str, names: list[str]) -> None:
    assert [e.value for e in proper_names(text, [])] == names


@pytest.mark.parametrize(("question", "name", "value"), [
    ("Find a comedy movie directed by Edgar Wright", "directed_by", "Edgar Wright"),
    ("A thriller with Peter Strickland as the director, please", "directed_by", "Peter Strickland"),
    ("Can you find me a movie with Katsunosuke Hori in the cast?", "cast", "Katsunosuke Hori"),
    ("Funk music from the album Gotta Be Me", "album", "Gotta Be Me"),
])
def test_a_name_goes_to_the_parameter_whose_word_is_written_next_to_it(question: str, name: str, value: str) -> None:
    params = [Parameter(name=n, type="string") for n in ("directed_by", "cast", "album")]
    assert _values(question, *params) == {name: value}


def test_a_word_of_another_name_is_no_parameter_word_next_to_a_name() -> None:
    # "United" of "United Kingdom" shares its stem with units; it is part of a name, not the word of units
    units = Parameter(name="units", type="string")
    assert _values("The weather forecast in London, United Kingdom for the next 14 days", units) == {}
    assert _values("The weather forecast in London in metric units", units) == {}
    # "Museum" ends the name before "in Paris": Paris is where it is, not the museum
    museum, location = (Parameter(name=n, type="string", required=True) for n in ("museum", "location"))
    assert _values("Find the working hours of the Louvre Museum in Paris.", museum, location) == {
        "museum": "Louvre Museum", "location": "Paris"}


def test_a_name_away_from_every_parameter_word_stays_out() -> None:
    # optional parameters take a name only where the question ties it to them
    params = [Parameter(name=n, type="string") for n in ("directed_by", "cast")]
    assert _values("Is Pride and Prejudice any good?", *params) == {}


def test_the_gazetteer_holds_lower_case_names_and_us_state_codes() -> None:
    import json
    from importlib.resources import files

    import pycountry

    states = {s.code.split("-", 1)[1] for s in pycountry.subdivisions.get(country_code="US")}  # type: ignore[no-untyped-call]
    for name in ("us_cities.json", "us_towns.json"):
        data = json.loads(files("schemarouter.router").joinpath("data", name).read_text("utf-8"))
        assert len(data) > 500
        assert all(name == name.lower().strip() and code in states for name, code in data.items())


def test_a_town_is_completed_with_its_state_and_preferred_as_the_place_but_never_read_in_lower_case() -> None:
    city = Parameter(name="city", type="string", required=True,
                     description="The city to search in, in the format of 'City, State', such as 'Berkeley, CA'")
    assert _values("Find a unisex salon in Pinole", city) == {"city": "Pinole, CA"}
    # of two names written after "in", the one the gazetteer knows as a town is the place
    assert _values("Find therapists specialized in Family Counseling in Los Altos", city) == {"city": "Los Altos, CA"}
    # a town's name written in lower case is a word ("golden", "central"), unlike a city's ("berkeley")
    assert _values("Photos taken in golden light", city) == {}
    assert _values("A therapist in berkeley", city) == {"city": "Berkeley, CA"}


def test_a_required_place_is_the_one_written_after_in_never_a_cuisine_a_scale_or_a_country() -> None:
    location = Parameter(name="location", type="string", required=True)
    assert _values("Restaurants within 10 miles that offer Chinese cuisine in Seattle", location) == {
        "location": "Seattle"}
    assert _values("The weather in Hyderabad in Fahrenheit", location) == {"location": "Hyderabad"}
    city = Parameter(name="city", type="string", required=True)
    assert _values("The weather for London in the UK", city).get("city") != "UK"
    # an optional location is a filter the question may not mean: "in Premier League" is no venue
    venue = Parameter(name="location", type="string")
    assert _values("The next 6 games of Manchester United in Premier League", venue).get("location") != "Premier League"


def test_a_state_parameter_takes_the_state_written_after_the_place() -> None:
    city = Parameter(name="city", type="string", required=True)
    state = Parameter(name="state", type="string")
    country = Parameter(name="country", type="string", required=True)
    got = _values("Current temperature in Raleigh, NC, US?", city, state, country)
    assert got["state"] == "NC" and got["city"] == "Raleigh"
    # a state's name, as its postal code; a province too
    assert _values("Weather in Portland, Oregon today", city, state)["state"] == "OR"
    assert _values("Weather in Halifax, Nova Scotia", city, Parameter(name="province", type="string"))["province"] == "NS"


def test_a_country_or_an_enum_without_the_code_gives_a_state_parameter_nothing() -> None:
    city = Parameter(name="city", type="string", required=True)
    state = Parameter(name="state", type="string")
    assert "state" not in _values("Current temperature in Lyon, FR?", city, state)
    # "state" of an issue tracker is a status: its enum holds no region
    status = Parameter(name="state", type="string", enum=["open", "closed", "all"])
    assert _values("Issues filed from Raleigh, NC", city, status).get("state") != "NC"


def test_the_code_of_a_city_s_own_country_is_its_country_though_a_state_shares_it() -> None:
    city = Parameter(name="city", type="string", required=True)
    state = Parameter(name="state", type="string")
    country = Parameter(name="country", type="string")
    got = _values("Give me a 7-day forecast for Berlin, DE.", city, state, country)
    assert got.get("country") == "DE" and "state" not in got  # Germany, not Delaware
    # ... while a US state written after a city abroad of the same name is its state
    assert _values("Weather in Paris, TX today", city, state, country).get("state") == "TX"


def test_a_city_the_gazetteer_knows_is_a_place_written_in_lower_case_after_in() -> None:
    city = Parameter(name="city", type="string", required=True, description=CITY_STATE)
    assert _values("I need a therapist for my family in berkeley.", city) == {"city": "Berkeley, CA"}
    plain = Parameter(name="location", type="string", required=True)
    assert _values("any good tacos near san diego?", plain) == {"location": "San Diego"}
    # a lower-case word no city is named by stays no place
    assert _values("I need a therapist for my family in crisis.", plain) == {}


def test_an_airport_parameter_takes_the_code_the_airport_s_name_holds() -> None:
    origin = Parameter(name="origin_airport", type="string", required=True)
    assert _values("A one-way flight departing from JFK Airport to Portland", origin) == {"origin_airport": "JFK"}
    assert _values("A one-way flight departing from Munich Airport to Portland", origin) == {
        "origin_airport": "Munich Airport"}, "a name without a code is sent as written"
