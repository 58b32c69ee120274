"""Dates in the open route: dates read from the question (ISO, or with the month's name), a month or
year written alone, and the date parameters they fill, whole, in parts or as a span's bounds, in the
spelling each parameter declares."""

from __future__ import annotations

import pytest

from schemarouter.models import Parameter
from schemarouter.router.values import open_values
from schemarouter.understand.base import Analysis, Understanding
from schemarouter.understand.entities import Entity
from schemarouter.understand.reading import read_values
from tests.open_world_support import read_question as _read


@pytest.mark.parametrize(("text", "dates"), [
    ("The astronomy picture of the day for July 4, 2010", ["2010-07-04"]),
    ("Sightings on the 4th of July 2010 and on 2011-02-03", ["2010-07-04", "2011-02-03"]),
    ("Papers from 2020-01-01 to Sept. 3rd, 2021", ["2020-01-01", "2021-09-03"]),
    ("Launches on 31 February 2020", []),  # no such day
])
def test_dates_written_with_a_months_name_are_read_as_iso_dates(text: str, dates: list[str]) -> None:
    a = _read(text)
    assert a.dates == dates
    # the month is no name and the day no count; neither is a word of what is asked
    assert not [n for n in a.names if str(n.value).lower().startswith(("july", "sept"))]
    assert not a.counts and not {"juli", "sept"} & set(a.terms)


@pytest.mark.parametrize(("text", "dates", "times"), [
    ("la température le 12 janvier 2022 à 8 h 15 UTC", ["2022-01-12"], ["08:15"]),
    ("Wetter am 3. März 2021 um 20h30", ["2021-03-03"], ["20:30"]),
    ("el clima el 5 de mayo de 2020", ["2020-05-05"], []),
    ("il meteo del 1 agosto 2019, o del 1er mai 2024", ["2019-08-01", "2024-05-01"], []),
    ("o tempo em 31 de fevereiro de 2020", [], []),  # no such day
    ("2018年1月1日 0時0分0秒(UTC)の電子フラックス", ["2018-01-01"], ["00:00:00"]),
    ("2022년 1월 12일 8시 15분 서울의 기온", ["2022-01-12"], ["08:15"]),
    ("8時間の飛行、3시간 15분", [], []),  # hours, a duration: no time of day
    # a month's name abroad is read only in a whole date: "Mars 2020" is a rover, "a 5 h flight" no time
    ("Photos from the Mars 2020 rover after a 5 h flight", [], []),
])
def test_dates_and_times_written_in_other_languages_are_read(text: str, dates: list[str], times: list[str]) -> None:
    a = _read(text)
    assert (a.dates, a.times) == (dates, times)


@pytest.mark.parametrize(("text", "months"), [
    ("The solar potential of the farm in December, given its area", ["December"]),
    ("Sales in Dec and Jan", ["Dec", "Jan"]),
    ("May I see the plays by August Wilson?", []),  # a sentence's first word, a name's first word
    ("Archived on 15 March 2019 or in March 2020", []),  # a whole date, a month with its year
])
def test_a_month_named_alone_is_read_as_written(text: str, months: list[str]) -> None:
    assert _read(text).month_names == months


def test_a_month_parameter_takes_the_month_named_alone() -> None:
    a = _read("How much could the solar farm produce in December, given 80000 sq ft of panels?")
    as_text = Parameter(name="month", type="string", description="The month for which to calculate the output")
    as_number = Parameter(name="month", type="integer")
    assert open_values([as_text], a, "/solar").values == {"month": "December"}
    assert open_values([as_number], a, "/solar").values == {"month": 12}
    # beside a year, a month alone is no date: the year and month parts take only a written date or month
    year = Parameter(name="year", type="integer", required=True)
    assert "month" not in open_values([year, as_number], a, "/archive/{year}/{month}").values


def test_a_date_written_in_french_fills_the_parts_of_a_date() -> None:
    a = _read("Densité à 420 km le 12 janvier 2022 à 8 h 15 UTC ?")
    parts = [Parameter(name=n, type="integer", required=True) for n in ("year", "month", "day")]
    assert open_values(parts, a, "/sample").values == {"year": 2022, "month": 1, "day": 12}


