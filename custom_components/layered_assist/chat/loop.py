"""The tool-calling loop: ask the model, run its tools, feed results back, repeat."""

from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Self

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir, llm

from ..compat import tool_result_data
from ..const import (
    CONF_MAX_TOKENS,
    CONF_MAX_TOOL_ROUNDS,
    CONF_MODEL,
    CONF_STREAM,
    CONF_TEMPERATURE,
    CONF_TIMEOUT,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MAX_TOOL_ROUNDS,
    DEFAULT_MODEL,
    DEFAULT_STREAM,
    DEFAULT_TEMPERATURE,
    DEFAULT_TIMEOUT,
    DOMAIN,
    ISSUE_TOOLS_UNSUPPORTED,
    LOGGER,
)
from ..localize import async_text
from .client import ChatRequest, EndpointClient
from .errors import BadRequest, ToolsUnsupported
from .messages import DeltaTranslator, chat_log_to_messages, format_tools
from .recovery import OfferedTools
from .structured import async_ask_json

# The speech of a tool result that answers the user itself, or None: (API, tool name, result).
type DirectSpeech = Callable[[llm.APIInstance | None, str, Any], str | None]


@dataclass(frozen=True, slots=True)
class LoopOptions:
    """The agent settings the loop needs."""

    model: str
    temperature: float
    max_tokens: int
    max_rounds: int
    timeout: float
    stream: bool

    @classmethod
    def from_subentry(cls, data: Mapping[str, Any]) -> Self:
        """Read the options of an agent subentry, with defaults."""
        return cls(
            model=data.get(CONF_MODEL, DEFAULT_MODEL),
            temperature=float(data.get(CONF_TEMPERATURE, DEFAULT_TEMPERATURE)),
            max_tokens=int(data.get(CONF_MAX_TOKENS, DEFAULT_MAX_TOKENS)),
            max_rounds=int(data.get(CONF_MAX_TOOL_ROUNDS, DEFAULT_MAX_TOOL_ROUNDS)),
            timeout=float(data.get(CONF_TIMEOUT, DEFAULT_TIMEOUT)),
            stream=bool(data.get(CONF_STREAM, DEFAULT_STREAM)),
        )


@dataclass(frozen=True, slots=True)
class ReplyGuard:
    """For a device turn: the model's own words are spoken only when they are fair.

    ``speakable`` tells whether a reply may be spoken as it is (something was done, or
    the reply asks the user something); anything else may claim what was not done, so
    the loop asks once more, insisting on a call, and then says ``fallback`` (a key of
    ``exceptions``) instead.
    """

    speakable: Callable[[str], bool]
    # Ask once more before giving up (not when the model was already asked for commands alone).
    insist: bool = True
    fallback: str = "nothing_changed"


