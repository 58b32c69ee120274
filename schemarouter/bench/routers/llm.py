"""A minimal OpenAI-compatible chat client for the LLM rows (prompt-all, reader accuracy).

Configuration: ``--llm-base-url`` / ``--llm-model`` or the environment the rest of schemarouter
reads (``SCHEMAROUTER_LLM_URL``, ``SCHEMAROUTER_LLM_MODEL``, ``SCHEMAROUTER_LLM_API_KEY``; the
``OPENAI_*`` equivalents also work). The key is only ever sent as a header.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import httpx

from schemarouter.errors import SchemaRouterError
from schemarouter.execution.reader import ReaderConfig

_JSON_BLOCK = re.compile(r"\{.*\}", re.DOTALL)


@dataclass(frozen=True)
class ChatReply:
    text: str
    prompt_tokens: int | None
    completion_tokens: int | None


def llm_config(base_url: str | None = None, model: str | None = None) -> ReaderConfig | None:
    """The endpoint to use, or None when none is configured (the LLM rows are then skipped)."""
    return ReaderConfig.from_env(base_url=base_url, model=model)


def chat(
    config: ReaderConfig,
    messages: list[dict[str, str]],
    *,
    max_tokens: int | None = None,
    transport: httpx.BaseTransport | None = None,
) -> ChatReply:
    headers = {}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    payload: dict[str, Any] = {"model": config.model, "messages": messages, "temperature": 0}
    if max_tokens:
        payload["max_tokens"] = max_tokens
    url = f"{config.base_url}/chat/completions"
    try:
        with httpx.Client(timeout=config.timeout_s, headers=headers, transport=transport) as client:
            response = client.post(url, json=payload)
    except httpx.HTTPError as exc:
        raise SchemaRouterError(f"LLM endpoint {url} failed: {exc}") from None
    if response.status_code >= 400:
        raise SchemaRouterError(f"LLM endpoint {url} answered HTTP {response.status_code}")
    try:
        body = response.json()
        text = str(body["choices"][0]["message"]["content"] or "")
    except (ValueError, KeyError, IndexError, TypeError):
        raise SchemaRouterError(f"LLM endpoint {url} returned no chat completion") from None
    usage = body.get("usage") or {}
    return ChatReply(text.strip(), usage.get("prompt_tokens"), usage.get("completion_tokens"))


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in a model's reply (code fences and chatter tolerated), or None."""
    match = _JSON_BLOCK.search(text)
    if not match:
        return None
    try:
        value = json.loads(match.group(0))
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
