"""Routing over a source nobody tuned the vocabulary for: retrieval from its declarations, values
read from the question, chained steps, honest declines — beside the 19 first-party sources."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemarouter.graph import SchemaGraph
from schemarouter.graph.terms import question_terms
from schemarouter.models import Source
from schemarouter.plan import binding_of
from schemarouter.router import Router
from schemarouter.router.open_route import TOP_K
from schemarouter.router.validate import plan_inputs, validate_plan
from tests.open_world_support import catalogue, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


@pytest.fixture(scope="module")
def open_graph(graph: SchemaGraph) -> SchemaGraph:
    return with_catalogue(graph)


@pytest.fixture(scope="module")
def open_router(open_graph: SchemaGraph) -> Router:
    return Router(open_graph)


def calls(plan) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{s.source}.{s.endpoint}" for s in plan.steps]


def endpoint(declared: dict[str, Any], endpoint_id: str) -> dict[str, Any]:
    """The declared endpoint ``endpoint_id`` of a catalogue variant (to edit it in place)."""
    return next(e for e in declared["endpoints"] if e["id"] == endpoint_id)


def router_over(graph: SchemaGraph, declared: dict[str, Any]) -> Router:
    """A router over the first-party sources plus a catalogue variant."""
    return Router(with_catalogue(graph, Source.model_validate(declared)))


def test_a_name_is_searched_and_its_id_bound_to_the_detail(open_router: Router, open_graph: SchemaGraph) -> None:
    plan = open_router.plan("Where was the specimen Tyrannosaurus Sue found?")
    assert calls(plan) == ["specimens.search_specimens", "specimens.specimen"]
    search, detail = plan.steps
    assert search.id == "s1" and search.params == {"q": "Tyrannosaurus Sue"}
    assert detail.params == {"specimen_id": {"from": "s1", "field": "id", "pick": "first"}}
    assert "id" in search.fields, "the producer fetches the field the next step needs"
    assert "locality" in detail.fields and "collector_id" not in detail.fields
    assert validate_plan(plan, open_graph) == []


def test_a_word_of_the_path_picks_the_endpoint(open_router: Router) -> None:
    plan = open_router.plan("Show me images of the specimen Tyrannosaurus Sue")
    assert calls(plan) == ["specimens.search_specimens", "specimens.specimen_images"]


def test_an_id_in_the_question_fills_the_path_parameter_without_a_chain(open_router: Router) -> None:
    plan = open_router.plan("Images of specimen 482913 in the specimen catalogue")
    assert calls(plan) == ["specimens.specimen_images"]
    assert plan.steps[0].params == {"specimen_id": 482913}


def test_a_list_endpoint_produces_the_id_when_the_question_names_nothing(open_router: Router) -> None:
    plan = open_router.plan("Where were the recently catalogued specimens found?")
    assert calls(plan)[0] == "specimens.recent_specimens"
    assert all(binding_of(v) is None or v["from"] == "s1" for s in plan.steps for v in s.params.values())


def test_a_declared_example_is_never_a_value(open_graph: SchemaGraph) -> None:
    # no question value for the required id: the endpoint is reached by a chain or not at all
    plan = Router(open_graph).plan("Get specimen details from the specimen catalogue")
    for step in plan.steps:
        for p in open_graph.endpoints[(step.source, step.endpoint)].endpoint.parameters:
            if p.required:
                assert p.name in step.params


def test_an_action_request_is_declined_naming_the_write_operation(open_router: Router) -> None:
    plan = open_router.plan("Please request a loan of the specimen Tyrannosaurus Sue for our exhibition.")
    assert plan.declined and not plan.steps
    assert "specimens.create_loan" in plan.declined and "POST /specimens/{specimen_id}/loans" in plan.declined
    assert "writes are not enabled" in plan.declined


@pytest.mark.parametrize(("question", "write"), [
    ("Please cancel the loan of the specimen Tyrannosaurus Sue.", "DELETE /specimens/{specimen_id}/loans/{loan_id}"),
    ("Change the loan of the specimen Tyrannosaurus Sue to next week.", "PUT /specimens/{specimen_id}/loans/{loan_id}"),
    ("Please request a loan of the specimen Tyrannosaurus Sue.", "POST /specimens/{specimen_id}/loans"),
])
def test_a_decline_names_the_write_whose_method_does_what_is_asked(graph: SchemaGraph, question: str, write: str) -> None:
    data = catalogue().model_dump(by_alias=True)
    loan = next(e for e in data["endpoints"] if e["id"] == "create_loan")
    for method, verb in (("DELETE", "cancel"), ("PUT", "change")):
        data["endpoints"].append({**loan, "id": f"{verb}_loan", "method": method,
                                  "path": "/specimens/{specimen_id}/loans/{loan_id}", "summary": "One loan of a specimen",
                                  "parameters": [*loan["parameters"], {"name": "loan_id", "type": "integer", "required": True}]})
    plan = Router(with_catalogue(graph, Source.model_validate(data))).plan(question)
    assert plan.declined and not plan.steps
    assert f"{write} (" in plan.declined


def test_a_change_no_write_of_its_method_fits_names_the_write_that_does(graph: SchemaGraph) -> None:
    # the registry's one PUT changes something else (an API about galleries); the change asked for is
    # the catalogue's POST, as an API that POSTs every change declares it
    galleries = Source.model_validate({
        "id": "galleries", "title": "Gallery Rooms", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [{"id": "rename_room", "base_url": "http://127.0.0.1:9", "method": "PUT", "access": "write",
                       "path": "/rooms/{room_id}", "summary": "Rename a room",
                       "parameters": [{"name": "room_id", "type": "integer", "required": True}], "fields": []}],
    })
    g = with_catalogue(with_catalogue(graph, catalogue()), galleries)
    plan = Router(g).plan("Change the loan of the specimen Tyrannosaurus Sue so that it is returned next week.")
    assert plan.declined and not plan.steps
    assert "POST /specimens/{specimen_id}/loans (" in plan.declined


@pytest.mark.parametrize("question", [
    "Order 5 g of lithium iron phosphate from the supplier",
    "Email the band gap of GaN to my advisor",
    "Could you run a DFT relaxation of NaCl with a 500 eV cutoff?",
    "Delete sample S-12 from the lab store.",
])
def test_requests_to_act_are_declined(open_router: Router, question: str) -> None:
    plan = open_router.plan(question)
    assert plan.declined and "action" in plan.declined and not plan.steps


def test_a_question_no_source_explains_is_declined(open_router: Router) -> None:
    plan = open_router.plan("What will the weather be like in Daejeon tomorrow afternoon?")
    assert plan.declined and not plan.steps


def test_first_party_questions_keep_their_vocabulary_routes(open_router: Router) -> None:
    assert calls(open_router.plan("What is the band gap of LiFePO4 in the Materials Project?")) == [
        "materials_project.summary"]
    assert calls(open_router.plan("What is the molecular weight of aspirin?")) == ["pubchem.compound_properties"]


def test_a_common_word_is_not_read_as_an_element_for_a_source_that_takes_none(open_router: Router) -> None:
    plan = open_router.plan("Who collected the specimen Lead Tyrannosaurus?")
    assert calls(plan)[0] == "specimens.search_specimens"
    assert "formula" not in plan.steps[0].params


def test_declared_feeds_bind_what_names_would_not(graph: SchemaGraph) -> None:
    # collector_id is a field of the detail; a declared feed says it supplies the collector endpoint
    source = catalogue(feeds=[{"from": "specimen.collector_id", "to": "collector.collector_id"}])
    g = with_catalogue(graph, source)
    links = g.links[("specimens", "collector")]["collector_id"]
    assert links[0].producer == ("specimens", "specimen") and links[0].how == "declared"


def test_write_endpoints_are_never_planned(open_graph: SchemaGraph) -> None:
    plan = Router(open_graph).plan("Request a loan record for specimen 482913")
    assert all(open_graph.endpoints[(s.source, s.endpoint)].endpoint.access == "read" for s in plan.steps)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from([
    "specimen", "Tyrannosaurus Sue", "images", "of", "the", "where", "found", "482913", "collector", "band gap",
    "GaN", "recent", "loan", "please", "request", "HP:0001250", "2021-03-04", "lat 51.5, lon -0.12", "?", "born",
    "Materials Project", "compare", "second season", "DE", "'quoted title'",
]), max_size=12))
def test_any_text_yields_a_valid_plan_whose_bindings_resolve(open_router: Router, open_graph: SchemaGraph,
                                                              words: list[str]) -> None:
    plan = open_router.plan(" ".join(words))
    assert validate_plan(plan, open_graph) == []
    ids = [s.id for s in plan.steps]
    for i, step in enumerate(plan.steps):
        for value in step.params.values():
            b = binding_of(value)
            if b is not None:
                producer = ids.index(b["from"])
                assert producer < i
                prod = plan.steps[producer]
                assert b["field"] in prod.fields


def test_a_cycle_in_declared_feeds_ends_in_a_valid_plan(graph: SchemaGraph) -> None:
    source = catalogue(feeds=[
        {"from": "specimen.collector_id", "to": "collector.collector_id"},
        {"from": "collector.id", "to": "specimen.specimen_id"},
    ])
    g = with_catalogue(graph, source)
    for question in ("When was the collector of the specimen born?", "Where was the collector's specimen found?"):
        plan = Router(g).plan(question)
        assert validate_plan(plan, g) == []


def test_a_question_naming_two_sources_that_take_its_doi_asks_both(open_router: Router) -> None:
    plan = open_router.plan("Compare what Crossref and OpenAlex record for 10.1038/nature12373")
    assert {s.source for s in plan.steps} == {"crossref", "openalex"}
    assert all("10.1038/nature12373" in str(s.params) for s in plan.steps)


def test_thousands_of_undeclared_endpoints_still_give_valid_plans(graph: SchemaGraph) -> None:
    from schemarouter.declarations import Declarations, Owner
    from schemarouter.graph import build_graph

    base = catalogue()
    decls = Declarations(intents=dict(graph.decls.intents), field_groups=dict(graph.decls.field_groups),
                         concepts=dict(graph.decls.concepts))
    for i in range(400):  # 2,400 endpoints declaring nothing but names and paths
        copy = base.model_copy(update={"id": f"catalogue_{i}", "title": f"Catalogue {i}"})
        decls.sources[copy.id] = copy
        decls.owners[copy.id] = Owner("local", f"c{i}.yaml", "")
    g = build_graph(decls, "test:undeclared")
    router = Router(g)
    for question in ("Where was the specimen Tyrannosaurus Sue found?", "images of specimen 482913",
                     "band gap of GaN", "¿Dónde se encontró el espécimen?", ""):
        plan = router.plan(question)
        assert validate_plan(plan, g) == []



@pytest.mark.parametrize("question", ["What terrain and climate did the specimen Tyrannosaurus Sue live in?",
                                      "What climate and terrain did the specimen Tyrannosaurus Sue live in?"])
def test_a_field_reason_names_the_first_question_word_describing_it(graph: SchemaGraph, question: str) -> None:
    # two of the question's words describe "habitat": its reason names the one the question says first,
    # so a question gives the same plan in every process, whatever the hash seed
    declared = catalogue().model_dump()
    detail = endpoint(declared, "specimen")
    detail["fields"].append({"name": "habitat", "path": "habitat", "type": "string", "group": "content",
                             "description": "The climate and terrain it lived in."})
    plan = router_over(graph, declared).plan(question)
    first = question_terms(question.split(" did ")[0].removeprefix("What "))[0]
    assert plan.steps[-1].why["habitat"] == f"field description matched '{first}'"


def test_fields_one_word_reaches_are_reasoned_in_declaration_order(graph: SchemaGraph) -> None:
    # a word naming several fields: their reasons follow the declaration, not a set's hash order
    # (eight fields: a hash order matching theirs by chance is one in 40,320)
    declared = catalogue().model_dump()
    detail = endpoint(declared, "specimen")
    names = [f"habitat_{part}" for part in ("zone", "type", "note", "code", "era", "kind", "band", "cell")]
    detail["fields"] += [{"name": n, "path": n, "type": "string", "group": "content"} for n in names]
    plan = router_over(graph, declared).plan("The habitat of the specimen Tyrannosaurus Sue")
    reasons = [k for k, v in plan.steps[-1].why.items() if v == "field name matched 'habitat'"]
    assert reasons == names


def _with_copy(of: str, **changes: str) -> dict[str, Any]:
    """The catalogue's declaration with a copy of endpoint ``of``, ``changes`` applied, listed first."""
    declared = catalogue().model_dump()
    declared["endpoints"].insert(0, {**endpoint(declared, of), **changes})
    return declared


