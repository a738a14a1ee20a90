"""Layer 0: HA's own sentence matching, for what it fully understands and we need not do."""

from hassil.recognize import RecognizeResult

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from ..const import LOGGER
from ..language.concepts import GENERIC, LIGHTS
from ..language.reading import Clause, Mood
from ..language.tokens import normalize
from ..turn import Passed, Turn, TurnOutcome
from .catalog import DeviceCatalog
from .recall import Recall, switches_a_light

# HA's pipeline leaves these to LLM agents too: its local matching of them is loose.
_LEFT_TO_THE_MODEL = {intent.INTENT_GET_STATE, "HassMediaSearchAndPlay"}
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


def _leave_to_us(result: RecognizeResult, recall: Recall, area: str | None, catalog: DeviceCatalog) -> bool:
    """Tell whether HA's match should be left to our layers instead of being run.

    HA reads "关窗帘" with no room and no speaker's room as every curtain in the
    home; we only act on a whole home when the user says so (所有, all).
    """
    if result.intent.name in _LEFT_TO_THE_MODEL or _opens_up(result, catalog):
        return True
    slots = result.entities
    if recall.mood is not Mood.COMMAND and _DEVICE_SLOTS & set(slots):
        # "客厅灯开着吗", "don't turn on the lamp", "in ten minutes": HA would act now.
        return True
    if "conversation_command" in slots:
        # A timer that runs a command later: ours are stored, validated and never unlock.
        return True
    if "name" in slots and slots["name"].value != "all":
        # (HA's sentences say name "all" for "客厅风扇": every fan of the room, not one named.)
        return False
    if "area" in slots or "floor" in slots:
        # "set bedroom to 50%": HA would act on every kind of device in the room; "打开客厅风扇"
        # on every fan there, where the user may mean one. Only a group said is a group.
        if "domain" not in slots and "device_class" not in slots:
            return True
        # HA acts on every device of the domain there: only when what we read is a kind that
        # takes them all in ("the light in the kitchen"), or a group was said.
        grouped = any(s.strong_group or s.weak_group for s in recall.segments)
        generic = all(kind in GENERIC for s in recall.segments for kind in s.clause.kinds)
        return not (grouped or generic)
    if "domain" not in slots and "device_class" not in slots:
        # Not aimed at devices: the time, a moon phase, a memo, an alarm.
        return False
    return area is None and not any(s.strong_group for s in recall.segments)


def _names_a_device(clause: Clause) -> bool:
    """Tell whether a clause names a device other than a weather forecast."""
    return any(not m.owner.startswith("weather.") for m in clause.entity_names)


class FastPathLayer:
    """Hands a sentence to HA's intent matching when it could match, and keeps what it did."""

    name = "ha_matcher"

    def __init__(self, hass: HomeAssistant, catalog: DeviceCatalog, *, local_action: bool = True) -> None:
        """Bind to the entry's catalog; with local action off, HA's matcher is the only local reader."""
        self.hass = hass
        self.catalog = catalog
        self.local_action = local_action

    async def async_handle(self, turn: Turn) -> TurnOutcome | Passed | None:
        """Run HA's matching on the turn; passed when it did not match or failed, None if not asked."""
        if not self._worth_asking_ha(turn.recall, turn.area):
            return None
        # HA's matcher writes its attempt into the log it is given; a sentence it matched but
        # could not handle must leave nothing in ours, so it writes into a copy, and only a
        # handled turn's entries join the conversation. The copy keeps the conversation's id:
        # HA remembers the devices of a turn by it, and its viewers were told of each entry.
        chat_log = turn.chat_log
        attempt = conversation.ChatLog(self.hass, chat_log.conversation_id, list(chat_log.content))
        outcome = await self._async_ask_ha(turn, attempt)
        if outcome is None:
            return Passed(asked_ha=True)
        chat_log.content.extend(attempt.content[len(chat_log.content) :])
        return outcome

    async def _async_ask_ha(self, turn: Turn, chat_log: conversation.ChatLog) -> TurnOutcome | None:
        user_input, recall = turn.user_input, turn.recall
        area = turn.area
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
                intent_filter=lambda result: _leave_to_us(result, recall, area, self.catalog),
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
        return TurnOutcome("fast_path", speech, acted)

    def _lit_by_a_switch(self, clause: Clause) -> bool:
        """Tell whether a place said has a wall switch named as a light (生活阳台灯 on an Aqara H1).

        HA's "the lights there" are its light entities only: the airer's light, not the room's.
        """
        if not any(kind in LIGHTS for kind in clause.kinds):
            return False
        there = self.catalog.in_areas(clause.areas) if clause.areas else self.catalog.on_floors(clause.floors)
        return any(switches_a_light(e) for e in there)

    def _worth_asking_ha(self, recall: Recall, area: str | None) -> bool:
        """Tell whether HA's strict matcher could match; its cost grows with the home."""
        # "what time is it" has a pronoun too, but nothing to act on.
        if recall.again or any(
            (s.pronoun or (s.reason in ("reference", "same-as-before") and not s.clause.unexplained))
            and s.actions
            for s in recall.segments
        ):
            # HA keeps no conversation state: 它, "make that 22" and 再来一次 are ours.
            return False
        clauses = recall.reading.clauses
        # Said of devices: a name, a kind, a place or "it" ("三加四等于多少" is not).
        # A weather entity's name (天气) is not: the weather intents read it.
        about_devices = self.local_action and any(
            _names_a_device(c) or c.kinds or c.areas or c.floors or c.references for c in clauses
        )
        if about_devices and recall.mood is not Mood.COMMAND:
            # A question, "don't", later, a condition or the past about devices: HA would only act
            # on it now (which it may not), so asking it costs time for nothing.
            return False
        room_wide = any(
            (c.areas or c.floors)
            and c.actions
            and c.kinds
            and all(k in GENERIC for k in c.kinds)
            and not self._lit_by_a_switch(c)
            for c in clauses
        )
        if about_devices and not room_wide and not any(c.unexplained for c in clauses):
            # We read every word and still did not act (unsure which device, or it cannot): HA's
            # matcher would act on every device that fits, which is what we did not do. Only "the
            # light in the kitchen" is HA's to read as every light there.
            return False
        if any(m.full for c in clauses for m in c.entity_names):
            return True
        acts = any(s.actions for s in recall.segments)
        if any(s.domains for s in recall.segments):
            # HA's sentences always have a verb and, without a device name, a kind of device
            # in a named place ("客厅的灯") or the speaker's room ("开灯").
            return acts and (area is not None or any(c.areas or c.floors for c in clauses))
        # Not about devices: timers, lists, greetings are HA's.
        return True
