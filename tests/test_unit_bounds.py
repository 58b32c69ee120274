"""A number written with a unit and a comparison fills the bound parameter in that unit
(``schemarouter.router.unit_bounds``), converted where the units differ."""

from __future__ import annotations

import pytest

from schemarouter.models import Parameter
from schemarouter.router.unit_bounds import bound_of, stated_unit
from schemarouter.router.values import open_values
from tests.open_world_support import read_question

DISTANCE = [Parameter(name="distance_km_min", type="number"), Parameter(name="distance_km_max", type="number")]
LENGTH = [Parameter(name="milliseconds_min", type="integer"), Parameter(name="milliseconds_max", type="integer")]


@pytest.mark.parametrize(("params", "question", "want"), [
    (DISTANCE, "Which trips were longer than 10 km?", {"distance_km_min": 10.0}),
    (DISTANCE, "trips shorter than 2.5 kilometres", {"distance_km_max": 2.5}),
    (DISTANCE, "trips of at least 800 m", {"distance_km_min": 0.8}),  # converted to the parameter's unit
    (LENGTH, "tracks longer than 5 minutes", {"milliseconds_min": 300000}),
    (LENGTH, "tracks under 90 seconds", {"milliseconds_max": 90000}),
    (DISTANCE, "trips longer than 20 minutes", {}),  # a time bounds no distance
])
def test_a_comparison_in_a_unit_bounds_the_parameter_in_that_unit(params: list[Parameter], question: str,
                                                                   want: dict[str, float]) -> None:
    assert open_values(params, read_question(question), "/trips").values == want


@pytest.mark.parametrize(("param", "bound"), [
    (Parameter(name="min_duration_seconds", type="integer"), ("lower", "s")),
    (Parameter(name="fare_max", type="number", description="Rows whose fare is at most this value (EUR)."),
     ("upper", "EUR")),
    (Parameter(name="capacity_min", type="integer", description="Rows whose capacity is at least this value."), None),
    (Parameter(name="weight_max", type="number", description="Rows whose weight is at most this value (kg)."),
     ("upper", "kg")),
    (Parameter(name="distance_km", type="number"), None),  # no end of a range
])
def test_a_bound_parameter_is_named_for_an_end_and_a_unit(param: Parameter, bound: tuple[str, str] | None) -> None:
    assert bound_of(param) == bound


@pytest.mark.parametrize(("question", "want"), [
    ("Which stations have a capacity of at least 20?", {"capacity_min": 20}),
    ("stations with capacity below 15", {"capacity_max": 15}),
    ("stations with a capacity of 20", {}),  # no comparison: no end of a range
])
def test_a_comparison_after_the_quantitys_name_bounds_that_end(question: str, want: dict[str, int]) -> None:
    params = [Parameter(name="capacity_min", type="integer"), Parameter(name="capacity_max", type="integer")]
    assert open_values(params, read_question(question), "/stations").values == want


@pytest.mark.parametrize(("question", "want"), [
    ("books cheaper than 20 USD", {"price_max": 20.0}),
    ("books that cost more than 15 USD", {"price_min": 15.0}),
])
def test_a_unit_the_description_closes_with_is_the_parameters(question: str, want: dict[str, float]) -> None:
    params = [Parameter(name="price_max", type="number", description="Maximum price in USD."),
              Parameter(name="price_min", type="number", description="Minimum price in USD.")]
    assert open_values(params, read_question(question), "/books").values == want


def test_a_field_answers_a_quantity_written_in_a_unit_of_its_kind_and_a_pure_number_only_its_own() -> None:
    from schemarouter.router.unit_bounds import in_unit_written

    assert in_unit_written("min", "trips shorter than 15 minutes") == "min"
    assert in_unit_written("km", "trips longer than 800 m") == "m"
    assert in_unit_written("percent", "bikes with a battery above 50%") == "percent"
    assert in_unit_written("1", "bikes with a battery above 50%") is None, "a count is no percentage"


WAIT = Parameter(name="time", type="integer", required=True,
                 description="The maximum time the customer is willing to wait, specified in seconds.")