def test_of_two_endpoints_alike_the_one_whose_path_the_question_says_wins(graph: SchemaGraph) -> None:
    # the same images under the account's private space: "account" is nothing the question says
    declared = _with_copy("specimen_images", id="account_specimen_images",
                          path="/account/specimens/{specimen_id}/images")
    router = router_over(graph, declared)
    assert calls(router.plan("Images of specimen 482913 in the specimen catalogue")) == ["specimens.specimen_images"]
    assert calls(router.plan("Images of specimen 482913 in my account")) == ["specimens.account_specimen_images"]


def test_the_callers_own_space_answers_only_questions_about_the_askers_own_records(graph: SchemaGraph) -> None:
    # a private copy of the images endpoint, better described and with no telling path: its scope
    # alone keeps it for questions about one's own specimens
    declared = _with_copy("specimen_images", id="my_specimen_images", scope="account",
                          path="/specimens/{specimen_id}/image_files",
                          summary="Get the images and image files of a specimen")
    images = endpoint(declared, "specimen_images")
    router = router_over(graph, declared)
    assert calls(router.plan("Image files of specimen 482913")) == ["specimens.specimen_images"]
    assert calls(router.plan("Image files of my specimen 482913")) == ["specimens.my_specimen_images"]
    # and a question about one's own records goes to the account first, even where the public
    # endpoint says more of it
    plain = {**images, "id": "my_specimen_images", "scope": "account", "path": "/account/specimens/{specimen_id}/pics",
             "summary": "Pictures"}
    declared["endpoints"][0] = plain
    router = router_over(graph, declared)
    assert calls(router.plan("Images of my specimen 482913")) == ["specimens.my_specimen_images"]
    assert calls(router.plan("Images of specimen 482913")) == ["specimens.specimen_images"]