@pytest.mark.parametrize(("text", "dates"), [
    ("Events this Saturday 2023.10.1", ["2023-10-01"]),
    ("Trains on 2023/10/01 or 2023-5-2", ["2023-10-01", "2023-05-02"]),
    ("A concert on 09/09/2023 or on 25.12.2023", ["2023-09-09", "2023-12-25"]),
    ("Flights on 12/25/2023", ["2023-12-25"]),  # the month first, as 25 is no month
    ("Flights on 04/05/2023", []),  # April 5 or 4 May: not read
    ("Host 192.168.2.200, version 1.2.3, 2023.13.45", []),
])
def test_dates_written_in_digits_are_read_where_their_order_is_certain(text: str, dates: list[str]) -> None:
    assert _read(text).dates == dates


def test_a_format_that_restates_the_type_does_not_hide_a_date_parameter() -> None:
    # real documents say "format: string": that is no format, and start_date still takes a date
    a = _read("Hourly temperatures in Chicago, US between 2023-01-10 and 2023-01-11")
    params = [Parameter(name="start_date", type="string", format="string", required=True),
              Parameter(name="end_date", type="string", format="string", required=True)]
    assert open_values(params, a, "/history/hourly").values == {"start_date": "2023-01-10",
                                                                 "end_date": "2023-01-11"}


def test_an_endpoint_taking_a_date_in_parts_gets_the_parts_of_the_written_date() -> None:
    a = _read("Which variant sets were archived on 15 March 2019?")
    parts = [Parameter(name=n, type="integer", required=True) for n in ("year", "month", "day")]
    got = open_values(parts, a, "/variation/set/archive/{year}/{month}/{day}")
    assert got.values == {"year": 2019, "month": 3, "day": 15}
    assert got.used == {"2019-03-15"}, "the date is spent once"
    # a year alone is no date in parts: it takes the year the question writes, if any
    assert open_values(parts[:1], a, "/sets/{year}").values == {}


def test_a_month_written_with_its_year_fills_a_year_and_month_but_no_day() -> None:
    a = _read("Which New York Times articles were published in March 2019?")
    assert a.months == ["2019-03"] and not a.dates and not [n for n in a.names if "March" in str(n.value)]
    year_month = [Parameter(name=n, type="integer", format="int32", required=True) for n in ("year", "month")]
    assert open_values(year_month, a, "/{year}/{month}.json").values == {"year": 2019, "month": 3}
    with_day = [*year_month, Parameter(name="day", type="integer", required=True)]
    assert open_values(with_day, a, "/archive/{year}/{month}/{day}").values == {}, "a day needs a whole date"


@pytest.mark.parametrize(("description", "takes"), [("beginning row", False), ("", False),
                                                    ("Start date (YYYY-MM-DD)", True)])
def test_a_bound_takes_a_date_only_where_its_description_says_it_is_one(description: str, takes: bool) -> None:
    # "start" is as often a row offset as the start of a period
    a = _read("Variant sets archived on 2019-03-15")
    params = [Parameter(name="start", type="string", description=description)]
    assert open_values(params, a, "/variant-sets").values == ({"start": "2019-03-15"} if takes else {})


@pytest.mark.parametrize(("text", "counts"), [("Temperatures between 2023-01-10 and 2023-01-11", {}),
                                              ("Sizes 3 and 4 of run 12.5 and more", {"size": 3})])
def test_a_count_is_never_read_from_the_tail_of_a_date_or_a_joining_word(text: str, counts: dict[str, int]) -> None:
    assert _read(text).counts == counts