class ToolCallingLoop:
    """Runs one agent's turns against its endpoint."""

    def __init__(
        self,
        hass: HomeAssistant,
        client: EndpointClient,
        options: LoopOptions,
        agent_key: str,
        direct_speech: DirectSpeech,
    ) -> None:
        """Bind the loop to an endpoint, an agent's options and the test for direct answers."""
        self.hass = hass
        self.client = client
        self.options = options
        self.direct_speech = direct_speech
        self._issue_id = f"{ISSUE_TOOLS_UNSUPPORTED}_{agent_key}"
        self.tools_supported = True

    async def async_run(
        self,
        chat_log: conversation.ChatLog,
        agent_id: str,
        language: str,
        guard: ReplyGuard | None = None,
    ) -> None:
        """Answer the user's last message, leaving the answer last in the chat log."""
        tools = format_tools(chat_log.llm_api)
        rounds = self.options.max_rounds
        dropped_calls = 0
        insist = False
        called = False
        for round_index in range(rounds):
            last_round = round_index == rounds - 1
            translator, added = await self._async_round(
                chat_log, agent_id, tools, last_round, hold_text=guard is not None, insist=insist
            )
            dropped_calls += translator.dropped_calls
            results = [c for c in added if isinstance(c, conversation.ToolResultContent)]
            if results:
                called = True
                if (speech := self._direct_speech(chat_log, results)) is not None:
                    await self._async_say(chat_log, agent_id, speech)
                    return
                continue
            if guard is None:
                break
            text = translator.held_text
            if text and guard.speakable(text):
                await self._async_say(chat_log, agent_id, text)
                return
            # A model that made calls this turn has tried already; one that only talked gets one more go.
            if insist or called or not guard.insist or last_round or not tools or not self.tools_supported:
                await self._async_say_key(chat_log, agent_id, language, guard.fallback)
                return
            insist = True
        if not _ends_with_answer(chat_log):
            key = "round_limit" if dropped_calls or chat_log.unresponded_tool_results else "empty_response"
            await self._async_say_key(chat_log, agent_id, language, key)

    async def async_run_structured(
        self,
        chat_log: conversation.ChatLog,
        agent_id: str,
        messages: list[dict[str, Any]],
        schema: dict[str, Any],
        read_commands: Callable[[list[Any]], list[Any]],
    ) -> bool | None:
        """Ask for the turn's commands as schema-held JSON and run them as one call of the command tool.

        ``read_commands`` turns the answer's commands into the tool's arguments. Return True
        when that answered the user (every command went well), None when the endpoint gave
        no such answer; otherwise (False) the call and its results stay in the chat log for
        the tool loop to go on from.
        """
        command_tool = OfferedTools.from_specs(format_tools(chat_log.llm_api)).command_tool
        if command_tool is None:
            return None
        request = ChatRequest(
            model=self.options.model,
            messages=messages,
            temperature=self.options.temperature,
            max_tokens=self.options.max_tokens,
            timeout=self.options.timeout,
        )
        if (answer := await async_ask_json(self.client, request, "device_commands", schema)) is None:
            return None
        commands = answer.get("commands")
        if not isinstance(commands, list) or not commands:
            return False
        call = llm.ToolInput(tool_name=command_tool, tool_args={"commands": read_commands(commands)})
        content = conversation.AssistantContent(agent_id=agent_id, content=None, tool_calls=[call])
        results = [result async for result in chat_log.async_add_assistant_content(content)]
        if not results or (speech := self._direct_speech(chat_log, results)) is None:
            return False
        await self._async_say(chat_log, agent_id, speech)
        return True

    async def _async_round(
        self,
        chat_log: conversation.ChatLog,
        agent_id: str,
        tools: list[dict[str, Any]],
        last_round: bool,
        *,
        hold_text: bool = False,
        insist: bool = False,
    ) -> tuple[DeltaTranslator, list[conversation.AssistantContent | conversation.ToolResultContent]]:
        """Send one request and stream its answer (and tool results) into the chat log.

        ``insist`` asks for a call (``tool_choice`` required); an endpoint that refuses
        that is asked again without it.
        """
        use_tools = bool(tools) and self.tools_supported
        tool_choice = None
        if use_tools and last_round:
            tool_choice = "none"
        elif use_tools and insist:
            tool_choice = "required"
        request = ChatRequest(
            model=self.options.model,
            messages=chat_log_to_messages(chat_log.content),
            tools=tools if use_tools else [],
            tool_choice=tool_choice,
            temperature=self.options.temperature,
            max_tokens=self.options.max_tokens,
            stream=self.options.stream,
            timeout=self.options.timeout,
        )
        allow_tools = use_tools and not last_round
        try:
            return await self._async_send(chat_log, agent_id, request, allow_tools, hold_text)
        except BadRequest as err:
            request.tool_choice = None
            if insist:  # the endpoint may refuse "required": ask without it
                return await self._async_send(chat_log, agent_id, request, allow_tools, hold_text)
            if not isinstance(err, ToolsUnsupported):
                raise
            self._async_mark_tools_unsupported(err)
            request.tools = []
            return await self._async_send(chat_log, agent_id, request, False, hold_text)

    async def _async_send(
        self,
        chat_log: conversation.ChatLog,
        agent_id: str,
        request: ChatRequest,
        allow_tools: bool,
        hold_text: bool,
    ) -> tuple[DeltaTranslator, list[conversation.AssistantContent | conversation.ToolResultContent]]:
        """Send the request and add what comes back to the chat log."""
        translator = DeltaTranslator(
            allow_tools=allow_tools,
            on_finish=_log_finish,
            tools=OfferedTools.from_specs(request.tools),
            hold_text=hold_text,
        )
        if request.stream:
            deltas = translator.async_from_stream(self.client.async_stream(request))
        else:
            deltas = translator.async_from_completion(await self.client.async_complete(request))
        added = [content async for content in chat_log.async_add_delta_content_stream(agent_id, deltas)]
        if request.tools and self.tools_supported:
            ir.async_delete_issue(self.hass, DOMAIN, self._issue_id)
        return translator, added

    def _async_mark_tools_unsupported(self, err: ToolsUnsupported) -> None:
        """Carry on without tools from now on and tell the user once."""
        self.tools_supported = False
        LOGGER.warning("Model %s rejected tools, continuing without them: %s", self.options.model, err.detail)
        ir.async_create_issue(
            self.hass,
            DOMAIN,
            self._issue_id,
            is_fixable=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key=ISSUE_TOOLS_UNSUPPORTED,
            translation_placeholders={"model": self.options.model},
        )

    def _direct_speech(
        self, chat_log: conversation.ChatLog, results: list[conversation.ToolResultContent]
    ) -> str | None:
        """Return the answer when every tool of the round answered the user itself."""
        speeches = [
            self.direct_speech(chat_log.llm_api, result.tool_name, tool_result_data(result))
            for result in results
        ]
        if any(speech is None for speech in speeches):
            return None
        return " ".join(speech for speech in speeches if speech)

    @staticmethod
    async def _async_say(chat_log: conversation.ChatLog, agent_id: str, text: str) -> None:
        await async_say(chat_log, agent_id, text)

    async def _async_say_key(
        self, chat_log: conversation.ChatLog, agent_id: str, language: str, key: str
    ) -> None:
        """Say one of our own messages (a key of ``exceptions``) in the user's language."""
        await async_say(
            chat_log, agent_id, await async_text(self.hass, language, "exceptions", f"{key}.message")
        )


async def async_say(chat_log: conversation.ChatLog, agent_id: str, text: str) -> None:
    """Add our own text as the answer, streamed so the pipeline's TTS hears it."""

    async def deltas() -> AsyncGenerator[conversation.AssistantContentDeltaDict]:
        yield {"role": "assistant", "content": text}

    async for _ in chat_log.async_add_delta_content_stream(agent_id, deltas()):
        pass


def _ends_with_answer(chat_log: conversation.ChatLog) -> bool:
    """Tell whether the chat log ends with assistant text."""
    last = chat_log.content[-1]
    return isinstance(last, conversation.AssistantContent) and bool(last.content)


def _log_finish(finish_reason: str | None) -> None:
    """Note why the model stopped; a length stop often explains a cut answer."""
    if finish_reason == "length":
        LOGGER.warning("The model hit max_tokens; raise it in the agent's options")
