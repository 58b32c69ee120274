"""Is this a request to act rather than to read? Decided from the grammar of the request.

Data sources answer questions; they do not send mail, place orders, run simulations or change
records on a user's behalf (writes are not enabled). Such requests are recognized by their
shape, not by phrases of any test set: an imperative clause (at the start, after a politeness
or modal frame such as "please", "can you", "I'd like to", or after "and") whose verb creates,
sends, orders, books, runs, changes or removes something, followed by its object rather than by
a preposition ("Change in enthalpy" is a noun phrase, "Change the record" an order). A frame that
states the asker's own goal ("I want to book a suite") acts only where nothing else is asked of the
system: beside a request to read ("... Can you find the pricing?") it is that request's context,
and so it is where no write endpoint of the registry shares a word with the request. Verbs that ask
nothing of the system are no request either: one joined to a relative clause says what a thing does
("a tool that can manage my list and remind me"), one joined to a question about the way to do
something is what the way is asked for ("how to use SSH and run commands"), and an act that tells the
asker something is a read ("update me on the forecast", "share the recent data").
"""

from __future__ import annotations

import heapq
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from schemarouter.graph.terms import question_terms
from schemarouter.graph.text import STOPWORDS
from schemarouter.understand.memos import UnderstandGraphMemo

if TYPE_CHECKING:
    from collections.abc import Collection

    from schemarouter.graph import SchemaGraph
    from schemarouter.models import Endpoint

# Verbs (base forms) whose imperative asks the system to do something in the world.
ACTION_VERBS = frozenset(
    ["add", "append", "archive", "arrange", "assign", "authenticate", "book", "buy", "cancel", "change", "charge", "compose", "connect", "copy", "create", "delete", "deploy", "deposit", "disconnect", "draft", "draw", "e-mail", "edit", "email", "enroll", "erase", "establish", "execute", "file", "follow", "forward", "generate", "initialize", "initiate", "insert", "install", "integrate", "invite", "launch", "login", "mail", "make", "mark", "message", "modify", "move", "notify", "order", "paint", "pause", "pay", "phone", "place", "play", "post", "print", "publish", "purchase", "put", "register", "reject", "remind", "remove", "rename", "render", "replace", "report", "request", "reschedule", "reserve", "restart", "resume", "revoke", "run", "save", "schedule", "send", "set", "share", "sign", "simulate", "start", "stop", "submit", "subscribe", "switch", "text", "transfer", "translate", "turn", "unfollow", "unsubscribe", "update", "upload", "withdraw", "write"]
)
_FRAME = (
    r"(?:please\s+|kindly\s+|now\s+|then\s+|also\s+|just\s+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|(?:can|could|may)\s+(?:i|we)\s+(?:please\s+)?"
    r"|(?:i|we)\s*(?:'d|would)\s+like\s+(?:you\s+)?to\s+"
    r"|(?:i|we)\s+(?:want|need|wish)\s+(?:you\s+)?to\s+|(?:i|we)\s*(?:'m|am|are)\s+(?:going|trying)\s+to\s+"
    r"|help\s+me\s+(?:to\s+)?|go\s+ahead\s+and\s+|let'?s\s+|(?:i|we)\s+(?:must|should|have\s+to)\s+)*"  # frames nest: "can you help me book"
    r"(?:please\s+)?"
)
_CLAUSES = re.compile(r"[.;!?]\s+|,\s*|\s+(?:and|then|and\s+then)\s+", re.IGNORECASE)
# A relative clause that says what a thing does or lets one do: "a tool that can help me", "an app
# that allows users to create tasks", "a service which sends reminders"
_RELATIVE = re.compile(r"\b(?:that|which|who)\s+(?:(?P<modal>can|could|will|would|may|might|should)|[a-z]+s)\b"
                       r"(?P<rest>.*)", re.IGNORECASE)