def test_the_callers_own_space_supplies_a_chain_only_for_the_askers_own_records(graph: SchemaGraph) -> None:
    # a private search that says more of specimens: the public question's chain still searches publicly
    declared = _with_copy("search_specimens", id="my_specimen_search", scope="account", path="/specimens/search",
                          summary="Search specimens by name: where each specimen was found")
    router = router_over(graph, declared)
    assert calls(router.plan("Where was the specimen Tyrannosaurus Sue found?")) == [
        "specimens.search_specimens", "specimens.specimen"]
    assert "specimens.my_specimen_search" in calls(router.plan("Where was my specimen Tyrannosaurus Sue found?"))


def test_a_value_addresses_its_record_not_more_records_of_its_kind_under_it(graph: SchemaGraph) -> None:
    # /specimens/{specimen_id}/specimens lists related specimens with the record's own fields, listed first
    declared = _with_copy("specimen", id="related_specimens", path="/specimens/{specimen_id}/specimens",
                          summary="Get the specimens related to a specimen")
    router = router_over(graph, declared)
    assert calls(router.plan("Where was specimen 482913 found?")) == ["specimens.specimen"]
    assert calls(router.plan("Which specimens are related to specimen 482913?")) == ["specimens.related_specimens"]


def test_recall_mode_fetches_what_finds_the_record_again(graph: SchemaGraph) -> None:
    # a DOI and a URL say where the record is: recall mode fetches them beside the asked-for field
    declared = catalogue().model_dump()
    detail = endpoint(declared, "specimen")
    detail["fields"] += [{"name": "doi", "path": "doi", "type": "string", "group": "content"},
                         {"name": "url_homepage", "path": "urlHomepage", "type": "string", "group": "content"},
                         {"name": "weight", "path": "weight", "type": "number", "group": "content"}]
    router = router_over(graph, declared)
    recall = router.plan("Where was the specimen Tyrannosaurus Sue found?").steps[-1]
    assert {"locality", "doi", "url_homepage"} <= set(recall.fields) and "weight" not in recall.fields
    minimal = router.plan("Where was the specimen Tyrannosaurus Sue found?", mode="minimal").steps[-1]
    assert "doi" not in minimal.fields
    home = router.plan("What is the home page of the specimen Tyrannosaurus Sue?").steps[-1]
    assert home.why["url_homepage"] == "field name matched 'homepag'"


