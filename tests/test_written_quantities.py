"""Values a scientist writes by convention: a place as a latitude/longitude pair ("60° N, 150° W"), a
time of day taken apart or in hours, the middle of a year, a code in brackets after a name, a route
written as two codes joined by a dash, an element for an atomic number."""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.models import Parameter, Source
from schemarouter.router import Router
from schemarouter.router.values import open_values
from tests.open_world_support import read_question as _read
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


@pytest.mark.parametrize(("text", "pair", "written"), [
    ("Neutral wind at 250 km above 60° N, 150° W at 06:40 UTC", (60, -150), ("60", "150")),
    ("Field strength at 26° S, 50° W and 500 km altitude", (-26, -50), ("26", "50")),
    ("Gravity anomaly at 0°, 0°, with its unit", (0, 0), ("0", "0")),
    ("Geoid height at the tide gauge, 37.8063 N, 122.4659 W", (37.8063, -122.4659), ("37.8063", "122.4659")),
    ("Forecast at latitude -20, longitude 300 at 17:50", (-20, 300), ("-20", "300")),  # longitudes 0-360
    ("Flux at 500 km altitude, 25° S latitude, 310° E longitude", (-25, 310), ("25", "310")),
    ("Variation at 150° W, 60° N", (60, -150), ("60", "150")),  # the letters tell which is which
    ("Weather at 35.77, -78.64 tomorrow", (35.77, -78.64), ("35.77", "-78.64")),
    ("Weather at 35.77,-78.64 tomorrow", (35.77, -78.64), ("35.77", "-78.64")),
    # a decimal comma before a degree sign; its pieces are the pair's numbers too
    ("Densité au-dessus de 51,6° N, 0,5° E", (51.6, 0.5), ("51,6", "0,5", "51", "6", "0", "5")),
])
def test_a_place_is_one_pair_its_hemisphere_letters_sign_and_order(text: str, pair: tuple[float, float],
                                                                   written: tuple[str, str]) -> None:
    a = _read(text)
    assert a.coordinates == pair and a.coordinates_written == written


@pytest.mark.parametrize("text", [
    "Scores between 10.5 and 20.25",  # a span, not a place
    "Give me 10, 20 or 30 items",  # bare whole numbers
    "Flux at 10.5 s, 20 m from the source",  # "s" in lower case is seconds
    "Forecast for the year 2021.5, 20.1 days ahead",  # no pair begins inside a number
    "Two latitudes, 10° N and 20° S",
    "Give me 10,20 or 30 items",  # a comma between digits is a decimal comma only before a degree sign
])
def test_numbers_nothing_marks_as_a_place_are_no_coordinates(text: str) -> None:
    assert _read(text).coordinates is None


def test_a_place_fills_latitude_and_longitude_and_its_numbers_nothing_else() -> None:
    params = [Parameter(name="latitude", type="number", required=True),
              Parameter(name="longitude", type="number", required=True),
              Parameter(name="altitude", type="number", required=True, description="Altitude in km")]
    filled = open_values(params, _read("Neutral wind at 250 km above 60° N, 150° W"), "/wam-ipe")
    assert filled.values == {"latitude": 60.0, "longitude": -150.0, "altitude": 250}
    assert {"60", "150"} <= filled.used, "the pair's numbers are spent with it"
    # ... and no other parameter of the endpoint takes them, though it is read first ("altitude, 60")
    first = [Parameter(name="altitude", type="number", required=True, description="Altitude (in km), at most 47 km."),
             *params[:2]]
    filled = open_values(first, _read("Neutron flux at 12 km altitude, 60° N, 10° E"), "/intensity")
    assert filled.values == {"latitude": 60.0, "longitude": 10.0, "altitude": 12}


def _geomagnetic_model(extra: tuple[dict[str, object], ...] = ()) -> Source:
    params = [{"name": n, "type": "number", "required": True} for n in ("latitude", "longitude", "altitude")]
    return Source.model_validate({
        "id": "geomag", "title": "Geomagnetic field model", "domain": "geoscience", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [{"id": "magnetic_field", "base_url": "http://127.0.0.1:9", "path": "/magnetic_field",
                       "summary": "Magnetic declination and inclination at a point", "parameters": [*params, *extra],
                       "fields": [{"name": "declination", "path": "declination", "type": "number",
                                   "group": "content"}]}]})


def test_a_required_parameter_left_empty_is_not_guessed_from_the_pair_s_numbers(graph: SchemaGraph) -> None:
    source = _geomagnetic_model()
    plan = Router(with_catalogue(graph, source)).plan("Magnetic declination at Greenwich (51.48° N, 0.0° E)")
    step = plan.steps[0]
    assert (step.source, step.params.get("latitude"), step.params.get("longitude")) == ("geomag", 51.48, 0.0)
    assert "altitude" not in step.params, "51.48 is the latitude, not an altitude"