_INFINITIVE = re.compile(r"\bto\s+[a-z]+\b", re.IGNORECASE)
# ... and a clause that may continue it: no frame or subject of its own ("and can you book it") and no
# act on the thing found ("and book it")
_JOINED_VERB = re.compile(r"^\s*(?!(?:please|can|could|would|will|i|we|let'?s|it|them|this|that|these|those)\b)"
                          r"(?P<verb>[a-z]+)\b(?!\s+(?:it|them)\b)", re.IGNORECASE)


# how a verb joined to the clause before it continues that clause (see ``_action``): in the base form
# or the form with -s of a relative clause's verbs, or as a verb of a way to do something asked about
Continuation = Literal["base", "s", "method"]


def _relative(clause: str) -> Continuation | None:
    """The form a verb continuing ``clause``'s relative clause takes, or None where it has none: the
    base form after a modal or an infinitive ("that can help me manage ... and remind me", "that
    allows users to create and manage tasks, set reminders"), else the form with -s ("that sends
    reminders and tracks tasks": "... and book two rooms for me" is a request of its own)."""
    m = _RELATIVE.search(clause)
    if m is None:
        return None
    return "base" if m.group("modal") or _INFINITIVE.search(m.group("rest")) else "s"


def _continues(clause: str, form: Continuation) -> bool:
    """Whether ``clause`` continues a relative clause whose verbs take ``form`` (:func:`_relative`),
    or the way of doing something a question asks about (``form`` "method")."""
    if _FOR_THE_ASKER.search(clause):
        return False  # "... and book two rooms for me": a request of its own
    if form == "method":
        return _METHOD_VERB.match(clause) is not None
    m = _JOINED_VERB.match(clause)
    return m is not None and (form == "base" or m.group("verb").lower().endswith("s"))


# An act whose object is the asker, about something: "update me on the forecast", "brief us about it"
_INFORMS_THE_ASKER = re.compile(r"^\s*(?:me|us)\s+(?:on|about)\b", re.IGNORECASE)
# ... and sharing is one only with someone else or somewhere: "share it with Bob", "share to my feed"
_SHARED_WITH = re.compile(r"\b(?:with|to|via)\s+(?!me\b|us\b)", re.IGNORECASE)
# A question about the way to do something: "how to", "how can I", "is there a way to", "the best way to"
_METHOD = re.compile(r"\bhow\s+(?:to|(?:can|could|do|does|should|would|might|may)\s+(?:i|we|one|you|someone|users?)\b)"
                     r"|\b(?:is\s+there\s+(?:a|any)|(?:the\s+)?(?:best|easiest|right)|what(?:'s|\s+is)\s+the)\s+way\s+to\b",
                     re.IGNORECASE)
# ... continued by a verb joined to it without a frame or subject of its own ("and save it separately")
_METHOD_VERB = re.compile(r"^\s*(?!(?:please|can|could|would|will|i|we|let'?s)\b)[a-z]+\b", re.IGNORECASE)
# a clause that asks the system to do it for the asker ("... for me", "for us")
_FOR_THE_ASKER = re.compile(r"\bfor\s+(?:me|us)\b", re.IGNORECASE)


def _clauses(text: str) -> list[tuple[str, bool]]:
    """The clauses of a request (:data:`_CLAUSES`), each with whether a comma or "and" joins it to the
    one before (a sentence's end does not)."""
    out: list[tuple[str, bool]] = []
    at, joined = 0, False
    for m in _CLAUSES.finditer(text):
        out.append((text[at:m.start()], joined))
        joined, at = not re.match(r"[.;!?]", m.group()), m.end()
    out.append((text[at:], joined))
    return out


# Phrasal verbs that ask to act, mapped to the verb they mean ("set up a data source" creates one,
# "sign me up" registers, "get rid of" removes).
_PHRASAL_VERBS = {"get rid of": "remove", "take down": "remove", "throw away": "remove", "sign up": "register",
                  "opt out": "unsubscribe", "opt out of": "unsubscribe", "set up": "create"}
