"""Declines that know the registry: a request is an act only where no read endpoint does what it
asks; the act is read from the grammar of the request (light verbs, phrasal verbs, verbs of
beginning, suggestions, a goal only where a write would serve it), and a decline names the write
endpoint that would do it."""

from __future__ import annotations

import pytest

from schemarouter.graph import SchemaGraph
from schemarouter.router import Router
from schemarouter.understand.actions import action_verb, write_verbs
from tests.open_world_support import with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)
from tests.tool_support import calls as _calls
from tests.tool_support import endpoint as _endpoint
from tests.tool_support import req as _req
from tests.tool_support import source as _source


def test_a_verb_a_read_endpoint_does_is_a_read(graph: SchemaGraph) -> None:
    reads = with_catalogue(graph, _source("calc", [
        _endpoint("power", "/power", "Calculate the power output of a cycling activity",
                  [_req("watts", "number")], ["power_output"]),
    ]))
    plan = Router(reads).plan("Calculate the power output for a cycling activity of 250 watts")
    assert _calls(plan) == ["calc.power"]


def test_a_verb_reads_and_writes_open_with_is_told_by_the_endpoint_the_words_reach(graph: SchemaGraph) -> None:
    both = with_catalogue(graph, _source("lab", [
        _endpoint("random_forest", "/models/random_forest", "Generate a random forest model from training data",
                  [_req("trees", "integer")], ["accuracy"]),
        _endpoint("create_report", "/reports", "Generate a quarterly sales report document",
                  [_req("quarter", "string")], ["report_id"], method="POST"),
        # a read that shares the request's words but does not generate anything
        _endpoint("report_archive", "/reports/quarterly/sales/documents", "Quarterly sales report documents archive",
                  [_req("quarter", "string")], ["report_id", "quarterly_sales_report_document"]),
    ]))
    router = Router(both)
    assert _calls(router.plan("Generate a random forest model with 100 trees")) == ["lab.random_forest"]
    declined = router.plan("Generate a quarterly sales report document for Q3")
    assert not declined.steps and "lab.create_report" in (declined.declined or "")


def test_a_verb_a_read_endpoint_s_description_opens_with_is_a_read_where_its_summary_is_a_name(
        graph: SchemaGraph) -> None:
    # a catalogue tool titled by its brand: the summary names it, the description says what it does
    tool = _endpoint("photoreal", "/Photoreal", "Photoreal", [], ["prompt"],
                     description="Photoreal. Generate photorealistic image prompts for Midjourney.")
    router = Router(with_catalogue(graph, _source("studio", [tool])))
    plan = router.plan("Could you generate a lifelike image of a city street at night for Midjourney?")
    assert _calls(plan) == ["studio.photoreal"]
    # a tool whose prose only mentions what others generated does not make "generate" a read
    tool["description"] = "Photoreal. A gallery of generated photorealistic image prompts for Midjourney."
    router = Router(with_catalogue(graph, _source("studio", [tool])))
    assert router.plan("Could you generate a lifelike image of a city street at night for Midjourney?").declined


def test_a_verb_the_best_read_says_it_does_is_a_read_and_a_word_sharing_its_stem_is_not(
        graph: SchemaGraph) -> None:
    game = _endpoint("checkers", "/Checkers", "Checkers", [], ["board"],
                     description="Checkers. This allows you to play a game of checkers against the computer.")
    router = Router(with_catalogue(graph, _source("games", [game])))
    assert _calls(router.plan("Can you play a game of checkers with me?")) == ["games.checkers"]
    # "settings" shares the stem of "set" but says nothing of setting anything
    state = _endpoint("ac_state", "/ac/state", "Fetch the state of the air conditioner",
                      [], ["mode", "temperature_settings"])
    state["description"] = "Fetch the state of the air conditioner, including its temperature settings."
    router = Router(with_catalogue(graph, _source("home", [state])))
    assert router.plan("Set the air conditioner to 20 degrees").declined
    # a description instructing the caller ("... you need to send a token") does not send anything
    inbox = _endpoint("inbox", "/inbox", "Messages in the inbox", [], ["subject", "sender"],
                      description="Messages in the inbox, newest first; to read them you need to send a token as a header.")
    router = Router(with_catalogue(graph, _source("mailbox", [inbox])))
    assert router.plan("Send a message to the inbox of my advisor").declined


