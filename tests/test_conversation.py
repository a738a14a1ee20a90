"""Tests of the conversation agent and its tool-calling loop, over real HTTP."""

import asyncio
from typing import Any

import pytest
import voluptuous as vol

from custom_components.layered_assist import DATA_TOOLS
from custom_components.layered_assist.compat import open_chat_session
from custom_components.layered_assist.const import CONF_MAX_TOOL_ROUNDS, CONF_STREAM, DOMAIN
from custom_components.layered_assist.tools.base import (
    DirectResponse,
    ModelResult,
    ToolRequest,
    ToolSpec,
    ToolTraits,
)
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import intent, issue_registry as ir

from .conftest import AGENT_ID
from .fake_openai import FakeOpenAI, ScriptedCall, call, calls, failure, text

pytestmark = pytest.mark.usefixtures("init_integration")


async def converse(
    hass: HomeAssistant, sentence: str, language: str = "en"
) -> conversation.ConversationResult:
    """Send one sentence to our agent."""
    return await conversation.async_converse(
        hass, sentence, None, Context(), language=language, agent_id=AGENT_ID
    )


def speech(result: conversation.ConversationResult) -> str:
    """Return the plain speech of a result."""
    return result.response.speech["plain"]["speech"]


def tool_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the tool results a request fed back to the model."""
    return [m for m in request["messages"] if m["role"] == "tool"]


def register_tool(hass: HomeAssistant, name: str, handler: Any) -> None:
    """Add a tool to our registry, as later tool families do."""
    hass.data[DATA_TOOLS].register(
        ToolSpec(
            name=name,
            traits=ToolTraits(),
            description=f"test tool {name}",
            parameters=vol.Schema({}),
            handler=handler,
        )
    )


async def test_plain_answer(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A reply without tools is the answer; the request carries the prompt and sorted tools."""
    fake_openai.add(text("Hello there!"))
    result = await converse(hass, "tell me a joke")

    assert speech(result) == "Hello there!"
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    [request] = fake_openai.chat_requests
    assert request["model"] == "gpt-test"
    assert request["stream"] is True
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert request["messages"][1]["content"] == "tell me a joke"
    names = [tool["function"]["name"] for tool in request["tools"]]
    assert names == sorted(names)
    assert {"calculate", "get_datetime"} <= set(names)
    assert "tool_choice" not in request
    assert fake_openai.headers[-1]["Authorization"] == "Bearer sk-test"


