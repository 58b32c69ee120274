"""The reader: ask an LLM behind any OpenAI-compatible endpoint to answer from the attributed context.

The endpoint is configured like every LLM call (:mod:`schemarouter.llm`). The prompt tells the model to answer
only from the context lines and to cite source, record id and license for each value it uses.
"""

from __future__ import annotations

import httpx

from schemarouter.llm import LLMConfig, chat

SYSTEM_PROMPT = (
    "You answer questions using only the data lines given. Each line is "
    "'source record_id label: field=value unit, ... [source type; license; provider]'. "
    "Cite every value you use as (source record_id; license). Keep units as given; convert only "
    "when asked and say so. If the lines do not contain the answer, say what is missing."
)


def build_messages(question: str, context: str) -> list[dict[str, str]]:
    """The reader's chat messages: its instructions, then the data and the question."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": f"Data:\n{context}\n\nQuestion: {question}"},
    ]


def ask_reader(config: LLMConfig, question: str, context: str,
               transport: httpx.BaseTransport | None = None) -> str:
    """One chat-completions call; failures are one-line LLMErrors naming the endpoint."""
    return chat(config, build_messages(question, context), transport=transport).text
