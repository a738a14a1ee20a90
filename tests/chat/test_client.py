"""The endpoint client against servers that misbehave: web pages, stalled streams, rate limits."""

from collections.abc import AsyncGenerator
from typing import Any

import pytest

from custom_components.layered_assist.chat.client import ChatRequest, EndpointClient
from custom_components.layered_assist.chat.errors import BrokenStream, EndpointError, EndpointTimeout
from custom_components.layered_assist.const import CONF_STREAM, CONF_TIMEOUT
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import intent

from ..conftest import AGENT_ID
from ..fake_openai import failure, text
from .test_messages import RawOpenAI, chunk


@pytest.fixture
async def fake_openai(socket_enabled: None) -> AsyncGenerator[RawOpenAI]:
    """Run the raw-capable fake server for one test (only 127.0.0.1 is reachable)."""
    server = RawOpenAI()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def agent_options(agent_options: dict[str, Any], request: pytest.FixtureRequest) -> dict[str, Any]:
    """The test agent gives up after a second, with the options a test gives as its parameter."""
    return {**agent_options, CONF_TIMEOUT: 1, **getattr(request, "param", {})}


async def converse(hass: HomeAssistant, language: str = "en") -> conversation.ConversationResult:
    """Ask our agent something only the model can answer."""
    return await conversation.async_converse(
        hass, "tell me a joke", None, Context(), language=language, agent_id=AGENT_ID
    )


def speech(result: conversation.ConversationResult) -> str:
    """Return the plain speech of a result."""
    return str(result.response.speech["plain"]["speech"])


def request(stream: bool = False) -> ChatRequest:
    """Return a small chat request."""
    return ChatRequest(
        model="gpt-test", messages=[{"role": "user", "content": "hi"}], stream=stream, timeout=1
    )


@pytest.mark.usefixtures("init_integration")
@pytest.mark.parametrize("agent_options", [{CONF_STREAM: False}], indirect=True)
async def test_a_web_page_instead_of_an_answer(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """A base URL that answers with an HTML page is reported as a broken answer, not spoken."""
    fake_openai.raw.append(("text/html", "<html><body>Welcome to nginx!</body></html>"))
    result = await converse(hass)
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert speech(result) == "The model service's answer was cut off. Please try again."
    assert "nginx" not in speech(result)


@pytest.mark.usefixtures("init_integration")
async def test_a_stream_that_stalls_times_out(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """A stream that stops sending mid-answer ends as a timeout within the agent's time limit."""
    fake_openai.raw.append(
        [chunk({"role": "assistant", "content": ""}), chunk({"content": "Once upon a time"}), "stall"]
    )
    result = await converse(hass)
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert "did not answer in time" in speech(result)


async def test_stalled_stream_raises_timeout_after_what_arrived(
    hass: HomeAssistant, fake_openai: RawOpenAI
) -> None:
    """The client yields the chunks that came, then raises EndpointTimeout."""
    fake_openai.raw.append([chunk({"role": "assistant", "content": ""}), chunk({"content": "Once"}), "stall"])
    client = EndpointClient(hass, fake_openai.base_url, "sk-test")
    received: list[str] = []

    async def read() -> None:
        async for piece in client.async_stream(request(stream=True)):
            received.extend(c.delta.content or "" for c in piece.choices)

    with pytest.raises(EndpointTimeout):
        await read()
    assert "".join(received) == "Once"


async def test_a_stream_asked_for_a_whole_answer_is_refused(
    hass: HomeAssistant, fake_openai: RawOpenAI
) -> None:
    """async_complete with a request that streams gets no completion and says the answer is broken."""
    fake_openai.add(text("Hi."))
    client = EndpointClient(hass, fake_openai.base_url, "sk-test")
    with pytest.raises(BrokenStream):
        await client.async_complete(request(stream=True))


@pytest.mark.parametrize(
    ("headers", "key"),
    [
        ({}, "busy"),
        ({"Retry-After": "Wed, 25 Nov 2026 12:00:00 GMT"}, "busy"),
        ({"Retry-After": "600"}, "rate_limited"),
    ],
    ids=["no-retry-after", "http-date", "too-long"],
)
async def test_rate_limits_it_cannot_wait_for_are_not_retried(
    hass: HomeAssistant, fake_openai: RawOpenAI, headers: dict[str, str], key: str
) -> None:
    """A 429 without a usable short wait is raised at once, after a single request."""
    fake_openai.add(failure(429, "Slow down", headers=headers), text("too late"))
    client = EndpointClient(hass, fake_openai.base_url, "sk-test")
    with pytest.raises(EndpointError) as err:
        await client.async_complete(request())
    assert err.value.translation_key == key
    assert client.last_error == key
    assert len(fake_openai.chat_requests) == 1


@pytest.mark.usefixtures("init_integration")
async def test_a_rate_limit_without_a_wait_is_reported(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """A 429 with no Retry-After is an error answer saying the service is busy."""
    fake_openai.add(failure(429, "Slow down"))
    result = await converse(hass)
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert speech(result).startswith("The model service is busy.")
    assert len(fake_openai.chat_requests) == 1


@pytest.mark.usefixtures("init_integration")
@pytest.mark.parametrize("language", ["en", "zh-Hans"])
async def test_a_rate_limit_without_a_wait_names_no_made_up_wait(
    hass: HomeAssistant, fake_openai: RawOpenAI, language: str
) -> None:
    """With no wait given, the answer does not tell the user to wait '?' seconds."""
    fake_openai.add(failure(429, "Slow down"))
    result = await converse(hass, language)
    assert "?" not in speech(result).rstrip("?？")
    assert " ? " not in speech(result)
