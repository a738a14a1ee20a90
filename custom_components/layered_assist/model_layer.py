"""Layers 2 and 3: the small model narrows the candidates, the main model acts with tools.

Without a model endpoint (local-only mode) the last layer instead says what could not
be done locally, and why.
"""

from typing import Any

from homeassistant.components import conversation
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent, llm

from .chat.errors import AuthenticationFailed, EndpointError
from .chat.loop import ReplyGuard, ToolCallingLoop
from .const import CONF_PROMPT, DOMAIN, LLM_API_ID
from .endpoint_issues import async_endpoint_reachable, async_report_endpoint_error
from .language.reading import Mood
from .llm_api import LayeredAssistAPI, command_messages
from .localize import async_error_text
from .models import AgentRuntime, LayeredAssistConfigEntry
from .narrowing import CandidateFilter
from .selection.engine import SelectionEngine
from .tools import ToolRegistry
from .tools.control_devices import DeviceTurn, command_schema, said_requests
from .turn import Turn, TurnOutcome


class ModelLayer:
    """Asks the main model, showing it only this turn's candidate devices."""

    name = "model"

    def __init__(
        self,
        hass: HomeAssistant,
        entry: LayeredAssistConfigEntry,
        agent: AgentRuntime,
        loop: ToolCallingLoop,
        narrowing: CandidateFilter | None,
        registry: ToolRegistry,
    ) -> None:
        """Bind to the agent's loop, its optional small model and our tools."""
        self.hass = hass
        self.entry = entry
        self.agent = agent
        self.loop = loop
        self.narrowing = narrowing
        self.registry = registry

    async def async_handle(self, turn: Turn) -> TurnOutcome:
        """Let the model answer; what the control tool did is recorded on the turn's devices."""
        recall = turn.recall
        candidates = list(recall.candidates)
        runtime = self.entry.runtime_data
        if self.narrowing is not None and not recall.confident:
            narrowed = await self.narrowing.async_narrow(
                self.hass, runtime.catalog, turn.text, candidates, turn.state
            )
            candidates = narrowed or candidates
        dialogs = self.agent.dialogs
        devices = DeviceTurn(
            runtime.catalog,
            candidates,
            devices_only=recall.is_device_command,
            risks=dialogs.risks,
            hold=dialogs.hold_for(turn.conversation_id),
            requests=said_requests(recall, runtime.catalog),
        )
        result = await self._async_ask(turn, devices)
        return TurnOutcome(
            "model",
            acted_on=list(devices.acted_on),
            commands=list(devices.commands),
            # The devices the sentence surely named: "it" next is one of them ("Is the Roborock
            # charged?" answered by the model … "OK, start it").
            subjects=[t for s in recall.segments if s.confident for t in s.targets],
            result=result,
            candidates=len(candidates),
        )

    async def _async_ask(self, turn: Turn, devices: DeviceTurn) -> conversation.ConversationResult:
        user_input, chat_log = turn.user_input, turn.chat_log
        options = self.agent.options
        extra = user_input.extra_system_prompt
        persona = turn.state.persona
        if persona and (instructions := self.agent.personas.get(persona)):
            extra = f"{extra}\n{instructions}" if extra else instructions
        try:
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context(DOMAIN),
                self._apis(options.get(CONF_LLM_HASS_API), devices),
                options.get(CONF_PROMPT),
                extra,
            )
        except conversation.ConverseError as err:
            return err.as_conversation_result()
        mood = turn.recall.reading.mood
        try:
            asked = await self._async_commands_first(turn, devices, mood)
            if asked is not True:
                guard = _guard(devices, mood, insist=asked is None)
                await self.loop.async_run(chat_log, turn.agent_id, turn.language, guard)
        except EndpointError as err:
            async_report_endpoint_error(self.hass, self.entry, err)
            return await self._async_error_result(turn, err)
        async_endpoint_reachable(self.hass, self.entry)
        return conversation.async_get_result_from_chat_log(user_input, chat_log)

    async def _async_commands_first(self, turn: Turn, devices: DeviceTurn, mood: Mood) -> bool | None:
        """For a device command, ask for the commands as schema-held JSON.

        Small models name the right device far more often in a schema's enums than in a
        tool call. Return True when that answered the user, False when the model was
        asked but the tools must go on, None when it was not asked (no command, or an
        endpoint without structured output).
        """
        if not devices.devices_only or mood not in _ACTING_MOODS:
            return None
        if (
            self.loop.client.structured_output is False
            or (schema := command_schema(self.hass, devices)) is None
        ):
            return None
        messages = command_messages(self.hass, devices, turn.chat_log.content)
        return await self.loop.async_run_structured(
            turn.chat_log, turn.agent_id, messages, schema, devices.commands_from_answer
        )

    def _apis(self, api_ids: Any, devices: DeviceTurn) -> llm.API | list[str] | None:
        """Return the LLM APIs of this turn, ours carrying the turn's devices and agent."""
        if not api_ids:
            return None
        ids = [api_ids] if isinstance(api_ids, str) else list(api_ids)
        if LLM_API_ID not in ids:
            return ids
        ours = LayeredAssistAPI(self.hass, self.registry, devices, self.agent.subentry.subentry_id)
        others = [api for api in llm.async_get_apis(self.hass) if api.id in ids and api.id != LLM_API_ID]
        return llm.MergedAPI([ours, *others]) if others else ours

    async def _async_error_result(self, turn: Turn, err: EndpointError) -> conversation.ConversationResult:
        """Tell the user, in their language, what went wrong with the endpoint."""
        if isinstance(err, AuthenticationFailed):
            self.entry.async_start_reauth(self.hass)
        speech = await async_error_text(self.hass, turn.language, err.key, err.translation_placeholders)
        response = intent.IntentResponse(language=turn.language)
        response.async_set_error(intent.IntentResponseErrorCode.UNKNOWN, speech)
        return conversation.ConversationResult(response=response, conversation_id=turn.conversation_id)


# Moods of a sentence whose commands may be carried out now, with no more words.
_ACTING_MOODS = (Mood.COMMAND, Mood.FEELING)
# Moods whose answer is a statement by nature: what is, or what was.
_TELLING_MOODS = (Mood.QUESTION, Mood.PAST)


def _guard(devices: DeviceTurn, mood: Mood, *, insist: bool) -> ReplyGuard | None:
    """For a device turn: the model's words are spoken only if something was done or it asks."""
    if not devices.devices_only or mood in _TELLING_MOODS:
        return None
    return ReplyGuard(lambda text: bool(devices.acted_on) or _asks(text), insist=insist)


def _asks(text: str) -> bool:
    """Tell whether a reply asks the user something (a question mark in any of our languages)."""
    return "?" in text or "？" in text


class LocalOnlyLayer:
    """In place of the model: says why a sentence was not done locally, or what would do it."""

    name = "model"

    def __init__(self, hass: HomeAssistant, engine: SelectionEngine) -> None:
        """Bind to the agent's engine, which knows why it did not act."""
        self.hass = hass
        self.engine = engine

    async def async_handle(self, turn: Turn) -> TurnOutcome:
        """Answer with the reason, or with how to add a model."""
        why = await self.engine.async_why_not(turn.recall, turn.language)
        if why is None:
            why = await async_error_text(self.hass, turn.language, "no_model")
        return TurnOutcome("model", why)
