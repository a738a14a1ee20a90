"""Alarms: parsing, firing under time travel, the late fire after a restart, sensor, services, intents."""

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.layered_assist.alarms import EVENT_ALARM, STORAGE_KIND
from custom_components.layered_assist.const import DOMAIN
from custom_components.layered_assist.entry_storage import entry_store_key
from custom_components.layered_assist.language.times import AlarmTimeError, parse_alarm_time
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.util import dt as dt_util

from .llm_tools import call_tool

SENSOR = "sensor.layered_assist_next_alarm"


@pytest.mark.parametrize(
    ("text", "due", "repeat"),
    [
        ("7点半", "11-22 19:30", None),
        ("明早七点", "11-23 07:00", None),
        ("下午3点", "11-23 15:00", None),
        ("二十分钟后", "11-22 15:20", None),
        ("一个半小时后", "11-22 16:30", None),
        ("半小时后", "11-22 15:30", None),
        ("in 20 minutes", "11-22 15:20", None),
        ("tomorrow 6:30", "11-23 06:30", None),
        ("7 pm", "11-22 19:00", None),
        ("明天早上6点半", "11-23 06:30", None),
        ("晚上八点", "11-22 20:00", None),
        ("每天7点", "11-23 07:00", "daily"),
        ("工作日7点", "11-23 07:00", "weekdays"),
        ("every weekday at 7", "11-23 07:00", "weekdays"),
        ("每周三8点", "11-25 08:00", "weekly:2"),
    ],
)
def test_parse(text: str, due: str, repeat: str | None) -> None:
    """Times as people say them, on Sunday 2026-11-22 at 15:00."""
    now = datetime(2026, 11, 22, 15, 0, tzinfo=dt_util.get_time_zone("Asia/Shanghai"))
    parsed = parse_alarm_time(text, now)
    assert (parsed.due.strftime("%m-%d %H:%M"), parsed.repeat) == (due, repeat)


def test_parse_rejects() -> None:
    """No time, no alarm."""
    with pytest.raises(AlarmTimeError):
        parse_alarm_time("some time soon", datetime(2026, 11, 22, 15, 0, tzinfo=dt_util.UTC))


@pytest.fixture
async def at_three_pm(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> FrozenDateTimeFactory:
    """Sunday 2026-11-22, 15:00 in Shanghai."""
    await hass.config.async_set_time_zone("Asia/Shanghai")
    freezer.move_to("2026-11-22T07:00:00+00:00")
    return freezer


async def test_set_list_fire(
    hass: HomeAssistant, at_three_pm: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """An alarm is set, shown by the sensor, fires its event when due, and is gone."""
    events = async_capture_events(hass, EVENT_ALARM)
    result = await call_tool(hass, "set_alarm", {"time": "二十分钟后", "message": "关火"})
    assert result["speech"] == "已设置11-22 15:20的闹钟关火。"
    assert hass.states.get(SENSOR).state == "2026-11-22T07:20:00+00:00"
    assert (await call_tool(hass, "list_alarms", {}))["speech"] == "你有1个闹钟：1. 11-22 15:20 关火。"

    at_three_pm.tick(timedelta(minutes=21))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert [(e.data["message"], e.data["late"]) for e in events] == [("关火", False)]
    assert hass.states.get(SENSOR).state == "unknown"


async def test_repeating_alarm_moves_on(
    hass: HomeAssistant, at_three_pm: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """A daily alarm fires and is due again the next day."""
    events = async_capture_events(hass, EVENT_ALARM)
    await call_tool(hass, "set_alarm", {"time": "每天15点30分"})
    at_three_pm.tick(timedelta(minutes=31))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert len(events) == 1
    assert hass.states.get(SENSOR).state == "2026-11-23T07:30:00+00:00"


async def test_delete(
    hass: HomeAssistant, at_three_pm: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """Alarms are deleted by number."""
    await call_tool(hass, "set_alarm", {"time": "明早七点"})
    assert (await call_tool(hass, "delete_alarm", {"alarm": "1"}))["speech"] == "已删除11-23 07:00的闹钟。"
    assert (await call_tool(hass, "delete_alarm", {"alarm": "1"}))["error"] == "not_found"


async def test_late_alarm_fires_once_at_start(
    hass: HomeAssistant,
    at_three_pm: FrozenDateTimeFactory,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
) -> None:
    """An alarm that fell due while HA was down fires once at start, marked late; future ones wait."""
    key = entry_store_key(STORAGE_KIND, mock_config_entry.entry_id)
    hass_storage[key] = {
        "version": 1,
        "minor_version": 1,
        "key": key,
        "data": {
            "alarms": [
                {"id": "a", "due": "2026-11-22T06:00:00+00:00", "message": "missed", "repeat": None},
                {"id": "b", "due": "2026-11-22T09:00:00+00:00", "message": "later", "repeat": None},
            ]
        },
    }
    events = async_capture_events(hass, EVENT_ALARM)
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert [(e.data["message"], e.data["late"]) for e in events] == [("missed", True)]
    assert hass.states.get(SENSOR).state == "2026-11-22T09:00:00+00:00"


async def test_pending_alarm_survives_restart(
    hass: HomeAssistant, at_three_pm: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """Set, reload (as a restart), and it still fires."""
    events = async_capture_events(hass, EVENT_ALARM)
    await call_tool(hass, "set_alarm", {"time": "10分钟后"})
    assert await hass.config_entries.async_reload(init_integration.entry_id)
    await hass.async_block_till_done()
    at_three_pm.tick(timedelta(minutes=11))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert len(events) == 1


async def test_service_and_intents(
    hass: HomeAssistant, at_three_pm: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """The service returns the alarm; HA's own agent sets and lists alarms through our intents."""
    result = await hass.services.async_call(
        DOMAIN, "set_alarm", {"time": "tomorrow 6:30", "language": "en"}, blocking=True, return_response=True
    )
    assert result["speech"] == "Alarm set for 11-23 06:30 ."
    said = await conversation.async_converse(hass, "明早七点叫我起床", None, Context(), language="zh-Hans")
    assert "11-23 07:00" in said.response.speech["plain"]["speech"]
    listed = await conversation.async_converse(hass, "我的闹钟有哪些", None, Context(), language="zh-Hans")
    assert "你有2个闹钟" in listed.response.speech["plain"]["speech"]


async def test_list_and_delete_services(
    hass: HomeAssistant, at_three_pm: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """The list and delete services respond, as does delete_memo."""
    await hass.services.async_call(
        DOMAIN, "set_alarm", {"time": "明早七点"}, blocking=True, return_response=True
    )
    listed = await hass.services.async_call(DOMAIN, "list_alarms", {}, blocking=True, return_response=True)
    assert listed["alarms"][0]["time"] == "11-23 07:00"
    deleted = await hass.services.async_call(
        DOMAIN, "delete_alarm", {"alarm": "1"}, blocking=True, return_response=True
    )
    assert deleted["direct_response"] is True
    await hass.services.async_call(DOMAIN, "add_memo", {"text": "x"}, blocking=True, return_response=True)
    gone = await hass.services.async_call(
        DOMAIN, "delete_memo", {"memo": "1"}, blocking=True, return_response=True
    )
    assert gone["direct_response"] is True
