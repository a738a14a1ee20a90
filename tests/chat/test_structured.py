"""Asking an endpoint for a schema-held JSON answer, and what is learnt about the endpoint from it."""

import logging
from typing import Any

import pytest

from custom_components.layered_assist.chat.client import ChatRequest, EndpointClient
from custom_components.layered_assist.chat.structured import async_ask_json
from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI

SCHEMA = {"type": "object", "properties": {"commands": {"type": "array"}}, "required": ["commands"]}


def request() -> ChatRequest:
    """Return a streamed request with tools, as a device turn builds it."""
    return ChatRequest(
        model="gpt-test",
        messages=[{"role": "user", "content": "打开儿童房灯"}],
        tools=[{"type": "function", "function": {"name": "control_devices", "parameters": {}}}],
        tool_choice="required",
        stream=True,
        timeout=2,
    )


@pytest.fixture
def client(hass: HomeAssistant, fake_openai: FakeOpenAI) -> EndpointClient:
    """Return a client of the fake endpoint, which gives structured answers."""
    fake_openai.structured = True
    return EndpointClient(hass, fake_openai.base_url, "sk-test")


async def test_an_answer_is_asked_for_without_tools_and_stream(
    client: EndpointClient, fake_openai: FakeOpenAI
) -> None:
    """The request carries the schema, no tools and no stream; the JSON object is returned and remembered."""
    fake_openai.structured_replies.append({"commands": []})
    assert await async_ask_json(client, request(), "device_commands", SCHEMA) == {"commands": []}
    [sent] = fake_openai.structured_requests
    assert sent["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "device_commands", "schema": SCHEMA, "strict": False},
    }
    assert sent["stream"] is False
    assert "tools" not in sent
    assert "tool_choice" not in sent
    assert client.structured_output is True


@pytest.mark.parametrize("answer", ['["turn_on"]', '"turn_on"', "42"], ids=["array", "string", "number"])
async def test_json_that_is_no_object_turns_it_off(
    client: EndpointClient, fake_openai: FakeOpenAI, answer: str, caplog: pytest.LogCaptureFixture
) -> None:
    """JSON that is not an object is no answer; the endpoint is not asked again."""
    caplog.set_level(logging.INFO, logger="custom_components.layered_assist")
    fake_openai.structured_replies.extend([answer, {"commands": []}])
    assert await async_ask_json(client, request(), "device_commands", SCHEMA) is None
    assert client.structured_output is False
    assert any("the answer was not a JSON object" in r.getMessage() for r in caplog.records)
    # Asked again: no request is sent, and the queued answer stays unused.
    assert await async_ask_json(client, request(), "device_commands", SCHEMA) is None
    assert len(fake_openai.structured_requests) == 1


async def test_a_rejection_is_remembered(client: EndpointClient, fake_openai: FakeOpenAI) -> None:
    """An endpoint that rejects response_format is asked once only."""
    fake_openai.structured = False
    assert await async_ask_json(client, request(), "device_commands", SCHEMA) is None
    assert client.structured_output is False
    assert await async_ask_json(client, request(), "device_commands", SCHEMA) is None
    assert len(fake_openai.structured_requests) == 1


@pytest.mark.parametrize("bad", ["[]", "Sure, turning it on!"], ids=["array", "prose"])
async def test_one_bad_answer_after_good_ones_keeps_asking(
    client: EndpointClient, fake_openai: FakeOpenAI, bad: str, caplog: pytest.LogCaptureFixture
) -> None:
    """An endpoint that has answered in JSON before is asked again after one bad answer, quietly."""
    caplog.set_level(logging.DEBUG, logger="custom_components.layered_assist")
    answers: list[Any] = [{"commands": []}, bad, {"commands": [{"device": "d1", "command": "turn_on"}]}]
    fake_openai.structured_replies.extend(answers)
    assert await async_ask_json(client, request(), "device_commands", SCHEMA) == {"commands": []}
    assert await async_ask_json(client, request(), "device_commands", SCHEMA) is None
    assert client.structured_output is True
    assert await async_ask_json(client, request(), "device_commands", SCHEMA) == answers[2]
    assert len(fake_openai.structured_requests) == 3
    ours = [r for r in caplog.records if r.name.startswith("custom_components.layered_assist")]
    assert not [r for r in ours if r.levelno >= logging.INFO]
    assert any("No structured answer from" in r.getMessage() for r in ours)