_PHRASAL = re.compile(r"\b(?:get\s+rid\s+of|take\s+down|throw\s+away|sign\s+(?:me\s+)?up|opt\s+(?:me\s+)?out(?:\s+of)?"
                      r"|set\s+up(?=\s+(?:a|an|the|my|our|new)\b))\b", re.IGNORECASE)


def _phrasal(m: re.Match[str]) -> str:
    """The verb a phrasal verb means (:data:`_PHRASAL_VERBS`), for :data:`_PHRASAL`'s ``sub``."""
    # ("opt me out of emails": the "of" is the phrasal verb's, not a preposition after its object)
    return _PHRASAL_VERBS[" ".join(w for w in m.group(0).lower().split() if w != "me")]


_VERB = re.compile(r"^\s*(?P<frame>" + _FRAME + r")(?P<verb>[a-z][a-z\-]*)\b(?P<rest>.*)", re.IGNORECASE | re.DOTALL)
# What may follow an imperative verb: its object (a determiner, a pronoun, a number, a noun).
_NOT_AN_OBJECT = re.compile(r"^\s*(?:of|in|on|at|from|between|with|over|during|per|versus|vs\.?|is|are|was|were|"
                            r"if|whether|"  # "request if there is a camera" asks a question
                            r"'s|s\b|than|[?,.:;]|$)"
                            r"|^\s*(?:sure|certain)\b",  # "make sure it is in Fahrenheit" qualifies the request
                            re.IGNORECASE)
# a noun compound ("Run time of", "Start date for"), not verb + object; a pronoun is an object
# ("delete it for me"), and after a frame ("can you create todo for ...") the verb is one
_COMPOUND = re.compile(r"^\s*(?!(?:it|them|this|that|these|those|me|us|him|her|one)\b)[a-z]+\s+"
                       r"(?:of|for|is|are|was|were)\b",  # and the subject of a clause ("order ID is 123")
                       re.IGNORECASE)
# a request to present data ("make a list of", "create a table of"), by a verb that can present
_PRESENTING = re.compile(r"^\s*(?:me\s+)?(?:a|an|the)\s+(?:list|table|summary|overview|comparison|ranking)\b",
                         re.IGNORECASE)
_PRESENTING_VERBS = frozenset(["compose", "create", "draft", "draw", "generate", "make", "print", "render", "write"])
# An order about how to give the answer ("Put it in the format of YYYY", "sort them in descending
# order"): its object is the answer itself, so it acts on nothing
_FORMATTING = re.compile(r"^\s*(?:it|them|the\s+(?:results?|answers?|output|values?|dates?))\s+(?:in|into)\s+"
                         r"(?:the\s+|a\s+)?(?:\w+\s+)?(?:format|form|units?|order|notation|style)\b", re.IGNORECASE)


# A frame that states what the asker means to do ("I want to book a room", "I need to rent a car"),
# not what they ask the system to do: with a request to read beside it ("... Can you find the pricing
# for me?", "... Check the availability"), the request is the read and the goal its context.
_GOAL = re.compile(r"\b(?:i|we)\s*(?:'d|would|want|need|wish|'m|am|are)\b", re.IGNORECASE)
_ADDRESSED = re.compile(r"\byou\b", re.IGNORECASE)
# A clause that asks whether something exists ("Are there any questions available?"): a request for
# data, beside which a goal ("I want to simulate the test") is context. "What is the best way to ..."
# may ask how to do the act, so only existence counts.
_ASKING = re.compile(r"\s*(?:are|is)\s+there\b", re.IGNORECASE)


# Verbs that read whatever follows them: a write endpoint's summary that opens with one ("Get the
# queue, then skip") says nothing about what acting verbs the registry has.
_READING = frozenset(["check", "compare", "count", "describe", "display", "fetch", "find", "get", "give", "list",
                      "look", "lookup", "query", "read", "retrieve", "return", "search", "see", "show", "tell",
                      "view"])


# Verbs that ask the system for information, though they read nothing themselves.
_INFORMING = frozenset(["ask", "explain", "identify", "provide", "recommend", "suggest"])


