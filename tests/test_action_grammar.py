"""A request to act is told from a request for data by the grammar of the request: the verb of an
imperative clause, the frame before it ("can you", "I'd like to"), what follows it, and whether a goal
the asker states stands beside another request (``understand/actions.py``)."""

from __future__ import annotations

import pytest

from schemarouter.understand.actions import action_verb


@pytest.mark.parametrize(("text", "verb"), [
    ("Send an email to my co-author saying the draft is ready.", "send"),
    ("Could you order 5 g of lithium iron phosphate for me?", "order"),
    ("I'd like to run a DFT relaxation of GaN.", "run"),
    ("Find the band gap of GaN and email it to my advisor.", "email"),
    ("I want item 998877 gone from my account, please delete it.", "delete"),
    ("Get rid of variant set 17.", "remove"),
    ("Change in enthalpy of formation of NaCl", None),
    ("Run time of the movie Titanic", None),
    ("Make a list of movies directed by Nolan", None),
    ("Please recommend me some TV shows similar to Breaking Bad", None),
    ("Order of the phase transition in BaTiO3", None),
    ("What is X, and how do I get rid of it?", None),
    ("We don't need that data source anymore. Can you delete it for me?", "delete"),  # a pronoun is an object
    ("Can you book a table for four at Balthazar?", "book"),  # only presenting verbs make tables of data
    ("can you create todo for the shopping at 9 pm", "create"),  # after a frame, no noun compound
    ("Find a cat picture. Make sure it is a cute one!", None),  # "make sure" qualifies the request
    ("Check the status of my order, order ID is 123456789", None),  # a noun opening a clause
    # the asker's goal beside a request to read: the request is the read
    ("I want to book a suite in the Hilton for 3 nights. Can you find the pricing for me?", None),
    ("I need to reserve a car in Lyon from May 2 to May 5, check the availability for me.", None),
    ("I need to send a letter to my landlord.", "send"),  # a goal and nothing else asked: it acts
    ("I want to book a table for two. Can you book it for 8 pm?", "book"),  # the request acts too
    ("Search for a 3-star hotel in Paris and book two rooms for me", "book"),
    ("I'm trying to connect to the lab's server. Could you ask me for its address?", None),  # asked: not to act
    ("I would like to pay back my friend Alex $25. Could you use my debit card for this?", "pay"),  # part of it
    ("Can you initiate a payment of $200 to Mary?", "initiate"),
    ("Can you help me report this address, 192.168.1.100, as abusive?", "report"),
    ("Initialize the project in the directory /foo/bar", "initialize"),
    ("Report of the committee on ozone depletion", None),  # a noun compound
    ("Can I purchase 2 tickets for the midnight show?", "purchase"),  # asking leave to act is acting
    ("May I order 5 g of lithium iron phosphate?", "order"),
    ("Can I see the band gap of GaN?", None),
    ("Could you arrange a visit to the synchrotron on May 3?", "arrange"),
    ("Pause the player, then play my playlist", "pause"),
    ("Play count of the song Yesterday", None),  # a noun compound
    ("Please authenticate me with the code 456789", "authenticate"),
    ("I'd like to integrate a new server into our platform at http://plga.ca", "integrate"),
    ("Login to my account as john.doe@example.com", "login"),
    ("Login history of user 42", None),
    # an order about how to give the answer acts on nothing; one about a thing does
    ("When did the Treaty of Tordesillas take place? Put it in the format of YYYY.", None),
    ("List the ten largest moons and sort them in descending order", None),
    ("Set it as the default printer", "set"),
    ("Put the book in my cart", "put"),
    # a verb followed by "if" or "whether" asks a question, not for an act
    ("Today, I would like to request if there is a speed camera on South Road.", None),
    ("Request a refund for order 42", "request"),
    # a goal beside a question whether something exists: the question is the request
    ("I want to simulate the IELTS speaking test. Are there any questions available for practice?", None),
    ("I want to simulate the IELTS speaking test.", "simulate"),
    ("I want to order a bronze sculpture. What material options are available?", "order"),  # asks how to act
])
def test_requests_to_act_are_told_by_grammar(text: str, verb: str | None) -> None:
    assert action_verb(text) == verb


@pytest.mark.parametrize(("text", "verb"), [
    ("say hi using the echo command", "execute"),
    ("is vs code running, using the command tasklist /FI \"IMAGENAME eq Code.exe\"", "execute"),
    ('remove the shortcut using the instruction del "putty.lnk"', "execute"),
    ("you have full control of the command prompt: list the c drive", "execute"),
    ("what is the date, using the date or echo command", "execute"),
    ("show me today's date using the echo %date% command", "execute"),
    ("check whether the docker is installed using docker --version", "execute"),
    ("Papers using the word2vec method", None),  # a method, not a command
    ("What does the tasklist command show?", None),  # a question about a command runs nothing
    ("Which commands does the CLI accept?", None),
])
def test_a_request_carried_out_with_a_command_runs_it(text: str, verb: str | None) -> None:
    assert action_verb(text) == verb


@pytest.mark.parametrize(("summary", "verbs"), [
    ("Quickly create and deploy websites", {"create", "deploy"}),  # an adverb before a verb, verbs joined
    ("Easily search, filter and export records", {"search", "filter", "export"}),
    ("Apply a filter to images", {"apply"}),  # a verb ending in -ly is no adverb
    ("Reply to a message", {"reply"}),
    ("Follows Artists", {"follow"}),
    ("A tool for creating crosswords", set()),
])
def test_the_verbs_a_summary_opens_with(summary: str, verbs: set[str]) -> None:
    from schemarouter.understand.actions import _opening_verbs

    assert _opening_verbs(summary) == verbs