def test_a_read_does_a_verb_of_the_same_act_its_prose_opens_with(graph: SchemaGraph) -> None:
    # "make" a video is done by the tool that "creates" one; an adverb before the verb and verbs
    # joined to it ("Quickly create and deploy") open the description as much as a bare verb
    video = _endpoint("visla", "/Visla", "Visla", [], ["answer"],
                      description="Visla. Create a short video from public stock footage based on your topic.")
    site = _endpoint("website", "/Website", "Website Tool", [], ["answer"],
                     description="Website Tool. Quickly create and deploy websites, and publish content on them.")
    router = Router(with_catalogue(graph, _source("studio", [video, site])))
    assert _calls(router.plan("Make a video that shows the dangers of plastic in the oceans.")) == ["studio.visla"]
    assert _calls(router.plan("Can you help me deploy my shop's website on Netlify?")) == ["studio.website"]
    # a verb of another act is no kin: creating a video does not delete one
    assert router.plan("Delete the video about plastic in the oceans").declined


def test_a_light_verb_asks_for_the_act_its_noun_names(graph: SchemaGraph) -> None:
    # "make a reservation" asks to reserve: a tool that says it is for booking does that act (kin of
    # reserve), so the request is its read; where the reads only list restaurants and a write takes
    # reservations, it is declined
    booking = _endpoint("restaurant_booking", "/RestaurantBooking", "Restaurant Booking Tool", [], ["answer"],
                        description="Tool for booking restaurant")
    listing = _endpoint("restaurants", "/restaurants", "List restaurants near a place", [], ["name", "cuisine"])
    question = "I would like to make a reservation for four at a sushi restaurant in Tokyo on Friday"
    router = Router(with_catalogue(graph, _source("dining", [booking])))
    assert _calls(router.plan(question)) == ["dining.restaurant_booking"]
    reserve = _endpoint("reserve_table", "/reservations", "Reserve a table for a party at a restaurant",
                        [_req("restaurant", "string")], ["reservation_id"], method="POST")
    declined = Router(with_catalogue(graph, _source("dining", [listing, reserve]))).plan(question)
    assert not declined.steps and "reserve" in (declined.declined or "")


def test_a_goal_no_write_of_the_registry_would_serve_is_the_context_of_a_read(graph: SchemaGraph) -> None:
    # "I want to buy a gift" states the asker's goal: over tools that only read, a gift finder answers
    # it; where a write shares the request's words (an order endpoint), it is a request to act
    finder = _endpoint("gift_finder", "/gifts", "Gift ideas for a friend by interests and budget", [], ["idea"])
    order = _endpoint("place_order", "/orders", "Order a gift for delivery", [_req("gift", "string")], ["order_id"],
                      method="POST")
    question = "I want to buy a thoughtful gift for my close friend who loves hiking"
    assert _calls(Router(with_catalogue(graph, _source("shop", [finder]))).plan(question)) == ["shop.gift_finder"]
    declined = Router(with_catalogue(graph, _source("shop", [finder, order]))).plan(question)
    assert not declined.steps and "buy" in (declined.declined or "")
    # a request addressed to the system acts whatever the registry holds
    assert Router(with_catalogue(graph, _source("shop", [finder]))).plan("Buy a thoughtful gift for my friend").declined


def test_a_phrasal_verb_is_declined_naming_the_write_of_the_act_it_means(graph: SchemaGraph) -> None:
    # "set up a data source" creates one: the decline names the POST that creates, not the PUT that
    # updates (which "set" alone would ask for)
    listing = _endpoint("data_sources", "/dataSources", "List data sources", [], ["name", "kind"])
    create = _endpoint("create_data_source", "/createDataSource", "Create a data source",
                       [_req("name", "string")], ["id"], method="POST")
    update = _endpoint("update_data_source", "/updateDataSource", "Update a data source",
                       [_req("name", "string")], ["id"], method="PUT")
    router = Router(with_catalogue(graph, _source("superset", [listing, create, update])))
    declined = router.plan("I want to set up a MySQL data source for my new project. Call it DS_A.")
    assert not declined.steps and "superset.create_data_source" in (declined.declined or "")


