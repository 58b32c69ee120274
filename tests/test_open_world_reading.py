"""What the understand step reads from any question for sources nobody tuned (names, identifiers,
labelled values, codes, counts, coordinates, requests to act), and the retrieval and links built
from what sources declare."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from schemarouter.graph import SchemaGraph
from schemarouter.graph.lexical import best_scored, build_lexical
from schemarouter.graph.links import resource_of
from schemarouter.graph.terms import compound_terms, name_terms, path_terms, prose_terms, question_terms, stem
from schemarouter.models import Parameter, Source
from schemarouter.plan import Understanding
from schemarouter.router import Router
from schemarouter.router.param_facts import is_credential, is_search_parameter, parameter_facts
from schemarouter.router.values import open_values
from schemarouter.understand.base import Analysis
from schemarouter.understand.entities import Entity
from schemarouter.understand.names import proper_names
from schemarouter.understand.reading import read_values
from tests.open_world_support import read_question as _read
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


@pytest.mark.parametrize(("text", "names"), [
    ("Who was the lead actor in the movie The Dark Knight?", ["The Dark Knight"]),
    ("tell me the directors of the first season of House of Cards", ["House of Cards"]),
    ("Who is the director of Leonardo DiCaprio's latest movie?", ["Leonardo DiCaprio"]),
    ('What is the release date of the movie "The Matrix"?', ["The Matrix"]),
    ("give me a poster of 2 Broke Girls", ["2 Broke Girls"]),
    ("repairs that cost more than 50 EUR", []),  # a number and a symbol in capitals is a quantity
    ("What TV series has the director directed?", []),  # an abbreviation alone is no name
    ("Give me the number of movies", []),  # a capital opening the sentence is no name
    ("List the PDBe structures of the protein", ["PDBe"]),  # a lower-case "the" after the opener is no title
    ("Find the EFO record for asthma", []),  # nor is an acronym alone
    ("Dew point at stations KRDU and KJFK?", []),  # nor are codes joined by "and"
    ("Is Pride and Prejudice on TV?", ["Pride and Prejudice"]),
    ("Who directed Star Wars: The Last Jedi?", ["Star Wars: The Last Jedi"]),  # a subtitle after a colon
    ("Star Wars: The Last Jedi was released when?", ["Star Wars: The Last Jedi"]),
    ("Note: The Dark Knight was released when?", ["Dark Knight"]),  # one word opening the sentence is a label
    ("Find news about `Son's latest goal` in sports", ["Son's latest goal"]),  # backticks quote too
    ("The distance to Washington D.C.", ["Washington D.C."]),  # the last period is the initials'
    ("A trip to Washington D.C. in April", ["Washington D.C."]),
    ("I met Anna Smith.", ["Anna Smith"]),  # ... and otherwise the sentence's
    ("Flights from São Paulo to Zürich", ["São Paulo", "Zürich"]),  # letters of any alphabet
    ("Who is Beyoncé?", ["Beyoncé"]),
])
def test_proper_names_come_from_capitals_and_quotes(text: str, names: list[str]) -> None:
    assert [e.value for e in proper_names(text, [])] == names


@pytest.mark.parametrize(("text", "now"), [
    ("What is the gold price right now?", True),
    ("Show live stock prices for Samsung", True),
    ("Is the KRDU station feed live?", True),
    ("Do you have live prices for gold?", True),
    ("Where did the dodo live?", False),
    ("How long do sea turtles live?", False),
    ("Which bacteria live in hot springs?", False),
    ("Where did Einstein live, and when did he move?", False),
])
def test_live_the_adjective_asks_for_now_live_the_verb_does_not(text: str, now: bool) -> None:
    assert _read(text).live is now


def test_labelled_values_codes_counts_and_coordinates() -> None:
    a = _read("Hourly forecast at station KRDU for the third episode of season 2, 7-day, at 35.77, -78.64 in Berlin, DE.")
    assert a.labels["station"] == "KRDU"
    assert a.counts["episod"] == 3 and a.counts["season"] == 2 and a.counts["day"] == 7
    assert a.coordinates == (35.77, -78.64)
    assert "DE" in a.codes and "de" not in a.terms, "a code is a value, not a word of the question"


def test_a_number_written_as_a_word_counts_the_noun_after_it() -> None:
    assert _read("A bus for two passengers and one room").counts == {"passeng": 2, "room": 1}
    assert _read("Find me one with a garden, or one of the others").counts == {}, "'one' alone counts nothing"
    assert _read("A one-way flight").counts == {}


@pytest.mark.parametrize(("text", "labels"), [
    ("status of my order? my order ID is #123, and the product", {"order": "#123", "orderid": "#123"}),
    ("the order ID 4711 please", {"order": "4711", "orderid": "4711"}),  # "ID" in capitals is no value
    ("flight ID: AB123", {"flight": "AB123", "flightid": "AB123"}),
    ("My ticket number is IND4567.", {"ticket": "IND4567", "ticketnumb": "IND4567"}),
    ("a number is 5", {}),
])
def test_a_value_is_labelled_by_its_noun_and_kind_written_in_any_case(text: str, labels: dict[str, str]) -> None:
    assert _read(text).labels == labels


def test_a_signed_number_is_labelled_and_coordinates_are_one_value() -> None:
    assert _read("Sensor at depth 45, offset -75").labels == {"depth": "45", "offset": "-75"}
    a = _read("Weather at latitude 38.123, longitude -78.543")
    assert a.coordinates == (38.123, -78.543) and a.labels == {}, "the pair is read once, as coordinates"
    a = _read("Density at latitude 45, longitude -75")
    assert a.coordinates == (45, -75) and a.labels == {}, "whole numbers their labels mark are a pair too"


@pytest.mark.parametrize(("text", "value"), [
    ("Density at 300 km altitude", 300.0),  # before the name, a unit between
    ("Density at an altitude of 300 km", 300.0),
    ("Density at altitude above latitude 45", None),  # 45 is the latitude's
    ("Density at an altitude of 12,000 m", 12000.0),  # thousands grouped with commas are one number
    ("Density at an altitude of 12,5 m", 12.0),  # a decimal comma is no thousands group
])
def test_a_number_beside_a_parameters_name_is_its_value(text: str, value: float | None) -> None:
    params = [Parameter(name="altitude", type="number", required=True)]
    assert open_values(params, _read(text), "/atmosphere").values.get("altitude") == value


def test_a_count_of_another_word_of_the_name_picks_an_enum_member_only() -> None:
    star = Parameter(name="star_rating", type="string", enum=["1", "2", "3", "4", "5", "dontcare"])
    assert open_values([star], _read("Find a 3-star hotel in Paris"), "/hotels").values.get("star_rating") == "3"
    assert "star_rating" not in open_values([star], _read("Find a 7-star hotel in Paris"), "/hotels").values
    # a number has no members to check the count against: "two notes" is no frequency
    frequency = Parameter(name="first_note_frequency", type="number", required=True)
    assert "first_note_frequency" not in open_values([frequency], _read("the two notes of a chord"), "/notes").values


def test_neither_an_enum_nor_an_id_by_description_takes_a_name() -> None:
    # EPA ECHO: p_fntype says how to search (EXACT, CONTAINS), qid is "Query ID Selector"
    a = _read("Which air pollution facilities are in Raleigh?")
    kind = Parameter(name="p_fntype", type="string", enum=["ALL", "CONTAINS", "EXACT", "BEGINS"],
                     description="Controls type of text search performed on facility name; search term matching.")
    qid = Parameter(name="qid", type="string", required=True,
                    description="Query ID Selector.  Enter the QueryID number from a previously run query.")
    assert not is_search_parameter(kind)
    assert open_values([kind, qid], a, "/air_rest_services.get_qid").values == {}
    # a parameter described as a name still takes one
    name = Parameter(name="q", type="string", required=True, description="Facility name or ID.")
    assert open_values([name], a, "/facilities").values == {"q": "Raleigh"}


def test_the_parameter_a_source_sends_its_key_in_takes_no_value() -> None:
    a = _read("Find paintings by Vermeer")
    params = [Parameter(name="wskey", type="string", required=True), Parameter(name="query", type="string")]
    facts = {p.name: parameter_facts(p, "/search.json", "wskey") for p in params}
    assert open_values(params, a, "/search.json", facts=facts).values == {"query": "Vermeer"}


def test_a_value_written_after_a_noun_fills_the_parameter_that_noun_heads() -> None:
    law = _read("Details of the transportation law 12345")
    # the number after "law" is a law, no law type; the word before it says which type
    assert open_values([Parameter(name="law_type", type="string")], law, "/v1.json").values == {
        "law_type": "transportation"}
    gene = _read("Phenotypes of the gene SCN1A")
    assert open_values([Parameter(name="geneSymbol", type="string")], gene, "/hpo").values == {"geneSymbol": "SCN1A"}


@pytest.mark.parametrize("name", ["gene", "geneSymbol", "gene_symbol", "genesymbol"])
def test_a_value_written_after_a_noun_and_its_kind_fills_every_spelling_of_that_name(name: str) -> None:
    # "gene symbol KRAS", like "station id KRDU": the value of the gene, whichever way a parameter
    # writes it, also as one word
    a = _read("Phenotypes for gene symbol KRAS")
    assert a.labels == {"gene": "KRAS", "genesymbol": "KRAS"}
    assert open_values([Parameter(name=name, type="array")], a, "/hpo").values == {name: ["KRAS"]}
    assert _read("Weather at station id KRDU").labels == {"station": "KRDU", "stationid": "KRDU"}
    assert _read("What does the symbol KRAS stand for").labels == {"symbol": "KRAS"}, "the kind alone is the noun"


def test_a_parameter_named_for_a_kind_of_identifier_takes_that_identifier(graph: SchemaGraph) -> None:
    question = "In CROssBAR, what is the canonical SMILES of PubChem compound CID 2244?"
    a = Router(graph).understander.understand(question, graph)  # the entity readers know a CID
    params = [Parameter(name="inchiKey", type="array"), Parameter(name="cid", type="array")]
    assert open_values(params, a, "/pubchem/compounds").values == {"cid": ["2244"]}, \
        "an InChIKey has a published shape 2244 does not have"


@pytest.mark.parametrize(("question", "names"), [
    ("When was The Shape of Water released?", ["The Shape of Water"]),  # "Water" is also a compound
    ("Who starred in Iron Man?", ["Iron Man"]),  # and "Iron" an element
    ("What is the band gap of GaN and AlN?", []),  # entities alone make no name
])
def test_a_title_is_read_through_the_entities_in_it(graph: SchemaGraph, question: str, names: list[str]) -> None:
    analysis = Router(graph).understander.understand(question, graph)
    assert [str(n.value) for n in analysis.names if not n.extra.get("entity")] == names


def test_the_prefix_of_an_identifier_is_a_word_of_the_question() -> None:
    assert "mondo" in _read("Describe MONDO:0007739").terms


def test_terms_are_stemmed_and_paths_split() -> None:
    assert question_terms("When was it released?") == ["releas"]
    assert name_terms("release_date") == ("releas", "date")
    assert path_terms("/movie/{movie_id}/credits?lang={lang}") == ("movi", "credit")
    assert resource_of("movie_id", "/movie/{movie_id}") == ("movi",)
    assert resource_of("id", "/pets/{id}") == ("pet",)


@pytest.mark.parametrize(("text", "terms"), [
    ("Can you help me find the help center articles?", ["help", "center", "articl"]),
    ("I need your assistance with a QR code", ["qr", "code"]),
    ("Could you please assist us with the registration form?", ["registr", "form"]),
    ("Which player has the most assists?", ["player", "assist"]),  # a thing counted, not a frame
    # adverbs that only frame what is asked, and "if possible"
    ("Additionally, I specifically want the weather in Paris, if possible.", ["weather", "pari"]),
    ("What is the specific heat of water?", ["specif", "heat", "water"]),  # the adjective is a term
    ("I'm planning a trip and I'm curious about museums; it would be great to see reviews.",
     ["trip", "museum", "review"]),
    ("Show the planning permissions of interest in Leeds", ["plan", "permiss", "interest", "leed"]),
])
def test_help_that_frames_a_request_is_no_term(text: str, terms: list[str]) -> None:
    assert question_terms(text) == terms


_PROSE = st.text(st.sampled_from(["a", "Z", "q", "r", "e", "s", "0", "7", " ", "_", "-", ".", "\u00e9", "\u03bb"]), max_size=40)


@given(_PROSE)
def test_terms_are_the_words_a_letter_led_regex_finds(text: str) -> None:
    import re

    from schemarouter.graph.terms import API_FILLER, QUESTION_FILLER, _keep

    found = [m.lower() for m in re.findall(r"[A-Za-z][A-Za-z0-9]*|[0-9]+[A-Za-z]+[A-Za-z0-9]*", text)]
    assert prose_terms(text) == tuple(stem(w) for w in found if _keep(w, API_FILLER))
    assert question_terms(text) == list(dict.fromkeys(stem(w) for w in found if _keep(w, QUESTION_FILLER)))


def test_a_word_in_a_path_weighs_more_than_in_a_description(graph: SchemaGraph) -> None:
    g = with_catalogue(graph)
    lex = build_lexical(iter(g.endpoints.values()))
    numbers = {key: i for i, key in enumerate(lex.keys)}
    images = numbers[("specimens", "specimen_images")]
    detail = numbers[("specimens", "specimen")]
    assert lex.strength(images, "imag") > 0 and lex.strength(detail, "imag") == 0
    assert lex.strength(detail, "found") > 0  # "Where it was found." describes the locality field
    assert lex.strength(images, "imag") > lex.strength(detail, "found")
    assert lex.weight("thermocoupl") == lex.unknown_idf  # a word no declaration mentions


# scores as BM25F sums come out: a few distinct values, so ties are common
_SCORES = st.dictionaries(st.integers(0, 60), st.sampled_from([0.0, 0.5, 1.25, 1.25 + 1e-12, 3.0]), max_size=40)


@given(_SCORES, st.integers(0, 15), st.none() | st.frozensets(st.integers(0, 60)))
def test_the_best_scored_are_what_sorting_them_all_puts_first(
        scored: dict[int, float], k: int, keep: frozenset[int] | None) -> None:
    kept = [(n, s) for n, s in scored.items() if keep is None or n in keep]
    assert best_scored(scored, k, keep) == sorted(kept, key=lambda kv: (-kv[1], kv[0]))[:k]


def test_values_go_only_where_the_declaration_takes_them() -> None:
    a = _read("Images of specimen 482913 between 2021-01-01 and 2021-02-01 at lat 51.5, lon -0.12")
    params = [
        Parameter(name="specimen_id", type="integer", required=True),
        Parameter(name="start_date", type="string"), Parameter(name="end_date", type="string"),
        Parameter(name="lat", type="number"), Parameter(name="lon", type="number"),
        Parameter(name="units", type="string", enum=["M", "I"]),
        Parameter(name="api_key", type="string", required=True),
        Parameter(name="q", type="string", example="Tyrannosaurus"),
    ]
    got = open_values(params, a, "/specimens/{specimen_id}/images").values
    assert got == {"specimen_id": 482913, "start_date": "2021-01-01", "end_date": "2021-02-01", "lat": 51.5,
                   "lon": -0.12}
    assert is_credential(params[6]) and is_search_parameter(params[7])


def test_one_question_value_fills_one_parameter() -> None:
    a = _read("Details of article 2066037")
    params = [Parameter(name="article_id", type="integer", required=True), Parameter(name="file_id", type="integer")]
    assert open_values(params, a, "/articles/{article_id}/files/{file_id}").values == {"article_id": 2066037}


@pytest.mark.parametrize(("text", "value"), [("What did NASA publish about Mars?", None),
                                             ("Mars news written in DE", "DE")])
def test_a_code_parameter_takes_a_code_shaped_like_its_declared_example(text: str, value: str | None) -> None:
    # the example says how long a code is; it is never itself a value
    params = [Parameter(name="language", type="string", description="Language code.", example="en")]
    assert open_values(params, _read(text), "/search").values.get("language") == value


def test_an_identifier_goes_to_the_parameter_the_question_names_it_for() -> None:
    params = [Parameter(name="assayChemblId", type="array"), Parameter(name="targetChemblId", type="array")]
    got = open_values(params, _read("Which assays were run against the ChEMBL target CHEMBL203?"), "/assays")
    assert got.values == {"targetChemblId": ["CHEMBL203"]} and not got.weak
    got = open_values(params, _read("Which assays ran as assay CHEMBL203?"), "/assays")
    assert got.values == {"assayChemblId": ["CHEMBL203"]}


def test_an_identifier_filtering_a_collection_goes_to_that_collections_id() -> None:
    # nothing in the question names a molecule, but the endpoint lists molecules
    params = [Parameter(name="inchiKey", type="array"), Parameter(name="moleculeChemblId", type="array")]
    got = open_values(params, _read("What are the preferred name and clinical phase of CHEMBL25?"), "/molecules")
    assert got.values == {"moleculeChemblId": ["CHEMBL25"]}
    assert not got.weak, "tied by the collection, the value is spent in earnest"


def test_an_identifier_sent_as_free_text_counts_for_less_than_one_a_parameter_takes() -> None:
    a = _read("Which repository holds the CORE record 82470963?")
    search = open_values([Parameter(name="q", type="string", required=True)], a, "/search/works")
    assert search.values == {"q": "82470963"} and search.weak == {"82470963"}


def test_a_word_repeated_across_field_names_counts_once(graph: SchemaGraph) -> None:
    # forty fields of a nested "repositories" object say the record has repositories; a path that
    # says "repositories" says what the endpoint is about
    fields = [{"name": f"repositories_{n}", "path": f"repositories.{n}", "type": "string", "group": "content"}
              for n in ("id", "name", "url", "country", "type", "logo", "email", "kind")]
    source = Source.model_validate({
        "id": "papers", "title": "Paper index", "domain": "literature", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            {"id": "works", "base_url": "http://127.0.0.1:9", "path": "/works", "fields": fields},
            {"id": "repos", "base_url": "http://127.0.0.1:9", "path": "/repositories",
             "fields": [{"name": "id", "path": "id", "type": "string", "group": "content"}]},
        ]})
    g = with_catalogue(graph, source)
    lex = g.lexical
    assert lex.strength(g.numbers[("papers", "repos")], "repositori") > lex.strength(
        g.numbers[("papers", "works")], "repositori")


def test_two_words_said_apart_match_a_name_that_writes_them_as_one() -> None:
    # pairs with a stop word or filler ("its home", "page and") are no compound
    assert compound_terms("Its home page and full text, please") == ["homepag", "fulltext"]


@pytest.mark.parametrize(("text", "values"), [
    ("I need the full text of article 21750584.", {"article_id": 21750584, "fulltext": True}),
    ("Show the similar articles for paper 21750584.", {"article_id": 21750584, "similar": True}),
    ("Title of article 21750584?", {"article_id": 21750584}),
])
def test_a_flag_named_for_what_the_question_asks_is_switched_on(text: str, values: dict[str, object]) -> None:
    params = [Parameter(name="article_id", type="integer", required=True),
              Parameter(name="fulltext", type="boolean"), Parameter(name="similar", type="boolean"),
              Parameter(name="stats", type="boolean")]
    assert open_values(params, _read(text), "/articles/{article_id}").values == values


def test_a_list_parameter_spends_each_of_the_values_it_takes() -> None:
    a = _read("Current conditions for the cities 4487042 and 4494942")
    got = open_values([Parameter(name="cities", type="string", required=True)], a, "/current?cities={cities}")
    assert got.values == {"cities": "4487042,4494942"}
    assert got.used == {"4487042", "4494942"}, "each value counts as spent, as a one-value endpoint's would"


def test_values_the_question_ties_to_their_parameter_are_marked() -> None:
    a = _read("Which repository holds the record 82470963?")
    record = open_values([Parameter(name="record_id", type="integer", required=True)], a, "/records/{record_id}")
    repository = open_values([Parameter(name="repository_id", type="integer", required=True)], a,
                             "/repositories/{repository_id}")
    assert record.tied == {"82470963"} and repository.tied == set()
    assert repository.values == {"repository_id": 82470963}, "still usable, only less firmly tied"


@pytest.mark.parametrize(("text", "values"), [
    ("Bioactivities of CHEMBL941 with a pChEMBL value of at least 7", {"pchemblValue": 7.0}),
    ("Interaction partners with a confidence above 0.6", {"confidence": 0.6}),
    ("Interaction partners of high confidence", {}),  # no number: the server's default
])
def test_a_number_written_after_a_parameters_name_is_its_value(text: str, values: dict[str, float]) -> None:
    params = [Parameter(name="pchemblValue", type="number"), Parameter(name="confidence", type="number")]
    assert open_values(params, _read(text), "/activities").values == values


def test_a_required_search_text_takes_the_words_its_endpoint_does_not_describe() -> None:
    a = _read("Which journals about marine biology does CORE know, and who publishes them?")
    described = {"journal", "publish", "core"}  # what a journal search's own declaration says
    params = [Parameter(name="query", type="string", required=True)]
    got = open_values(params, a, "/journals/search", unexplained=lambda t: t not in described)
    assert got.values == {"query": "marine biology"}, "the longest run of adjacent undescribed words"
    assert got.weak == {"marine biology"}, "a guess at what to search for spends no value of the question"
    optional = [Parameter(name="query", type="string")]
    assert open_values(optional, a, "/journals/search", unexplained=lambda t: t not in described).values == {}
    everything = open_values(params, a, "/journals/search", unexplained=lambda t: False)
    assert everything.values == {}, "nothing left to search for: the endpoint is not usable"


def test_what_the_question_asks_for_is_not_what_to_search_for() -> None:
    # "photo" is the kind of answer asked for; no declaration says it, yet it names nothing to look up
    a = _read("give me a photo of the lead actor of the most popular show of this week")
    params = [Parameter(name="query", type="string", required=True)]
    for how in ({"unknown": lambda t: t == "photo"}, {"unexplained": lambda t: t == "photo"}):
        got = open_values(params, a, "/search/person", **how)  # type: ignore[arg-type]
        assert "photo" not in str(got.values.get("query", "")), how


def test_a_short_abbreviation_in_a_parameter_name_stands_for_the_noun_it_begins() -> None:
    params = [Parameter(name="article_id", type="integer", required=True),
              Parameter(name="v_number", type="integer", required=True)]
    got = open_values(params, _read("Show me version 2 of article 1407024"), "/articles/{article_id}/versions/{v_number}")
    assert got.values == {"article_id": 1407024, "v_number": 2}
    # a long word must be the noun itself: "vers" is no abbreviation of "version" here
    other = open_values([Parameter(name="vers_number", type="integer", required=True)], _read("version 2"), "/x")
    assert other.values == {}


@pytest.mark.parametrize(("text", "own"), [
    ("List the files of my figshare article 12345", True),
    ("Which private links does our project have?", True),
    ("Show me the files of figshare article 12345", False),  # "show me" asks for public records too
    ("Which articles does Oursler list?", False),
])
def test_a_question_about_the_askers_own_records_is_told(text: str, own: bool) -> None:
    assert _read(text).own is own


def test_a_name_the_question_calls_a_kind_of_record_is_firm_only_for_a_search_of_that_kind() -> None:
    a = _read("In which journal did the paper 'Deep residual learning' appear?")
    params = [Parameter(name="query", type="string", required=True)]
    journals = open_values(params, a, "/journals/search", unexplained=lambda t: t != "journal")
    papers = open_values(params, a, "/articles/search", unexplained=lambda t: t not in ("paper", "articl"))
    assert journals.values == papers.values == {"query": "Deep residual learning"}
    assert journals.weak == {"Deep residual learning"} and papers.weak == set()


@pytest.mark.parametrize(("name", "value", "ok"), [
    ("issn", "Deep residual learning", False), ("issn", "1476-4687", True), ("author_orcid", "0000-0002-1825-0097", True),
    ("orcid", "Jane Doe", False),
])
def test_a_parameter_named_for_an_identifier_scheme_takes_only_its_shape(name: str, value: str, ok: bool) -> None:
    a = _read(f"Which journal is '{value}'?")
    got = open_values([Parameter(name=name, type="string", required=True)], a, "/journals/{" + name + "}")
    assert (got.values == {name: value}) is ok


@pytest.mark.parametrize(("text", "named"), [
    ("According to OpenAlex, how often is the Crossref DOI 10.1038/nature12373 cited?", ["openalex"]),
    ("How often do OpenAlex and Crossref say 10.1038/nature12373 is cited?", ["openalex", "crossref"]),
    ("Compare OpenAlex with Crossref for 10.1038/nature12373.", ["openalex", "crossref"]),
])
def test_a_source_named_as_an_identifiers_namespace_is_not_the_target(graph: SchemaGraph, text: str,
                                                                      named: list[str]) -> None:
    from schemarouter.understand.rules import RulesUnderstander

    assert RulesUnderstander().understand(text, graph).understanding.named_tools == named


def test_a_name_written_after_by_is_firm_only_for_a_search_of_people_or_organizations() -> None:
    a = _read("What is the latest movie directed by Christopher Nolan?")
    assert [e.extra.get("agent") for e in a.names] == [True]
    params = [Parameter(name="query", type="string", required=True)]
    movies = open_values(params, a, "/search/movie", unexplained=lambda t: t != "movi")
    people = open_values(params, a, "/search/person", unexplained=lambda t: t != "person")
    assert movies.values == people.values == {"query": "Christopher Nolan"}
    assert movies.weak == {"Christopher Nolan"} and people.weak == set()
    assert not _read("What is the latest movie of Christopher Nolan?").names[0].extra.get("agent")


@pytest.mark.parametrize(("text", "values"), [
    ("Who is the director of today's most trending TV show?", {"media_type": "tv", "time_window": "day"}),
    ("The most trending movie this week", {"media_type": "movie", "time_window": "week"}),
    ("The most trending movie", {"media_type": "movie"}),  # no window said: none is guessed
])
def test_an_enum_member_may_be_a_calendar_unit_the_question_implies_or_a_code_in_capitals(
        text: str, values: dict[str, str]) -> None:
    params = [Parameter(name="media_type", type="string", required=True, enum=["all", "movie", "tv", "person"]),
              Parameter(name="time_window", type="string", required=True, enum=["day", "week"])]
    got = open_values(params, _read(text), "/trending/{media_type}/{time_window}")
    assert got.values == values
    if "time_window" in values:
        assert {"today", "week"} & got.said, "the words the unit answers are explained by the endpoint"


def test_a_plural_parameter_takes_the_values_listed_right_after_its_noun() -> None:
    a = _read("What are the dew point and sea-level pressure at stations KRDU and KJFK?")
    stations = open_values([Parameter(name="stations", type="string", required=True)], a, "/current")
    points = open_values([Parameter(name="points", type="string", required=True)], a, "/current")
    assert stations.values == {"stations": "KRDU,KJFK"} and stations.tied == {"KRDU", "KJFK"}
    assert points.tied == set(), "'dew point' names a quantity, not the points listed"


def test_a_term_of_letters_and_digits_also_counts_as_its_letters_where_those_are_declared() -> None:
    a = Analysis(question="PM2.5 in Delhi", understanding=Understanding())
    read_values(a, a.question, [], known={"pm", "delhi"}.__contains__)
    assert "pm" in a.terms, "declarations write pm25 as the name words pm and 25"
    b = Analysis(question="PM2.5 in Delhi", understanding=Understanding())
    read_values(b, b.question, [], known={"pm2", "pm"}.__contains__)
    assert "pm" not in b.terms, "a term the registry knows as written stays as written"


def test_a_code_written_after_a_noun_is_what_a_search_looks_for() -> None:
    a = _read("Find the gene SHH and list its homologs.")
    params = [Parameter(name="term", type="string", required=True)]
    genes = open_values(params, a, "/search/entity", unexplained=lambda t: t != "gene")
    other = open_values(params, a, "/search/article", unexplained=lambda t: True)
    assert genes.values == other.values == {"term": "SHH"}
    assert genes.weak == set() and other.weak == {"SHH"}


@pytest.mark.parametrize(("text", "agent"), [
    ("When is Clint Eastwood's latest movie scheduled to be released?", True),
    ("What is David Schwimmer's most popular TV show?", True),
    ("Where did Marie Curie's first paper appear?", True),
    ("give me some movies that Christopher Nolan known for", True),
    ("Who has worked with Jeremy Clarkson in his most popular TV show?", True),
    ("Who is The Dark Knight's director?", False),  # a film's director: the name is the work
    ("Who directed more movies, Akira Kurosawa or Spielberg?", True),  # the candidates for "who"
    ("Who wrote more novels, Jane Austen or Charlotte Bronte?", True),
    ('Who has starred in the movie "Titanic"', False),  # the work, not a candidate
    ("Who directed the third episode of Black Mirror?", False),
])
def test_a_possessive_name_followed_by_a_kind_of_work_names_its_maker(text: str, agent: bool) -> None:
    assert bool(_read(text).names[0].extra.get("agent")) is agent


def test_an_ordinal_is_no_identifier_but_a_number_after_the_resource_is() -> None:
    params = [Parameter(name="movie_id", type="integer", required=True)]
    first = open_values(params, _read("When was the first movie of the collection released?"), "/movie/{movie_id}")
    assert first.values == {}, "'the first movie' is not movie 1"
    sets = [Parameter(name="id", type="string", required=True)]
    got = open_values(sets, _read("Show the variant set 42 of the archive"), "/variant-set/{id}")
    assert got.values == {"id": "42"}


def test_an_ordinal_before_a_noun_is_a_value_not_a_term() -> None:
    a = _read("give me some reviews of the first movie that is similar to Titanic")
    assert "first" not in a.terms and a.counts == {"movi": 1}
    assert "first" in a.all_terms, "a field named for it (first_air_date) can still be chosen"


@pytest.mark.parametrize(("text", "param", "value"), [
    ("Air quality monitoring locations in Germany",
     Parameter(name="country", type="array", description="Limit results by country using two letter country code."),
     ["DE"]),
    ("Air quality monitoring locations in Germany",
     Parameter(name="countryCode", type="string", description="ISO 3166-1 alpha-3 code"), "DEU"),
    ("Stations in France", Parameter(name="country_id", type="string", example="US"), "FR"),
    ("Stations in France", Parameter(name="country", type="string", enum=["DE", "IT"]), None),  # not on offer
    ("Current temperature in Raleigh, NC, US?", Parameter(name="country", type="string",
                                                          description="Country Code (2 letter)."), "US"),
    ("Average NO2 in Mexico City", Parameter(name="country", type="string", description="2-letter code"), None),
    # a country asked by its name takes the name, never a code
    ("Sites in Germany", Parameter(name="country", type="string", description="Country name"), "Germany"),
    # names people say that ISO 3166 does not list
    ("Next public holidays for the Great Britain", Parameter(name="countryCode", type="string",
                                                             description="2-letter country code"), "GB"),
    ("Air quality monitoring locations in Russia", Parameter(name="countryCode", type="string",
                                                             description="ISO 3166-1 alpha-3 code"), "RUS"),
    ("Stations in Turkey", Parameter(name="country_id", type="string", example="US"), "TR"),
])
def test_a_country_the_question_names_is_the_code_a_country_parameter_takes(
        text: str, param: Parameter, value: object) -> None:
    assert open_values([param], _read(text), "/v2/locations").values.get(param.name) == value


def test_a_country_is_read_as_a_name_even_when_its_words_are_vocabulary() -> None:
    a = Analysis(question="Air quality in the United States", understanding=Understanding())
    read_values(a, a.question, [], known=lambda term: term in {"unit", "state", "qualiti"})
    assert [n.value for n in a.names] == ["United States"]
    b = Analysis(question="Which Unit States are listed?", understanding=Understanding())
    read_values(b, b.question, [], known=lambda term: term in {"unit", "state"})
    assert b.names == [], "vocabulary words that name no country stay words"


def test_no_piece_of_a_declared_identifier_is_a_word_to_search_for() -> None:
    q = "Under which license was 10.6084/m9.figshare.1407024 published?"
    doi = Entity("doi", "10.6084/m9.figshare.1407024", 24, 51, "10.6084/m9.figshare.1407024", {"declared": True})
    a = Analysis(question=q, understanding=Understanding(), entities=[doi])
    read_values(a, q, [])
    assert [w for w, _t in a.words] == ["Under", "license", "published"]
    plain = Analysis(question=q, understanding=Understanding(), entities=[])
    read_values(plain, q, [])
    assert "m9" in [w for w, _t in plain.words], "no reader declared it an identifier: its pieces stay words"


def test_a_postal_code_takes_only_a_code_with_digits() -> None:
    postal = Parameter(name="postal_code", type="string", description="Postal Code.")
    assert open_values([postal], _read("Weather in Raleigh, NC, US"), "/current").values == {}
    assert open_values([postal], _read("Weather at postal code 27601, US"), "/current").values == {"postal_code": "27601"}


def test_path_words_of_api_prose_name_resources_but_serving_words_do_not() -> None:
    assert path_terms("/v2/parameters") == ("paramet",)
    assert path_terms("/api/v1/items.json") == ("item",)


def test_search_prose_is_read_from_the_first_sentence() -> None:
    hint = Parameter(name="api_hint", type="string", description=(
        "If the client provides the parameter, the value SHOULD have the format vMAJOR. For example, if a "
        "client appends api_hint=v1 to a query string, the request is served by version 1."))
    assert not is_search_parameter(hint), "a URL's query string is no text to search for"
    assert is_search_parameter(Parameter(name="q", type="string", description="Query string to filter documents"))
    assert is_search_parameter(Parameter(name="term", type="string", description="The search term. Case-insensitive."))


def test_a_span_of_numbers_fills_the_parameters_named_for_its_bounds() -> None:
    # the Rat Genome Database: /qtls/{chr}/{start}/{stop}/{mapKey}
    a = _read("List QTLs on rat chromosome 1 between 1,000,000 and 5000000 on map 360")
    assert a.spans == [("1000000", "5000000")]
    params = [Parameter(name="chr", type="string", required=True), Parameter(name="start", type="integer", required=True),
              Parameter(name="stop", type="integer", required=True), Parameter(name="mapKey", type="integer", required=True)]
    assert open_values(params, a, "/qtls/{chr}/{start}/{stop}/{mapKey}").values == {
        "chr": "1", "start": 1000000, "stop": 5000000, "mapKey": 360}, "a map's key is the number after 'map'"
    assert _read("Papers from 2019 to 2021").spans == [("2019", "2021")]
    assert _read("Between 2023-01-10 and 2023-01-11").spans == [], "dates are read as dates"
    limit = Parameter(name="limit", type="integer")
    assert open_values([limit], a, "/qtls").values == {}, "a span fills only its bounds"
    # Monarch declares its path segments as strings: /genome/features/within/{build}/{reference}/{begin}/{end}
    segments = [Parameter(name="begin", type="string", required=True), Parameter(name="end", type="string", required=True)]
    assert open_values(segments, a, "/features/{begin}/{end}").values == {"begin": "1000000", "end": "5000000"}
    query = [Parameter(name="start", type="string")]
    assert open_values(query, a, "/features").values == {}, "a string outside the path is no bound by its name alone"


def test_an_enum_member_of_letters_and_digits_is_said_as_written_and_the_source_name_says_least() -> None:
    # eNanoMapper: /enm/{db}/substance with db in (enanomapper, nanoreg1, nanoreg2, ...)
    db = Parameter(name="db", type="string", required=True, enum=["enanomapper", "nanoreg1", "nanoreg2"])
    search = Parameter(name="search", type="string", description="Search parameter")
    a = _read("Substances in the NanoReg2 database of eNanoMapper")
    a.understanding.named_tools = ["enanomapper"]
    assert open_values([db, search], a, "/enm/{db}/substance").values == {"db": "nanoreg2"}, \
        "the member written as a value is spent: the search does not take it as a name"
    b = _read("Studies in eNanoMapper")
    b.understanding.named_tools = ["enanomapper"]
    assert open_values([db], b, "/enm/{db}/substance").values == {"db": "enanomapper"}, "alone, the source's name still says it"


def test_a_list_of_codes_takes_every_member_the_question_says() -> None:
    # FireBrowse: cohort is an array whose items are TCGA cohort codes
    cohort = Parameter(name="cohort", type="array", enum=["BRCA", "LUAD", "OV"])
    got = open_values([cohort], _read("Significantly mutated genes in BRCA and LUAD"), "/smg")
    assert got.values == {"cohort": ["BRCA", "LUAD"]} and {"BRCA", "LUAD"} <= got.used
    assert open_values([cohort], _read("Significantly mutated genes in GBM and KIRC"), "/smg").values == {}, \
        "codes the enum does not list are no members"


def test_a_sort_parameter_takes_a_member_only_when_an_order_is_asked_for() -> None:
    sort_by = Parameter(name="sort_by", type="string", enum=["q", "cohort", "gene", "rank"])
    assert open_values([sort_by], _read("Which genes are significantly mutated?"), "/smg").values == {}
    assert open_values([sort_by], _read("Results sorted by rank"), "/smg").values == {"sort_by": "rank"}


def test_a_number_named_q_is_no_search_unless_it_says_so() -> None:
    threshold = Parameter(name="q", type="number", description="Only return results with Q-value <= given threshold.")
    assert not is_search_parameter(threshold)
    assert is_search_parameter(Parameter(name="query", type="integer", description="The search query"))


def test_declared_words_joined_by_function_words_are_no_name_but_a_title_is() -> None:
    known = {"mesh", "omim", "last"}.__contains__

    def names(text: str) -> list[str]:
        a = Analysis(question=text, understanding=Understanding())
        read_values(a, text, [], known=known)
        return [str(e.value) for e in a.names]

    assert names("Give the MeSH and OMIM cross-references of asthma") == []
    assert names("I'm watching The Last Of Us") == ["The Last Of Us"], "one declared word among function words is a title"


def test_a_country_code_parameter_takes_only_a_country() -> None:
    country = Parameter(name="country", type="string", description="Country code (2 letter).")
    assert open_values([country], _read("Sunrise over the next 3 days in ZIP code 10001"), "/forecast").values == {}
    assert open_values([country], _read("Sunrise in Raleigh, NC, US"), "/forecast").values == {"country": "US"}


def test_a_closing_quote_is_no_part_of_a_word() -> None:
    words = [w for w, _ in _read("What is the HPO term for 'seizure' in Parkinson's, Ehlers-Danlos-like?").words]
    assert "seizure" in words and "Parkinson's" in words and "Ehlers-Danlos-like" in words
    assert not any(w.endswith(("'", "-")) for w in words)


def test_a_code_is_said_by_what_it_means() -> None:
    item_type = Parameter(name="item_type", type="integer", enum=[1, 2, 3],
                          enum_labels={"1": "Figure", "2": "Media", "3": "Dataset"})
    assert open_values([item_type], _read("What are the most downloaded public datasets?"), "/articles").values == \
        {"item_type": 3}
    assert open_values([item_type], _read("What are the most downloaded articles?"), "/articles").values == {}


def test_the_plain_identifier_parameter_takes_the_value_before_a_qualified_one() -> None:
    # figshare's /articles: resource_doi (a related publication's DOI) beside doi (the item's own)
    params = [Parameter(name="resource_doi", type="string"), Parameter(name="doi", type="string")]
    doi = "10.6084/m9.figshare.2066037"

    def read(text: str) -> Analysis:
        a = _read(text)
        # as the readers give it: read by the doi concept's declared pattern
        a.entities = [Entity("doi", doi, text.index(doi), text.index(doi) + len(doi), doi, {"declared": True})]
        return a

    assert open_values(params, read(f"Which item has the DOI {doi}?"), "/articles").values == {"doi": doi}
    assert open_values(params, read(f"Which items cite the resource with DOI {doi}?"), "/articles").values == \
        {"resource_doi": doi}



@pytest.mark.parametrize(("summary", "verb"), [
    ("Establishes a connection to a server", "establish"), ("Modifies the record", "modify"),
    ("Processes the order", "process"), ("Follows artists", "follow"), ("Access the archive", "access"),
    ("Embed a video", "embed"), ("Apply a patch", "apply"), ("Multiply two numbers", "multiply"),
    # a summary that opens with no verb: it says nothing of what acting means in the registry
    ("No content", None), ("Partially update a record", None), ("Registration of a device", None),
    ("Deprecated: use the v2 endpoint", None), ("Chunked upload", None), ("Setting the alarm", None),
])
def test_a_summary_opening_verb_is_read_as_its_base_form(summary: str, verb: str | None) -> None:
    from schemarouter.understand.actions import _opening_verb

    assert _opening_verb(summary) == verb
