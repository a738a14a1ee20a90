"""Offers each turn to the open dialogs first and holds risky commands until confirmed."""

from collections.abc import Mapping
import re
import time
from typing import Any

from homeassistant.components import conversation
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
from ..localize import async_text, is_chinese
from ..roles import async_end
from ..selection.capabilities import ALL_RISKS, CommandError, is_sensitive
from ..selection.catalog import DeviceCatalog
from ..selection.engine import LocalTurn
from ..selection.execute import ExecutionReport, PlannedCommand, async_execute, async_phrase, plan_command
from ..state import ConversationState, ConversationStateStore
from .climate import ClimateDialog, ClimateDialogEngine, ClimateOptions
from .values import prepare
from .words import is_cancel, is_confirm, is_refuse

FAREWELL = re.compile(
    r"^(?:好了[，,]?)?(?:再见|拜拜|退出|结束对话|不聊了|bye|goodbye|bye bye|see you|exit)[吧啦了。!！.]*$"
)
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


class DialogHub:
    """One agent's dialogs: the climate dialog and confirmation of risky commands."""

    def __init__(
        self,
        hass: HomeAssistant,
        catalog: DeviceCatalog,
        states: ConversationStateStore,
        options: Mapping[str, Any],
    ) -> None:
        """Bind to the agent's catalog, state store and options."""
        self.hass = hass
        self.states = states
        self.options = climate_options(options)
        self.risks = frozenset(options.get(CONF_RISKY, ALL_RISKS))
        self.climate = ClimateDialogEngine(hass, catalog, self.options)

    async def async_offer(
        self, conversation_id: str, state: ConversationState, user_input: conversation.ConversationInput
    ) -> LocalTurn | None:
        """Answer the turn when it belongs to an open dialog (or opens one); else None."""
        self.states.expire_dialogs(self.options.timeout)
        language = user_input.language
        text = prepare(user_input.text)
        if FAREWELL.match(text):
            return LocalTurn("farewell", await async_end(self.hass, conversation_id, language), [])
        if (pending := state.pending) is not None:
            if is_confirm(text):
                return await self._async_confirm_pending(conversation_id, pending, user_input)
            if is_refuse(text) or is_cancel(text):
                self.states.set_dialog(conversation_id, pending=None)
                names = self._names([c["entity_id"] for c in pending.get("commands", [])], language)
                return LocalTurn(
                    "confirmation",
                    await async_text(self.hass, language, "replies", "risky_cancelled", {"names": names}),
                    [],
                )
        dialog = ClimateDialog.from_dict(state.dialog) if state.dialog is not None else None
        reply = await self.climate.async_utterance(dialog, user_input.text, language, user_input.context)
        if reply is None:
            return None
        self.states.set_dialog(conversation_id, dialog=reply.dialog.as_dict() if reply.dialog else None)
        acted = [dialog.target] if reply.done and dialog is not None and dialog.target else []
        return LocalTurn("dialog", reply.speech, acted)

    def risky(self, planned: list[PlannedCommand]) -> list[PlannedCommand]:
        """Return the commands that need the user's confirmation."""
        return [
            c
            for c in planned
            if (state := self.hass.states.get(c.entity_id)) and is_sensitive(state, c.command, self.risks)
        ]

    async def async_hold(self, conversation_id: str, risky: list[PlannedCommand], language: str) -> str:
        """Keep risky commands for the next turn and return the question to ask."""
        self.states.set_dialog(
            conversation_id, pending={"commands": [c.as_record() for c in risky], "updated_at": time.time()}
        )
        verb_key = {"unlock": "risky_unlock", "open": "risky_unlock", "alarm_disarm": "risky_disarm"}.get(
            risky[0].command, "risky_open"
        )
        verb = await async_text(self.hass, language, "replies", verb_key)
        names = self._names([c.entity_id for c in risky], language)
        return await async_text(
            self.hass, language, "replies", "risky_ask", {"command": verb, "names": names}
        )

    async def async_run(
        self, conversation_id: str, planned: list[PlannedCommand], user_input: conversation.ConversationInput
    ) -> LocalTurn:
        """Run the safe commands now and ask about the risky ones."""
        risky = self.risky(planned)
        safe = [c for c in planned if c not in risky]
        parts = []
        report = ExecutionReport()
        if safe:
            report = await async_execute(self.hass, safe, user_input.context)
            parts.append(await async_phrase(self.hass, user_input.language, report))
        if risky:
            parts.append(await self.async_hold(conversation_id, risky, user_input.language))
        separator = "" if is_chinese(user_input.language) else " "
        return LocalTurn(
            "local_action",
            separator.join(parts),
            report.acted_on,
            [o.command.as_record() for o in report.outcomes if o.ok],
        )

    async def _async_confirm_pending(
        self, conversation_id: str, pending: dict[str, Any], user_input: conversation.ConversationInput
    ) -> LocalTurn:
        """Carry out the held commands after the user confirmed."""
        self.states.set_dialog(conversation_id, pending=None)
        planned = []
        for record in pending.get("commands", []):
            try:
                planned.append(
                    plan_command(self.hass, record["entity_id"], record["command"], record.get("params"))
                )
            except (CommandError, KeyError):
                continue
        report = await async_execute(self.hass, planned, user_input.context)
        speech = await async_phrase(self.hass, user_input.language, report)
        return LocalTurn(
            "confirmation", speech, report.acted_on, [o.command.as_record() for o in report.outcomes if o.ok]
        )

    def _names(self, entity_ids: list[str], language: str) -> str:
        names = []
        for entity_id in entity_ids:
            state = self.hass.states.get(entity_id)
            names.append(str(state.attributes.get("friendly_name", entity_id)) if state else entity_id)
        return ("、" if is_chinese(language) else ", ").join(names)