# A request carried out "using the taskkill command", "using the date or echo command", "using the
# instruction del ...", "using docker --version", at "the command prompt": running a command on the
# asker's machine, an act whatever verb the request opens with
_RUN_COMMAND = re.compile(r"\busing\s+(?:the\s+)?(?:exact\s+)?(?:[\w%./-]+\s+(?:or\s+)?){0,3}(?:command|instruction)\b|"
                          r"\busing\s+[\w.]+\s+--?[a-z]+\b|\bcommand\s+prompt\b", re.IGNORECASE)


def action_verb(text: str, verbs: frozenset[str] = ACTION_VERBS) -> str | None:
    """The action verb of a request to act, or None for a request for data (remembered: the
    understand step and the shared reading both ask of each question). ``verbs``: the verbs that
    act (default: the general ones; a registry adds what its write endpoints do)."""
    return _action(text, verbs)[0]


@lru_cache(maxsize=256)
def _action(text: str, verbs: frozenset[str] = ACTION_VERBS) -> tuple[str | None, bool]:
    """(:func:`action_verb`, whether only a frame stating the asker's own goal says it: "I want to
    buy a gift for my friend", not "Buy a gift")."""
    if _RUN_COMMAND.search(text):
        return "execute", False
    goal: str | None = None  # an action the asker means to take (a goal frame)
    reads = False  # whether a clause asks the system for something else ("Can you find ...", "Check ...")
    describing: Continuation | None = None  # how a joined verb would continue the clause before it
    for clause, joined in _clauses(_PHRASAL.sub(_phrasal, text.strip())):
        describing = describing if joined else None
        if describing is not None and _continues(clause, describing):
            # "a tool that can help me manage my list and remind me of deadlines": the coordinated verb
            # is the thing's, as the first one was, not a request of its own; "how to extract the
            # text and save it": the way to do both is asked
            continue
        # "Can you teach me how to use SSH", "Is there a way to extract the text": the asker asks how
        # to do it, for information, not for the system to do it
        describing = "method" if _METHOD.search(clause) else _relative(clause)
        suggested = _SUGGESTION.match(clause)
        if suggested is not None and (verb := act_nouns().get(suggested.group(1).lower())) in verbs:
            # "How about creating an avatar for me?" asks the system to create one
            return verb, False
        m = _VERB.match(clause)
        if _ASKING.match(clause):  # "... Are there any questions available for practice?"
            reads = True
        if m is None:
            continue
        verb, frame, rest = m.group("verb").lower(), m.group("frame"), m.group("rest")
        if verb in _LIGHT_VERBS:
            verb = _named_act(rest) or verb  # "make a reservation" asks to reserve, "make a payment" to pay
        elif verb in _ASPECTUAL and (begun := _GERUND.match(rest)) is not None:
            # "start the process for creating a report" asks to create one, "begin recording" to record
            verb = act_nouns().get(begun.group(1).lower(), verb)
        if verb not in verbs:
            # a request that does not act: a reading verb, or a verb that asks for information the
            # system is asked to do ("Could you ask me for the SSID?"); "Could you use my debit card for
            # this transaction?" is part of the goal's action, not another request
            asked = verb in _READING or (verb in _INFORMING and _ADDRESSED.search(frame) is not None)
            reads = reads or (asked and not _is_goal(frame) and not _NOT_AN_OBJECT.match(rest))
            continue
        if _NOT_AN_OBJECT.match(rest) or (not frame.strip() and _COMPOUND.match(rest)):
            continue
        if (verb in _PRESENTING_VERBS and _PRESENTING.match(rest)) or _FORMATTING.match(rest):
            continue
        if _INFORMS_THE_ASKER.match(rest) or (verb == "share" and not _SHARED_WITH.search(rest)):
            # "update me on the wave forecast", "share the recent data on clinical studies": the asker
            # is told something, which is a read
            reads = reads or not _is_goal(frame)
            continue
        if not _is_goal(frame):
            return verb, False
        goal = goal or verb
    # "I want to book a suite ... Can you find the pricing for me?": the request is the read
    return (None, False) if reads else (goal, goal is not None)


