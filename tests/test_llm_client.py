"""The one OpenAI-compatible client: configuration precedence, errors, and JSON extraction."""

import httpx
import pytest

from schemarouter.llm import LLMConfig, LLMError, LLMTimeout, chat, parse_json_object, require_config


def test_options_win_over_environment_and_openai_variables_are_fallbacks() -> None:
    env = {"OPENAI_BASE_URL": "http://openai.local/v1/", "OPENAI_API_KEY": "k1", "SCHEMAROUTER_LLM_MODEL": "m1"}
    config = LLMConfig.from_env(env)
    assert config == LLMConfig("http://openai.local/v1", "m1", "k1", 60.0)
    env["SCHEMAROUTER_LLM_URL"] = "http://vllm.local/v1"
    assert LLMConfig.from_env(env).base_url == "http://vllm.local/v1"  # type: ignore[union-attr]
    assert LLMConfig.from_env(env, base_url="http://cli/v1", model="m2").model == "m2"  # type: ignore[union-attr]
    with pytest.raises(LLMError, match="SCHEMAROUTER_LLM_URL"):
        require_config(LLMConfig.from_env({}))


def test_timeout_and_bad_bodies_are_one_line_errors() -> None:
    config = LLMConfig("http://llm.local/v1", "m", timeout_s=2)

    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    with pytest.raises(LLMTimeout, match="did not answer within 2 s"):
        chat(config, [], transport=httpx.MockTransport(slow))
    with pytest.raises(LLMError, match="did not return an OpenAI chat completion"):
        chat(config, [], transport=httpx.MockTransport(lambda r: httpx.Response(200, json={"choices": []})))
    reply = chat(config, [], transport=httpx.MockTransport(lambda r: httpx.Response(
        200, json={"choices": [{"message": {"content": " ok "}}], "usage": {"prompt_tokens": 7}})))
    assert (reply.text, reply.prompt_tokens, reply.completion_tokens) == ("ok", 7, None)


def test_json_object_is_found_inside_fences_and_chatter() -> None:
    assert parse_json_object('Sure!\n```json\n{"intent": null}\n```') == {"intent": None}
    with pytest.raises(LLMError, match="no JSON object"):
        parse_json_object("no idea")
    with pytest.raises(LLMError, match="not valid JSON"):
        parse_json_object("{intent: x}")
