"""The local layers of a turn: HA's own fast path, recall, and local action."""

from dataclasses import dataclass, field
import re
from typing import Any

from hassil.recognize import RecognizeResult

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import device_registry as dr, entity_registry as er, intent

from ..const import LOGGER
from ..localize import async_text, is_chinese
from ..state import ConversationState
from .actions import Action, ActionKind, action_words, parse_action
from .capabilities import CommandError
from .catalog import CatalogEntry, DeviceCatalog
from .describe import async_describe
from .execute import ExecutionReport, PlannedCommand, async_execute, async_phrase, plan_command, spoken_names
from .local_commands import command_for_action
from .recall import Recall, RecallContext, Recaller, Segment
from .text import normalize
from .understanding import Mood, leftover, sentence_mood
from .vocabulary import STRONG_GROUP, domain_hints

# HA's pipeline leaves these to LLM agents too: its local matching of them is loose.
_LEFT_TO_THE_MODEL = {intent.INTENT_GET_STATE, "HassMediaSearchAndPlay"}
# Actions whose value a device may not offer; a sure request for one gets a clear answer.
_MODIFIERS = {
    ActionKind.SET_COLOR,
    ActionKind.SET_COLOR_TEMP,
    ActionKind.SET_HVAC_MODE,
    ActionKind.SET_FAN_MODE,
    ActionKind.SET_PRESET,
    ActionKind.SET_MAX,
    ActionKind.SET_MIN,
    ActionKind.SET_POSITION,
}
# Verbs that, said alone, are for whatever is playing.
_MEDIA_VERBS = {
    ActionKind.PAUSE,
    ActionKind.PLAY,
    ActionKind.NEXT,
    ActionKind.PREVIOUS,
    ActionKind.ADJUST_VOLUME,
}
# The spaces leftover() puts between Chinese characters.
_CJK_GAP = re.compile(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])")
# Slots of HA's intents that aim them at devices.
_DEVICE_SLOTS = {"name", "area", "floor", "domain", "device_class"}
# HA's sentence files use these language codes for Chinese.
_INTENT_LANGUAGES = {
    "zh-hans": "zh-cn",
    "zh-cn": "zh-cn",
    "zh": "zh-cn",
    "zh-hant": "zh-tw",
    "zh-tw": "zh-tw",
    "zh-hk": "zh-hk",
}


@dataclass(frozen=True, slots=True)
class SelectionOptions:
    """Switches of the local layers."""

    fast_path: bool = True
    local_action: bool = True
    top_k: int = 10


@dataclass(slots=True)
class LocalTurn:
    """A turn the local layers answered with no model."""

    layer: str
    speech: str
    acted_on: list[str]
    commands: list[dict[str, Any]] = field(default_factory=list)
    response: intent.IntentResponse | None = None
    # Devices the turn was about without acting on them (a question): 它 refers to them next.
    subjects: list[str] = field(default_factory=list)


def _opens_up(result: RecognizeResult, catalog: DeviceCatalog) -> bool:
    """Tell whether HA's match would unlock a lock or open a garage door (ours needs consent)."""
    slot = result.entities.get("name")
    if slot is None or not isinstance(slot.value, str):
        return False
    name = normalize(slot.value)
    for entry in catalog.entries.values():
        if name not in (n.text for n in entry.names):
            continue
        if entry.domain == "lock" and result.intent.name in ("HassTurnOff", "HassLockUnlock"):
            return True
        if entry.device_class in ("garage", "gate", "door") and result.intent.name in (
            "HassTurnOn",
            "HassOpenCover",
        ):
            return True
    return False


def _leave_to_us(result: RecognizeResult, text: str, area: str | None, catalog: DeviceCatalog) -> bool:
    """Tell whether HA's match should be left to our layers instead of being run.

    HA reads "关窗帘" with no room and no speaker's room as every curtain in the
    home; we only act on a whole home when the user says so (所有, all).
    """
    if result.intent.name in _LEFT_TO_THE_MODEL or _opens_up(result, catalog):
        return True
    slots = result.entities
    if sentence_mood(normalize(text)) is not Mood.COMMAND and _DEVICE_SLOTS & set(slots):
        # "客厅灯开着吗", "don't turn on the lamp", "in ten minutes": HA would act now.
        return True
    if "conversation_command" in slots:
        # A timer that runs a command later: ours are stored, validated and never unlock.
        return True
    if "name" in slots:
        return False
    if "area" in slots or "floor" in slots:
        # "set bedroom to 50%": HA would act on every kind of device in the room.
        return "domain" not in slots and "device_class" not in slots
    if "domain" not in slots and "device_class" not in slots:
        # Not aimed at devices: the time, a moon phase, a memo, an alarm.
        return False
    return area is None and not STRONG_GROUP.search(normalize(text))