# Verbs that say little on their own: the act is the noun after them ("make a reservation", "place
# a booking"), and the verb that noun names is what the request asks
# ("do" is none: "do my assignment" is homework, not assigning)
_LIGHT_VERBS = frozenset(["make", "place"])
# A suggestion of an act: "How about creating an avatar in a minimal style?"
_SUGGESTION = re.compile(r"^\s*(?:so\s+)?(?:how|what)\s+about\s+([a-z]+ing)\b", re.IGNORECASE)
# Verbs of beginning: the act is the one begun ("start the process for creating", "begin recording")
_ASPECTUAL = frozenset(["begin", "start"])
_GERUND = re.compile(r"^\s*(?:the\s+process\s+(?:of|for)\s+)?([a-z]+ing)\b", re.IGNORECASE)
# a determiner (or a count) and up to two words before the noun of the act: "a dinner reservation"
_ACT_NOUN = re.compile(r"^\s*(?:me\s+|us\s+)?(?:(?:a|an|the|my|our|some|another|one|two|three|\d+)\s+)?"
                       r"([a-z\-]+)(?:\s+([a-z\-]+))?(?:\s+([a-z\-]+))?", re.IGNORECASE)


def _named_act(rest: str) -> str | None:
    """The verb whose act is the noun a light verb takes (:func:`act_nouns`): "a dinner reservation
    for four" -> reserve. The noun is looked for in the object's first three words, up to a
    function word ("a list of bookings" names no act: a list; "do not add" is no act of adding)."""
    m = _ACT_NOUN.match(rest)
    if m is None:
        return None
    nouns = act_nouns()
    for word in (w.lower() for w in m.groups() if w):
        if word in STOPWORDS or word in ("not", "never"):
            return None
        if word in nouns:
            return nouns[word]
    return None


@lru_cache(maxsize=1)
def act_nouns() -> dict[str, str]:
    """The nouns that name the act of a verb this module knows, made by the regular ways English
    names an act (reserve -> reservation, book -> booking, pay -> payment, remove -> removal,
    delete -> deletion, modify -> modification), each mapped to its verb. A noun spelled as its
    verb is left out: it names as often what the act makes ("make a report", "make a copy") as the
    act itself ("place an order"), where the light verb's own reading stands."""
    out: dict[str, str] = {}
    for verb in sorted(_KNOWN_VERBS):
        stem = verb[:-1] if verb.endswith("e") else verb
        forms = {f"{stem}ing", f"{verb}ment", f"{stem}ation", f"{verb}ation"}
        if verb.endswith("e"):
            forms.add(f"{stem}ion")  # delete -> deletion, create -> creation
            if len(stem) > 3:
                forms.add(f"{stem}al")  # remove -> removal (not "postal", "signal", "seal": other words)
        elif verb.endswith(("ct", "rt", "st")):
            forms.add(f"{verb}ion")  # connect -> connection, insert -> insertion
        if verb.endswith("y"):
            forms.add(f"{verb[:-1]}ication")  # modify -> modification, notify -> notification
        for form in forms:
            out.setdefault(form, verb)
    return out


def _is_goal(frame: str) -> bool:
    """Whether a frame states the asker's own goal ("I'd like to", "we need to"), not a request to
    the system ("can you", "I want you to", a bare imperative)."""
    return _GOAL.search(frame) is not None and _ADDRESSED.search(frame) is None


# What HTTP says each kind of action is: a removal is a DELETE, a change a PUT or PATCH, the rest
# (create, send, order, run...) a POST.
_REMOVING = frozenset(["cancel", "delete", "erase", "remove", "revoke", "unsubscribe", "withdraw"])
_CHANGING = frozenset(["change", "edit", "mark", "modify", "move", "rename", "replace", "reschedule", "set", "switch", "update"])


# Putting a thing into a collection of one's own ("add it to my playlist", "put it on my Watch Later
# list", "follow", "save"): many APIs PUT the thing's id under the collection, many POST it
_PLACING = frozenset(["add", "follow", "put", "save", "subscribe"])


