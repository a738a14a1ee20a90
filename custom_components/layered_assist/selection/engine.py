"""Recall and local action of one agent: candidates, sure targets, commands, local answers."""

from dataclasses import dataclass
import re

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er

from ..const import LOGGER
from ..localize import async_text, is_chinese
from ..state import ConversationState
from ..turn import Turn, TurnOutcome
from .actions import Action, ActionKind, action_words, parse_action
from .capabilities import CommandError
from .catalog import CatalogEntry, DeviceCatalog
from .describe import async_describe
from .execute import PlannedCommand, plan_command, spoken_names
from .local_commands import command_for_action
from .recall import Recall, RecallContext, Recaller, Segment
from .understanding import QUESTION_WORDS, Mood, leftover

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


@dataclass(frozen=True, slots=True)
class SelectionOptions:
    """Switches of the local layers."""

    fast_path: bool = True
    local_action: bool = True
    top_k: int = 10


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
    """Layer 1 and local action for one agent: recall, plans and answers, no I/O but speech."""

    def __init__(self, hass: HomeAssistant, catalog: DeviceCatalog, options: SelectionOptions) -> None:
        """Bind to a catalog."""
        self.hass = hass
        self.catalog = catalog
        self.options = options
        self.recaller = Recaller(catalog, options.top_k)

    def recall_turn(self, turn: Turn) -> Recall:
        """Return the turn's recall, reading the sentence on first use."""
        if turn.recall is None:
            turn.recall = self.recall(turn.text, turn.state, turn.area)
            turn.lap("recall")
        return turn.recall

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

    async def async_answer(self, recall: Recall, language: str) -> TurnOutcome | None:
        """Answer a question about sure devices from their states, or acknowledge a "don't"."""
        mood = recall.mood
        if not recall.confident:
            return None
        subjects = recall.targets
        if mood is Mood.COMMAND:
            return await self._async_unsupported(recall, language)
        if mood is Mood.NEGATION:
            names = spoken_names(self.hass, subjects, is_chinese(language))
            speech = await async_text(self.hass, language, "replies", "negation_ack", {"names": names})
        elif (
            mood is Mood.QUESTION
            and all(self._asks_state(segment) for segment in recall.segments)
            and (described := await async_describe(self.hass, language, subjects))
        ):
            speech = described
        else:
            return None
        return TurnOutcome("local_answer", speech, subjects=subjects)

    async def _async_unsupported(self, recall: Recall, language: str) -> TurnOutcome | None:
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
        return TurnOutcome("local_answer", speech, subjects=segment.targets)

    def plan(
        self, recall: Recall, state: ConversationState, area: str | None = None
    ) -> list[PlannedCommand] | None:
        """Return the commands the local rules are sure of, or None (the model decides)."""
        if not self.options.local_action or recall.mood is not Mood.COMMAND:
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
        targets = self._targets(segment)
        words = action_words(segment.text)
        text = segment.text
        if action is not None and action.option and _in_names(words, targets):
            # "打开睡眠模式" (a scene), "turn on the blue lamp": the choice is the target's name.
            text = _without_names(text, targets)
            action = parse_action(text)
            if action is None:
                return None, ""
            words = action_words(text)
        kind = action.kind if action is not None else None
        return action, self._leftover(text, words, segment, targets, kind)

    def _asks_state(self, segment: Segment) -> bool:
        """Tell whether a question is only about its devices' state ("what time is it" is not)."""
        asked = [match.group(0) for match in QUESTION_WORDS.finditer(segment.text)]
        return not self._leftover(segment.text, asked, segment, self._targets(segment))

    def _targets(self, segment: Segment) -> list[CatalogEntry]:
        """Return the catalog entries of a segment's sure targets."""
        return [entry for t in segment.targets if (entry := self.catalog.entry(t))]

    def _leftover(
        self,
        text: str,
        words: list[str],
        segment: Segment,
        targets: list[CatalogEntry],
        kind: ActionKind | None = None,
    ) -> str:
        """Return what the text says beyond the given words, the targets and their places."""
        places = [name.text for e in targets for p in self.catalog.places_of(e) for name in p.names]
        return leftover(text, [*words, *segment.place_words, *places], targets, kind)

    async def async_why_not(self, recall: Recall, language: str) -> str | None:
        """Say why a sentence the local layers did not carry out needs the model (local-only mode)."""
        mood = recall.mood
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
