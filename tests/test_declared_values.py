"""Values read as a declaration describes them: a place its summary quotes only as an example, an id
whose example is a compact URI, whole numbers, lists joined by "and", countries by name, members
written as phrases, codes a description explains, and who made a work."""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.graph.terms import stem
from schemarouter.models import Parameter, Source
from schemarouter.router import Router
from schemarouter.router.guesses import guess_required
from schemarouter.router.values import Filled, open_values
from tests.open_world_support import read_question as _read
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def _restaurants(summary: str) -> Source:
    return Source.model_validate({
        "id": "dining", "title": "Dining Guide", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [{
            "id": "find_restaurants", "base_url": "http://127.0.0.1:9", "path": "/restaurants",
            "summary": summary,
            "parameters": [
                {"name": "category", "type": "string", "required": True, "enum": ["Mexican", "Japanese", "Thai"],
                 "description": "The type of cuisine."},
                {"name": "location", "type": "string", "required": True,
                 "description": "The city, in the format of 'City, State', such as 'Berkeley, CA'."}],
            "fields": [{"name": "name", "path": "name", "type": "string", "group": "content"}],
        }],
    })


def test_a_place_a_summary_quotes_as_an_example_is_still_a_value_of_the_question(graph: SchemaGraph) -> None:
    # a registry whose summaries quote 'San Francisco, CA' as an example does not thereby name a
    # thing called San Francisco: the question's "San Francisco" is a place to send
    quoted = with_catalogue(graph, _restaurants("Find restaurants in a city such as 'San Francisco, CA'."))
    assert {"san", "francisco"}.isdisjoint(quoted.lexical.structural)
    plan = Router(quoted).plan("Find a Japanese restaurant in San Francisco?")
    [step] = plan.steps
    # the member the question names is spent on the category: the location takes the place
    assert (step.endpoint, dict(step.params)) == (
        "find_restaurants", {"category": "Japanese", "location": "San Francisco, CA"})
    # a summary that says the words outside quotes makes them the registry's own
    said = with_catalogue(graph, _restaurants("Find restaurants in San Francisco."))
    assert {"san", "francisco"} <= said.lexical.structural


def test_a_place_a_summary_names_after_like_is_an_example_not_a_word_of_the_registry(graph: SchemaGraph) -> None:
    # "for a city like Boston": the example is unquoted, and still a value; one such summary among
    # thousands of tools must not turn every "Boston" of a question into a word
    liked = with_catalogue(graph, _restaurants("Find restaurants in a city like Boston or New York."))
    assert {"boston", "new", "york"}.isdisjoint(liked.lexical.structural)
    assert stem("restaurants") in liked.lexical.structural
    plan = Router(liked).plan("Find a Japanese restaurant in Boston?")
    [step] = plan.steps
    assert dict(step.params) == {"category": "Japanese", "location": "Boston, MA"}
    # "such as concerts and plays" names kinds, in lower case: the registry's own words
    kinds = with_catalogue(graph, _restaurants("Find restaurants such as diners and bistros."))
    assert {stem("diners"), stem("bistros")} <= kinds.lexical.structural


def test_an_id_whose_example_is_a_compact_uri_takes_no_symbol() -> None:
    from schemarouter.router.param_facts import takes_curie

    ident = Parameter(name="id", type="string", required=True,
                      description="id, e.g. NCBIGene:3630. Equivalent IDs can be used with same results")
    assert takes_curie(ident, path_segment=True)
    assert not takes_curie(Parameter(name="id", type="string", description="id, e.g. 3630"), path_segment=True)
    assert not takes_curie(Parameter(name="url", type="string", description="e.g. https://example.org"))
    path = "/bioentity/gene/{id}/homologs"
    # "gene SHH" is a symbol a search resolves; "gene HGNC:1100" is an id of the declared shape
    assert open_values([ident], _read("Find the gene SHH and list its homologs"), path).values == {}
    assert open_values([ident], _read("Homologs of the gene HGNC:1100"), path).values == {"id": "HGNC:1100"}
    guessed = guess_required([ident], _read("Find the gene SHH and list its homologs"), Filled(), lambda: None)
    assert guessed.values == {}, "not even as a last resort"


def test_a_whole_number_for_a_number_parameter_is_sent_whole() -> None:
    # a document that types an id as "number": 76979871.0 in a path would name no video
    video = Parameter(name="video_id", type="number", required=True)
    got = open_values([video], _read("How long is video 76979871?"), "/videos/{video_id}").values
    assert got == {"video_id": 76979871} and isinstance(got["video_id"], int)
    value = Parameter(name="confidence", type="number")
    assert open_values([value], _read("links with a confidence above 0.6"), "/links").values == {"confidence": 0.6}