def write_methods(verb: str) -> tuple[str, ...]:
    """The HTTP methods that do what ``verb`` asks."""
    if verb in _REMOVING:
        return ("DELETE",)
    if verb in _CHANGING:
        return ("PUT", "PATCH")
    if verb in _PLACING:
        return ("POST", "PUT")
    return ("POST",)


def requested_action(text: str, graph: SchemaGraph) -> str | None:
    """The verb of a request to act in ``text`` over ``graph``, or None for a request for data:
    :func:`action_verb`, less what this registry's read endpoints do (:func:`read_verbs`), and less a
    verb written as the name of a read endpoint's parameter right before its value ("pageviews with
    start 2024020100 and end 2024020700" gives a start, it does not start anything)."""
    verb, goal = _action(text)
    if verb is None:
        # a verb the registry's write endpoints do and none of its read endpoints does ("Follow
        # Artists", "Pause Playback"): in this registry it acts, though it is no general action verb
        verb, goal = _action(text, write_verbs(graph)) if write_verbs(graph) else (None, False)
    if verb is None:
        return None
    best_read, best_write = _fit(text, verb, graph)
    if goal and not best_write:
        # the asker's own goal ("I want to buy a gift for my friend") where no write of this registry
        # shares a word with the request: nothing here would act on it, and it is the context of a read
        return None
    if best_read > best_write:
        # a verb a read endpoint's summary opens with ("Calculate the power output", "Generate a
        # random forest model") reads in this registry where such a read fits the question better
        # than any write ("Generate a report" beside a "Generate a sales report" write acts)
        return None
    if verb in parameter_verbs(graph) and _value_after(text, verb):
        return None
    return verb


# how many of the reads the words reach best are asked whether their prose says they do the verb
SAYS_IT_DOES_AMONG = 3


def _fit(text: str, verb: str, graph: SchemaGraph) -> tuple[float, float]:
    """(how well the question's words reach a read endpoint that does ``verb``, how well they reach
    any write endpoint), by BM25F over what they declare: the request reads where the first is the
    greater. A read does the verb where its summary or description opens with it, or, for the read
    the words reach best, where its prose says it does (:func:`says_it_does`). Only reads that do
    the verb count: in a large registry some unrelated read endpoint always shares a word with a
    request to act."""
    openers = _read_openers(graph)
    reads: Collection[int] = set().union(*(openers.get(v, ()) for v in kindred(verb)))
    lex, endpoints = graph.lexical, graph.endpoints
    best_read = best_write = 0.0
    scored: list[tuple[float, int]] = []  # the reads the words reach
    for number, score in lex.score(question_terms(text)).items():
        if endpoints[lex.keys[number]].access == "write":
            best_write = max(best_write, score)
            continue
        if number in reads:
            best_read = max(best_read, score)
        scored.append((score, number))
    # ... or one of the few reads the words reach best, where its own prose says it does the verb ("You
    # can play against a novice", "allows you to book"), not only where it opens with it
    for score, number in heapq.nlargest(SAYS_IT_DOES_AMONG, scored):
        if score > best_read and says_it_does(endpoints[lex.keys[number]].endpoint, verb):
            best_read = score
    return best_read, best_write


# where a description says what its endpoint lets a caller do: after "can", "will" or "lets/allows/
# enables/helps you (to)". Not after a bare "to" and not any sentence's first word: descriptions also
# instruct the caller ("Send a descriptive User-Agent", "you need to send a token")
_DOES_BEFORE = (r"(?:\bcan|\bwill|\b(?:lets?|allows?|enables?|helps?)\s+(?:you|users?)(?:\s+to)?)\s+"
                # ... first or in a list of what it does: "allows you to build, modify, and draw charts"
                r"(?:[a-z]+,\s+){0,3}(?:[a-z]+,?\s+(?:and|or)\s+)?")