def test_a_word_most_field_descriptions_share_picks_no_field(graph: SchemaGraph) -> None:
    # "... of the specimen" in every description: the word describes the record, not one field
    declared = catalogue().model_dump()
    detail = endpoint(declared, "specimen")
    names = [f"measure_{i}" for i in range(8)]
    detail["fields"] += [{"name": n, "path": n, "type": "number", "group": "content",
                          "description": f"Measurement {i} of the specimen."} for i, n in enumerate(names)]
    step = router_over(graph, declared).plan("What is the locality of specimen 482913?").steps[-1]
    assert "locality" in step.fields and not set(names) & set(step.fields), step.why


def test_a_named_source_that_cannot_answer_fully_is_planned_naming_what_it_needs(graph: SchemaGraph) -> None:
    # only the collector endpoint: nothing lists or searches collectors, so nothing supplies its id;
    # the step is planned and names it (an agent asks its user), the executor refuses it until given
    declared = catalogue().model_dump()
    declared["endpoints"] = [endpoint(declared, "collector")]
    router = router_over(graph, declared)
    plan = router.plan("In the Natural History Specimen Catalogue, when was the collector born?")
    assert calls(plan) == ["specimens.collector"] and plan.steps[0].params == {}
    assert plan_inputs(plan, router.graph) == ["specimens.collector.collector_id"]


def test_a_date_is_never_guessed_to_be_a_compound(graph: SchemaGraph) -> None:
    # "density ... on 2020-06-21": the thing asked about is no compound called "2020-06-21"
    analysis = Router(graph).understander.understand("What is the density at 300 km altitude on 2020-06-21?", graph)
    assert not [e for e in analysis.entities if e.kind == "compound"]
    assert "compound_name" not in analysis.understanding.params


def test_a_field_name_that_writes_a_word_short_is_named_by_it(graph: SchemaGraph) -> None:
    # "temp" is temperature written short; "count" is no country
    declared = catalogue().model_dump()
    detail = endpoint(declared, "specimen")
    detail["fields"] += [{"name": n, "path": n, "type": "number", "group": "content"}
                         for n in ("temp", "item_count")]
    step = router_over(graph, declared).plan("What temperature and country is specimen 482913 kept at?").steps[-1]
    assert step.why.get("temp") == "field name matched 'temperatur'"
    assert "item_count" not in step.fields


def test_of_two_endpoints_explaining_as_much_the_one_the_identifier_is_named_for_wins(graph: SchemaGraph) -> None:
    # "collector 4711": the collector endpoint is the one the question names the identifier for
    router = Router(with_catalogue(graph))
    assert calls(router.plan("Which specimen catalogue record names collector 4711?")) == ["specimens.collector"]