@pytest.mark.parametrize(("text", "verb"), [
    ("Make a dinner reservation at Nobu for Friday", "reserve"),  # a word before the noun of the act
    ("Please make a deletion of the old records", "delete"),
    ("Can you make a removal of my old listing?", "remove"),
    ("Can you do my assignment on the French revolution?", None),  # homework, no act of assigning
    ("Make a postal code lookup for 90210", "make"),  # "postal" is no act of posting
    ("Please place an order for three pizzas", "place"),  # a noun spelled as its verb: the light verb stands
    ("Make me an Apdex report for 'ns9934'", "make"),  # what the act makes, not the act
    ("What is the version? Do not add parameters!", None),  # a negated auxiliary, no act
    ("I'd like to start the process for creating an interior design report", "create"),  # the act begun
    ("Begin translating this text into French", "translate"),
    ("Please start the timer", "start"),  # no act begun: starting is the act
    ("Sign me up for the newsletter", "register"),  # phrasal verbs: the verb they mean
    ("Get rid of my old playlist", "remove"),
    ("Please opt me out of the weekly emails", "unsubscribe"),
    ("What is the set up time of the experiment?", None),
    ("I want a new avatar. How about creating one in a minimal style for me?", "create"),  # a suggestion
    ("How about the weather in Paris?", None),
    ("I want to make a payment of 20 USD to Bob", "pay"),
    ("Can you make a booking for two at 7pm?", "book"),
    ("Can you do a search for hotels in Paris?", None),  # the act is a read
    ("Make a list of bookings for this week", None),  # a list, not a booking
    ("Make a playlist of my favourite songs", "make"),  # no noun of an act: the light verb stands
])
def test_the_act_a_light_verb_s_noun_names(text: str, verb: str | None) -> None:
    from schemarouter.understand.actions import action_verb

    assert action_verb(text) == verb


@pytest.mark.parametrize(("text", "verb"), [
    # a verb joined to a relative clause says what the thing does, as the clause's first verb did
    ("Can you recommend a tool that can help me manage my to-do list and remind me of deadlines?", None),
    ("I want an app that allows users to create and manage tasks, set reminders and track progress", None),
    # ... a verb of another form, a frame of its own or an act on the thing found is a request
    ("Search for a hotel that allows smoking and book two rooms for me", "book"),
    ("Find a tool that can convert files and can you send it to Bob?", "send"),
    ("Find a hotel that can take pets and book it for Friday", "book"),
    # a sentence's end closes the relative clause
    ("I need a tool that can help me plan. Remind me of my deadlines tomorrow.", "remind"),
])
def test_a_verb_joined_to_a_relative_clause_is_the_thing_s(text: str, verb: str | None) -> None:
    assert action_verb(text) == verb


@pytest.mark.parametrize(("text", "verb"), [
    # a question about the way to do something asks for information, whatever verbs it joins
    ("Can you teach me how to use SSH and run commands against a server?", None),
    ("How can I add a new page to my workspace and start writing down ideas?", None),
    ("Is there a way to extract the text from the PDF and save it separately?", None),
    ("Please tell me how to get there and book a taxi for me", "book"),  # ... but not what is done for the asker
    ("Book a table for two and tell me how to get there", "book"),
    # the asker told about something is a read, as is sharing with no one else
    ("Please update me on the wave forecast for Scarborough Beach.", None),
    ("Share the recent data on clinical studies of vaccines", None),
    ("Could you share a short story with me?", None),
    ("Share my playlist with Bob", "share"),
    ("Update my shipping address to 5 Main Street", "update"),
])
def test_a_question_about_the_way_or_telling_the_asker_is_no_act(text: str, verb: str | None) -> None:
    assert action_verb(text) == verb


