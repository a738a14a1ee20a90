"""The conversation agent entity: a short driver over the turn pipeline."""

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
import time
from typing import Any, Literal

from homeassistant.components import conversation
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import CONF_API_KEY, CONF_LLM_HASS_API, MATCH_ALL
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.helpers.event import async_track_time_interval

from . import DATA_TOOLS
from .chat.client import EndpointClient
from .chat.loop import LoopOptions, ToolCallingLoop, async_say
from .const import (
    CONF_FAST_PATH,
    CONF_FILTER_API_KEY,
    CONF_FILTER_BASE_URL,
    CONF_FILTER_MODEL,
    CONF_LOCAL_ACTION,
    CONF_MODEL,
    CONF_TIMEOUT,
    CONF_TOP_K,
    DEFAULT_FAST_PATH,
    DEFAULT_LOCAL_ACTION,
    DEFAULT_TIMEOUT,
    DEFAULT_TOP_K,
    DOMAIN,
    LOGGER,
)
from .language.reading import Mood, Reading, read
from .llm_api import find_direct_speech
from .model_layer import LocalOnlyLayer, ModelLayer
from .models import AgentRuntime, LayeredAssistConfigEntry
from .narrowing import CandidateFilter
from .selection.engine import SelectionEngine, SelectionOptions, speaking_area
from .selection.fast_path import FastPathLayer
from .selection.later import LaterLayer
from .selection.local_layer import LocalLayer
from .state import ConversationState
from .turn import Layer, Passed, Turn, TurnOutcome

PARALLEL_UPDATES = 0
EXPIRY_CHECK = timedelta(minutes=1)
# Turn records kept for diagnostics and benchmarks.
RECENT_TURNS = 100


