"""What the model sends that is not plain text, and what is sent back to it, over real HTTP.

Some servers add chunks the translator must pass over (usage without choices, the
reasoning of thinking models); arguments may be empty or not an object; an agent may
have no tools at all.
"""

from collections import deque
from collections.abc import AsyncGenerator
import json
from typing import Any

from aiohttp import web
import pytest

from homeassistant.components import conversation
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import intent

from ..conftest import AGENT_ID
from ..fake_openai import FakeOpenAI, call, text

NO_ANSWER = "Sorry, the model gave no answer."


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None) -> dict[str, Any]:
    """Return one streamed chunk; with no delta, a chunk without choices (as usage chunks are)."""
    body: dict[str, Any] = {
        "id": "chatcmpl-raw",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "gpt-test",
    }
    if delta is None:
        body["choices"] = []
        body["usage"] = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    else:
        body["choices"] = [{"index": 0, "delta": delta, "finish_reason": finish}]
    return body


def completion(choices: list[dict[str, Any]]) -> dict[str, Any]:
    """Return a whole (non-streamed) completion with these choices."""
    return {
        "id": "chatcmpl-raw",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-test",
        "choices": choices,
    }


class RawOpenAI(FakeOpenAI):
    """The fake server, able to answer with raw bodies: chunks, a completion or any text.

    A queued raw reply is a list of chunks (streamed; the string "stall" there stops the
    stream until the test ends), a dict (a whole completion), or a (content type, text) pair.
    Without one it answers as the scripted fake server does.
    """

    def __init__(self) -> None:
        """Start with no raw replies."""
        super().__init__()
        self.raw: deque[list[dict[str, Any] | str] | dict[str, Any] | tuple[str, str]] = deque()
        self._stalled = False

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        if not self.raw:
            return await super()._chat(request)
        body = json.loads(await request.read())
        self._record(request, body)
        reply = self.raw.popleft()
        if isinstance(reply, tuple):
            return web.Response(status=200, text=reply[1], content_type=reply[0])
        if isinstance(reply, dict):
            return web.json_response(reply)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        for item in reply:
            if item == "stall":
                self._stalled = True
                await self._release.wait()
                return response
            await response.write(f"data: {json.dumps(item, ensure_ascii=False)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response


@pytest.fixture
async def fake_openai(socket_enabled: None) -> AsyncGenerator[RawOpenAI]:
    """Run the raw-capable fake server for one test (only 127.0.0.1 is reachable)."""
    server = RawOpenAI()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def agent_options(agent_options: dict[str, Any], request: pytest.FixtureRequest) -> dict[str, Any]:
    """The test agent, with the options a test gives as its parameter."""
    return {**agent_options, **getattr(request, "param", {})}


async def converse(
    hass: HomeAssistant, sentence: str, conversation_id: str | None = None
) -> conversation.ConversationResult:
    """Send a sentence to our agent."""
    return await conversation.async_converse(
        hass, sentence, conversation_id, Context(), language="en", agent_id=AGENT_ID
    )


def speech(result: conversation.ConversationResult) -> str:
    """Return the plain speech of a result."""
    return str(result.response.speech["plain"]["speech"])


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the tool results a request sends back to the model."""
    return [json.loads(m["content"]) for m in request["messages"] if m["role"] == "tool"]


@pytest.mark.usefixtures("init_integration")
async def test_reasoning_and_usage_chunks_are_not_spoken(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """A thinking model's reasoning and a trailing usage chunk are passed over; the answer is spoken."""
    fake_openai.raw.append(
        [
            chunk({"role": "assistant", "content": ""}),
            chunk({"reasoning_content": "The user wants a joke. Keep it short."}),
            chunk({"content": "Why did the chicken "}),
            chunk({"content": "cross the road?"}),
            chunk({}, "stop"),
            chunk(None),
        ]
    )
    result = await converse(hass, "tell me a joke")
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert speech(result) == "Why did the chicken cross the road?"


@pytest.mark.usefixtures("init_integration")
@pytest.mark.parametrize("agent_options", [{"stream": False}], indirect=True)
async def test_reasoning_in_a_whole_answer_is_not_spoken(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """The reasoning of a non-streamed answer is not spoken either."""
    fake_openai.raw.append(
        completion(
            [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "Hello!", "reasoning_content": "Greet back."},
                    "finish_reason": "stop",
                }
            ]
        )
    )
    assert speech(await converse(hass, "tell me a joke")) == "Hello!"
    assert fake_openai.chat_requests[0]["stream"] is False