def _in_names(words: list[str], targets: list[CatalogEntry]) -> bool:
    """Tell whether any of the words is part of a target's name, or holds one ("打开睡眠模式")."""
    return any(
        word in name.text or name.text in word
        for word in (w.strip() for w in words)
        if word
        for e in targets
        for name in e.names
    )


def _without_names(text: str, targets: list[CatalogEntry]) -> str:
    """Return the text with the targets' names blanked, longest first."""
    for name in sorted({n.text for e in targets for n in e.names}, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def speaking_area(hass: HomeAssistant, user_input: conversation.ConversationInput) -> str | None:
    """Return the area of the device the user speaks through."""
    device_id = user_input.device_id
    satellite_id = getattr(user_input, "satellite_id", None)
    if device_id is None and satellite_id:
        registry_entry = er.async_get(hass).async_get(satellite_id)
        if registry_entry is not None:
            if registry_entry.area_id:
                return registry_entry.area_id
            device_id = registry_entry.device_id
    if device_id and (device := dr.async_get(hass).async_get(device_id)):
        return device.area_id
    return None


class SelectionEngine:
    """Runs Layer 0, Layer 1 and local action for one agent."""

    def __init__(self, hass: HomeAssistant, catalog: DeviceCatalog, options: SelectionOptions) -> None:
        """Bind to a catalog."""
        self.hass = hass
        self.catalog = catalog
        self.options = options
        self.recaller = Recaller(catalog, options.top_k)
        # Whether the last turn consulted HA's matcher (for timings).
        self.asked_ha = False

    async def async_fast_path(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
        area: str | None,
        recall: Recall,
    ) -> LocalTurn | None:
        """Layer 0: let HA's own sentence matching handle what it fully understands."""
        self.asked_ha = self.options.fast_path and self._worth_asking_ha(recall, area)
        if not self.asked_ha:
            return None
        language = _INTENT_LANGUAGES.get((user_input.language or "").lower(), user_input.language)
        local_input = conversation.ConversationInput(
            text=user_input.text,
            context=user_input.context,
            conversation_id=user_input.conversation_id,
            device_id=user_input.device_id,
            satellite_id=getattr(user_input, "satellite_id", None),
            language=language,
            agent_id=user_input.agent_id,
            extra_system_prompt=user_input.extra_system_prompt,
        )
        try:
            response = await conversation.async_handle_intents(
                self.hass,
                local_input,
                chat_log,
                intent_filter=lambda result: _leave_to_us(result, user_input.text, area, self.catalog),
            )
        except HomeAssistantError as err:
            # e.g. a matched intent whose integration is not loaded.
            LOGGER.debug("HA's local matching failed: %s", err)
            return None
        if response is None or response.response_type is intent.IntentResponseType.ERROR:
            return None
        acted = [
            target.id
            for target in response.success_results
            if target.type is intent.IntentResponseTargetType.ENTITY
            and target.id is not None
            and self.catalog.entry(target.id)
        ]
        speech = response.speech.get("plain", {}).get("speech", "")
        return LocalTurn("fast_path", speech, acted, response=response)

    def _worth_asking_ha(self, recall: Recall, area: str | None) -> bool:
        """Tell whether HA's strict matcher could match; its cost grows with the home."""
        # "what time is it" has a pronoun too, but nothing to act on.
        if recall.again or any(
            (s.pronoun and s.action is not None) or s.reason == "reference" for s in recall.segments
        ):
            # HA keeps no conversation state: 它, "make that 22" and 再来一次 are ours.
            return False
        if self.catalog.names_in(recall.text, places=False):
            return True
        acts = any(s.action is not None for s in recall.segments)
        if domain_hints(recall.text):
            # HA's sentences always have a verb and, without a device name, a kind of device
            # in a named place ("客厅的灯") or the speaker's room ("开灯").
            return acts and (area is not None or self.catalog.names_in(recall.text))
        # Not about devices: timers, lists, greetings are HA's.
        return True

    def rooms_of(self, entity_ids: list[str]) -> list[str]:
        """Return the areas of the given entities, in order."""
        rooms = [entry.area_id for e in entity_ids if (entry := self.catalog.entry(e)) and entry.area_id]
        return list(dict.fromkeys(rooms))

    def recall(self, text: str, state: ConversationState, context_area: str | None) -> Recall:
        """Layer 1: candidates and, when sure, targets."""
        last_targets = tuple(dict.fromkeys(str(c.get("entity_id")) for c in state.last_commands))
        return self.recaller.recall(
            text,
            RecallContext(context_area, tuple(state.recent_devices), tuple(state.recent_rooms), last_targets),
        )

    async def async_answer(self, recall: Recall, language: str) -> LocalTurn | None:
        """Answer a question about sure devices from their states, or acknowledge a "don't"."""
        mood = sentence_mood(recall.text)
        if not recall.confident:
            return None
        subjects = recall.targets
        if mood is Mood.COMMAND:
            return await self._async_unsupported(recall, language)
        if mood is Mood.NEGATION:
            names = spoken_names(self.hass, subjects, is_chinese(language))
            speech = await async_text(self.hass, language, "replies", "negation_ack", {"names": names})
        elif mood is Mood.QUESTION and (described := await async_describe(self.hass, language, subjects)):
            speech = described
        else:
            return None
        return LocalTurn("local_answer", speech, [], subjects=subjects)

    async def _async_unsupported(self, recall: Recall, language: str) -> LocalTurn | None:
        """Say which named device cannot take the mode, colour or extreme asked for."""
        if not self.options.local_action or len(recall.commands) != 1:
            return None
        segment = recall.commands[0]
        if segment.action is None or segment.action.kind not in _MODIFIERS:
            return None
        action = self._understood(segment)
        if action is None or action.kind not in _MODIFIERS:
            return None
        unable = []
        for entity_id in segment.targets:
            try:
                if self._command(entity_id, action) is None:
                    unable.append(entity_id)
            except CommandError:
                unable.append(entity_id)
        if not unable:
            return None
        capability = await async_text(self.hass, language, "replies", f"capability_{action.kind.value}")
        names = spoken_names(self.hass, unable, is_chinese(language))
        speech = await async_text(
            self.hass, language, "replies", "unsupported", {"names": names, "capability": capability}
        )
        return LocalTurn("local_answer", speech, [], subjects=segment.targets)

    def plan(
        self, recall: Recall, state: ConversationState, area: str | None = None
    ) -> list[PlannedCommand] | None:
        """Return the commands the local rules are sure of, or None (the model decides)."""
        if not self.options.local_action or sentence_mood(recall.text) is not Mood.COMMAND:
            return None
        try:
            if recall.again:
                return self._replay(state)
            if not recall.confident or any(s.action is None for s in recall.commands):
                if (player := self._playing_player(recall, area)) is None:
                    return None
                segment = recall.segments[0]
                assert segment.action is not None
                command = self._command(player, segment.action)
                return [command] if command is not None else None
            planned: list[PlannedCommand] = []
            for segment in recall.commands:
                if (action := self._understood(segment)) is None:
                    return None
                for entity_id in segment.targets:
                    if (command := self._command(entity_id, action)) is None:
                        return None
                    planned.append(command)
        except CommandError as err:
            LOGGER.debug("Local plan rejected: %s", err)
            return None
        return planned or None

    def _understood(self, segment: Segment) -> Action | None:
        """Return the segment's action when every word of it is explained (the one rule for acting)."""
        action, rest = self._reading(segment)
        if action is None or rest:
            LOGGER.debug("Not acting locally on %r: %r is not understood", segment.text, rest)
            return None
        return action

    def _reading(self, segment: Segment) -> tuple[Action | None, str]:
        """Return the action of a command segment and the words nothing explains."""
        action = segment.action
        targets = [entry for t in segment.targets if (entry := self.catalog.entry(t))]
        words = action_words(segment.text)
        text = segment.text
        if action is not None and action.option and _in_names(words, targets):
            # "打开睡眠模式" (a scene), "turn on the blue lamp": the choice is the target's name.
            text = _without_names(text, targets)
            action = parse_action(text)
            if action is None:
                return None, ""
            words = action_words(text)
        places = [name.text for e in targets for p in self.catalog.places_of(e) for name in p.names]
        kind = action.kind if action is not None else None
        return action, leftover(text, [*words, *segment.place_words, *places], targets, kind)

    async def async_why_not(self, recall: Recall, language: str) -> str | None:
        """Say why a sentence the local layers did not carry out needs the model (local-only mode)."""
        mood = sentence_mood(recall.text)
        if mood is Mood.CONDITION or mood is Mood.PAST:
            return await async_text(self.hass, language, "replies", f"local_only_{mood.value}")
        if not recall.is_device_command:
            return None
        if not recall.confident:
            return await async_text(self.hass, language, "replies", "local_only_which")
        for segment in recall.commands:
            if rest := self._reading(segment)[1]:
                words = {"words": _CJK_GAP.sub("", rest)}
                return await async_text(self.hass, language, "replies", "local_only_unclear", words)
        return None

    def _playing_player(self, recall: Recall, area: str | None) -> str | None:
        """Return the media player a bare media verb is for (暂停, 下一首, louder).

        Only when the sentence names nothing and is only that verb: the one player that
        is playing (paused, to resume), preferring the speaker's room.
        """
        if len(recall.segments) != 1:
            return None
        segment = recall.segments[0]
        action = segment.action
        if action is None or action.kind not in _MEDIA_VERBS or segment.areas or segment.floors:
            return None
        if segment.targets or segment.pronoun or segment.strong_group or segment.weak_group:
            # "把它音量调小", "所有音箱都暂停": the sentence says which.
            return None
        if segment.domains - {"media_player"} or leftover(segment.text, action_words(segment.text), []):
            return None
        wanted = "paused" if action.kind is ActionKind.PLAY else "playing"
        players = [
            entry
            for entry in self.catalog.entries.values()
            if entry.domain == "media_player"
            and (state := self.hass.states.get(entry.entity_id)) is not None
            and state.state == wanted
        ]
        in_room = [entry for entry in players if entry.area_id == area]
        chosen = in_room if area is not None and in_room else players
        return chosen[0].entity_id if len(chosen) == 1 else None

    def _command(self, entity_id: str, action: Action) -> PlannedCommand | None:
        """Plan one entity's command for an action."""
        state = self.hass.states.get(entity_id)
        if state is None or self.catalog.entry(entity_id) is None:
            return None
        mapped = command_for_action(self.hass, state, action)
        if mapped is None:
            return None
        record = {
            "kind": action.kind.value,
            "value": action.value,
            "fahrenheit": action.fahrenheit,
            "option": action.option,
        }
        return plan_command(self.hass, entity_id, mapped[0], mapped[1], record)

    def _replay(self, state: ConversationState) -> list[PlannedCommand] | None:
        """Plan the last commands again ("再来一次"), re-reading relative actions."""
        planned = []
        for record in state.last_commands:
            entity_id = str(record.get("entity_id"))
            action = record.get("action")
            if isinstance(action, dict) and action.get("kind") in ActionKind.__members__.values():
                value = action.get("value")
                command = self._command(
                    entity_id,
                    Action(
                        ActionKind(action["kind"]),
                        float(value) if value is not None else None,
                        bool(action.get("fahrenheit")),
                        str(action["option"]) if action.get("option") else None,
                    ),
                )
            elif self.catalog.entry(entity_id) is not None:
                command = plan_command(self.hass, entity_id, str(record.get("command")), record.get("params"))
            else:
                command = None
            if command is None:
                return None
            planned.append(command)
        return planned or None

    async def async_run(
        self, planned: list[PlannedCommand], user_input: conversation.ConversationInput
    ) -> LocalTurn:
        """Execute a local plan and phrase the outcome."""
        report: ExecutionReport = await async_execute(self.hass, planned, user_input.context)
        speech = await async_phrase(self.hass, user_input.language, report)
        return LocalTurn(
            "local_action",
            speech,
            report.acted_on,
            [o.command.as_record() for o in report.outcomes if o.ok],
        )
