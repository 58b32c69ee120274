"""What a question asks for: the kinds of thing it names (a picture is an image, who acted in a work
its cast) and the head of its opening phrase ("What is the *genre* of ...", "give me a *photo* of
...", "Who is the lead *actor* of ...", "What is Leonardo DiCaprio's latest *movie*?").

Retrieval weighs every word of a question alike, so "Who is the lead actor of today's most popular TV
show?" ranks the list of today's shows first: it says "today", "popular" and "TV". The answer is
an actor, which that list does not return. The head of the phrase the question opens with names
what the answer is; the re-ranker asks whether a candidate's own declaration returns it
(:mod:`schemarouter.router.rerank`, feature ``answers``). English question openings only: a question
written otherwise has no head and the feature says nothing.
"""

from __future__ import annotations

import re

from schemarouter.graph.terms import question_terms, stem
from schemarouter.understand.currencies import currencies
from schemarouter.understand.entities import Entity

# A picture asked for by its kind ("the logo of the network", "a poster of the second season") is an
# image: APIs serve them from endpoints that say "images" ("/network/{id}/images"), while the kinds
# appear, if at all, in field names of the thing pictured ("logo_path"). The question says "image" too.
IMAGE = stem("image")
PERSON = stem("person")
# A question that asks "how long", "how old", "how far", "how tall" or "how much" asks for a quantity
# of one kind, which declarations name by the quantity ("runtime", "duration", "birthday", "distance",
# "price") and the question never does. Each interrogative with the terms of the names it is answered by.
_MEASURES = tuple((re.compile(pattern, re.IGNORECASE), tuple(stem(w) for w in words)) for pattern, words in (
    (r"\bhow long\b", ("duration", "length", "runtime")),
    (r"\bhow old\b", ("age", "birthday")),
    (r"\bhow far\b", ("distance",)),
    (r"\bhow (?:tall|high)\b", ("height", "elevation")),
    (r"\bhow much\b(?! (?:more|less|longer|later|earlier))", ("price", "cost")),
))
# An amount of money named by its currency ("20000 Japanese Yen", "100 euro", "in USD") is what
# declarations call a currency, a word such a question rarely writes (understand.currencies).
CURRENCY = stem("currency")
_PRICE = tuple(stem(w) for w in ("price", "cost"))
CONVERSION = tuple(stem(w) for w in ("convert", "exchange"))
KIND_TERMS = frozenset({IMAGE, "cast", "crew", PERSON, CURRENCY, *CONVERSION,
                        *(t for _p, terms in _MEASURES for t in terms)})  # every
# term ``kind_terms`` gives
# Who acted in a work is its cast, who made it its crew: the words film and media APIs declare credits
# by ("Get the cast and crew for a movie"), which a question asking "who starred" never says.
_ACTING = re.compile(r"\b(?:actors?|actress(?:es)?|starr(?:ed|ing)|co-?stars?|acted)\b", re.IGNORECASE)
_MAKING = re.compile(r"\b(?:directors?|directed|producers?|produced|screenwriters?|screenplay|"
                     r"cinematograph(?:er|y)|composers?|writers?)\b", re.IGNORECASE)
_PICTURE = re.compile(r"\b(?:posters?|photos?|photographs?|pictures?|pics?|logos?|thumbnails?|portraits?|"
                      r"backdrops?|headshots?|artwork|screenshots?|icons?|looks? like)\b", re.IGNORECASE)


def kind_terms(text: str, names: list[Entity]) -> list[str]:
    """The terms a question says by asking for a thing by its kind: a picture is an image, who acted in
    a work its cast, who made it its crew, a name said to have made one a person, "how long" a
    duration, length or runtime (and so on for the quantities of ``_MEASURES``), an amount in a
    currency a currency."""
    out = [IMAGE] if _PICTURE.search(text) else []
    out += [term for role, term in ((_ACTING, "cast"), (_MAKING, "crew")) if role.search(text)]
    if any(e.extra.get("agent") for e in names):
        out.append(PERSON)  # who made a work ("directed by Sofia Coppola") is a person
    written = currencies(text)
    # an amount in one currency asked in another ("How much is 100 euro in USD?") asks for a conversion,
    # which declarations call converting or exchanging, not a price
    converting = len({c.code for c in written}) >= 2
    for pattern, terms in _MEASURES:
        if pattern.search(text) and not (converting and terms == _PRICE):
            out += terms  # "How long is Titanic?" asks for its runtime
    if written:
        out.append(CURRENCY)  # "How much is 100 euro in USD?"
    if converting:
        out += CONVERSION
    return out