@pytest.mark.parametrize(("text", "values"), [
    ("Proton flux at 18:45:30 UTC on 4 July 2018", {"hour": 18, "minute": 45, "second": 30}),
    ("Electron flux at 12:30 UTC on 15 September 2018", {"hour": 12, "minute": 30, "second": 0}),
    ("Electron flux at 6:40 pm on 15 September 2018", {"hour": 18, "minute": 40, "second": 0}),
])
def test_an_endpoint_taking_a_time_in_parts_gets_the_parts_of_the_time_written(text: str,
                                                                             values: dict[str, int]) -> None:
    params = [Parameter(name=n, type="integer", required=True) for n in ("hour", "minute", "second")]
    filled = open_values([Parameter(name="coord3", type="number", required=True), *params], _read(text), "/flux")
    assert {k: filled.values.get(k) for k in values} == values
    hour = str(values["hour"] if "pm" not in text else 6)
    assert hour in filled.used, "the time's numbers are spent with it (no other number takes them)"


def test_a_parameter_named_for_hours_alone_is_no_part_of_a_time() -> None:
    # "hours" beside no "minute" is a duration as often as a time of day
    filled = open_values([Parameter(name="hours", type="integer")], _read("Forecast from 12:30 UTC"), "/forecast")
    assert "hours" not in filled.values


@pytest.mark.parametrize(("question", "year"), [
    ("Magnetic declination at 51.48° N, 0.0° E at sea level in mid-2021", 2021.5),
    ("Magnetic declination at 0° N, 100° W, 550 km up, halfway through 2024", 2024.5),
    ("Magnetic declination at 0° N, 100° W, 550 km up, in 2024", 2024),
])
def test_the_middle_of_a_year_is_half_a_year_on_for_a_decimal_year(graph: SchemaGraph, question: str,
                                                                   year: float) -> None:
    decimal = {"name": "year", "type": "number", "required": True,
               "description": "Year as a decimal in the range 2015-2025 (2017.5 would be half way through 2017)."}
    step = Router(with_catalogue(graph, _geomagnetic_model((decimal,)))).plan(question).steps[0]
    assert step.params.get("year") == year


def test_a_parameter_that_takes_a_code_gets_the_code_written_in_brackets_after_the_name() -> None:
    coded = [Parameter(name=n, type="string", required=True,
                       description=f"The ICAO code or IATA code of the {n} airport.") for n in ("origin", "destination")]
    question = _read("Cosmic radiation dose flying from Dubai (DXB) to Auckland (AKL) at 12 km for 17 hours")
    filled = open_values(coded, question, "/route/effective_dose")
    assert (filled.values["origin"], filled.values["destination"]) == ("DXB", "AKL")
    named = [Parameter(name=n, type="string", required=True, description=f"The {n} city.") for n in ("origin", "destination")]
    filled = open_values(named, question, "/route/effective_dose")
    assert (filled.values["origin"], filled.values["destination"]) == ("Dubai", "Auckland"), "a name stays a name"


@pytest.mark.parametrize(("text", "route"), [
    ("Ambient dose on a LHR-JFK crossing at 10.7 km lasting 7.5 h", ("LHR", "JFK")),
    ("Effective dose on the SYD\u2013LAX route at 12 km", ("SYD", "LAX")),
    ("Effective dose from FRA to HND at 11 km", ("FRA", "HND")),  # the role words come first
])
def test_a_route_written_as_two_codes_joined_by_a_dash_gives_where_it_starts_and_ends(
        text: str, route: tuple[str, str]) -> None:
    params = [Parameter(name=n, type="string", required=True, description=f"The IATA code of the {n} airport.")
              for n in ("origin", "destination")]
    filled = open_values(params, _read(text), "/route/dose")
    assert (filled.values.get("origin"), filled.values.get("destination")) == route


def _counts(*names: str) -> list[Parameter]:
    return [Parameter(name=n, type="integer", required=True) for n in names]


@pytest.mark.parametrize(("text", "want"), [
    # the same number counting two things is two values, each spent once
    ("Homes to rent with at least 2 bedrooms and 2 bathrooms", {"bedrooms": 2, "bathrooms": 2}),
    ("look for a 2-bedroom, 2-bathroom apartment", {"bedrooms": 2, "bathrooms": 2}),
    ("a house with 3 bedrooms and 2 bathrooms", {"bedrooms": 3, "bathrooms": 2}),
    # written once, it counts one thing: the other parameter stays empty
    ("Homes with 2 bedrooms", {"bedrooms": 2}),
])
def test_a_number_written_twice_counts_two_things(text: str, want: dict[str, int]) -> None:
    assert open_values(_counts("bedrooms", "bathrooms"), _read(text), "/homes").values == want