def test_a_list_takes_every_value_joined_to_the_one_written_after_its_noun() -> None:
    networks = Parameter(name="networkId", type="array", description="Filters the data by network IDs.")
    got = open_values([networks], _read("The latest readings of sensors within the networks 'n1' and 'n2'"),
                      "/sensors/readings/latest").values
    assert got == {"networkId": ["n1", "n2"]}
    # one value, and a text parameter, keep the value written after the noun alone
    one = open_values([networks], _read("The latest readings within the network 'n1' and the rest"),
                      "/sensors/readings/latest").values
    assert one == {"networkId": ["n1"]}


def test_a_country_named_for_its_name_and_a_member_written_as_a_phrase() -> None:
    country = Parameter(name="country", type="string", description="The country for which holidays are searched.")
    assert open_values([country], _read("Holidays related to Easter in Canada in April"), "/holidays").values == {
        "country": "Canada"}
    # a member written word for word, though one of its words only frames a question elsewhere
    category = Parameter(name="category", type="string", enum=["habits", "habitat", "physical characteristics"])
    got = open_values([category], _read("Facts about the axolotls' physical characteristics"), "/facts").values
    assert got == {"category": "physical characteristics"}


def test_a_code_its_description_explains_is_said_by_its_label() -> None:
    from schemarouter.router.described_values import legend

    text = "The province. For example, '1' for Bangkok, '2' for Chiang Mai, and '3' for Chonburi."
    assert legend(text) == (("Bangkok", "1"), ("Chiang Mai", "2"), ("Chonburi", "3"))
    assert legend("The number of days to look ahead for Monday") == (), "one mapping is no legend"
    service = "The service. For example, 1 represents cleaning, 2 represents ironing, and 13 represents big cleaning."
    assert legend(service) == (("cleaning", "1"), ("ironing", "2"), ("big cleaning", "13"))
    service_id = Parameter(name="service_id", type="integer", required=True, description=service)
    # of the labels the question writes, the longest
    assert open_values([service_id], _read("A provider for a big cleaning"), "/providers").values == {"service_id": 13}
    assert open_values([service_id], _read("A housekeeper for ironing"), "/providers").values == {"service_id": 2}
    province = Parameter(name="province_id", type="integer", required=True, description=text, enum=[1, 2, 3])
    got = open_values([province], _read("A housekeeper for ironing in Chonburi Province"), "/providers").values
    assert got == {"province_id": 3}
    assert open_values([province], _read("A housekeeper in Phuket"), "/providers").values == {}


def test_a_code_written_in_brackets_after_what_it_stands_for_is_said_by_those_words() -> None:
    from schemarouter.router.described_values import legend

    units = "<br>Coordinate units to use: km (KM) or Earth Radii (RE)"
    assert legend(units) == (("km", "KM"), ("Earth Radii", "RE"))
    models = "<br>Which model: <br> - Energetic electrons (AE9) <br> - Energetic protons (AP9) <br> - for hydrogen (SPMH)"
    assert legend(models) == (("Energetic electrons", "AE9"), ("Energetic protons", "AP9"), ("hydrogen", "SPMH"))
    assert legend("The time in Coordinated Universal Time (UTC).") == (), "one bracketed code is no legend"
    unit = Parameter(name="coord_units", type="string", required=True, description=units, enum=["KM", "RE"])
    model = Parameter(name="model", type="string", required=True, description=models, enum=["AE9", "AP9", "SPMH"])
    got = open_values([unit, model], _read("Energetic-electron flux at x = 1.5, y = 0, z = 0 Earth radii"), "/flux")
    # a label's words may be joined by a hyphen and written in the singular
    assert got.values == {"coord_units": "RE", "model": "AE9"}
    assert open_values([unit], _read("Proton flux at 20,000 km"), "/flux").values == {"coord_units": "KM"}


def test_a_parameter_for_who_made_a_work_takes_the_name_the_question_says_made_it() -> None:
    artist = Parameter(name="artist", type="string", description="The artist performing the song.")
    genre = Parameter(name="genre", type="string", enum=["Metal", "Pop"])
    got = open_values([artist, genre], _read("Metal songs released in 2019, ideally tracks by Sabaton"), "/music").values
    assert got == {"artist": "Sabaton", "genre": "Metal"}
    # a name nobody is said to have made anything stays for other parameters
    assert open_values([artist], _read("Songs played in Chicago"), "/music").values.get("artist") != "Chicago"


