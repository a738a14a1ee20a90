"""Device commands for later ("十分钟后关掉客厅主灯", "at 8 pm"): validated now, run when due.

They are stored as alarms that carry commands, so they survive a restart and run
once, late, if HA was down when they fell due; they are listed with the alarms and
"取消刚才的定时" / "cancel that timer" drops the last one.
"""

from datetime import datetime, timedelta

from homeassistant.core import Context, HomeAssistant
from homeassistant.util import dt as dt_util

from ..alarms import Alarm, AlarmManager
from ..const import LOGGER
from ..language.reading import Mood
from ..language.times import AlarmTimeError, parse_alarm_time
from ..localize import async_reply
from ..turn import Turn, TurnOutcome
from .capabilities import CommandError, is_sensitive
from .carry_out import async_carry_out
from .engine import SelectionEngine
from .execute import plan_command


class LaterLayer:
    """Schedules device commands said for later, and cancels the last one."""

    name = "later"

    def __init__(self, hass: HomeAssistant, alarms: AlarmManager, engine: SelectionEngine) -> None:
        """Bind to the entry's alarms and the agent's engine."""
        self.hass = hass
        self.alarms = alarms
        self.engine = engine

    async def async_handle(self, turn: Turn) -> TurnOutcome | None:
        """Schedule or cancel; None when the sentence is not a request for later."""
        hass, language = self.hass, turn.language
        recall = turn.recall
        if "cancel_schedule" in turn.reading.answers:
            # "取消刚才的定时", "cancel that timer".
            return await _async_cancel(hass, self.alarms, language)
        if recall.mood is not Mood.LATER:
            return None
        now = dt_util.now()
        try:
            due = parse_alarm_time(turn.text, now).due
        except AlarmTimeError:
            return None
        command_text = turn.reading.words
        planned = self.engine.plan(recall, turn.state, turn.area, later=True) if not recall.again else None
        if not planned or due <= now or any(_sensitive(hass, p.entity_id, p.command) for p in planned):
            # Unsure, already past, or a command that needs the user's consent when it runs.
            return None
        context = turn.user_input.context
        self.alarms.add(
            due,
            command_text,
            None,
            commands=[p.as_record() for p in planned],
            user_id=context.user_id if context else None,
        )
        placeholders = {"when": await _async_when(hass, due, now, language), "command": command_text}
        speech = await async_reply(hass, language, "scheduled", placeholders)
        return TurnOutcome("later", speech, subjects=[p.entity_id for p in planned])


async def _async_cancel(hass: HomeAssistant, alarms: AlarmManager, language: str) -> TurnOutcome:
    """Drop the scheduled command added last."""
    if not (scheduled := alarms.scheduled()):
        return TurnOutcome("later", await async_reply(hass, language, "scheduled_none"))
    last = scheduled[-1]
    alarms.delete(last.id)
    speech = await async_reply(hass, language, "scheduled_cancelled", {"command": last.message})
    return TurnOutcome("later", speech)


def _sensitive(hass: HomeAssistant, entity_id: str, command: str) -> bool:
    """Tell whether a command opens the home up (never run unattended later)."""
    state = hass.states.get(entity_id)
    return state is None or is_sensitive(state, command)


async def _async_when(hass: HomeAssistant, due: datetime, now: datetime, language: str) -> str:
    """Say when: "10分钟后" / "in 10 minutes" within the hour, else the clock time."""
    minutes = round((due - now).total_seconds() / 60)
    local, today = dt_util.as_local(due), dt_util.as_local(now).date()
    values = {"minutes": str(minutes), "clock": local.strftime("%H:%M"), "date": local.strftime("%m-%d")}
    if minutes < 60:
        key = "when_minutes"
    elif local.date() == today:
        key = "when_today"
    elif local.date() == today + timedelta(days=1):
        key = "when_tomorrow"
    else:
        key = "when_date"
    return await async_reply(hass, language, key, values)


async def async_run_scheduled(hass: HomeAssistant, alarm: Alarm) -> None:
    """Carry out a scheduled command, validated again against the device as it is now."""
    planned = []
    for record in alarm.commands:
        try:
            planned.append(
                plan_command(hass, str(record["entity_id"]), str(record["command"]), record.get("params"))
            )
        except (CommandError, KeyError) as err:
            LOGGER.warning("Scheduled command %s skipped: %s", record, err)
    if planned:
        # As any other command: for the user who asked, and a risky one is never run unattended.
        await async_carry_out(hass, planned, Context(user_id=alarm.user_id), hass.config.language)