def test_a_number_written_as_a_rate_and_again_as_a_count_fills_both() -> None:
    params = [Parameter(name="annual_rate", type="number", required=True, description="The annual interest rate"),
              Parameter(name="time_in_years", type="integer", required=True)]
    filled = open_values(params, _read("an annual interest rate of 5% compounded monthly for 5 years"), "/interest")
    assert filled.values == {"annual_rate": 0.05, "time_in_years": 5}


@pytest.mark.parametrize(("text", "span"), [
    ("Key war events in German history from 1871 to 1945.", ("1871", "1945")),  # the sentence ends with it
    ("Kubernetes events from 193000 to 339000. Only updates", ("193000", "339000")),
    ("Scores between 10 and 20.5", ("10", "20.5")),
])
def test_a_span_of_numbers_may_end_a_sentence(text: str, span: tuple[str, str]) -> None:
    assert _read(text).spans == [span]


def test_a_span_of_years_fills_the_years_named_for_its_ends() -> None:
    params = [Parameter(name="start_year", type="integer", required=True),
              Parameter(name="end_year", type="integer", required=True)]
    # 1871 reads as no year entity, 1945 as one: each end still goes to its own parameter
    filled = open_values(params, _read("Key war events in German history from 1871 to 1945."), "/history/events")
    assert filled.values == {"start_year": 1871, "end_year": 1945}
    span = [Parameter(name="to", type="integer", required=True), Parameter(name="_from", type="integer")]
    filled = open_values(span, _read("Kubernetes events from 193000 to 339000. Only updates"), "/events")
    assert filled.values == {"to": 339000, "_from": 193000}


@pytest.mark.parametrize(("description", "question", "want"), [
    ("Type of the lawsuit, e.g., 'IPR', 'Patent', 'Commercial', etc. Default is 'all'.",
     "Find details of patent lawsuits involving the company 'Apple Inc.'", "Patent"),
    ("Mode of analysis, e.g. 'static' or 'dynamic'. Default is 'static'.",
     "the structural dynamic analysis of building B1004", "dynamic"),
    ("Preferred dietary consideration like vegan, vegetarian, gluten-free etc. Default is none.",
     "the recipe for a vegan chocolate cake", "vegan"),
    # the question says none, or two, of the listed values: the server's default stands
    ("Mode of analysis, e.g. 'static' or 'dynamic'.", "the structural analysis of building B1004", None),
    ("Mode of analysis, e.g. 'static' or 'dynamic'.", "static and dynamic analysis of building B1004", None),
    # one example shows a shape, not a choice
    ("The mode, e.g. dynamic.", "the dynamic analysis of building B1004", None),
])
def test_an_optional_text_takes_the_one_value_its_description_lists_that_the_question_says(
        description: str, question: str, want: str | None) -> None:
    p = Parameter(name="kind", type="string", description=description)
    assert open_values([p], _read(question), "/things").values.get("kind") == want
    required = p.model_copy(update={"required": True})
    assert open_values([required], _read(question), "/things").values.get("kind") != want or want is None, \
        "a required text is left to the guesses of router.guesses"


def test_an_optional_list_takes_every_value_its_description_lists_that_the_question_says() -> None:
    metrics = Parameter(name="metrics", type="array",
                        description="Sensor reading types to retrieve, such as 'temperature', 'humidity', 'pressure'.")
    filled = open_values([metrics], _read("the temperature and humidity readings of the last hour"), "/readings")
    assert filled.values == {"metrics": ["temperature", "humidity"]}
    assert open_values([metrics], _read("the readings of the last hour"), "/readings").values == {}


@pytest.mark.parametrize(("text", "want"), [
    ("Flux of galactic cosmic-ray oxygen nuclei at 250 MeV/nucleon on 15 July 2017", 8),
    ("Iron nuclei flux at 1000 MeV/n", 26),
    ("Flux of uranium ions and of helium nuclei at 500 MeV/n", 92),  # the first element named
    ("Flux of lead nuclei for the lead actor at 500 MeV/n", 82),
])
def test_an_element_named_is_its_atomic_number_for_a_parameter_that_takes_one(text: str, want: int) -> None:
    params = [Parameter(name="z", type="number", required=True, description="<br>Particle atomic number"),
              Parameter(name="energy", type="number", required=True, description="Particle energy in MeV/n")]
    filled = open_values(params, _read(text), "/gcr/flux")
    assert filled.values["z"] == want
    assert "atomic number" in filled.why["z"]


def test_an_element_named_fills_no_number_that_is_no_atomic_number_nor_one_not_said_of_particles() -> None:
    params = [Parameter(name="z", type="number", required=True, description="Height above the ellipsoid")]
    assert "z" not in open_values(params, _read("Oxygen nuclei density at 400 km"), "/atmosphere").values
    atomic = [Parameter(name="z", type="number", required=True, description="Particle atomic number")]
    # an element's name alone is an everyday word as often as an element
    assert "z" not in open_values(atomic, _read("The lead actor of the 2008 movie with a gold medal"), "/gcr").values