def test_a_word_an_enum_member_answers_is_explained_by_the_endpoint_that_takes_it(graph: SchemaGraph) -> None:
    # "most viewed": the list sorts by views; the detail only has a view count. Sorting the list
    # answers the word, so no second step is needed to explain it
    declared = catalogue().model_dump()
    declared["endpoints"].append({
        "id": "list_specimens", "base_url": "http://127.0.0.1:9", "path": "/specimens",
        "summary": "List specimens",
        "parameters": [{"name": "order", "type": "string", "enum": ["views", "collected_date"]}],
        "fields": [{"name": "id", "path": "id", "type": "integer", "group": "content"},
                   {"name": "name", "path": "name", "type": "string", "group": "content"}]})
    detail = endpoint(declared, "specimen")
    detail["fields"].append({"name": "view_count", "path": "views", "type": "integer", "group": "content"})
    plan = router_over(graph, declared).plan("Which specimens are viewed most?")
    assert calls(plan) == ["specimens.list_specimens"] and plan.steps[0].params == {"order": "views"}


def test_an_identifiers_prefix_is_declared_by_its_source_not_by_one_endpoints_example(graph: SchemaGraph) -> None:
    # the images endpoint's description shows an example NHM id; the namespace is the catalogue's,
    # so the example gives that endpoint no edge over the detail that holds what is asked
    declared = catalogue().model_dump()
    images = endpoint(declared, "specimen_images")
    images["description"] = "Images of one specimen, for example NHM:4711."
    detail = endpoint(declared, "specimen")
    detail["parameters"] = [{"name": "specimen_id", "type": "string", "required": True}]
    images["parameters"] = [{"name": "specimen_id", "type": "string", "required": True}]
    router = router_over(graph, declared)
    plan = router.plan("Tell me about NHM:982113 from the specimen catalogue.")
    assert calls(plan) == ["specimens.specimen"] and plan.steps[0].params == {"specimen_id": "NHM:982113"}


def test_a_producer_list_whose_path_says_nothing_the_question_does_not_is_preferred(graph: SchemaGraph) -> None:
    # two lists can give the specimen id; /browse/specimens declares more of the question's words
    # (locality, most recent), but "browse" is nothing the question says, and /specimens/recent is
    # named for what is asked
    declared = catalogue().model_dump()
    declared["endpoints"].append({
        "id": "browse_specimens", "base_url": "http://127.0.0.1:9", "path": "/browse/specimens",
        "summary": "Browse specimens by locality, most recent first",
        "parameters": [{"name": "locality", "type": "string"}],
        "fields": [{"name": "id", "path": "id", "type": "integer", "group": "content"},
                   {"name": "name", "path": "name", "type": "string", "group": "content"}]})
    plan = router_over(graph, declared).plan(
        "What is the locality of the most recent specimen?")
    assert calls(plan) == ["specimens.recent_specimens", "specimens.specimen"]


def test_recall_adds_the_fields_that_situate_a_record_not_the_parts_of_an_object_named_for_one(graph: SchemaGraph) -> None:
    # NeoWs: a Java URL object flattened into nasa_jpl_url.port, .host, .protocol...
    data = catalogue().model_dump(by_alias=True)
    stats = {"id": "stats", "base_url": "https://specimens.example", "path": "/stats",
             "summary": "Totals of the specimen catalogue",
             "fields": [{"name": n, "path": p, "type": t, "group": "content"} for n, p, t in (
                 ("specimen_count", "specimen_count", "integer"), ("last_updated_date", "last_updated_date", "date"),
                 ("jpl_url_port", "jpl_url.port", "integer"), ("jpl_url_host", "jpl_url.host", "string"),
                 ("home_url", "home_url", "string"))]}
    data["endpoints"].append(stats)
    plan = Router(with_catalogue(graph, Source.model_validate(data))).plan("How many specimens does the catalogue count in total?")
    assert calls(plan) == ["specimens.stats"]
    assert plan.steps[0].fields == ["specimen_count", "last_updated_date", "home_url"]


def test_a_source_named_with_an_identifier_is_asked_when_it_declares_an_id_parameter(graph: SchemaGraph) -> None:
    # an OPTIMADE provider imported from its document: /structures/{entry_id}, no concepts; "mp-149"
    # is read as a Materials Project id, yet the user named the provider
    data = catalogue().model_dump(by_alias=True)
    data.update(id="optimade_lab", title="Lab OPTIMADE provider")
    data["endpoints"] = [{
        "id": "single_structure", "base_url": "https://optimade.lab.example", "path": "/structures/{entry_id}",
        "summary": "Get single structure",
        "parameters": [{"name": "entry_id", "type": "string", "required": True},
                       {"name": "api_hint", "type": "string", "description": (
                           "If the client provides the parameter, the value SHOULD have the format vMAJOR. For "
                           "example, a client appends api_hint=v1 to a query string.")}],
        "fields": [{"name": "id", "path": "data.id", "type": "string", "group": "content"},
                   {"name": "chemical_formula_reduced", "path": "data.attributes.chemical_formula_reduced",
                    "type": "string", "group": "content"}]}]
    plan = Router(with_catalogue(graph, Source.model_validate(data))).plan("Get the structure with id mp-149 from optimade_lab")
    assert plan.understanding.named_tools == ["optimade_lab"]
    assert calls(plan) == ["optimade_lab.single_structure"]
    assert plan.steps[0].params == {"entry_id": "mp-149"}, "no text for a parameter whose later prose mentions a query string"