# ... or names itself a means of doing it: "Tool for booking restaurant", "an API to book flights"
_MEANS_BEFORE = (r"\b(?:tool|service|api|app|application|plugin|platform|assistant|bot|used|useful|designed|made)"
                 r"\s+(?:for|to)\s+")


def says_it_does(endpoint: Endpoint, verb: str) -> bool:
    """Whether an endpoint's summary or description opens with ``verb`` or says it does it (see
    :data:`_DOES_BEFORE`)."""
    kin = kindred(verb)
    summary, description = endpoint.summary or "", endpoint.description or ""
    if kin & (_opening_verbs(summary) | _opening_verbs(_own_description(summary, description))):
        return True
    prose = f"{endpoint.summary}. {endpoint.description}"
    said = "|".join(re.escape(v) for v in sorted(kin))
    if re.search(rf"{_DOES_BEFORE}(?:{said})\b", prose, re.IGNORECASE) is not None:
        return True
    doing = "|".join(re.escape(f"{v[:-1] if v.endswith('e') else v}ing") for v in sorted(kin))
    return re.search(rf"{_MEANS_BEFORE}(?:{said}|{doing})\b", prose, re.IGNORECASE) is not None


def _own_description(summary: str, description: str) -> str:
    """An endpoint's description without the summary an import writes before it ("<summary>. <description>")."""
    if summary and description.startswith(summary):
        return description[len(summary):].lstrip(" .:-")
    return description


def _read_openers(graph: SchemaGraph) -> dict[str, set[int]]:
    """Verb -> the numbers of the read endpoints whose summaries open with it (once per graph)."""
    _openers(graph)
    return graph.memos.of(UnderstandGraphMemo).read_openers or {}


def _value_after(text: str, verb: str) -> bool:
    """Whether ``verb`` is written with nothing but a value after it in its clause ("start 2024020100")."""
    pattern = rf"\b{re.escape(verb)}\s*[:=]?\s*[\w.:\-]*\d[\w.:\-]*\s*(?:$|[,;.?!]|\s+(?:and|to|through|until)\b)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def parameter_verbs(graph: SchemaGraph) -> frozenset[str]:
    """The action verbs that are the names of read endpoints' parameters (``start``, ``end``, ``order``).
    Worked out once per graph."""
    memo = graph.memos.of(UnderstandGraphMemo)
    if memo.parameter_verbs is None:
        memo.parameter_verbs = frozenset(
            name for i in graph.endpoints.values() if i.access == "read"
            for p in i.param_names if (name := p.lower()) in ACTION_VERBS)
    return memo.parameter_verbs


# A summary may open with a word that is no verb ("No content", "Partially update", "Registration of
# a device", "Deprecated: ..."): function words, and words whose ending makes them an adverb, a noun
# of action or state, or a participle, never a verb's base form
_NOT_VERBS = frozenset(["no", "non", "not", "re", "new", "all", "each", "every", "any", "one", "only",
                        # a description may open with a clause ("If the record exists, ...", "When ...",
                        # "Note that ..."), which names nothing the endpoint does
                        "if", "when", "whenever", "while", "whether", "although", "though", "because", "since",
                        "unless", "until", "once", "note", "here", "so", "yet", "but", "nor", "however"])
_NOT_VERB_ENDINGS = re.compile(r"(?:.{2,}(?:ally|ently|antly|ously|ively|ately|arily|ibly|ably)"
                               r"|tion|sion|ment|ness|ity|ance|ence|ism|ship|.{4,}(?<!e)ed|.{3,}ing)$")


# An adverb may open a summary before its verb ("Quickly create resumes"), and verbs may be joined
# ("Create and deploy websites", "add, delete, list"): each joined verb is something the endpoint does
_LEADING_ADVERBS = re.compile(r"\s*(?:[A-Za-z]{2,}ly\s+)+")
_JOINED = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|\s*/\s*)([A-Za-z][a-z]+)\b")