def test_a_verb_one_of_the_best_reads_says_it_does_in_a_list_of_what_it_does_is_a_read(graph: SchemaGraph) -> None:
    charts = _endpoint("chart_tool", "/chart_tool", "Chart Tool", [], ["answer"],
                       description="A chart tool. It allows you to build, modify, and draw various charts and graphs.")
    # a read the words reach better, which does not draw
    papers = _endpoint("paper_search", "/papers", "Search papers on unemployment rate in countries over the decade",
                       [], ["title"])
    tools = with_catalogue(graph, _source("tools", [charts, papers]))
    plan = Router(tools).plan("Can you draw a bar graph of the unemployment rate in countries over the decade?")
    assert not plan.declined, plan.declined
    # with no read saying it draws, the request is an act
    charts["description"] = "A chart tool with charts and graphs."
    plain = with_catalogue(graph, _source("tools", [charts, papers]))
    assert Router(plain).plan("Can you draw a bar graph of the unemployment rate in countries over the decade?").declined


def test_a_clause_a_write_s_description_opens_with_names_no_verb(graph: SchemaGraph) -> None:
    record = _endpoint("record", "/records/{doi}", "Record by DOI", [_req("doi", "string")], ["title", "download_url"])
    record["path"] = "/records"
    search = _endpoint("search_records", "/records/search", "", [_req("query", "string")], ["title"], method="POST",
                       description="If the query matches no record, the result is empty.")
    tools = with_catalogue(graph, _source("repository", [record, search]))
    assert "if" not in write_verbs(tools)
    plan = Router(tools).plan("Is there a repository record for the DOI 10.1371/journal.pone.0115069? If so, its title.")
    assert plan.steps and not plan.declined


def test_politeness_frames_nest_before_the_verb() -> None:
    assert action_verb("Can you help me buy 4 tickets for the concert") == "buy"
    assert action_verb("Could you please help me to book two tickets for Friday") == "book"
    assert action_verb("Can you help me find the band gap of GaN") is None


@pytest.fixture(scope="module")
def writes(graph: SchemaGraph) -> SchemaGraph:
    """Two sources with writes: a video site, and a notebook whose write a quoted value's words reach
    and whose writes of two kinds share words with requests."""
    video = [_req("video_id", "string")]
    return with_catalogue(with_catalogue(graph, _source("vidsite", [
        _endpoint("get_video", "/videos/{video_id}", "Get a video", video, ["name", "duration"]),
        _endpoint("edit_video", "/videos/{video_id}", "Edit a video", video, [], method="PATCH"),
        _endpoint("add_to_watch_later", "/me/watchlater/{video_id}", "Add a video to the user's Watch Later queue",
                  video, [], method="PUT"),
        _endpoint("add_thumbnail", "/videos/{video_id}/pictures", "Add a thumbnail image to a video", video, [],
                  method="POST"),
    ])), _source("notebook", [
        _endpoint("rename_note", "/projects/{project_id}/notes/{note_id}", "Rename the field notes of a project, day by day",
                  [_req("project_id", "string"), _req("note_id", "string")], [], method="PATCH"),
        # an API that POSTs every change, beside an unrelated update that shares a word with a request
        _endpoint("set_alarm", "/set_alarm", "Set an alarm to ring at a time of day, with a label",
                  [_req("time", "string")], [], method="POST"),
        _endpoint("update_setting", "/settings/{name}", "Update a setting to a new value",
                  [_req("name", "string")], [], method="PUT"),
    ]))


@pytest.mark.parametrize(("question", "named"), [
    # the source the question names does it; the quoted new name is a value, not what to act on
    ("Rename my Vidsite video 812345678 to 'Field notes, day 3'.", "vidsite.edit_video"),
    # putting a thing on one's own list is a PUT as often as a POST
    ("Put video 76979871 on my Watch Later list.", "vidsite.add_to_watch_later"),
    # "set" asks for a change (a PUT or PATCH), yet the write whose words fit is a POST
    ("Set a new alarm for 07:30 with the label 'Morning run'.", "notebook.set_alarm"),
])
def test_a_request_to_act_names_the_write_of_the_named_source_that_does_it(writes: SchemaGraph, question: str,
                                                                          named: str) -> None:
    plan = Router(writes).plan(question)
    assert not plan.steps and plan.declined and f"({named})" in plan.declined
