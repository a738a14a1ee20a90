"""The conversation agent entity: wires the layers together for each turn."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
import time
from typing import Any, Literal

from homeassistant.components import conversation
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import CONF_API_KEY, CONF_LLM_HASS_API, MATCH_ALL
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import device_registry as dr, intent, llm
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.helpers.event import async_track_time_interval

from . import DATA_TOOLS
from .chat.client import EndpointClient
from .chat.errors import AuthenticationFailed, EndpointError
from .chat.loop import LoopOptions, ToolCallingLoop, async_say
from .const import (
    CONF_BASE_URL,
    CONF_FAST_PATH,
    CONF_FILTER_API_KEY,
    CONF_FILTER_BASE_URL,
    CONF_FILTER_MODEL,
    CONF_LOCAL_ACTION,
    CONF_MODEL,
    CONF_PROMPT,
    CONF_TIMEOUT,
    CONF_TOP_K,
    DEFAULT_FAST_PATH,
    DEFAULT_LOCAL_ACTION,
    DEFAULT_TIMEOUT,
    DEFAULT_TOP_K,
    DOMAIN,
    LLM_API_ID,
    LOGGER,
    SUBENTRY_CONVERSATION,
)
from .dialogs.hub import DialogHub
from .endpoint_issues import async_endpoint_reachable, async_report_endpoint_error
from .llm_api import LayeredAssistAPI
from .localize import async_error_text
from .models import LayeredAssistConfigEntry
from .roles import personas
from .selection.control import DeviceTurn
from .selection.engine import LocalTurn, SelectionEngine, SelectionOptions, speaking_area
from .selection.later import async_later
from .selection.narrowing import CandidateFilter

PARALLEL_UPDATES = 0
EXPIRY_CHECK = timedelta(minutes=1)


@dataclass(slots=True)
class TurnInfo:
    """What the last turn did, for diagnostics and benchmarks."""

    layer: str
    local_ms: float
    recall_ms: float = 0.0
    fast_path_ms: float = 0.0
    asked_ha: bool = False
    acted_on: list[str] = field(default_factory=list)
    candidates: int = 0


class _Clock:
    """Milliseconds between laps."""

    def __init__(self) -> None:
        self._last = time.perf_counter()

    def lap(self) -> float:
        now = time.perf_counter()
        elapsed, self._last = (now - self._last) * 1000, now
        return elapsed


async def async_setup_entry(
    hass: HomeAssistant,
    entry: LayeredAssistConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add one agent per conversation subentry."""
    for subentry in entry.subentries.values():
        if subentry.subentry_type != SUBENTRY_CONVERSATION:
            continue
        async_add_entities(
            [LayeredAssistAgent(hass, entry, subentry)], config_subentry_id=subentry.subentry_id
        )


