"""Alarm tools: set, list and delete."""

import voluptuous as vol

from homeassistant.util import dt as dt_util

from ..alarms import Alarm, AlarmManager
from ..language.times import AlarmTimeError, parse_alarm_time
from ..localize import async_reply, is_chinese
from .base import ADDS, LOOKUP, REMOVES, DirectResponse, ModelResult, ToolOutcome, ToolRequest, ToolSpec


def _alarms(request: ToolRequest) -> AlarmManager:
    return request.owner().runtime.alarms


def _when(alarm: Alarm) -> str:
    return dt_util.as_local(alarm.due_at).strftime("%m-%d %H:%M")


async def _async_set(request: ToolRequest) -> ToolOutcome:
    try:
        when = parse_alarm_time(request.args["time"], dt_util.now())
    except AlarmTimeError as err:
        return ModelResult({"error": "invalid_time", "error_text": str(err)})
    owner = request.owner()
    alarm = owner.runtime.alarms.add(
        when.due, request.args.get("message", ""), when.repeat, agent=owner.hint().subentry_id
    )
    key = f"alarm_set_{when.repeat.split(':')[0]}" if when.repeat else "alarm_set"
    speech = await async_reply(
        request.hass, request.language, key, {"time": _when(alarm), "message": alarm.message}
    )
    return DirectResponse(speech, {"id": alarm.id, "due": alarm.due, "repeat": alarm.repeat})


async def _async_list(request: ToolRequest) -> ToolOutcome:
    upcoming = _alarms(request).upcoming
    separator = "；" if is_chinese(request.language) else "; "
    items = separator.join(f"{n}. {_when(a)} {a.message}".strip() for n, a in enumerate(upcoming, 1))
    key = "alarm_list" if upcoming else "alarm_none"
    speech = await async_reply(
        request.hass, request.language, key, {"count": str(len(upcoming)), "items": items}
    )
    return ModelResult(
        {
            "alarms": [{"time": _when(a), "message": a.message, "repeat": a.repeat} for a in upcoming],
            "speech": speech,
        }
    )


async def _async_delete(request: ToolRequest) -> ToolOutcome:
    manager = _alarms(request)
    reference = str(request.args["alarm"]).strip()
    upcoming = manager.upcoming
    if reference.isdigit() and 1 <= int(reference) <= len(upcoming):
        alarm: Alarm | None = upcoming[int(reference) - 1]
    else:
        alarm = next((a for a in upcoming if reference and reference in (a.message, _when(a))), None)
    if alarm is None:
        return ModelResult({"error": "not_found", "error_text": f"no alarm matches {reference}"})
    manager.delete(alarm.id)
    speech = await async_reply(request.hass, request.language, "alarm_deleted", {"time": _when(alarm)})
    return DirectResponse(speech)


SET_ALARM_TOOL = ToolSpec(
    owned_by="entry",
    name="set_alarm",
    traits=ADDS,
    description=(
        "Set an alarm: time as the user said it (7点半, 明早七点, 二十分钟后, tomorrow 6:30, "
        "每天7点), optional message."
    ),
    parameters=vol.Schema(
        {
            vol.Required("time"): vol.All(str, vol.Length(min=1, max=60)),
            vol.Optional("message"): vol.All(str, vol.Length(max=100)),
        }
    ),
    handler=_async_set,
)
LIST_ALARMS_TOOL = ToolSpec(
    owned_by="entry",
    name="list_alarms",
    traits=LOOKUP,
    description="List the alarms that are set.",
    parameters=vol.Schema({}),
    handler=_async_list,
)
DELETE_ALARM_TOOL = ToolSpec(
    owned_by="entry",
    name="delete_alarm",
    traits=REMOVES,
    description="Delete an alarm by its number in the list, its time (MM-DD HH:MM) or its message.",
    parameters=vol.Schema({vol.Required("alarm"): vol.All(vol.Coerce(str), vol.Length(min=1, max=100))}),
    handler=_async_delete,
)