# Remembered: a registry's endpoints repeat summaries and descriptions (an API's siblings, a template's
# operations, a catalogue's copies), and the first question on a graph reads every one of them
@lru_cache(maxsize=65_536)
def _opening_verbs(summary: str) -> frozenset[str]:
    """The verbs a summary opens with, as base forms: the first word (after any adverbs) and the
    verbs joined to it ("Quickly create and deploy websites" -> create, deploy)."""
    text = summary
    adverbs = _LEADING_ADVERBS.match(summary)
    after = re.match(r"[A-Za-z]+", summary[adverbs.end():]) if adverbs is not None else None
    if adverbs is not None and after is not None and after.group().lower() in _KNOWN_VERBS:
        text = summary[adverbs.end():]  # "Quickly create": not "Apply a filter", "Daily forecast"
    first = _opening_verb(text)
    if first is None:
        return frozenset()
    verbs = {first}
    opened = re.match(r"\s*[A-Za-z]+", text)
    rest = text[opened.end():] if opened is not None else ""
    while (m := _JOINED.match(rest)) is not None and (verb := _opening_verb(m.group(1))) is not None:
        verbs.add(verb)
        rest = rest[m.end():]
    return frozenset(verbs)


# Verbs that ask for the same act: a request to "make a video" is done by an endpoint that "creates"
# one. Only verbs of one act share a set; a verb in no set is its own kin.
_KIN = (frozenset(["build", "compose", "craft", "create", "design", "draft", "generate", "make", "produce", "write"]),
        frozenset(["book", "reserve"]),
        frozenset(["buy", "purchase"]),
        frozenset(["deploy", "launch"]))


# verbs known as verbs: what an adverb may stand before ("Quickly create"); a word ending in -ly
# before anything else is no adverb ("Apply a filter", "Daily forecast")
_KNOWN_VERBS = ACTION_VERBS | _READING | _INFORMING | frozenset().union(*_KIN)


def kindred(verb: str) -> frozenset[str]:
    """``verb`` and the verbs that ask for the same act (:data:`_KIN`)."""
    return next((kin for kin in _KIN if verb in kin), frozenset([verb]))


def _opening_verb(summary: str) -> str | None:
    """The first word of a summary as a verb's base form ("Follows Artists" -> ``follow``), or None
    where that word is no verb."""
    m = re.match(r"\s*([A-Za-z][a-z]+)\b", summary)
    if m is None:
        return None
    word = m.group(1).lower()
    if word in _NOT_VERBS or word in STOPWORDS or _NOT_VERB_ENDINGS.search(word):
        return None
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"  # "Modifies" -> modify
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]  # "Establishes" -> establish, "Processes" -> process
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _openers(graph: SchemaGraph) -> tuple[frozenset[str], frozenset[str]]:
    """(verbs read endpoints' summaries open with, verbs write endpoints' summaries open with, less
    verbs that read; the first word of an endpoint's description counts as well as its summary's).
    Worked out once per graph."""
    memo = graph.memos.of(UnderstandGraphMemo)
    if memo.openers is None:
        reads: dict[str, set[int]] = {}  # verb -> the read endpoints opening with it (``_read_openers``)
        writes: set[str] = set()
        for key, i in graph.endpoints.items():
            # a summary that is only a name ("Photorealistic") leaves the saying to the description
            # ("Generate photorealistic prompts for ..."): the first words of both count
            for verb in _opening_verbs(i.summary) | _opening_verbs(_own_description(i.summary, i.description)):
                if i.access == "write":
                    writes.add(verb)
                else:
                    reads.setdefault(verb, set()).add(graph.numbers[key])
        memo.read_openers = reads
        memo.openers = (frozenset(reads), frozenset(writes - _READING))
    return memo.openers


def write_verbs(graph: SchemaGraph) -> frozenset[str]:
    """What acting means in this registry beyond :data:`ACTION_VERBS`: the verbs its write
    endpoints' summaries open with and no read endpoint's does ("Follow Artists")."""
    read, write = _openers(graph)
    return write - read - ACTION_VERBS


def decline_reason(verb: str) -> str:
    """What a declined plan says about a request to act."""
    return f"asks to {verb} something, an action rather than a request for data (writes are not enabled)"
