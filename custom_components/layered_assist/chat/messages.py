"""Conversion between HA's chat log and the OpenAI chat format."""

from collections.abc import AsyncGenerator, AsyncIterable, Callable
from dataclasses import dataclass
import json
from typing import Any

from openai.types.chat import ChatCompletion, ChatCompletionChunk

from homeassistant.components import conversation
from homeassistant.helpers import llm
from homeassistant.helpers.json import json_dumps
from homeassistant.util.ulid import ulid_now

from ..compat import schema_to_json, tool_result_data, tool_result_delta
from ..const import LOGGER
from .recovery import MarkupFilter, OfferedTools

type Delta = conversation.AssistantContentDeltaDict | conversation.ToolResultContentDeltaDict


def format_tools(api: llm.APIInstance | None) -> list[dict[str, Any]]:
    """Return the API's tools as OpenAI function specs, sorted for prompt caching."""
    if api is None:
        return []
    specs = []
    for tool in sorted(api.tools, key=lambda tool: tool.name):
        function: dict[str, Any] = {
            "name": tool.name,
            "parameters": schema_to_json(tool.parameters, api.custom_serializer),
        }
        if tool.description:
            function["description"] = tool.description
        specs.append({"type": "function", "function": function})
    return specs


def chat_log_to_messages(content: list[conversation.Content]) -> list[dict[str, Any]]:
    """Return the chat log as OpenAI messages."""
    messages: list[dict[str, Any]] = []
    for item in content:
        if isinstance(item, conversation.SystemContent):
            messages.append({"role": "system", "content": item.content})
        elif isinstance(item, conversation.UserContent):
            messages.append({"role": "user", "content": item.content})
        elif isinstance(item, conversation.AssistantContent):
            if message := _assistant_message(item):
                messages.append(message)
        elif isinstance(item, conversation.ToolResultContent):
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": item.tool_call_id,
                    "content": json_dumps(tool_result_data(item)),
                }
            )
    return messages


def _assistant_message(item: conversation.AssistantContent) -> dict[str, Any] | None:
    """Return an assistant message, or None when it carries nothing to send."""
    if not item.content and not item.tool_calls:
        return None
    message: dict[str, Any] = {"role": "assistant", "content": item.content}
    if item.tool_calls:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.tool_name, "arguments": json_dumps(call.tool_args)},
            }
            for call in item.tool_calls
        ]
    return message


@dataclass(slots=True)
class _PendingCall:
    """A tool call whose arguments are still arriving."""

    id: str
    name: str = ""
    arguments: str = ""