@dataclass(slots=True)
class TurnRecord:
    """What one turn did, for diagnostics and benchmarks."""

    conversation_id: str
    layer: str
    local_ms: float
    recall_ms: float = 0.0
    fast_path_ms: float = 0.0
    asked_ha: bool = False
    acted_on: list[str] = field(default_factory=list)
    candidates: int = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: LayeredAssistConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add one agent per conversation subentry."""
    for subentry_id, agent in entry.runtime_data.agents.items():
        async_add_entities([LayeredAssistAgent(hass, entry, agent.subentry)], config_subentry_id=subentry_id)


class LayeredAssistAgent(conversation.ConversationEntity, AbstractConversationAgent):
    """A Layered Assist conversation agent."""

    _attr_has_entity_name = True
    _attr_name = None
    _attr_supports_streaming = True

    def __init__(
        self, hass: HomeAssistant, entry: LayeredAssistConfigEntry, subentry: ConfigSubentry
    ) -> None:
        """Set up the agent's layers from its subentry."""
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
        agent = runtime.agents[subentry.subentry_id]
        self.turns: deque[TurnRecord] = deque(maxlen=RECENT_TURNS)
        self.engine = SelectionEngine(
            hass,
            runtime.catalog,
            SelectionOptions(
                fast_path=bool(options.get(CONF_FAST_PATH, DEFAULT_FAST_PATH)),
                local_action=bool(options.get(CONF_LOCAL_ACTION, DEFAULT_LOCAL_ACTION)),
                top_k=int(options.get(CONF_TOP_K, DEFAULT_TOP_K)),
            ),
        )
        dialogs = agent.dialogs
        layers: list[Layer] = [
            dialogs,
            LaterLayer(hass, runtime.alarms, self.engine),
            LocalLayer(hass, self.engine, dialogs.risks, dialogs.hold_for),
        ]
        if self.engine.options.fast_path:
            layers.append(FastPathLayer(hass, runtime.catalog, local_action=self.engine.options.local_action))
        layers.append(_last_layer(hass, entry, agent, self.engine))
        self._layers = layers

    @property
    def last_turn(self) -> TurnRecord | None:
        """Return the record of the turn that finished last."""
        return self.turns[-1] if self.turns else None

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Return every language: the model and our layers handle zh and en."""
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        """Close idle dialogs regularly."""
        await super().async_added_to_hass()
        self.async_on_remove(async_track_time_interval(self.hass, self._async_expire_dialogs, EXPIRY_CHECK))

    @callback
    def _async_expire_dialogs(self, _now: datetime) -> None:
        """Close idle dialogs and pending confirmations."""
        dialogs = self.entry.runtime_data.agents[self.subentry.subentry_id].dialogs
        dialogs.states.expire_dialogs(dialogs.options.timeout)

    async def _async_handle_message(
        self, user_input: conversation.ConversationInput, chat_log: conversation.ChatLog
    ) -> conversation.ConversationResult:
        """Answer one message: the first layer that handles it ends the turn."""
        states = self.entry.runtime_data.states
        async with states.turn(chat_log.conversation_id) as state:
            area = speaking_area(self.hass, user_input)
            started = time.perf_counter()
            # The one reading of the sentence and its recall, before any layer.
            reading = self._read(user_input, state)
            recall = self.engine.recall(reading, state, area)
            turn = Turn(user_input, chat_log, self.entity_id, state, area, reading, recall)
            laps = {"recall": (time.perf_counter() - started) * 1000}
            passes: list[Passed] = []
            for layer in self._layers:
                lap_started = time.perf_counter()
                answer = await layer.async_handle(turn)
                laps[layer.name] = (time.perf_counter() - lap_started) * 1000
                if isinstance(answer, TurnOutcome):
                    outcome = answer
                    break
                if answer is not None:
                    passes.append(answer)
            else:  # pragma: no cover - the last layer always answers
                raise AssertionError("no layer answered")
            result = outcome.result
            if result is None:
                await async_say(chat_log, self.entity_id, outcome.speech)
                result = conversation.async_get_result_from_chat_log(user_input, chat_log)
            self._record(turn, outcome, result, laps, passes)
            return result

    def _read(self, user_input: conversation.ConversationInput, state: ConversationState) -> Reading:
        """Read the sentence; a place said alone after an unsettled request completes that request."""
        names = self.entry.runtime_data.catalog.names
        reading = read(user_input.text, user_input.language, names)
        if state.unsettled and reading.only_a_place:
            # "把電視關掉" (which TV?) … "客廳的": the request, with the place now said.
            joined = f"{state.unsettled}{', ' if user_input.text.isascii() else '，'}{user_input.text}"
            reading = read(joined, user_input.language, names)
        return reading

    def _record(
        self,
        turn: Turn,
        outcome: TurnOutcome,
        result: conversation.ConversationResult,
        laps: dict[str, float],
        passes: list[Passed],
    ) -> None:
        """Remember the turn in the conversation's state and in the agent's turn records."""
        LOGGER.debug("Answered by %s, acted on %s", outcome.layer, outcome.acted_on)
        devices = outcome.acted_on or outcome.subjects
        recall = turn.recall
        unsettled = (
            not devices and recall.mood is Mood.COMMAND and recall.is_device_command and not recall.confident
        )
        self.entry.runtime_data.states.record(
            turn.conversation_id,
            devices=devices,
            rooms=self.engine.rooms_of(devices),
            commands=outcome.commands or None,
            user_text=turn.text,
            reply=str(result.response.speech.get("plain", {}).get("speech", "")),
            unsettled=turn.reading.text if unsettled else None,
        )
        asked_ha = outcome.layer == "fast_path" or any(p.asked_ha for p in passes)
        self.turns.append(
            TurnRecord(
                turn.conversation_id,
                outcome.layer,
                # The local layers' time: the reading and every layer but the model's.
                sum(ms for name, ms in laps.items() if name != "model"),
                recall_ms=laps["recall"],
                fast_path_ms=laps.get("ha_matcher", 0.0) if asked_ha else 0.0,
                asked_ha=asked_ha,
                acted_on=list(outcome.acted_on),
                candidates=outcome.candidates,
            )
        )


def _last_layer(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry, agent: AgentRuntime, engine: SelectionEngine
) -> Layer:
    """Return the main model's layer, or the local-only answer when no endpoint is set."""
    client = entry.runtime_data.client
    if client is None:
        return LocalOnlyLayer(hass, engine)
    options = agent.options
    subentry_id = agent.subentry.subentry_id
    loop = ToolCallingLoop(hass, client, LoopOptions.from_subentry(options), subentry_id, find_direct_speech)
    return ModelLayer(
        hass, entry, agent, loop, _candidate_filter(hass, entry, options), hass.data[DATA_TOOLS]
    )


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