@pytest.mark.parametrize(("question", "start", "end"), [
    ("Pageviews of fr.wikipedia.org in March 2024", "20240301", "20240331"),  # a month: its first and last days
    ("Views from 2024-02-01 to 2024-02-07", "20240201", "20240207"),
    ("Views between January 2023 and June 2023", "20230101", "20230630"),
    ("New accounts in February 2024", "20240201", "20240229"),  # a leap year's February
])
def test_a_date_is_written_as_the_parameter_declares_and_a_month_or_year_bounds_a_span(
        question: str, start: str, end: str) -> None:
    # Wikimedia's metrics take start and end "in YYYYMMDD format", said only in their descriptions
    params = [Parameter(name="start", type="string", required=True,
                        description="The date of the first day to include, in YYYYMMDD format"),
              Parameter(name="end", type="string", required=True,
                        description="The date of the last day to include, in YYYYMMDD format")]
    assert open_values(params, _read(question), "/metrics/{start}/{end}").values == {"start": start, "end": end}
    # a year the entity readers found: its first and last days
    a = _read("New accounts each month in 2022")
    a.entities.append(Entity("year", "2022", 31, 35, "2022"))
    filled = open_values(params, a, "/metrics/{start}/{end}")
    assert filled.values == {"start": "20220101", "end": "20221231"}
    assert "2022" in filled.used, "both bounds spend the year as written"


def test_a_dates_written_form_comes_from_a_declared_pattern_or_the_description() -> None:
    from schemarouter.router.param_facts import date_spelling

    def spelling(description: str = "", pattern: str | None = None) -> str:
        return date_spelling(Parameter(name="start", type="string", description=description, pattern=pattern))

    assert spelling(pattern=r"^\d{8}$") == "YYYYMMDD" and spelling(pattern=r"\d{10}") == "YYYYMMDDHH"
    assert spelling("The first day, in YYYYMMDD or YYYYMMDDHH format") == "YYYYMMDD"
    assert spelling("An ISO date, YYYY-MM-DD") == "", "ISO 8601 is how dates are written anyway"
    assert spelling("The first day to include") == ""
    hourly = Parameter(name="start", type="string", required=True, pattern=r"^\d{10}$",
                       description="The first date and hour to include")
    assert open_values([hourly], _read("Views since 2024-02-01"), "/views").values == {"start": "2024020100"}


@pytest.mark.parametrize(("text", "dates"), [
    # the one year the question writes is the year of the dates written without one
    ("Departing on April 15th and returning on April 22nd 2023", ["2023-04-15", "2023-04-22"]),
    ("Music events in Seattle on March 11th? this year 2023", ["2023-03-11"]),
    ("Coming back on the 6th of March, leaving on 2023-03-01", ["2023-03-06", "2023-03-01"]),
    ("The forecast for April 13th of next year? today is 2023.10.1", ["2024-04-13", "2023-10-01"]),
    # no year, two years, a lower-case "may" (the verb), an impossible day: not read
    ("Theater events in London on March 12th", []),
    ("From March 9th, between 2021 and 2023", []),
    ("Five people may 3 times visit in 2020", []),
    ("A music event on the 1st of march? 2023", ["2023-03-01"]),  # an ordinal day: a date however written
    ("Concerts on February 30th 2023 or March 1st", ["2023-03-01"]),
])
def test_a_date_written_without_its_year_takes_the_one_year_the_question_writes(text: str, dates: list[str]) -> None:
    assert _read(text).dates == dates


def test_a_date_parameter_takes_the_date_written_after_its_own_words() -> None:
    # "departure" and "return" are neither a start nor an end by name: the words before each date say
    params = [Parameter(name="departure_date", type="string", description="The departure date, 'YYYY-MM-DD'."),
              Parameter(name="return_date", type="string", description="The return date, 'YYYY-MM-DD'.")]
    a = _read("Coming back on the 6th of March 2023, departing on the 1st of March 2023")
    got = open_values(params, a, "/flights").values
    assert got == {"departure_date": "2023-03-01", "return_date": "2023-03-06"}
    # where the words do not tell (or tell for both), the first and last dates as before
    pick = [Parameter(name="pickup_date", type="string", description="The pickup date, 'YYYY-MM-DD'."),
            Parameter(name="end_date", type="string", description="The end date, 'YYYY-MM-DD'.")]
    a = _read("A car from April 8th 2023 until April 10th")
    assert open_values(pick, a, "/cars").values == {"pickup_date": "2023-04-08", "end_date": "2023-04-10"}


