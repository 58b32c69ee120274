"""A question asking for a picture by its kind ("logo", "poster", "photo") also asks for an image."""

from __future__ import annotations

from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from schemarouter.router import Router
from tests.open_world_support import read_question, with_catalogue
from tests.routing_support import graph, routing_db  # noqa: F401  (session fixtures)


def _broadcasters() -> Source:
    network = {"name": "network_id", "type": "integer", "required": True,
               "description": "The id of the network."}
    return Source.model_validate({
        "id": "broadcast", "title": "Broadcast Networks", "domain": "general", "source_type": "web",
        "license": {"id": "CC0-1.0", "name": "CC0"},
        "endpoints": [
            {"id": "network_details", "base_url": "http://127.0.0.1:9", "path": "/network/{network_id}",
             "summary": "Get the details of a network.", "parameters": [network],
             "fields": [{"name": "name", "path": "name", "type": "string", "group": "content"},
                        {"name": "headquarters", "path": "headquarters", "type": "string", "group": "content"}]},
            {"id": "network_images", "base_url": "http://127.0.0.1:9", "path": "/network/{network_id}/images",
             "summary": "Get the images of a network.", "parameters": [network],
             "fields": [{"name": "file_path", "path": "file_path", "type": "string", "group": "content"},
                        {"name": "width", "path": "width", "type": "integer", "group": "content"}]},
        ],
    })


def test_a_picture_word_says_image() -> None:
    for text in ("What is the logo of the network?", "give me a poster of the second season",
                 "Show a photo of the lead actor", "Any pictures of Saturn?"):
        assert "imag" in read_question(text).all_terms, text
    # a cover, a still: not always pictures ("cloud cover", "is it still open?")
    for text in ("What is the cloud cover in Reykjavik?", "Is the museum still open?", "band gap of GaN?"):
        assert "imag" not in read_question(text).all_terms, text


def test_a_question_for_a_logo_goes_to_the_images_endpoint(graph: SchemaGraph) -> None:
    g = with_catalogue(graph, _broadcasters())
    router = Router(g)
    [step] = router.plan("What is the logo of network 49?").steps
    assert (step.endpoint, dict(step.params)) == ("network_images", {"network_id": 49})
    [step] = router.plan("Where are the headquarters of network 49?").steps
    assert step.endpoint == "network_details"
