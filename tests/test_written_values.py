"""How the values a question writes are read for parameters: numbers with exponents and scale words,
lists in brackets (nested, negative, quoted), and two joined names shared by a pair of parameters."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter.models import Parameter
from schemarouter.router import Router
from schemarouter.router.guesses import guess_required, paired, split_pair
from schemarouter.router.modifiers import modified_noun
from schemarouter.router.numbers import list_items, number_after, with_scale, written_lists
from schemarouter.router.spans import names_a_span, written_span
from schemarouter.router.values import Filled, open_values
from schemarouter.understand.reading import trimmed_value
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


@pytest.fixture(scope="module")
def router(graph: Any) -> Router:
    return Router(graph)


@pytest.mark.parametrize(("token", "question", "want"), [
    ("213", "the population is 213 million and the area", "213000000"),
    ("8.5", "a land area of 8.5 million square kilometers", "8500000"),
    ("1.25", "revenue of 1.25 billion dollars", "1250000000"),
    ("0.5", "half: 0.5 thousand", "500"),
    ("5", "5 stars and 5 million reviews", "5"),  # a token written twice: its first writing counts
    ("12", "12 apples", "12"),
])
def test_a_scale_word_after_a_number_multiplies_it(token: str, question: str, want: str) -> None:
    assert with_scale(token, question) == want


def test_a_number_with_an_exponent_is_one_number(router: Router) -> None:
    analysis = router.understander.understand("Potential between bodies charged 1e-9 and 2E-9 at 0.05 m",
                                              router.graph)
    assert number_after("charged", analysis) == "1e-9"


def test_a_scaled_number_fills_a_parameter_named_before_it(router: Router) -> None:
    from schemarouter.router.values import open_values

    analysis = router.understander.understand("Density of Brazil if the population is 213 million", router.graph)
    population = Parameter(name="population", type="integer", required=True)
    got = open_values([population], analysis, "/density")
    assert got.values == {"population": 213000000}
    assert "213" in got.used, "what the question wrote is what is spent"


@pytest.mark.parametrize(("question", "want"), [
    ("cash flows: [-50000, 10000, 15000] at 8%", [[-50000, 10000, 15000]]),
    ("a contingency table [ [10, 20], [30, 40] ] please", [[[10, 20], [30, 40]]]),
    ("groups [1, 2] and [3.5, 4]", [[1, 2], [3.5, 4]]),
    ("names ['a b', \"c\"]", [["a b", "c"]]),
    ("no list here (3, 4)", []),
    ("an open [bracket", []),
])
def test_lists_in_brackets_are_read_whole(question: str, want: list[Any]) -> None:
    assert [list_items(text) for _pos, text in written_lists(question)] == want


def test_an_array_takes_the_bracketed_list_with_its_negative_numbers(router: Router) -> None:
    from schemarouter.router.values import open_values

    analysis = router.understander.understand("NPV of the cash flows [-50000, 10000, 15000] discounted at 8%",
                                              router.graph)
    flows = Parameter(name="cash_flows", type="array", required=True)
    assert open_values([flows], analysis, "/npv").values == {"cash_flows": [-50000, 10000, 15000]}
    table = router.understander.understand("Chi-squared test on the table [[10, 20], [30, 40]]", router.graph)
    cells = Parameter(name="table", type="array", required=True)
    assert guess_required([cells], table, Filled(), lambda: None).values == {"table": [[10, 20], [30, 40]]}


@pytest.mark.parametrize(("names", "want"), [
    (["company1", "company2", "year"], [("company1", "company2")]),
    (["start_city", "end_city"], [("start_city", "end_city")]),
    (["origin", "destination", "date"], [("origin", "destination")]),
    (["sourceLang", "targetLang"], [("sourceLang", "targetLang")]),
    (["team", "team_name"], []),
    (["start_date"], []),  # no second
])
def test_pairs_of_parameters_are_told_by_their_names(names: list[str], want: list[tuple[str, str]]) -> None:
    assert list(paired(tuple(names))) == want


def test_two_joined_names_go_one_to_each_parameter_of_a_pair() -> None:
    pairs = paired(("company1", "company2"))
    got = split_pair(pairs, Filled(values={"company1": "Apple and Samsung"}))
    assert got.values == {"company1": "Apple", "company2": "Samsung"}
    guessed = Filled(values={"company1": "Apple and the Samsung", "company2": "USA"}, guessed={"company2"})
    assert split_pair(pairs, guessed).values == {"company1": "Apple", "company2": "Samsung"}, "a guess yields"
    given = Filled(values={"company1": "Apple and Samsung", "company2": "LG"})
    assert split_pair(pairs, given).values == {}, "a value of the question's stays"
    read_twice = Filled(values={"company1": "Apple and Samsung", "company2": "Samsung"})
    assert split_pair(pairs, read_twice).values == {"company1": "Apple", "company2": "Samsung"}, (
        "the second name read for the second parameter too is no value of its own")
    three = Filled(values={"company1": "Apple, LG and Samsung"})
    assert split_pair(pairs, three).values == {}, "three names are no pair"


def test_a_one_letter_name_alone_is_a_variable_not_an_abbreviation(router: Router) -> None:
    from schemarouter.router.values import open_values

    analysis = router.understander.understand("Roots of a quadratic equation with coefficients 5, 20, and -25",
                                              router.graph)
    params = [Parameter(name=n, type="integer", required=True) for n in ("a", "b", "c")]
    read = open_values(params, analysis, "/roots")
    assert "c" not in read.values, "'c' is no abbreviation of 'coefficients'"
    guessed = guess_required(params, analysis, read, lambda: None)
    assert guessed.values == {"a": 5, "b": 20, "c": -25}
    versioned = router.understander.understand("Release notes of version 2", router.graph)
    number = Parameter(name="v_number", type="integer", required=True)
    assert open_values([number], versioned, "/notes").values == {"v_number": 2}, "in a compound name it is one"


def test_a_number_after_the_head_of_a_name_or_after_a_text_parameters_name_is_its_value(router: Router) -> None:
    from schemarouter.router.values import open_values

    def values(question: str, *params: Parameter) -> dict[str, Any]:
        return open_values(list(params), router.understander.understand(question, router.graph), "/find").values

    rating = Parameter(name="avg_rating", type="number")
    # the question writes the name's head noun ("rating"), not "avg"
    assert values("A housekeeper with an average rating of at least 4.9", rating) == {"avg_rating": 4.9}
    assert values("A cleaner with a high average rating, preferably 4.5 or above", rating) == {"avg_rating": 4.5}
    # a rating is written as a review score or as stars too, and "not less than" leads to its bound
    assert values("Find a cleaner in Bangkok. Review score not less than 4.7", rating) == {"avg_rating": 4.7}
    assert values("A hotel with a review score of 4.5 stars or more", rating) == {"avg_rating": 4.5}
    assert values("A 4 stars hotel near the station", rating) == {"avg_rating": 4}
    assert values("A museum with 4 floors and a score board", rating) == {}
    # only leading words may stand between the head and the number: 16 measures something else
    start = Parameter(name="start_note", type="number")
    assert values("A melody starting with the note C4, 16 measures long", start) == {}
    # a text parameter takes the number written right after its whole name, never one before it
    width, height = Parameter(name="width", type="string"), Parameter(name="height", type="string")
    assert values("A cat picture with a width of 500 pixels and a height of 300 pixels", width, height) == {
        "width": "500", "height": "300"}
    recipe = Parameter(name="recipe", type="string")
    assert values("A lunch recipe under 500 calories", recipe).get("recipe") != "500", "a bound is no value of text"
    game = Parameter(name="game", type="string")
    assert values("The schedule for the next 6 games in the Premier League", game).get("game") != "6"


def test_a_last_resort_guess_never_takes_a_word_or_number_of_a_date(router: Router) -> None:
    city = Parameter(name="from_city", type="string", required=True)
    seats = Parameter(name="seats", type="integer", required=True)
    a = router.understander.understand("Which buses leave on March 4th 2023 at 10:00 AM?", router.graph)
    guessed = guess_required([city, seats], a, Filled(), lambda: None).values
    assert guessed.get("from_city") not in ("March", "AM") and guessed.get("seats") not in (4, 2023)
    # the numbers of a time of day are still numbers: a clock's hands at 6:30 PM
    hours, minutes = Parameter(name="hours", type="integer", required=True), Parameter(name="minutes", type="integer", required=True)
    a = router.understander.understand("The angle between the hands of a clock at 6:30 PM", router.graph)
    assert guess_required([hours, minutes], a, Filled(), lambda: None).values == {"hours": 6, "minutes": 30}


def test_a_run_of_words_is_never_guessed_for_a_date(router: Router) -> None:
    # "03/07/2023" is no date the reader can tell (March 7th or July 3rd): the date stays missing, and
    # the words the endpoint does not explain ("Hey") go to no date parameter
    date = Parameter(name="departure_date", type="string", required=True,
                     description="The date of departure, formatted as 'MM/DD/YYYY' (e.g., '04/25/2023').")
    note = Parameter(name="note", type="string", required=True)
    a = router.understander.understand("Hey, find a bus leaving on 03/07/2023.", router.graph)
    guessed = guess_required([date, note], a, Filled(), lambda: "Hey")
    assert "departure_date" not in guessed.values and guessed.values.get("note") == "Hey"


def test_a_label_before_a_colon_is_no_code_and_a_closing_bracket_no_part_of_a_value(router: Router) -> None:
    apt = Parameter(name="apt", type="string", required=True, description="FAA or ICAO airport identifier")
    a = router.understander.understand("Chart changes for Asheville Regional Airport (ICAO: AVL)?", router.graph)
    assert guess_required([apt], a, Filled(), lambda: None).values == {"apt": "AVL"}
    # the initials of the words before them, in brackets, are an abbreviation, not a code to send
    a = router.understander.understand(
        "Find the Airport Facility Directory (AFD) for Asheville Regional Airport (ICAO: AVL)", router.graph)
    assert guess_required([apt], a, Filled(), lambda: None).values == {"apt": "AVL"}
    fac = Parameter(name="fac", type="string", required=True)
    a = router.understander.understand("Who controls the airspace around Shez Ansari (fac: CHI) on VATSIM?", router.graph)
    assert guess_required([fac], a, Filled(), lambda: None).values == {"fac": "CHI"}


def test_a_required_page_size_the_question_does_not_give_is_the_most_its_description_allows(router: Router) -> None:
    from schemarouter.router.guesses import page_size_bound

    per_page = Parameter(name="perPage", type="integer", required=True,
                         description="The number of entries per page. Must be within the range of 3 to 100.")
    a = router.understander.understand("The latest readings of the sensors in network 'n1'", router.graph)
    guessed = guess_required([per_page], a, Filled(), lambda: None)
    assert guessed.values == {"perPage": 100} and "perPage" in guessed.guessed
    assert page_size_bound(Parameter(name="limit", type="integer", description="At most 50 records")) == 50
    # a page number, or a size with no stated bound, is no page size to guess
    assert page_size_bound(Parameter(name="page", type="integer", description="Between 1 and 9")) is None
    assert page_size_bound(Parameter(name="perPage", type="integer", description="Entries per page")) is None


@pytest.mark.parametrize(("question", "want"), [
    ("A house in Austin for 4 people, at least 4.0 rating.", "4.0"),  # the name ends the sentence
    ("Hotels in Paris with rating: 4.5 please", "4.5"),  # the name labels the value with a colon
])
def test_a_name_followed_by_punctuation_is_still_the_name(router: Router, question: str, want: str) -> None:
    analysis = router.understander.understand(question, router.graph)
    assert number_after("rating", analysis) == want


def test_a_run_of_words_is_no_guess_for_a_country_nor_one_holding_a_value_already_taken(router: Router) -> None:
    # the last resort for a required text parameter is a run of the question's words; a country is a
    # name or a code, never "particularly interested", and "station KRDU" repeats the code city took
    analysis = router.understander.understand("Could you check the weather in London, particularly the wind?",
                                              router.graph)
    city = Parameter(name="city", type="string", required=True)
    country = Parameter(name="country", type="string", required=True)
    filled = Filled(values={"city": "London"}, used={"London"})
    assert "country" not in guess_required([city, country], analysis, filled, lambda: "particularly").values
    station = router.understander.understand("the forecast where weather station KRDU is located", router.graph)
    kind = Parameter(name="kind", type="string", required=True)
    taken = Filled(values={"city": "KRDU"}, used={"KRDU"})
    assert "kind" not in guess_required([city, kind], station, taken, lambda: "station KRDU").values
    assert guess_required([city, kind], station, taken, lambda: "weather station").values == {"kind": "weather station"}


@pytest.mark.parametrize(("question", "want"), [
    ("Stock prices of Microsoft for the last 2 weeks", "2 weeks"),
    ("How much traffic should I expect this weekend?", "weekend"),
    ("Rainfall over the past three years in Lima", "three years"),
    ("Usage of renewable energy for 6 months", "6 months"),
    ("Weekly report of the sales", None),  # a word for how often, no stretch of time
    ("Sales in 2023", None),  # a year is a date, read elsewhere
])
def test_a_stretch_of_time_is_read_as_written_for_a_parameter_named_for_one(question: str, want: str | None) -> None:
    assert written_span(question, set()) == want


@pytest.mark.parametrize(("words", "want"), [
    (("duration",), True), (("time", "frame"), True), (("time", "period"), True), (("timeframe",), True),
    (("date", "range"), False), (("time",), False), (("window", "size"), False),
])
def test_a_parameter_named_for_a_stretch_of_time_is_told_by_its_name(words: tuple[str, ...], want: bool) -> None:
    assert names_a_span(words) is want


def test_a_duration_parameter_takes_the_stretch_the_question_writes(router: Router) -> None:
    from schemarouter.router.values import open_values

    analysis = router.understander.understand("Retrieve stock prices of Microsoft and Google for the last 2 weeks.",
                                              router.graph)
    params = [Parameter(name="duration", type="string", required=True)]
    assert open_values(params, analysis, "/stock_prices").values == {"duration": "2 weeks"}


@pytest.mark.parametrize(("question", "name", "want"), [
    ("How much would I save if I switched to renewable energy sources for 3 months?", "energy_type", "renewable"),
    ("Analyze my scans from a multi-band sequence smoothed at 6mm", "sequence_type", "multi-band"),
    ("How much would I save if I switched energy sources?", "energy_type", None),  # no word before the noun
    ("Savings of the energy over a year", "energy_type", None),  # a small word says no kind
])
def test_a_parameter_named_for_a_kind_of_thing_takes_the_word_before_the_thing(
        router: Router, question: str, name: str, want: str | None) -> None:
    from schemarouter.router.values import open_values

    analysis = router.understander.understand(question, router.graph)
    got = open_values([Parameter(name=name, type="string", required=True)], analysis, "/savings").values
    assert got.get(name) == want


def test_the_name_a_question_introduces_its_asker_by_is_the_person_a_request_is_for(router: Router) -> None:
    from schemarouter.router.values import open_values

    params = [Parameter(name="airlines", type="string", required=True),
              Parameter(name="person_name", type="string", required=True)]
    analysis = router.understander.understand(
        "Hi, I am Karan. Can you tell me the status of my Indigo flight?", router.graph)
    assert open_values(params, analysis, "/flight_status").values == {"airlines": "Indigo", "person_name": "Karan"}
    # a name the question does not introduce its asker by is no one's name in particular
    other = router.understander.understand("Status of the Indigo flight booked by Karan?", router.graph)
    assert open_values(params[1:], other, "/flight_status").values.get("person_name") != "Indigo"


def test_a_stretch_of_time_that_owns_something_is_no_stretch_asked_for() -> None:
    assert written_span("Which of my students has not yet submitted this week's lab report?", set()) is None


@pytest.mark.parametrize(("words", "noun"), [
    (("energy", "type"), "energy"), (("outcome",), "outcome"), (("type",), None), (("start", "city"), None),
    (("points",), None),  # a plural names records, of which "the dew point" is none
])
def test_which_noun_s_modifier_a_parameter_takes_is_told_by_its_name(words: tuple[str, ...], noun: str | None) -> None:
    assert modified_noun(words) == noun


def test_a_parameter_named_by_one_noun_takes_the_word_written_before_it(router: Router) -> None:
    from schemarouter.router.values import open_values

    analysis = router.understander.understand(
        "Were PubChem substances 842121 and 842122 tested? List the assays with an active outcome.", router.graph)
    got = open_values([Parameter(name="outcome", type="string")], analysis, "/bioassays").values
    assert got == {"outcome": "active"}


@pytest.mark.parametrize(("name", "good", "bad"), [
    ("videoURL", ["https://www.youtube.com/watch?v=x1", "example.com/page", "https://192.168.1.1/api/v1"],
     ["How to Paint a Landscape", "provide"]),
    ("email", ["jane@lab.org"], ["ID", "jane"]),
    ("telno", ["+44 20 7946 0958", "5551234567"], ["BMI", "12"]),
    ("domain", ["stripe.com", "example.co.uk", "https://mycustomdomain.com"], ["ID", "Moskoz", "example"]),
    ("host", ["server.example.com", "localhost", "192.168.1.10"], ["Berlin", "primary_db"]),
    ("locale", ["en", "en-US", "de_DE"], ["Lionel Messi", "Women's World Cup"]),
])
def test_a_parameter_named_for_an_address_takes_only_a_value_of_its_shape(
        name: str, good: list[str], bad: list[str]) -> None:
    from schemarouter.router.param_facts import scheme_of

    shape = scheme_of(Parameter(name=name, type="string"))
    assert shape is not None
    assert all(shape.fullmatch(v) for v in good) and not any(shape.fullmatch(v) for v in bad)


def test_a_phone_number_is_never_guessed_from_a_code(router: Router) -> None:
    analysis = router.understander.understand("What is the BMI category of someone 180 cm tall?", router.graph)
    telno = Parameter(name="telno", type="string", required=True)
    assert "telno" not in guess_required([telno], analysis, Filled(), lambda: None).values


def test_a_country_is_never_guessed_from_a_city(router: Router) -> None:
    analysis = router.understander.understand("Weather in Bengaluru and in Chennai, in Fahrenheit", router.graph)
    country = Parameter(name="country", type="string", required=True)
    assert "country" not in guess_required([country], analysis, Filled(), lambda: None).values
    named = router.understander.understand("Weather in Bengaluru, India, in Fahrenheit", router.graph)
    assert guess_required([country], named, Filled(), lambda: None).values.get("country") == "India"


def test_an_ip_address_parameter_takes_only_an_address() -> None:
    from schemarouter.router.param_facts import scheme_of

    shape = scheme_of(Parameter(name="ip", type="string"))
    assert shape is not None and shape.fullmatch("192.168.1.100") and shape.fullmatch("2001:db8::1")
    assert not shape.fullmatch("DDoS")


def test_a_number_or_an_amount_is_never_guessed_from_words_and_a_uid_never_from_a_name(router: Router) -> None:
    analysis = router.understander.understand("Properties for sale in San Jose, California please", router.graph)
    number = Parameter(name="number", type="string", required=True)
    assert "number" not in guess_required([number], analysis, Filled(), lambda: None).values
    trip = router.understander.understand("Prayer times for Langkawi", router.graph)
    uid = Parameter(name="trip_uid", type="string", required=True)
    assert "trip_uid" not in guess_required([uid], trip, Filled(), lambda: None).values
    tracked = router.understander.understand("Where is the package NY323068698GB now?", router.graph)
    tracking = Parameter(name="tracking_number", type="string", required=True)
    assert guess_required([tracking], tracked, Filled(), lambda: None).values == {"tracking_number": "NY323068698GB"}



def test_a_unit_parameter_still_takes_the_unit_the_question_writes(router: Router) -> None:
    analysis = router.understander.understand("Convert 5 miles to kilometers", router.graph)
    p = Parameter(name="from_unit", type="string", required=True)
    assert guess_required([p], analysis, Filled(), lambda: "miles").values.get("from_unit") == "miles"


@pytest.mark.parametrize(("name", "question", "want"), [
    ("ip", "I want to check if this IP address, 192.168.2.200, was involved in any abuse reports.", "192.168.2.200"),
    ("ip", "Were there reports at 10:00:00 about the host 2001:db8::ff00:42:8329?", "2001:db8::ff00:42:8329"),
    ("domain", "How many pages of (www.example.com) does the search engine index?", "www.example.com"),
    ("email", "Is the address \"jane.doe@lab.org\" deliverable?", "jane.doe@lab.org"),
])
def test_a_value_of_an_address_s_shape_is_read_wherever_the_question_writes_it(
        router: Router, name: str, question: str, want: str) -> None:
    analysis = router.understander.understand(question, router.graph)
    p = Parameter(name=name, type="string", required=True)
    assert open_values([p], analysis, "/check").values == {name: want}


def test_a_phone_or_a_language_tag_is_not_read_off_any_word_of_its_shape(router: Router) -> None:
    # a date has a phone number's digits, and "an" a language tag's letters
    analysis = router.understander.understand("Is there an outage report from 2024-03-22?", router.graph)
    for name in ("phone", "locale"):
        assert name not in open_values([Parameter(name=name, type="string")], analysis, "/check").values


def test_a_date_is_never_guessed_from_a_time_of_day(router: Router) -> None:
    start = Parameter(name="start_date", type="string", required=True, description="The start date, YYYY-MM-DD")
    timed = router.understander.understand("A rental car in London, picking up at 10am", router.graph)
    assert "start_date" not in guess_required([start], timed, Filled(), lambda: None).values
    dated = router.understander.understand('A rental car in London from "2024-03-01", picking up at 10am', router.graph)
    assert guess_required([start], dated, Filled(), lambda: None).values.get("start_date") == "2024-03-01"



def test_a_value_written_in_brackets_after_its_label_loses_the_closing_bracket(router: Router) -> None:
    analysis = router.understander.understand(
        "Give me the balance sheet and the ESG score for Tesla (symbol: TSLA).", router.graph)
    symbol = Parameter(name="symbol", type="string", required=True)
    assert guess_required([symbol], analysis, Filled(), lambda: None).values == {"symbol": "TSLA"}
    # a bracket the value opens itself stays
    assert [trimmed_value(v) for v in ("TSLA).", "f(x)", "[1],", "(a, b)", "x))", "CHI)")] == \
        ["TSLA", "f(x)", "[1]", "(a, b)", "x", "CHI"]


@pytest.mark.parametrize("name", ["number", "street_number", "format", "offset", "page"])
def test_a_parameter_named_for_a_count_or_a_setting_takes_no_name(router: Router, name: str) -> None:
    analysis = router.understander.understand(
        "List the properties for sale in San Jose, California with their addresses", router.graph)
    p = Parameter(name=name, type="string", required=True)
    assert name not in open_values([p], analysis, "/properties").values
    assert name not in guess_required([p], analysis, Filled(), lambda: "properties for sale").values


_TRIP = "I'm planning a trip from Berlin to Munich next month. Can you find me the bus trips?"


@pytest.mark.parametrize(("name", "question", "run"), [
    ("currency", _TRIP, "Munich next month"),  # a currency is written as its code
    ("symbol", _TRIP, "Berlin"),  # a symbol, a ticker as a code too
    ("ticker", "What's the current stock price of Apple and Microsoft?", "Apple and Microsoft"),
    ("period", "My friend wants to know more about Google's cash flow. Can you fetch it?", "Google"),  # a setting
])
def test_a_parameter_for_a_code_or_a_setting_is_never_guessed_a_name_or_prose(
        router: Router, name: str, question: str, run: str) -> None:
    analysis = router.understander.understand(question, router.graph)
    param = Parameter(name=name, type="string", required=True)
    assert name not in guess_required([param], analysis, Filled(), lambda: run).values
    assert name not in open_values([param], analysis, "/records").values


@pytest.mark.parametrize(("name", "question", "value"), [
    ("currency", "Bus trips from Berlin to Munich, prices in EUR", "EUR"),
    ("ticker", "What is the price of MSFT right now?", "MSFT"),
])
def test_a_code_written_in_the_question_is_taken(router: Router, name: str, question: str, value: str) -> None:
    analysis = router.understander.understand(question, router.graph)
    param = Parameter(name=name, type="string", required=True)
    assert guess_required([param], analysis, Filled(), lambda: None).values == {name: value}


def _guessed(router: Router, question: str, names: list[str]) -> dict[str, Any]:
    analysis = router.understander.understand(question, router.graph)
    required = [Parameter(name=n, type="number", required=True) for n in names]
    return guess_required(required, analysis, Filled(), lambda: None).values


def test_a_number_in_degrees_south_or_west_is_negative(router: Router) -> None:
    got = _guessed(router, "Flux at 500 km altitude, 25° S latitude, 121.76° W longitude, 10 N of force",
                   ["coord1", "coord2", "coord3", "coord4"])
    # the hemisphere's sign is read only after a degree sign: "10 N" is ten newtons
    assert got == {"coord1": 500, "coord2": -25, "coord3": -121.76, "coord4": 10}


def test_a_number_written_twice_is_taken_once_per_writing(router: Router) -> None:
    # the other numbers first ("2 bedrooms and 2 bathrooms within 15 miles": 2, 15, then the second 2)
    got = _guessed(router, "homes with 2 bedrooms and 2 bathrooms within 15 miles", ["beds", "radius", "baths", "floors"])
    assert got == {"beds": 2, "radius": 15, "baths": 2}
    got = _guessed(router, "the flux at x = 1.5, y = 0, z = 0 km", ["coord1", "coord2", "coord3"])
    assert got == {"coord1": 1.5, "coord2": 0, "coord3": 0}


def test_a_source_the_question_names_is_no_value_to_guess() -> None:
    from schemarouter.plan import Understanding
    from schemarouter.understand.base import Analysis
    from schemarouter.understand.reading import read_values

    question = "Find the Monarch identifier for the gene of Marfan syndrome"
    analysis = Analysis(question=question, understanding=Understanding())
    analysis.source_spans = [(question.index("Monarch"), question.index("Monarch") + len("Monarch"))]
    read_values(analysis, question, analysis.source_spans)
    required = [Parameter(name="target", type="string", required=True),
                Parameter(name="scheme", type="string", required=True)]
    got = guess_required(required, analysis, Filled(used={"Marfan syndrome"}), lambda: None).values
    # "Monarch" names where to look, not what to send
    assert "Monarch" not in got.values()
    assert got == {"target": "Marfan"}
