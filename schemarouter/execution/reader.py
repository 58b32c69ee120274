"""The reader: ask an LLM behind any OpenAI-compatible endpoint to answer from the attributed context.

Configuration comes from the environment (or CLI options): ``SCHEMAROUTER_LLM_URL`` (base URL,
e.g. ``http://localhost:11434/v1``; ``OPENAI_BASE_URL`` also works), ``SCHEMAROUTER_LLM_MODEL``
and ``SCHEMAROUTER_LLM_API_KEY`` (or ``OPENAI_API_KEY``). The prompt tells the model to answer
only from the context lines and to cite source, record id and license for each value it uses.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from schemarouter.errors import SchemaRouterError
from schemarouter.execution.http import USER_AGENT

SYSTEM_PROMPT = (
    "You answer questions using only the data lines given. Each line is "
    "'source record_id label: field=value unit, ... [source type; license; provider]'. "
    "Cite every value you use as (source record_id; license). Keep units as given; convert only "
    "when asked and say so. If the lines do not contain the answer, say what is missing."
)


@dataclass(frozen=True)
class ReaderConfig:
    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 60.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, base_url: str | None = None,
                 model: str | None = None) -> ReaderConfig | None:
        env = environ if environ is not None else os.environ
        url = base_url or env.get("SCHEMAROUTER_LLM_URL") or env.get("OPENAI_BASE_URL")
        if not url:
            return None
        return cls(
            base_url=url.rstrip("/"),
            model=model or env.get("SCHEMAROUTER_LLM_MODEL") or env.get("OPENAI_MODEL") or "gpt-4o-mini",
            api_key=env.get("SCHEMAROUTER_LLM_API_KEY") or env.get("OPENAI_API_KEY"),
        )


def build_messages(question: str, context: str) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": f"Data:\n{context}\n\nQuestion: {question}"},
    ]


def ask_reader(config: ReaderConfig, question: str, context: str,
               transport: httpx.BaseTransport | None = None) -> str:
    """One chat-completions call; errors become SchemaRouterError with the endpoint named."""
    headers = {"User-Agent": USER_AGENT}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    payload = {"model": config.model, "messages": build_messages(question, context), "temperature": 0}
    url = f"{config.base_url}/chat/completions"
    try:
        with httpx.Client(timeout=config.timeout_s, headers=headers, transport=transport) as client:
            response = client.post(url, json=payload)
    except httpx.HTTPError as exc:
        raise SchemaRouterError(f"reader endpoint {url} failed: {exc}") from None
    if response.status_code >= 400:
        raise SchemaRouterError(f"reader endpoint {url} answered HTTP {response.status_code}: {response.text[:200]}")
    try:
        return str(response.json()["choices"][0]["message"]["content"]).strip()
    except (ValueError, KeyError, IndexError, TypeError):
        raise SchemaRouterError(f"reader endpoint {url} returned no chat completion") from None