def test_a_year_the_question_writes_is_the_member_that_spells_it() -> None:
    years = [str(y) for y in range(2010, 2025)] + ["dontcare"]
    year = Parameter(name="year", type="string", enum=years, description="Release year, formatted as 'YYYY'.")
    got = open_values([year], _read("Pop songs from the album 'Warrior' released in 2012. Can you help?"), "/music")
    assert got.values == {"year": "2012"}, "a sentence may end right after the year"
    assert open_values([year], _read("Pop songs released in 1999"), "/music").values == {}, "no such member"
    assert open_values([year], _read("Pop songs from the album 'Warrior'"), "/music").values == {}


@pytest.mark.parametrize(("name", "question", "value"), [
    ("years", "Dividend payments of Apple Inc for the last five years", 5),
    ("time_in_years", "A property worth 200 with a depreciation rate of 3% for 7 years", 7),
    ("year", "Dividend payments of Apple Inc for the last five years", None),  # a calendar year: none given
])
def test_a_number_of_years_is_a_count_and_a_year_a_calendar_year(name: str, question: str, value: int | None) -> None:
    years = Parameter(name=name, type="integer", required=True)
    assert open_values([years], _read(question), "/dividends").values.get(name) == value


@pytest.mark.parametrize(("name", "question", "value"), [
    ("num_passengers", "A bus from Miami to Atlanta for two people", 2),
    ("number_of_adults", "A house in Austin that can accommodate 4 ppl", 4),
    ("number_of_adults", "A house in Austin for 3 adults and 2 people more", 3),  # the count it names first
    ("number_of_rooms", "A hotel in Austin for 4 people", None),  # rooms are no people
])
def test_a_count_of_people_is_a_count_of_the_people_a_parameter_names(name: str, question: str,
                                                                       value: int | None) -> None:
    param = Parameter(name=name, type="integer")
    assert open_values([param], _read(question), "/trips").values.get(name) == value


def test_of_members_the_stems_both_name_the_one_written_as_spelled_is_meant() -> None:
    freq = Parameter(name="compounding_freq", type="string", required=True, enum=["monthly", "quarterly", "annually"])
    question = "Compound interest at an annual interest rate of 5% compounded monthly"
    assert open_values([freq], _read(question), "/interest").values == {"compounding_freq": "monthly"}
    # a list takes every member the question says, spelled so or not
    features = Parameter(name="features", type="array", enum=["Camping", "Scenic View", "Fishing"])
    got = open_values([features], _read("A park that allows camping and has scenic views"), "/parks").values
    assert got == {"features": ["Camping", "Scenic View"]}


def test_an_aside_in_brackets_is_not_what_to_search_for() -> None:
    name = Parameter(name="name", type="string", description="Drug name to search for.")
    known = {"target", "act", "inhibitor", "drugbank", "data"}
    a = _read("Which targets does imatinib act on, and how (inhibitor, antagonist...)?")
    got = open_values([name], a, "/drugs", unknown=lambda t: t not in known)
    assert got.values == {"name": "imatinib"}


def test_an_identifier_labelled_by_another_resource_of_the_path_is_not_the_parameters() -> None:
    word = Parameter(name="word", type="string", required=True)
    question = _read("What tags has the uploader put on video 76979871?")
    # "video 76979871" names a video: no tag of /tags/{word}/videos
    assert open_values([word], question, "/tags/{word}/videos").values == {}
    video = Parameter(name="video_id", type="integer", required=True)
    assert open_values([video], question, "/videos/{video_id}/tags").values == {"video_id": 76979871}
    # an identifier no word labels is still taken by its shape
    assert open_values([word], _read("Anything for 76979871?"), "/tags/{word}/videos").values == {"word": "76979871"}


def test_an_id_labelled_by_the_record_the_path_names_goes_to_its_id_parameter_whatever_its_name() -> None:
    professional = Parameter(name="professional_id", type="integer", required=True)
    path = "/view_service_provider_profile"
    # "profile ID 28": the id of the profile this endpoint shows, though its parameter names a professional
    assert open_values([professional], _read("View provider profile ID 28"), path).values == {"professional_id": 28}
    # ... not the id of a record the path does not name
    assert open_values([professional], _read("View the invoice ID 28"), path).values == {}
    # ... and of two such ids, neither is chosen by the path alone
    both = _read("Compare provider ID 28 with profile ID 31")
    assert open_values([professional], both, path).values == {}


