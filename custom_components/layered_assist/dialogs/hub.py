"""The dialog layer: open dialogs get each turn first; risky commands wait for a yes."""

from collections.abc import Mapping
from functools import partial
import re
import time
from typing import Any

from homeassistant.core import HomeAssistant

from ..const import (
    CONF_DIALOG_TIMEOUT,
    CONF_MAX_HUMIDITY,
    CONF_MAX_TEMPERATURE,
    CONF_MIN_HUMIDITY,
    CONF_MIN_TEMPERATURE,
    CONF_PRESETS,
    CONF_RISKY,
    DEFAULT_DIALOG_TIMEOUT,
    DEFAULT_MAX_HUMIDITY,
    DEFAULT_MAX_TEMPERATURE,
    DEFAULT_MIN_HUMIDITY,
    DEFAULT_MIN_TEMPERATURE,
    DEFAULT_PRESETS,
)
from ..language.reading import Mood
from ..localize import async_reply, is_chinese
from ..selection.capabilities import ALL_RISKS, CommandError
from ..selection.carry_out import Hold, async_carry_out
from ..selection.catalog import DeviceCatalog
from ..selection.execute import PlannedCommand, plan_command, spoken_names
from ..state import ConversationStateStore
from ..turn import Turn, TurnOutcome
from .climate import ClimateDialog, ClimateDialogEngine, ClimateOptions

_PRESET = re.compile(r"\s*([^=;]+?)\s*=\s*(-?\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*")


def parse_presets(text: str) -> dict[str, tuple[float, float]]:
    """Read presets written as ``name=temperature/humidity; ...``."""
    presets = {}
    for part in text.split(";"):
        if match := _PRESET.fullmatch(part):
            presets[match.group(1)] = (float(match.group(2)), float(match.group(3)))
    return presets


def climate_options(options: Mapping[str, Any]) -> ClimateOptions:
    """Return the dialog settings of an agent's options."""
    return ClimateOptions(
        min_temperature=float(options.get(CONF_MIN_TEMPERATURE, DEFAULT_MIN_TEMPERATURE)),
        max_temperature=float(options.get(CONF_MAX_TEMPERATURE, DEFAULT_MAX_TEMPERATURE)),
        min_humidity=float(options.get(CONF_MIN_HUMIDITY, DEFAULT_MIN_HUMIDITY)),
        max_humidity=float(options.get(CONF_MAX_HUMIDITY, DEFAULT_MAX_HUMIDITY)),
        timeout=float(options.get(CONF_DIALOG_TIMEOUT, DEFAULT_DIALOG_TIMEOUT)),
        presets=parse_presets(str(options.get(CONF_PRESETS, DEFAULT_PRESETS))),
    )


async def async_farewell(
    hass: HomeAssistant, states: ConversationStateStore, conversation_id: str | None, language: str
) -> str:
    """Forget a conversation's state and return the farewell (no question: the mic stays closed)."""
    if conversation_id is not None:
        states.forget(conversation_id)
    return await async_reply(hass, language, "goodbye")


class DialogHub:
    """One agent's dialogs: the climate dialog and confirmation of risky commands."""

    name = "dialogs"

    def __init__(
        self,
        hass: HomeAssistant,
        catalog: DeviceCatalog,
        states: ConversationStateStore,
        options: Mapping[str, Any],
    ) -> None:
        """Bind to the entry's catalog and state store, with the agent's options."""
        self.hass = hass
        self.states = states
        self.options = climate_options(options)
        self.risks = frozenset(options.get(CONF_RISKY, ALL_RISKS))
        self.climate = ClimateDialogEngine(hass, catalog, self.options)

    async def async_handle(self, turn: Turn) -> TurnOutcome | None:
        """Answer the turn when it belongs to an open dialog (or opens one); else None."""
        conversation_id = turn.conversation_id
        # Expiry clears the stored state in place: the turn's state sees it. (Other conversations'
        # are the timer's to sweep.)
        self.states.expire_dialogs(self.options.timeout, conversation_id)
        state = turn.state
        language = turn.language
        answers = turn.reading.answers
        if "farewell" in answers:
            return TurnOutcome(
                "farewell", await async_farewell(self.hass, self.states, conversation_id, language)
            )
        if (pending := state.pending) is not None:
            if "confirm" in answers:
                return await self._async_confirm_pending(turn, pending)
            if answers & {"refuse", "cancel"}:
                self.states.set_dialog(conversation_id, pending=None)
                if turn.recall.is_device_command and turn.recall.mood is Mood.COMMAND:
                    # "算了，那幫我把玄關燈打開": the held command is dropped; the new request is the
                    # other layers' to carry out (a risky one is held again).
                    return None
                names = spoken_names(
                    self.hass, [c["entity_id"] for c in pending.get("commands", [])], is_chinese(language)
                )
                speech = await async_reply(self.hass, language, "risky_cancelled", {"names": names})
                return TurnOutcome("confirmation", speech)
        dialog = ClimateDialog.from_dict(state.dialog) if state.dialog is not None else None
        reply = await self.climate.async_utterance(dialog, turn.recall, language, turn.user_input.context)
        if reply is None:
            return None
        self.states.set_dialog(conversation_id, dialog=reply.dialog.as_dict() if reply.dialog else None)
        acted = [dialog.target] if reply.done and dialog is not None and dialog.target else []
        return TurnOutcome("dialog", reply.speech, acted)

    def hold_for(self, conversation_id: str) -> Hold:
        """Return what keeps a conversation's risky commands for its next turn."""
        return partial(self._async_hold, conversation_id)

    async def _async_hold(self, conversation_id: str, risky: list[PlannedCommand], language: str) -> str:
        """Keep risky commands for the next turn and return the question to ask."""
        self.states.set_dialog(
            conversation_id, pending={"commands": [c.as_record() for c in risky], "updated_at": time.time()}
        )
        verb_key = {"unlock": "risky_unlock", "open": "risky_unlock", "alarm_disarm": "risky_disarm"}.get(
            risky[0].command, "risky_open"
        )
        verb = await async_reply(self.hass, language, verb_key)
        names = spoken_names(self.hass, [c.entity_id for c in risky], is_chinese(language))
        return await async_reply(self.hass, language, "risky_ask", {"command": verb, "names": names})

    async def _async_confirm_pending(self, turn: Turn, pending: dict[str, Any]) -> TurnOutcome:
        """Carry out the held commands after the user confirmed."""
        self.states.set_dialog(turn.conversation_id, pending=None)
        planned = []
        for record in pending.get("commands", []):
            try:
                planned.append(
                    plan_command(self.hass, record["entity_id"], record["command"], record.get("params"))
                )
            except (CommandError, KeyError):
                continue
        # Confirmed: nothing is risky any more.
        done = await async_carry_out(
            self.hass, planned, turn.user_input.context, turn.language, risks=frozenset()
        )
        return TurnOutcome("confirmation", done.speech, done.acted_on, done.commands)