async def test_one_tool_round(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A tool call runs and its result goes back to the model."""
    fake_openai.add(call("calculate", {"expression": "2+3*4"}), text("It is 14."))
    result = await converse(hass, "what is 2+3*4")

    assert speech(result) == "It is 14."
    first, second = fake_openai.chat_requests
    assert "tool_choice" not in first
    [assistant] = [m for m in second["messages"] if m["role"] == "assistant"]
    [tool_call] = assistant["tool_calls"]
    assert tool_call["function"]["name"] == "calculate"
    [result_message] = tool_messages(second)
    assert result_message["tool_call_id"] == tool_call["id"]
    assert '"result":14' in result_message["content"].replace(" ", "")


async def test_two_parallel_tool_calls(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Two calls in one message both run and both results are fed back."""
    fake_openai.add(
        calls(
            ScriptedCall("calculate", {"expression": "6*7"}, id="call_a"),
            ScriptedCall("get_datetime", {}, id="call_b"),
        ),
        text("42, and it is Sunday."),
    )
    result = await converse(hass, "6*7 and what day is it")

    assert speech(result) == "42, and it is Sunday."
    results = {m["tool_call_id"]: m["content"] for m in tool_messages(fake_openai.chat_requests[1])}
    assert set(results) == {"call_a", "call_b"}
    assert '"result":42' in results["call_a"].replace(" ", "")
    assert '"weekday"' in results["call_b"]


async def test_tools_run_concurrently(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Two slow tools of one message overlap in time."""
    running: list[int] = []
    overlap: list[int] = []

    async def slow(request: ToolRequest) -> ModelResult:
        running.append(1)
        await asyncio.sleep(0.05)
        overlap.append(len(running))
        running.pop()
        return ModelResult({"ok": True})

    register_tool(hass, "slow_a", slow)
    register_tool(hass, "slow_b", slow)
    fake_openai.add(calls(ScriptedCall("slow_a"), ScriptedCall("slow_b")), text("done"))
    await converse(hass, "run both")
    assert max(overlap) == 2


async def test_direct_response_tool(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A tool that answers the user ends the turn with no second model request."""

    async def announce(request: ToolRequest) -> DirectResponse:
        return DirectResponse("The alarm is set for 7:30.")

    register_tool(hass, "set_test_alarm", announce)
    fake_openai.add(call("set_test_alarm"))
    result = await converse(hass, "wake me at 7:30")

    assert speech(result) == "The alarm is set for 7:30."
    assert len(fake_openai.chat_requests) == 1


async def test_round_limit(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """The last allowed round forbids tools and its calls are not run."""
    invocations: list[str] = []

    async def count(request: ToolRequest) -> ModelResult:
        invocations.append("called")
        return ModelResult({"again": True})

    register_tool(hass, "loop_tool", count)
    fake_openai.add(call("loop_tool"), call("loop_tool"), call("loop_tool"))
    result = await converse(hass, "loop forever")

    requests = fake_openai.chat_requests
    assert len(requests) == 3
    assert [r.get("tool_choice") for r in requests] == [None, None, "none"]
    assert len(invocations) == 2
    assert "allowed number of steps" in speech(result)


async def test_round_limit_setting(
    hass: HomeAssistant, fake_openai: FakeOpenAI, agent_options: dict[str, Any]
) -> None:
    """The configured number of rounds is honoured."""
    assert agent_options[CONF_MAX_TOOL_ROUNDS] == 3
    fake_openai.add(call("calculate", {"expression": "1+1"}), text("2"))
    await converse(hass, "1+1")
    assert len(fake_openai.chat_requests) == 2


async def test_malformed_tool_arguments(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Arguments that are not JSON are answered with an error the model can fix."""
    fake_openai.add(call("calculate", '{"expression": "1+'), text("Sorry, let me retry."))
    result = await converse(hass, "1+")

    assert speech(result) == "Sorry, let me retry."
    [message] = tool_messages(fake_openai.chat_requests[1])
    assert "invalid_arguments" in message["content"]
    assert "not valid JSON" in message["content"]


async def test_arguments_failing_the_schema(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Arguments that miss a required field get the validation message back."""
    fake_openai.add(call("calculate", {"expr": "1+1"}), text("ok"))
    await converse(hass, "1+1")

    [message] = tool_messages(fake_openai.chat_requests[1])
    assert "invalid_arguments" in message["content"]
    assert "expression" in message["content"]


async def test_unknown_tool(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A tool the model invents gets an error result."""
    fake_openai.add(call("launch_rocket", {"target": "moon"}), text("I cannot do that."))
    result = await converse(hass, "launch")

    assert speech(result) == "I cannot do that."
    [message] = tool_messages(fake_openai.chat_requests[1])
    assert "not found" in message["content"]


async def test_tool_exception_is_a_result(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A tool that raises gives an error result, not a crash."""

    async def broken(request: ToolRequest) -> None:
        raise RuntimeError("disk on fire")

    register_tool(hass, "broken_tool", broken)
    fake_openai.add(call("broken_tool"), text("That failed."))
    result = await converse(hass, "do it")

    assert speech(result) == "That failed."
    [message] = tool_messages(fake_openai.chat_requests[1])
    assert "tool_failed" in message["content"]
    assert "disk on fire" in message["content"]


async def test_streamed_deltas_in_order(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """The pipeline sees the role first, then the text in order, then tool results."""
    fake_openai.add(call("calculate", {"expression": "1+1"}), text("The answer is two, of course."))
    deltas: list[dict[str, Any]] = []

    def listener(chat_log: conversation.ChatLog, delta: dict[str, Any]) -> None:
        deltas.append(delta)

    context = Context()
    with (
        open_chat_session(hass, None, context) as session,
        conversation.async_get_chat_log(hass, session, chat_log_delta_listener=listener),
    ):
        result = await conversation.async_converse(
            hass, "1+1", session.conversation_id, context, language="en", agent_id=AGENT_ID
        )

    assert speech(result) == "The answer is two, of course."
    assert deltas[0] == {"role": "assistant"}
    kinds = [next(iter(d)) if "role" not in d else d["role"] for d in deltas]
    assert kinds.index("tool_calls") < kinds.index("tool_result")
    second_turn = deltas[kinds.index("tool_result") + 1 :]
    assert second_turn[0] == {"role": "assistant"}
    streamed = "".join(d.get("content") or "" for d in second_turn)
    assert streamed == "The answer is two, of course."
    assert sum(1 for d in second_turn if d.get("content")) > 1


@pytest.mark.parametrize("agent_options_stream", [False])
async def test_non_streaming(
    hass: HomeAssistant, fake_openai: FakeOpenAI, agent_options_stream: bool
) -> None:
    """With streaming off the same loop works on whole completions."""
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    subentry = next(iter(entry.subentries.values()))
    hass.config_entries.async_update_subentry(
        entry, subentry, data={**subentry.data, CONF_STREAM: agent_options_stream}
    )
    await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()

    fake_openai.add(call("calculate", {"expression": "3*3"}), text("Nine."))
    result = await converse(hass, "3*3")
    assert speech(result) == "Nine."
    assert [r["stream"] for r in fake_openai.chat_requests] == [False, False]
    assert '"result":9' in tool_messages(fake_openai.chat_requests[1])[0]["content"].replace(" ", "")


async def test_model_without_tool_support(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A model that rejects tools is detected once; the agent carries on without them."""
    fake_openai.add(failure(400, "registry.ollama.ai/library/gemma:2b does not support tools"), text("Hi!"))
    result = await converse(hass, "tell me a joke")
    assert speech(result) == "Hi!"
    first, second = fake_openai.chat_requests
    assert "tools" in first
    assert "tools" not in second
    issues = [i for (domain, _), i in ir.async_get(hass).issues.items() if domain == DOMAIN]
    assert [i.translation_key for i in issues] == ["tools_unsupported"]

    fake_openai.add(text("Still here."))
    assert speech(await converse(hass, "again")) == "Still here."
    assert "tools" not in fake_openai.chat_requests[-1]