def test_an_action_verb_a_read_endpoint_performs_is_a_read(graph: SchemaGraph) -> None:
    # the Rat Genome Database: GET /lookup/id/map/EnsemblGene/{rgdId}, "Translate an RGD ID to an Ensembl Gene ID"
    question = "Translate specimen 482913 to a museum accession"
    assert "action" in (Router(with_catalogue(graph)).plan(question).declined or "")
    data = catalogue().model_dump(by_alias=True)
    data["endpoints"].append({
        "id": "accession_of", "base_url": "https://specimens.example", "path": "/lookup/accession/{specimen_id}",
        "summary": "Translate a specimen number to a museum accession number",
        "parameters": [{"name": "specimen_id", "type": "integer", "required": True}],
        "fields": [{"name": "accession", "path": "accession", "type": "string", "group": "content"}]})
    plan = Router(with_catalogue(graph, Source.model_validate(data))).plan(question)
    assert not plan.declined and calls(plan) == ["specimens.accession_of"]
    assert plan.steps[0].params == {"specimen_id": 482913}


def test_a_list_of_codes_is_planned_and_validated_member_by_member(graph: SchemaGraph) -> None:
    declared = catalogue().model_dump()
    declared["endpoints"].append({
        "id": "specimens_by_site", "base_url": "http://127.0.0.1:9", "path": "/specimens/by_site",
        "summary": "Specimens collected at field sites",
        "parameters": [{"name": "site", "type": "array", "enum": ["KRDU", "KJFK", "KSFO"]}],
        "fields": [{"name": "id", "path": "id", "type": "integer", "group": "content"},
                   {"name": "site", "path": "site", "type": "string", "group": "content"}]})
    g = with_catalogue(graph, Source.model_validate(declared))
    plan = Router(g).plan("Which specimens were collected at field sites KRDU and KSFO?")
    assert calls(plan) == ["specimens.specimens_by_site"] and plan.steps[0].params == {"site": ["KRDU", "KSFO"]}
    assert validate_plan(plan, g) == []
    plan.steps[0].params["site"] = ["KRDU", "EGLL"]
    assert validate_plan(plan, g) == [
        "step 0 (specimens.specimens_by_site): parameter 'site'=['KRDU', 'EGLL'] is not one of ['KRDU', 'KJFK', 'KSFO']"]


def test_a_lower_case_source_alias_another_named_source_declares_is_that_word(graph: SchemaGraph) -> None:
    # OSF's /nodes/{node_id}/wikis/: "wiki" is also an alias of Wikipedia
    declared = catalogue().model_dump()
    declared["aliases"] = ["specimen catalogue"]
    declared["endpoints"].append({
        "id": "specimen_wikis", "base_url": "http://127.0.0.1:9", "path": "/specimens/{specimen_id}/wikis",
        "summary": "List the wiki pages of a specimen",
        "parameters": [{"name": "specimen_id", "type": "integer", "required": True}],
        "fields": [{"name": "id", "path": "id", "type": "integer", "group": "content"},
                   {"name": "content", "path": "content", "type": "string", "group": "content"}]})
    router = router_over(graph, declared)
    plan = router.plan("Show the wiki pages of specimen 4411 in the specimen catalogue")
    assert calls(plan) == ["specimens.specimen_wikis"] and plan.steps[0].params == {"specimen_id": 4411}
    assert router.understander.understand("Show the wiki pages of specimen 4411 in the specimen catalogue",
                                          router.graph).understanding.named_tools == ["specimens"]
    # written as a name, or with no other source named, it names Wikipedia still
    assert "wikipedia" in router.understander.understand("Summarize Alan Turing from the Wiki and the specimen catalogue",
                                                         router.graph).understanding.named_tools
    assert router.understander.understand("Summarize Alan Turing from the wiki", router.graph).understanding.named_tools \
        == ["wikipedia"]


def test_a_title_word_with_a_capital_inside_names_its_source(graph: SchemaGraph) -> None:
    # "Monarch Initiative BioLink API": users say "BioLink" or "the BioLink API"
    declared = catalogue().model_dump()
    declared["title"] = "Natural History SpecimenHub API"
    router = router_over(graph, declared)

    def named(question: str) -> list[str]:
        return router.understander.understand(question, router.graph).understanding.named_tools

    assert named("Search SpecimenHub for Tyrannosaurus") == ["specimens"]
    assert named("Which specimens of Tyrannosaurus does the SpecimenHub API hold?") == ["specimens"]
    plan = router.plan("Which specimens of Tyrannosaurus does the SpecimenHub API hold?")
    assert "API" not in str(plan.steps[0].params), "the rest of the title is part of the name, not search text"
    assert named("Which natural history API holds Tyrannosaurus fossils?") == [], "ordinary title words name nothing"