class DeltaTranslator:
    """Turns streamed (or whole) completions into chat-log deltas.

    Tool calls are handed to the chat log as soon as each one is complete, so
    several run in parallel while the model is still speaking. Calls whose
    arguments are not a JSON object are answered with an error result instead of
    being run, so the model can correct itself. Calls the model wrote as text are
    recovered when the message ends (when it made no native call), and no markup
    is streamed. With ``hold_text`` no text is streamed at all: it waits in
    ``held_text`` for the caller to decide whether it may be spoken.
    """

    def __init__(
        self,
        *,
        allow_tools: bool,
        on_finish: Callable[[str | None], None],
        tools: OfferedTools | None = None,
        hold_text: bool = False,
    ) -> None:
        """Start empty; ``allow_tools`` False drops calls (last round)."""
        self._allow_tools = allow_tools
        self._on_finish = on_finish
        self._tools = tools or OfferedTools(frozenset())
        self._filter = MarkupFilter(hold_all=hold_text)
        self._hold_text = hold_text
        self._pending: dict[int, _PendingCall] = {}
        self._rejected: list[tuple[llm.ToolInput, str]] = []
        self._native_calls = 0
        self.dropped_calls = 0
        self.held_text = ""

    async def async_from_stream(self, chunks: AsyncIterable[ChatCompletionChunk]) -> AsyncGenerator[Delta]:
        """Translate a stream of chunks."""
        yield {"role": "assistant"}
        finish_reason: str | None = None
        async for chunk in chunks:
            if not chunk.choices:
                continue
            choice = chunk.choices[0]
            finish_reason = choice.finish_reason or finish_reason
            delta = choice.delta
            if thinking := getattr(delta, "reasoning_content", None):
                yield {"thinking_content": thinking}
            if delta.content and (speakable := self._filter.feed(delta.content)):
                yield {"content": speakable}
            for call in delta.tool_calls or ():
                if call.index not in self._pending:
                    self._native_calls += 1
                    # A new index means every earlier call is complete.
                    if ready := self._flush(before=call.index):
                        yield {"tool_calls": ready}
                    self._pending[call.index] = _PendingCall(id=call.id or ulid_now())
                pending = self._pending[call.index]
                if call.function is not None:
                    pending.name += call.function.name or ""
                    pending.arguments += call.function.arguments or ""
        for item in self._finish(finish_reason):
            yield item

    async def async_from_completion(self, completion: ChatCompletion) -> AsyncGenerator[Delta]:
        """Translate a non-streamed completion."""
        yield {"role": "assistant"}
        if not completion.choices:
            self._on_finish(None)
            return
        choice = completion.choices[0]
        message = choice.message
        if thinking := getattr(message, "reasoning_content", None):
            yield {"thinking_content": thinking}
        if message.content and (speakable := self._filter.feed(message.content)):
            yield {"content": speakable}
        for index, call in enumerate(message.tool_calls or ()):
            self._native_calls += 1
            function = getattr(call, "function", None)
            self._pending[index] = _PendingCall(
                id=call.id or ulid_now(),
                name=function.name if function else "",
                arguments=function.arguments if function else "",
            )
        for item in self._finish(choice.finish_reason):
            yield item

    def _finish(self, finish_reason: str | None) -> list[Delta]:
        """Return the deltas that close the message."""
        deltas: list[Delta] = []
        recovered = self._filter.finish(self._tools)
        if not self._native_calls:
            # Only when the model made no native call: the same call twice must not run twice.
            for call in recovered.calls:
                index = max(self._pending, default=-1) + 1
                self._pending[index] = _PendingCall(
                    id=ulid_now(), name=call.name, arguments=json.dumps(call.arguments, ensure_ascii=False)
                )
        if recovered.calls:
            LOGGER.debug("Recovered %d tool call(s) written as text", len(recovered.calls))
        if self._hold_text:
            self.held_text = recovered.text
        elif recovered.text:
            deltas.append({"content": recovered.text})
        if ready := self._flush(before=None):
            deltas.append({"tool_calls": ready})
        deltas.extend(
            tool_result_delta(call.id, call.tool_name, {"error": "invalid_arguments", "error_text": reason})
            for call, reason in self._rejected
        )
        self._on_finish(finish_reason)
        return deltas

    def _flush(self, before: int | None) -> list[llm.ToolInput]:
        """Take the complete pending calls and return the runnable ones."""
        indexes = sorted(i for i in self._pending if before is None or i < before)
        ready: list[llm.ToolInput] = []
        for index in indexes:
            pending = self._pending.pop(index)
            if not self._allow_tools:
                self.dropped_calls += 1
                LOGGER.debug("Dropping tool call %s on the last round", pending.name)
                continue
            arguments, problem = _parse_arguments(pending.arguments)
            if problem is None:
                ready.append(llm.ToolInput(tool_name=pending.name, tool_args=arguments, id=pending.id))
                continue
            # The call is recorded (so the model sees its own mistake) but never run.
            rejected = llm.ToolInput(tool_name=pending.name, tool_args={}, id=pending.id, external=True)
            ready.append(rejected)
            self._rejected.append((rejected, problem))
        return ready


def _parse_arguments(raw: str) -> tuple[dict[str, Any], str | None]:
    """Parse a tool call's arguments; return the problem when they are unusable."""
    if not raw.strip():
        return {}, None
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as err:
        return {}, f"arguments are not valid JSON ({err.msg} at position {err.pos})"
    if not isinstance(value, dict):
        return {}, "arguments must be a JSON object"
    return value, None