@pytest.mark.parametrize(("text", "times"), [
    ("Pick it up at 10:00 AM", ["10:00"]),
    ("At 2pm or 6 p.m., not at 12 am", ["14:00", "18:00", "00:00"]),
    ("Hopefully at 10 in the morning or 3 in the afternoon", ["10:00", "15:00"]),
    ("Lunch at noon, back by 14:30:15", ["12:00", "14:30:15"]),
    ("Version 1.2:3 of 25:99 and the year 2020-01-01T10:15:30", []),
])
def test_times_of_day_are_read_on_a_24_hour_clock(text: str, times: list[str]) -> None:
    assert _read(text).times == times


def test_a_time_parameter_takes_the_time_written_as_its_description_gives_the_form() -> None:
    from schemarouter.router.param_facts import clock_template

    def form(description: str, **kw: object) -> str:
        return clock_template(Parameter(name="pickup_time", type="string", description=description, **kw))

    assert form("The pickup time on the start date, in 24-hour format 'HH:MM'.") == "HH:MM"
    assert form("The start time, in the format of 'HH:mm:ss'.") == "HH:MM:SS"
    assert form("The time for picking up the car in the format 'HH:MM AM/PM'.") == "HH:MM AM/PM"
    assert form("The tentative time for the reservation in 24-hour format, such as '18:00'.") == "HH:MM"
    assert form("The departure in the format of 'dd/mm/yyyy HH:MM'.") == "", "a date and a time"
    assert form("Preferred time of flight. Default is 'morning'.") == ""
    assert form("The time, 'HH:MM'.", enum=["09:00", "10:00"]) == ""
    params = [Parameter(name="start_date", type="string", required=True, description="The start date, 'YYYY-MM-DD'."),
              Parameter(name="pickup_time", type="string", required=True,
                        description="The pickup time on the start date, in 24-hour format 'HH:MM'."),
              Parameter(name="return_time", type="string", description="The return time, 'HH:MM AM/PM'.")]
    a = _read("A car on April 8th 2023, picking it up at 10 in the morning, returning it at 5pm")
    assert open_values(params, a, "/cars").values == {
        "start_date": "2023-04-08", "pickup_time": "10:00", "return_time": "05:00 PM"}
    # with no time written, a time parameter takes nothing: not the date, not a place
    a = _read("A car in Los Angeles on April 8th 2023")
    assert open_values(params, a, "/cars").values == {"start_date": "2023-04-08"}


@pytest.mark.parametrize(("text", "dates"), [
    # today's date, once written, dates what the question says relative to it (and is no asked date)
    ("Book it for tomorrow. Today is 2023-10-01", ["2023-10-02"]),
    ("The forecast for the upcoming Wednesday, today is Tuesday April 25th 2023", ["2023-04-26"]),
    ("Events next Sunday? today is 2023-10-01", ["2023-10-08"]),  # a Sunday: next Sunday is a week on
    ("Events this Sunday? today is 2023-10-01", ["2023-10-01"]),
    ("Flights the day after tomorrow; today is 2024-02-28", ["2024-03-01"]),
    # no date written for today: "tomorrow" dates nothing; a date "today" does not open is asked
    ("Book it for tomorrow", []),
    ("What is the weather for today April 25th 2023?", ["2023-04-25"]),
])
def test_a_day_said_relative_to_today_is_dated_from_the_date_the_question_gives_for_today(
        text: str, dates: list[str]) -> None:
    assert _read(text).dates == dates


def test_a_date_form_written_month_or_day_first_is_how_the_date_is_sent() -> None:
    from schemarouter.router.param_facts import date_spelling

    def form(description: str) -> str:
        return date_spelling(Parameter(name="date", type="string", description=description))

    assert form("The date of the event, in the format 'MM/DD/YYYY'.") == "MM/DD/YYYY"
    assert form("The date in the format of dd-mm-yyyy") == "DD-MM-YYYY"
    assert form("The date, 'YYYY-MM-DD'.") == ""
    journey = Parameter(name="date_of_journey", type="string", required=True,
                        description="The date of the journey in the format 'MM/DD/YYYY'.")
    a = _read("Trains from Anaheim to Berkeley on April 10, 2023")
    assert open_values([journey], a, "/trains").values == {"date_of_journey": "04/10/2023"}