@pytest.mark.usefixtures("init_integration")
@pytest.mark.parametrize("agent_options", [{"stream": False}], indirect=True)
async def test_a_whole_answer_without_choices_says_nothing_made_up(
    hass: HomeAssistant, fake_openai: RawOpenAI
) -> None:
    """An answer with no choices is no reply: nothing is invented, and the next turn goes on normally."""
    fake_openai.raw.append(completion([]))
    first = await converse(hass, "tell me a joke")
    assert speech(first) == NO_ANSWER
    fake_openai.add(text("Hello again."))
    assert speech(await converse(hass, "tell me a joke", first.conversation_id)) == "Hello again."
    # What the empty answer left in the chat log is not sent back as an empty assistant message.
    assert not [
        m
        for m in fake_openai.chat_requests[1]["messages"]
        if m["role"] == "assistant" and not m.get("content") and not m.get("tool_calls")
    ]


@pytest.mark.usefixtures("init_integration")
async def test_a_reply_of_reasoning_alone_is_not_sent_back(
    hass: HomeAssistant, fake_openai: RawOpenAI
) -> None:
    """A reply that only thinks is no answer, and is not repeated to the model as an empty message."""
    fake_openai.raw.append(
        [chunk({"role": "assistant", "content": ""}), chunk({"reasoning_content": "Hmm."}), chunk({}, "stop")]
    )
    first = await converse(hass, "tell me a joke")
    assert speech(first) == NO_ANSWER
    fake_openai.add(text("Hello again."))
    assert speech(await converse(hass, "are you there?", first.conversation_id)) == "Hello again."
    roles = [m["role"] for m in fake_openai.chat_requests[1]["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert not [
        m
        for m in fake_openai.chat_requests[1]["messages"]
        if m["role"] == "assistant" and not m.get("content") and not m.get("tool_calls")
    ]


@pytest.mark.usefixtures("init_integration")
@pytest.mark.parametrize("agent_options", [{CONF_LLM_HASS_API: []}], indirect=True)
async def test_an_agent_without_tools_offers_none(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """An agent with no LLM API sends no tools and its model's answer is spoken."""
    fake_openai.add(text("No tools here."))
    assert speech(await converse(hass, "what can you do?")) == "No tools here."
    [request] = fake_openai.chat_requests
    assert "tools" not in request
    assert "tool_choice" not in request


@pytest.mark.usefixtures("init_integration")
async def test_text_after_a_bracket_is_still_spoken(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """Brackets that are no call hold the text back only until the end; all of it is spoken."""
    fake_openai.add(text("Pick one of [1, 2] please."))
    assert speech(await converse(hass, "give me a choice")) == "Pick one of [1, 2] please."


@pytest.mark.usefixtures("init_integration")
async def test_a_call_with_empty_arguments_runs(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """A call whose arguments are an empty string runs with none, and the model gets its result."""
    fake_openai.add(call("list_alarms", ""), text("You have none."))
    assert speech(await converse(hass, "which alarms do I have?")) == "You have none."
    [result] = tool_results(fake_openai.chat_requests[1])
    assert "error" not in result
    assert result


@pytest.mark.usefixtures("init_integration")
async def test_arguments_that_are_no_object_are_refused(hass: HomeAssistant, fake_openai: RawOpenAI) -> None:
    """Arguments that are JSON but not an object are not run; the model is told so and can answer."""
    fake_openai.add(call("set_alarm", "[1, 2]"), text("Sorry, when?"))
    assert speech(await converse(hass, "set an alarm")) == "Sorry, when?"
    [result] = tool_results(fake_openai.chat_requests[1])
    assert result == {"error": "invalid_arguments", "error_text": "arguments must be a JSON object"}
    assert hass.config_entries.async_entries("layered_assist")[0].runtime_data.alarms.alarms == []