def test_a_named_source_whose_ranked_endpoints_cannot_be_built_searches_for_the_undescribed_words(
        graph: SchemaGraph) -> None:
    # "Look up cystic fibrosis in the Monarch Initiative and tell me how it is described": the words
    # rank an endpoint that needs a key nothing supplies; the source's search takes what no source describes
    declared = catalogue().model_dump()
    # more endpoints the words rank first than the open route tries (TOP_K)
    declared["endpoints"] = [
        {"id": f"description_{i}", "base_url": "http://127.0.0.1:9", "path": f"/descriptions/{i}/{{description_key}}",
         "summary": "How a record is described",
         "parameters": [{"name": "description_key", "type": "string", "required": True}],
         "fields": [{"name": "text", "path": "text", "type": "string", "group": "content"}]}
        for i in range(TOP_K + 1)
    ] + [
        {"id": "lookup", "base_url": "http://127.0.0.1:9", "path": "/lookup", "summary": "Lookup",
         "parameters": [{"name": "term", "type": "string", "required": True}],
         "fields": [{"name": "label", "path": "label", "type": "string", "group": "content"}]},
    ]
    router = router_over(graph, declared)
    plan = router.plan("Look up dodo bones in the specimens catalogue and tell me how they are described")
    assert calls(plan) == ["specimens.lookup"] and plan.steps[0].params == {"term": "dodo bones"}, plan.declined


def test_a_description_naming_the_source_selects_no_field_for_a_question_naming_it(graph: SchemaGraph) -> None:
    # descriptions name their source ("the Natural History Museum's loan desk"): a question that names
    # the source asks nothing of that field; a field named for the word is still asked for
    declared = catalogue().model_dump()
    detail = endpoint(declared, "specimen")
    detail["fields"] += [
        {"name": "loan_desk", "path": "loan_desk", "type": "string", "group": "content",
         "description": "The Natural History catalogue desk that lends it."},
        {"name": "habitat", "path": "habitat", "type": "string", "group": "content",
         "description": "Where it lived."},
    ]
    router = router_over(graph, declared)
    plan = router.plan("Habitat of specimen 482913 in the Natural History Specimen Catalogue")
    assert calls(plan) == ["specimens.specimen"]
    assert "habitat" in plan.steps[-1].fields and "loan_desk" not in plan.steps[-1].fields
    # the same words, when no title says them, still reach the field by its description
    declared["title"] = "Specimens"
    plan = router_over(graph, declared).plan("Habitat of specimen 482913 in the Natural History Specimen Catalogue")
    assert "loan_desk" in plan.steps[-1].fields


def test_a_required_filter_the_question_does_not_narrow_takes_its_select_all_member(graph: SchemaGraph) -> None:
    # Wikimedia's pageview metrics require access=all-access|desktop|mobile-app|...: a question that
    # names no access method wants all of them, and the plan says so; two "all" members say which
    # records, so neither is assumed
    from schemarouter.router.enum_kinds import all_member

    assert all_member(["all-access", "desktop", "mobile-web"]) == "all-access"
    assert all_member(["user", "spider", "all-agents"]) == "all-agents"
    assert all_member(["desktop", "mobile-web"]) is None
    assert all_member(["all-articles", "all-users"]) is None
    assert all_member(["allergen", "pollen"]) is None, "a word that begins with 'all' is no such member"
    declared = catalogue().model_dump()
    detail = endpoint(declared, "specimen")
    detail["parameters"].append({"name": "access", "type": "string", "required": True,
                                 "enum": ["all-access", "desktop", "mobile-web"]})
    plan = router_over(graph, declared).plan("Where was specimen 482913 found?")
    step = plan.steps[-1]
    assert calls(plan) == ["specimens.specimen"] and step.params["access"] == "all-access"
    assert "access: 'all-access' selects every record; the question does not narrow it" in step.why["_params"]
    # a member the question says wins over the select-all one
    plan = router_over(graph, declared).plan("Desktop views of specimen 482913: where was it found?")
    assert plan.steps[-1].params["access"] == "desktop"


@pytest.mark.parametrize(("question", "expected"), [
    ("Images of specimen 482913 on Wikipedia", ["specimens.specimen_images"]),
    ("Where was specimen 482913 found? I read about it on Wikipedia", ["specimens.specimen"]),
    ("What does Wikipedia say about graphene?", ["wikipedia.page_summary"]),
])
def test_a_named_source_that_explains_little_yields_to_one_that_explains_the_question(
        open_router: Router, question: str, expected: list[str]) -> None:
    # the source a question names may be where the thing was seen, not the one to ask: its summary
    # endpoint explains nothing of "images of specimen 482913"; it still answers what it explains
    assert calls(open_router.plan(question)) == expected