RADIUS = Parameter(name="radius", type="integer", required=True, description="The radius, measured in kilometers.")
SPEED = Parameter(name="velocity", type="number", description="The velocity in meters per second.")
# how OpenAPI documents of scientific APIs state a unit: in brackets, after "in" or alone, or as a range
ALT_BRACKETED = Parameter(name="altitude", type="number", required=True, description="Altitude in (km)")
ALT_ALONE = Parameter(name="altitude", type="number", required=True, description="Altitude (km)")
ALT_RANGE = Parameter(name="altitude", type="number", required=True, description="Geodetic Altitude 0 km to 600 km.")


@pytest.mark.parametrize(("param", "question", "want"), [
    (WAIT, "A ride from 2020 Addison Street; I can wait up to 600 seconds", 600),  # not the street number
    (WAIT, "A ride; I can wait 10 minutes", 600),  # converted to the declared unit
    (RADIUS, "The 5 tallest mountains within 50km of Denver", 50),
    (RADIUS, "Mountains within 12,000 m of Denver", 12),  # thousands grouped
    (RADIUS, "Mountains within 30 minutes of Denver", None),  # a time is no radius
    (WAIT, "Tôi có thể chờ tối đa 10 phút", None),  # no unit this reading knows
    (SPEED, "A car going at 50 meters, then 20", None),  # "meters per second" is a unit not taken apart
    (ALT_BRACKETED, "Density of NRLMSISE-00 at 400 km above Darmstadt", 400),  # not the model's 00
    (ALT_ALONE, "Density of NRLMSISE-00 at 400 km above Darmstadt", 400),
    (ALT_RANGE, "Field at 3,000 m on Mount Rainier", 3),  # converted: the range says kilometres
])
def test_a_quantity_in_the_unit_a_parameter_is_declared_in_fills_it(param: Parameter, question: str,
                                                                    want: int | None) -> None:
    assert open_values([param], read_question(question), "/x").values.get(param.name) == want


def test_a_number_written_after_the_name_comes_before_one_in_its_unit() -> None:
    assert open_values([WAIT], read_question("Wait for a time of 30, at most 600 seconds"), "/x").values == {"time": 30}


UTC_HOURS = Parameter(name="utc", type="number", required=True, description="Coordinated Universal Time (hrs)")
UTC_HOUR = Parameter(name="utc", type="integer", required=True, description="Hour in 24 hour time.")
FLIGHT_HOURS = Parameter(name="hour", type="number", required=True, description="Duration of the flight, in hours")


@pytest.mark.parametrize(("param", "question", "want"), [
    (UTC_HOURS, "Density at 250 km at 22:30 UTC on 17 March 2015", 22.5),
    (UTC_HOURS, "Density at 600 km on 1 September 2018, 03:00 UTC", 3),
    (UTC_HOUR, "Dose rate at 12 km at 22:30 UTC on 17 March 2015", 22),
    (FLIGHT_HOURS, "Dose on a flight leaving at 22:30 UTC", None),  # a length of time is no time of day
])
def test_a_number_for_the_hour_of_the_day_takes_the_time_written_in_hours(param: Parameter, question: str,
                                                                          want: float | None) -> None:
    assert open_values([param], read_question(question), "/x").values.get(param.name) == want


def test_a_word_in_brackets_states_a_unit_only_where_it_is_one() -> None:
    from schemarouter.router.unit_bounds import stated_unit

    assert stated_unit("altitude", "Altitude (km)") == "km"
    assert stated_unit("distance", "Distance to a planet (e.g. Mars)") is None
    assert stated_unit("count", "How many, between 1 and 10 to return") is None


ALTITUDE = Parameter(name="altitude", type="number", required=True, description="Geodetic Altitude 0 km to 600 km.")


@pytest.mark.parametrize(("question", "want"), [
    ("Magnetic declination at Greenwich at sea level in 2021", 0),
    ("Compass correction for Auckland at ground level in 2024", 0),
    ("Declination and inclination at 70° S, 0° E, at the surface, for 2022", 0),
    ("Declination at 3,000 m above sea level", 3),  # a height written in a unit comes first
    ("Declination over the sea in 2021", None),
    ("Descend in 0.5 h back to ground level", 0),
    ("Dew point and sea-level pressure at Greenwich", None),  # a kind of pressure, not a height
])
def test_an_altitude_said_in_words_as_sea_or_ground_level_is_zero(question: str, want: int | None) -> None:
    assert open_values([ALTITUDE], read_question(question), "/wmm").values.get("altitude") == want