def test_a_one_letter_code_is_said_by_the_initial_of_the_word_before_the_parameter_s_name() -> None:
    units = Parameter(name="units", type="string", enum=["S", "I"], description="Convert to units. Default Metric")
    assert open_values([units], _read("Current visibility in Reykjavik in imperial units."), "/current").values == {
        "units": "I"}
    assert open_values([units], _read("Show the flux in scientific units"), "/flux").values == {"units": "S"}
    # a word that only begins with a member's letter elsewhere says nothing
    assert open_values([units], _read("The impact of sunlight on visibility"), "/current").values == {}


def test_a_required_search_text_takes_the_value_the_question_quotes() -> None:
    a = _read("I'm making a board game for kids. Can you find jokes that involve 'sports'?")
    params = [Parameter(name="query", type="string", required=True)]
    got = open_values(params, a, "/jokes/search", unexplained=lambda t: t not in {"joke", "search"})
    assert got.values == {"query": "sports"}, "the quoted value, not the longest undescribed run"
    assert "sports" in got.used
    # an apostrophe is no quote: the words the endpoint does not describe are searched for instead
    plain = _read("I'm making a board game for kids' parties. Can you find jokes about sports?")
    got = open_values(params, plain, "/jokes/search", unexplained=lambda t: t not in {"joke", "search"})
    assert "quotes" not in got.why["query"]


def test_how_apis_are_spoken_of_is_no_value() -> None:
    a = _read("Can you use the currency API to convert the amount from EUR to USD, as JSON?")
    assert "API" not in a.codes and "JSON" not in a.codes
    assert {"EUR", "USD"} <= set(a.codes)
    name = Parameter(name="name", type="string", required=True, description="The name of the fruit.")
    fruits = _read("Please fetch all the fruits available in the API.")
    assert guess_required([name], fruits, Filled(), lambda: None).values == {}, "'API' names no fruit"
    nasa = _read("Please fetch all the fruits NASA grows.")
    assert guess_required([name], nasa, Filled(), lambda: None).values == {"name": "NASA"}


def test_a_cast_takes_the_name_the_question_says_acts() -> None:
    params = [Parameter(name="directed_by", type="string", description="The director of the movie."),
              Parameter(name="cast", type="string", description="The lead actor of the movie.")]
    cases = {
        "Search for movies directed by Steven Spielberg and featuring Josef Sommer?":
            {"directed_by": "Steven Spielberg", "cast": "Josef Sommer"},
        "I want a movie that stars Jennifer Connelly, with Jim Henson as the director.":
            {"cast": "Jennifer Connelly"},
        "Explore some Comedy movies, maybe something with Jim Carrey in it?": {"cast": "Jim Carrey"},
        "Find movies directed by Jim Henson.": {"directed_by": "Jim Henson"},
    }
    for text, want in cases.items():
        got = open_values(params, _read(text), "/movies")
        assert {k: v for k, v in got.values.items() if k in want or k == "cast"} == want, text


def test_a_short_word_member_and_a_longer_member_that_holds_it() -> None:
    genre = Parameter(name="genre", type="string", enum=["Reggae", "Pop", "Rock", "dontcare"],
                      description="The music genre of the song.")
    assert open_values([genre], _read("I'd love some upbeat pop music."), "/music").values == {"genre": "Pop"}
    language = Parameter(name="lang", type="string", enum=["de", "en"], description="The language.")
    assert open_values([language], _read("Is there a song about the De Beers diamonds?"), "/music").values == {}
    condition = Parameter(name="condition", type="string", enum=["New", "Like New", "Used"],
                          description="The condition of the game.")
    got = open_values([condition], _read("The value of a Super Mario Bros. game from 1985 like new."), "/games")
    assert got.values == {"condition": "Like New"}, "the longer member the question says, not the word within it"


@pytest.mark.parametrize(("question", "member"), [
    ("The most viewed articles today", "1"), ("The most shared stories this week", "7"),
    ("The most emailed articles this month", "30"), ("The most viewed articles", None),
])
def test_a_count_of_days_is_the_calendar_unit_the_question_implies(question: str, member: str | None) -> None:
    # "Number of days `1 | 7 | 30` corresponds to a day, a week, or a month of content."
    period = Parameter(name="time-period", type="string", required=True, enum=["1", "7", "30"],
                       description="Number of days `1 | 7 | 30 ` corresponds to a day, a week, or a month of content.")
    assert open_values([period], _read(question), "/mostviewed/{time-period}.json").values.get("time-period") == member
    # numbers that count no days ("a page size of 1, 7 or 30") are only ever written
    size = Parameter(name="size", type="string", required=True, enum=["1", "7", "30"], description="Page size.")
    assert "size" not in open_values([size], _read(question), "/list").values