def test_a_named_source_that_is_what_the_question_measures_yields(graph: SchemaGraph) -> None:
    # "pageviews to Japanese Wikipedia": Wikipedia is what is measured; its summary endpoint explains
    # nothing of countries and pageviews, an imported metrics source does
    metrics = Source.model_validate({
        "id": "wikimetrics", "title": "Wiki Metrics", "domain": "general", "source_type": "curated",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [{
            "id": "top_by_country", "base_url": "http://127.0.0.1:9",
            "path": "/metrics/pageviews/top-by-country/{project}/{year}/{month}",
            "summary": "Countries that sent the most pageviews to a project in a month",
            "parameters": [{"name": n, "type": "string", "required": True} for n in ("project", "year", "month")],
            "fields": [{"name": "country", "path": "countries[].country", "type": "string", "group": "content"},
                       {"name": "views", "path": "countries[].views", "type": "integer", "group": "content"}],
        }],
    })
    plan = Router(with_catalogue(graph, metrics)).plan(
        "Which countries sent the most pageviews to Japanese Wikipedia (ja.wikipedia.org) in October 2023?")
    assert calls(plan) == ["wikimetrics.top_by_country"]
    assert plan.steps[0].params == {"project": "ja.wikipedia.org", "year": "2023", "month": "10"}


def test_a_parameters_name_written_before_its_value_is_no_request_to_act(graph: SchemaGraph) -> None:
    # "start 20240201" gives the start of a read endpoint's window; "Start a loan" asks to act
    declared = catalogue().model_dump()
    endpoint(declared, "recent_specimens")["parameters"] = [
        {"name": "start", "type": "string", "description": "The first date to include, in YYYYMMDD format"}]
    router = router_over(graph, declared)
    plan = router.plan("Recently catalogued specimens, start 20240201")
    assert not plan.declined and calls(plan) == ["specimens.recent_specimens"]
    assert plan.steps[0].params == {"start": "20240201"}
    for question in ("Start a loan of specimen 482913", "Delete 12345"):
        assert "action rather than a request for data" in (router.plan(question).declined or "")
    # only the verbs some read endpoint takes as a parameter's name are read so
    from schemarouter.understand.actions import parameter_verbs

    verbs = parameter_verbs(router.graph)
    assert "start" in verbs and "delete" not in verbs


def test_a_question_about_now_is_declined_only_by_sources_that_say_what_they_serve(open_router: Router) -> None:
    # an imported endpoint declares nothing of whether its data is current: "right now" is no reason
    # to decline it (retrieval's best candidate is declined only for a request to act or a low score)
    plan = open_router.plan("Images of specimen 482913 right now")
    assert not plan.declined and calls(plan) == ["specimens.specimen_images"]
    # a source the vocabulary describes says what it serves: a static database is no stock ticker
    assert open_router.plan("What is Samsung Electronics' stock price right now?").declined


def test_the_producer_the_question_describes_best_is_weighed_beside_the_searches(graph: SchemaGraph) -> None:
    # four searches of specimens outrank, by their link, the list of a person's finds; the question
    # reaches the specimen through the person who found it, and its words describe that list best
    declared = catalogue().model_dump()
    for i, path in enumerate(["/search/specimens/fuzzy", "/specimens/lookup", "/specimens/search", "/search/specimens/all"]):
        declared["endpoints"].append({
            "id": f"specimen_search_{i}", "base_url": "http://127.0.0.1:9", "path": path,
            "summary": "Search specimens", "parameters": [{"name": "q", "type": "string", "required": True}],
            "fields": [{"name": "id", "path": "id", "type": "integer", "group": "content"}]})
    declared["endpoints"] += [
        {"id": "search_people", "base_url": "http://127.0.0.1:9", "path": "/search/person",
         "summary": "Search people by name", "parameters": [{"name": "query", "type": "string", "required": True}],
         "fields": [{"name": "id", "path": "id", "type": "integer", "group": "content"},
                    {"name": "name", "path": "name", "type": "string", "group": "content"}]},
        {"id": "person_finds", "base_url": "http://127.0.0.1:9", "path": "/person/{person_id}/specimen_finds",
         "summary": "The specimens a person found",
         "parameters": [{"name": "person_id", "type": "integer", "required": True}],
         "fields": [{"name": "id", "path": "id", "type": "integer", "group": "content"},
                    {"name": "finds_name", "path": "finds[].name", "type": "string", "group": "content"}]},
    ]
    router = router_over(graph, declared)
    plan = router.plan("Show me images of a specimen find by Mary Anning")
    assert calls(plan) == ["specimens.search_people", "specimens.person_finds", "specimens.specimen_images"]
    # an open chain whose producer ranks above its target gives way to the producer's own chain: the
    # further step did not earn its place
    longer = plan.steps
    analysis = router.understander.understand("tell me a specimen find by Mary Anning", router.graph)
    _steps, scored = router.reranked(analysis)
    assert scored[0].info.endpoint.id == "person_finds"
    steps, _reason = router._rerank(analysis, "recall", longer, "", "open")
    assert [s.endpoint for s in steps] == ["search_people", "person_finds"]