# "Who discovered radium?", "who founded the company": a question for the one who did something asks
# for the agent noun declarations name it by ("discoverer", "founder", "inventor", "director"), which
# no stemmer joins to the verb
_IRREGULAR_AGENTS = {"wrote": ("writer", "author"), "built": ("builder",), "made": ("maker",), "drew": ("illustrator",),
                     "sang": ("singer",), "led": ("leader",), "won": ("winner",)}


def agent_terms(text: str) -> list[str]:
    """The terms of the agent nouns a "who <verb>ed" question asks for: "Who discovered radium?" ->
    discoverer; "who invented" -> inventor; "who wrote" -> writer, author. The caller keeps those its
    registry declares."""
    out: list[str] = []
    for m in re.finditer(r"\bwho\s+(?:(?:has|have|had|first|originally|actually)\s+)*([a-z]+)\b", text, re.IGNORECASE):
        verb = m.group(1).lower()
        if _MAKING.fullmatch(verb) or _ACTING.fullmatch(verb):
            continue  # "who directed", "who starred": the credits' words say it (kind_terms), and a
            # "director" here would draw the endpoints that take one as a filter
        nouns = list(_IRREGULAR_AGENTS.get(verb, ()))
        if verb.endswith("ed") and len(verb) > 5:
            base = verb[:-2]
            nouns += [base + "er", base + "or", verb[:-1] + "r"]  # discoverer, inventor, composer
        out += [stem(n) for n in nouns]
    return list(dict.fromkeys(out))


# How a question asking for something opens: "What is", "Who's", "give me", "Show", "tell me about",
# "List", "Find", after "can you" or "please"
_ASKING = (r"^\W*(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
           r"(?:(?:what|who|which)(?:\s+(?:is|are|was|were)|\s*['’]s)"
           r"|(?:give|show|tell|find|get|list|fetch|name|provide|retrieve|display)(?:\s+(?:me|us))?(?:\s+about)?)")
# "What is the genre of ...", "give me a photo of ...": then up to three words, the last of them the
# head, before the word that ties it to what it is about
_OPENING = re.compile(
    _ASKING + r"\s+(?:(?:the|a|an|some|all|any|one|its|their)\s+)?(?!(?:me|us)\s)"  # "tell me": "me" is no head
    r"(?P<head>(?:[\w-]+\s+){0,2}?[\w-]+?)\s+(?:of|for|in|from|about|on|to|at|by|with)\b",
    re.IGNORECASE)
# "What is Leonardo DiCaprio's latest movie?", "Tell me about Scarlett Johansson's birthday": the head is
# what follows the possessive, up to three words, ended by the question's end, a preposition or a word
# that dates the asking ("today", "now")
_POSSESSIVE = re.compile(
    _ASKING + r"\s+[^?.!]{1,80}?['’]s?\s+(?P<head>(?:[\w-]+\s+){0,2}?[\w-]+?)"
    r"\s*(?:[?.!,;]|$|\s+(?:in|from|on|at|by|with|and|or|for|today|now|currently|right|this|last|next)\b)",
    re.IGNORECASE)


def asked_terms(text: str) -> list[str]:
    """The terms of what ``text`` asks for: its head word's terms and the kinds the head says
    ("actor" -> cast); [] without such an opening."""
    m = _OPENING.match(text) or _POSSESSIVE.match(text)
    if m is None:
        return []
    head = m.group("head")
    last = question_terms(head.split()[-1])
    return list(dict.fromkeys([*last, *kind_terms(head, [])]))