def test_a_number_in_the_unit_per_thing_the_declaration_states_is_the_parameter_s() -> None:
    energy = Parameter(name="energy", type="number", required=True,
                       description="Particle energy in MeV/n. Valid range: [0, 10^6] MeV/n")
    question = "Flux of galactic cosmic-ray oxygen nuclei at 250 MeV/nucleon on 15 July 2017?"
    assert open_values([energy], read_question(question), "/gcr/flux").values == {"energy": 250}
    assert open_values([energy], read_question("flux at 2.5 MeV/n"), "/gcr/flux").values == {"energy": 2.5}
    # another unit, or the same per another thing, is not converted
    assert open_values([energy], read_question("flux at 250 keV/nucleon"), "/gcr/flux").values == {}
    assert open_values([energy], read_question("flux at 250 MeV/proton"), "/gcr/flux").values == {}
    # a whole number only for an integer parameter
    steps = Parameter(name="steps", type="integer", description="Speed in m/s")
    assert open_values([steps], read_question("at 9.8 m/s"), "/fall").values == {}


def test_a_format_written_like_a_unit_is_no_unit() -> None:
    month = Parameter(name="month", type="integer", required=True, description="Month in MM format")
    altitude = Parameter(name="altitude", type="number", required=True, description="Altitude in (km)")
    got = open_values([month, altitude], read_question("Density at 420 km altitude, please"), "/atmosphere").values
    assert got.get("altitude") == 420 and "month" not in got  # MM is how a month is written, not millimetres


@pytest.mark.parametrize(("name", "description", "unit"), [
    # a letter in brackets after the quantity's name is its symbol; the unit is said after "in"
    ("inductance", "The inductance (L) in henries (H).", "H"),
    ("capacitance", "The capacitance (C) in farads (F).", "F"),
    ("altitude", "Altitude (in km)", "km"),
    ("timeout", "time in seconds to wait", "s"),
])
def test_the_unit_a_description_states_is_the_one_said_after_in(name: str, description: str, unit: str) -> None:
    assert stated_unit(name, description) == unit


def test_a_number_written_after_its_name_in_another_unit_of_its_kind_is_converted() -> None:
    params = [Parameter(name="inductance", type="number", required=True, description="The inductance (L) in henries (H)."),
              Parameter(name="capacitance", type="number", required=True, description="The capacitance (C) in farads (F).")]
    question = read_question("the resonant frequency given capacitance of 100µF and inductance of 50mH")
    assert open_values(params, question, "/resonance").values == {"inductance": 0.05, "capacitance": 0.0001}


@pytest.mark.parametrize(("name", "question", "want"), [
    # a unit alone: the one asked for, else the one the number is written in
    ("unit", "What is the circumference of a circle with a radius of 4 inches?", "inches"),
    ("units", "The current temperature in Hyderabad, India, in Celsius?", "Celsius"),
    ("unit", "The distance between (33.4484 N, 112.0740 W) and (34.0522 N, 118.2437 W) in miles.", "miles"),
    # a unit to convert to takes the one asked for, one to convert from the number's
    ("to_unit", "The speed of an object in km/h if it traveled 450 meters in 20 seconds.", "km/h"),
    ("from_unit", "The speed of an object in km/h if it traveled 450 meters in 20 seconds.", "meters"),
    # no unit: a stretch of time ahead, a count of units, a compass point, a place after "in"
    ("units", "The weather forecast for the next 5 days in Paris", None),
    ("unit", "I want to buy 30 units in stock", None),
    ("unit", "The place at 33.4484 N in Arizona", None),
])
def test_a_parameter_named_for_a_unit_takes_the_unit_the_question_writes(name: str, question: str,
                                                                         want: str | None) -> None:
    param = Parameter(name=name, type="string", description="The unit of measurement.")
    got = open_values([param], read_question(question), "/calculate").values.get(name)
    assert got == want
