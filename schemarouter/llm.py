"""One OpenAI-compatible chat-completions client for every LLM call schemarouter makes.

The understand step (``plan --understander llm``), the reader (``ask``) and the benchmark's LLM
rows all speak the same wire format to the same kind of server (vLLM, Ollama, llama.cpp server,
OpenAI) and are configured the same way:

* ``SCHEMAROUTER_LLM_URL``: base URL, e.g. ``http://localhost:11434/v1`` (``OPENAI_BASE_URL`` also works);
* ``SCHEMAROUTER_LLM_MODEL``: model name (``OPENAI_MODEL`` also works);
* ``SCHEMAROUTER_LLM_API_KEY``: key, sent only as a bearer header (``OPENAI_API_KEY`` also works).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from schemarouter import USER_AGENT
from schemarouter.errors import SchemaRouterError

URL_ENV = "SCHEMAROUTER_LLM_URL"
MODEL_ENV = "SCHEMAROUTER_LLM_MODEL"
KEY_ENV = "SCHEMAROUTER_LLM_API_KEY"
DEFAULT_MODEL = "gpt-4o-mini"

_FENCE = re.compile(r"^```(?:json)?|```$", re.MULTILINE)


class LLMError(SchemaRouterError):
    """The LLM endpoint failed or answered something unusable."""


class LLMTimeout(LLMError):
    """The LLM endpoint did not answer in time."""


@dataclass(frozen=True)
class LLMConfig:
    """Where an OpenAI-compatible chat endpoint is and which model to ask."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 60.0

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float | None = None,
    ) -> LLMConfig | None:
        """Options win over the environment; None when no endpoint is configured."""
        env = environ if environ is not None else os.environ
        # The config file ([llm] url, model) sits below the variables; only for the real environment.
        file: dict[str, Any] = {}
        if environ is None:
            from schemarouter.config import load

            file = load().get("llm", {})
        url = base_url or env.get(URL_ENV) or env.get("OPENAI_BASE_URL") or file.get("url")
        if not url:
            return None
        return cls(
            base_url=url.rstrip("/"),
            model=model or env.get(MODEL_ENV) or env.get("OPENAI_MODEL") or file.get("model") or DEFAULT_MODEL,
            api_key=api_key if api_key is not None else env.get(KEY_ENV) or env.get("OPENAI_API_KEY"),
            timeout_s=timeout_s if timeout_s is not None else 60.0,
        )


def require_config(config: LLMConfig | None) -> LLMConfig:
    """The configuration, or an error saying how to set one."""
    if config is None:
        raise LLMError(f"no LLM endpoint configured: set {URL_ENV} (and {MODEL_ENV}) or pass --llm-url")
    return config


@dataclass(frozen=True)
class ChatReply:
    """The model's reply text and the token counts the endpoint reported."""

    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


def chat(
    config: LLMConfig,
    messages: list[dict[str, str]],
    *,
    max_tokens: int | None = None,
    client: httpx.Client | None = None,
    transport: httpx.BaseTransport | None = None,
) -> ChatReply:
    """One chat-completions call at temperature 0; every failure is a one-line LLMError."""
    headers = {"User-Agent": USER_AGENT}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    payload: dict[str, Any] = {"model": config.model, "messages": messages, "temperature": 0}
    if max_tokens:
        payload["max_tokens"] = max_tokens
    url = f"{config.base_url}/chat/completions"
    own = client is None
    http = client or httpx.Client(timeout=config.timeout_s, transport=transport)
    try:
        response = http.post(url, json=payload, headers=headers)
    except httpx.TimeoutException:
        raise LLMTimeout(f"the LLM at {config.base_url} did not answer within {config.timeout_s:g} s") from None
    except httpx.HTTPError as err:
        raise LLMError(f"cannot reach the LLM at {config.base_url}: {type(err).__name__}") from None
    finally:
        if own:
            http.close()
    if response.status_code >= 400:
        raise LLMError(f"the LLM at {config.base_url} answered HTTP {response.status_code}: {response.text[:200]}")
    try:
        body = response.json()
        text = str(body["choices"][0]["message"]["content"] or "")
    except (ValueError, KeyError, IndexError, TypeError):
        raise LLMError(f"the LLM at {config.base_url} did not return an OpenAI chat completion") from None
    usage = body.get("usage") or {}
    return ChatReply(text.strip(), usage.get("prompt_tokens"), usage.get("completion_tokens"))


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in a model's reply (code fences and chatter around it tolerated)."""
    stripped = _FENCE.sub("", text.strip()).strip()
    start, end = stripped.find("{"), stripped.rfind("}")
    if start < 0 or end <= start:
        raise LLMError("the LLM's answer contains no JSON object")
    try:
        data = json.loads(stripped[start : end + 1])
    except json.JSONDecodeError as err:
        raise LLMError(f"the LLM's answer is not valid JSON ({err.msg})") from None
    if not isinstance(data, dict):
        raise LLMError("the LLM's answer is not a JSON object")
    return data