def test_a_time_parameter_that_gives_no_form_takes_the_time_as_written() -> None:
    time = Parameter(name="time", type="string", required=True, description="The local time to convert, e.g. 3pm")
    assert open_values([time], _read("Convert 3pm from New York time to London time"), "/convert").values == {
        "time": "3pm"}
    # the stop that ends the sentence is no part of the time ("p.m." keeps its own)
    assert open_values([time], _read("The air quality in San Diego at 12pm."), "/aqi").values == {"time": "12pm"}
    assert open_values([time], _read("The air quality in San Diego at 6 p.m."), "/aqi").values == {"time": "6 p.m."}


@pytest.mark.parametrize(("text", "counts"), [
    ("Book two smoking rooms in London", {"smoke": 2, "room": 2}),
    # a small word, a comma, "per" or a word of comparison ends what a number counts
    ("Show 10 entries per page", {"show": 10, "entri": 10}),
    ("Rooms for me and one other adult", {"other": 1}),
    ("100 million outstanding shares", {"million": 100}),  # a scale, not a count of shares
    ("At least 3 bedrooms, 2 bathrooms and a garage", {"least": 3, "bedroom": 3, "bathroom": 2}),
    ("5 heads in 8 tosses", {"head": 5, "toss": 8}),
])
def test_a_count_carries_to_the_words_that_say_what_it_counts(text: str, counts: dict[str, int]) -> None:
    assert _read(text).counts == counts


def test_a_count_said_with_an_adjective_fills_the_parameter_named_for_its_noun() -> None:
    rooms = [Parameter(name="number_of_rooms", type="integer", required=True)]
    assert open_values(rooms, _read("I need two smoking rooms in a hotel in London"), "/hotels").values == {
        "number_of_rooms": 2}
    # a parameter named for a page's size takes the number written before "per page"; a page number does not
    per_page = [Parameter(name="perPage", type="integer"), Parameter(name="page", type="integer")]
    assert open_values(per_page, _read("Sensor alerts, showing 10 entries per page"), "/alerts").values == {
        "perPage": 10}


@pytest.mark.parametrize(("question", "limit"), [
    ("Find studies on human proteins, at most 5", 5),
    ("What are the top five sushi restaurants in Tokyo?", 5),
    ("Show me 20 results about graphene", 20),
    ("Studies of BRCA1 published in 2019", None),  # a year is no number of records
    ("The 3 most cited papers of 2019", 3),  # a number before a superlative: how many of the top
    ("Which 2 measurements have the highest band gap?", 2),  # the records counted, then ordered
    ("In 2019, the latest papers on graphene", None),  # a year counts nothing
])
def test_a_parameter_named_for_how_many_records_takes_the_number_the_question_asks_for(
        question: str, limit: int | None) -> None:
    params = [Parameter(name="limit", type="integer"), Parameter(name="max_results", type="integer")]
    values = open_values(params, _read(question), "/studies").values
    assert values.get("limit") == limit


def test_a_doi_goes_to_the_record_it_names_not_to_a_filter_named_for_something_else() -> None:
    q = "How many citations does the dataset 10.5281/zenodo.1234 have?"
    doi = Entity("doi", "10.5281/zenodo.1234", 36, 55, "10.5281/zenodo.1234", {"declared": True})
    a = Analysis(question=q, understanding=Understanding(), entities=[doi])
    read_values(a, q, [])
    kind = [Parameter(name="resource-type-id", type="string")]
    assert open_values(kind, a, "/works").values == {}
    record = [Parameter(name="id", type="string", required=True)]
    assert open_values(record, a, "/works/{id}").values == {"id": "10.5281/zenodo.1234"}
    own = [Parameter(name="doi", type="string")]
    assert open_values(own, a, "/works").values == {"doi": "10.5281/zenodo.1234"}


def test_a_number_with_thousands_separators_counts_nothing() -> None:
    # "$400,000 budget" is a budget of 400,000, not 0 of them; "1,500 units" no 500 units
    assert _read("A 3 bedroom villa for sale within $300,000 to $400,000 budget").counts == {"bedroom": 3, "villa": 3}
    assert _read("I sold 1,500 units last year").counts == {}
    assert _read("room 12, 3 nights").counts == {"room": 12, "night": 3}, "a comma between two counts"