class LayeredAssistAgent(conversation.ConversationEntity, AbstractConversationAgent):
    """A Layered Assist conversation agent."""

    _attr_has_entity_name = True
    _attr_name = None
    _attr_supports_streaming = True

    def __init__(
        self, hass: HomeAssistant, entry: LayeredAssistConfigEntry, subentry: ConfigSubentry
    ) -> None:
        """Set up the agent from its subentry."""
        self.entry = entry
        self.subentry = subentry
        options = subentry.data
        self._attr_unique_id = subentry.subentry_id
        self._attr_device_info = dr.DeviceInfo(
            identifiers={(DOMAIN, subentry.subentry_id)},
            name=subentry.title,
            manufacturer="Layered Assist",
            model=options.get(CONF_MODEL),
            entry_type=dr.DeviceEntryType.SERVICE,
        )
        if options.get(CONF_LLM_HASS_API):
            self._attr_supported_features = conversation.ConversationEntityFeature.CONTROL
        runtime = entry.runtime_data
        self._loop = (
            ToolCallingLoop(hass, runtime.client, LoopOptions.from_subentry(options), subentry.subentry_id)
            if runtime.client is not None
            else None
        )
        self.last_turn: TurnInfo | None = None
        self._filter = _candidate_filter(hass, entry, options)
        self._dialogs = DialogHub(hass, runtime.catalog, runtime.states, options)
        self._engine = SelectionEngine(
            hass,
            runtime.catalog,
            SelectionOptions(
                fast_path=bool(options.get(CONF_FAST_PATH, DEFAULT_FAST_PATH)),
                local_action=bool(options.get(CONF_LOCAL_ACTION, DEFAULT_LOCAL_ACTION)),
                top_k=int(options.get(CONF_TOP_K, DEFAULT_TOP_K)),
            ),
        )

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Return every language: the model and our layers handle zh and en."""
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        """Register as an agent and close idle dialogs regularly."""
        await super().async_added_to_hass()
        conversation.async_set_agent(self.hass, self.entry, self)
        self.async_on_remove(async_track_time_interval(self.hass, self._async_expire_dialogs, EXPIRY_CHECK))

    @callback
    def _async_expire_dialogs(self, _now: datetime) -> None:
        """Close idle dialogs and pending confirmations."""
        self._dialogs.states.expire_dialogs(self._dialogs.options.timeout)

    async def async_will_remove_from_hass(self) -> None:
        """Unregister as an agent."""
        conversation.async_unset_agent(self.hass, self.entry)
        await super().async_will_remove_from_hass()

    async def _async_handle_message(
        self, user_input: conversation.ConversationInput, chat_log: conversation.ChatLog
    ) -> conversation.ConversationResult:
        """Answer one message: fast path, local recall and action, then the model."""
        states = self.entry.runtime_data.states
        conversation_id = chat_log.conversation_id
        async with states.lock(conversation_id):
            clock = _Clock()
            self.last_turn = None
            state = states.get(conversation_id)
            area = speaking_area(self.hass, user_input)
            # Our recall first: it is cheap, and when it is sure, HA's matcher (whose
            # cost grows with the number of names) need not run at all.
            # An open dialog (or one this sentence opens) gets the turn first.
            if dialog := await self._dialogs.async_offer(conversation_id, state, user_input):
                return await self._async_local_result(
                    user_input, chat_log, dialog, TurnInfo(dialog.layer, clock.lap())
                )

            runtime = self.entry.runtime_data
            if later := await async_later(self.hass, runtime.alarms, self._engine, user_input, state, area):
                return await self._async_local_result(
                    user_input, chat_log, later, TurnInfo(later.layer, clock.lap())
                )

            recall = self._engine.recall(user_input.text, state, area)
            recall_ms = clock.lap()
            if plan := self._engine.plan(recall, state, area):
                local = await self._dialogs.async_run(conversation_id, plan, user_input)
                return await self._async_local_result(
                    user_input, chat_log, local, TurnInfo(local.layer, recall_ms, recall_ms=recall_ms)
                )

            if answer := await self._engine.async_answer(recall, user_input.language):
                return await self._async_local_result(
                    user_input, chat_log, answer, TurnInfo(answer.layer, recall_ms, recall_ms=recall_ms)
                )

            before = len(chat_log.content)
            fast = await self._engine.async_fast_path(user_input, chat_log, area, recall)
            fast_path_ms = clock.lap()
            if fast is not None:
                info = TurnInfo(
                    fast.layer,
                    recall_ms + fast_path_ms,
                    recall_ms=recall_ms,
                    fast_path_ms=fast_path_ms,
                    asked_ha=True,
                )
                return await self._async_local_result(user_input, chat_log, fast, info)
            # A sentence HA matched but could not handle leaves its attempt in the log.
            del chat_log.content[before:]

            candidates = recall.candidates
            if self._filter is not None and not recall.confident:
                narrowed = await self._filter.async_narrow(
                    self.hass, self.entry.runtime_data.catalog, user_input.text, candidates, state
                )
                candidates = narrowed or candidates
            turn = DeviceTurn(
                self.entry.runtime_data.catalog,
                candidates,
                devices_only=recall.is_device_command,
                risks=self._dialogs.risks,
                hold=partial(self._dialogs.async_hold, conversation_id),
            )
            info = TurnInfo(
                "model",
                recall_ms + fast_path_ms,
                recall_ms=recall_ms,
                fast_path_ms=fast_path_ms,
                asked_ha=self._engine.asked_ha,
                candidates=len(candidates),
            )
            # Turns of other conversations run meanwhile: keep this turn's record local.
            self.last_turn = info
            if self._loop is None and (why := await self._engine.async_why_not(recall, user_input.language)):
                # Local-only mode: say what could not be done locally, and why.
                await async_say(chat_log, self.entity_id, why)
                result = conversation.async_get_result_from_chat_log(user_input, chat_log)
            else:
                result = await self._async_ask_model(user_input, chat_log, turn)
            info.acted_on = list(turn.acted_on)
            states.record(
                conversation_id,
                devices=turn.acted_on,
                rooms=self._engine.rooms_of(turn.acted_on),
                commands=turn.commands or None,
                user_text=user_input.text,
                reply=_speech(result),
            )
            return result

    async def _async_local_result(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
        local: LocalTurn,
        info: TurnInfo,
    ) -> conversation.ConversationResult:
        """Finish a turn the local layers answered."""
        info.acted_on = list(local.acted_on)
        self.last_turn = info
        LOGGER.debug("Answered by %s, acted on %s", local.layer, local.acted_on)
        await async_say(chat_log, self.entity_id, local.speech)
        self.entry.runtime_data.states.record(
            chat_log.conversation_id,
            devices=local.acted_on or local.subjects,
            rooms=self._engine.rooms_of(local.acted_on or local.subjects),
            commands=local.commands or None,
            user_text=user_input.text,
            reply=local.speech,
        )
        return conversation.async_get_result_from_chat_log(user_input, chat_log)

    async def _async_ask_model(
        self, user_input: conversation.ConversationInput, chat_log: conversation.ChatLog, turn: DeviceTurn
    ) -> conversation.ConversationResult:
        """Layer 3: the main model, with this turn's candidates as its only devices."""
        if self._loop is None:
            # Local-only mode: say what would make this possible.
            await async_say(
                chat_log, self.entity_id, await async_error_text(self.hass, user_input.language, "no_model")
            )
            return conversation.async_get_result_from_chat_log(user_input, chat_log)
        options = self.subentry.data
        extra = user_input.extra_system_prompt
        persona = self.entry.runtime_data.states.get(chat_log.conversation_id).persona
        if persona and (instructions := personas(self.hass).get(persona)):
            extra = f"{extra}\n{instructions}" if extra else instructions
        try:
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context(DOMAIN),
                self._turn_apis(options.get(CONF_LLM_HASS_API), turn),
                options.get(CONF_PROMPT),
                extra,
            )
        except conversation.ConverseError as err:
            return err.as_conversation_result()
        try:
            await self._loop.async_run(chat_log, self.entity_id, user_input.language)
        except EndpointError as err:
            async_report_endpoint_error(self.hass, self.entry, err)
            return await self._async_error_result(user_input, chat_log, err)
        async_endpoint_reachable(self.hass, self.entry)
        return conversation.async_get_result_from_chat_log(user_input, chat_log)

    def _turn_apis(self, api_ids: Any, turn: DeviceTurn) -> llm.API | list[str] | None:
        """Return the LLM APIs of this turn, ours carrying the turn's devices."""
        if not api_ids:
            return None
        ids = [api_ids] if isinstance(api_ids, str) else list(api_ids)
        if LLM_API_ID not in ids:
            return ids
        ours = LayeredAssistAPI(self.hass, self.hass.data[DATA_TOOLS], turn)
        others = [api for api in llm.async_get_apis(self.hass) if api.id in ids and api.id != LLM_API_ID]
        return llm.MergedAPI([ours, *others]) if others else ours

    async def _async_error_result(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
        err: EndpointError,
    ) -> conversation.ConversationResult:
        """Tell the user, in their language, what went wrong with the endpoint."""
        LOGGER.error("Request to %s failed: %s", self.entry.data.get(CONF_BASE_URL), err.detail)
        if isinstance(err, AuthenticationFailed):
            self.entry.async_start_reauth(self.hass)
        speech = await async_error_text(self.hass, user_input.language, err.key, err.translation_placeholders)
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_error(intent.IntentResponseErrorCode.UNKNOWN, speech)
        return conversation.ConversationResult(response=response, conversation_id=chat_log.conversation_id)


def _candidate_filter(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry, options: Mapping[str, Any]
) -> CandidateFilter | None:
    """Return Layer 2 when a small model is configured."""
    if not (model := options.get(CONF_FILTER_MODEL)):
        return None
    client = entry.runtime_data.client
    if base_url := options.get(CONF_FILTER_BASE_URL):
        client = EndpointClient(
            hass, base_url, options.get(CONF_FILTER_API_KEY) or entry.data.get(CONF_API_KEY)
        )
    if client is None:
        return None
    return CandidateFilter(client, model, float(options.get(CONF_TIMEOUT, DEFAULT_TIMEOUT)))


def _speech(result: conversation.ConversationResult) -> str:
    """Return a result's plain speech."""
    return str(result.response.speech.get("plain", {}).get("speech", ""))
