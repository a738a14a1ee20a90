"""Alarms announced where their agent says, announcers that fail, and stored alarms that are unreadable."""

from datetime import timedelta
import logging
from typing import Any

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
    async_mock_service,
)

from custom_components.layered_assist.alarms import EVENT_ALARM, STORAGE_KIND
from custom_components.layered_assist.const import (
    CONF_ALARM_NOTIFY,
    CONF_ALARM_SATELLITES,
    DOMAIN,
)
from custom_components.layered_assist.entry_storage import entry_store_key
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.exceptions import HomeAssistantError
from homeassistant.setup import async_setup_component

from .fake_openai import FakeOpenAI
from .test_ownership import _agent, _entry, agent_ids

SENSOR = "sensor.layered_assist_next_alarm"
KITCHEN = "assist_satellite.kitchen"


@pytest.fixture
async def at_three_pm(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> FrozenDateTimeFactory:
    """Sunday 2026-11-22, 15:00 in Shanghai."""
    await hass.config.async_set_time_zone("Asia/Shanghai")
    freezer.move_to("2026-11-22T07:00:00+00:00")
    return freezer


@pytest.fixture
def agent_options(agent_options: dict[str, Any]) -> dict[str, Any]:
    """The test agent announces alarms on a phone and a kitchen satellite."""
    return {**agent_options, CONF_ALARM_NOTIFY: "notify.phone", CONF_ALARM_SATELLITES: [KITCHEN]}


async def set_alarm(hass: HomeAssistant, time: str, message: str, **owner: str) -> dict[str, Any]:
    """Set an alarm through the set_alarm service."""
    response = await hass.services.async_call(
        DOMAIN,
        "set_alarm",
        {"time": time, "message": message, **owner},
        blocking=True,
        return_response=True,
    )
    assert response is not None
    return dict(response)


async def pass_time(hass: HomeAssistant, freezer: FrozenDateTimeFactory, minutes: int) -> None:
    """Move the clock on and let what fell due run."""
    freezer.tick(timedelta(minutes=minutes))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()


async def test_due_alarm_is_announced_by_notify_and_satellite(
    hass: HomeAssistant, at_three_pm: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """When due, the message goes to the agent's notify service and to its satellites, once."""
    phone = async_mock_service(hass, "notify", "phone")
    satellites = async_mock_service(hass, "assist_satellite", "announce")
    await set_alarm(hass, "十分钟后", "关火")
    await pass_time(hass, at_three_pm, 5)
    assert phone == []
    await pass_time(hass, at_three_pm, 6)
    assert [dict(c.data) for c in phone] == [{"message": "关火", "title": "Layered Assist"}]
    assert [dict(c.data) for c in satellites] == [{"entity_id": [KITCHEN], "message": "关火"}]
    await pass_time(hass, at_three_pm, 60)
    assert len(phone) == 1


async def test_alarm_without_message_announces_a_clock(
    hass: HomeAssistant, at_three_pm: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """An alarm with no message still says something: ⏰."""
    phone = async_mock_service(hass, "notify", "phone")
    async_mock_service(hass, "assist_satellite", "announce")
    await set_alarm(hass, "十分钟后", "")
    await pass_time(hass, at_three_pm, 11)
    assert [c.data["message"] for c in phone] == ["⏰"]


async def test_missing_announcers_are_logged_and_the_event_still_fires(
    hass: HomeAssistant,
    at_three_pm: FrozenDateTimeFactory,
    init_integration: MockConfigEntry,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With neither service present the alarm fires its event, is gone, and each is named in a warning."""
    events = async_capture_events(hass, EVENT_ALARM)
    await set_alarm(hass, "十分钟后", "关火")
    await pass_time(hass, at_three_pm, 11)
    assert [e.data["message"] for e in events] == ["关火"]
    assert hass.states.get(SENSOR).state == "unknown"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "Cannot announce the alarm: notify.phone does not exist" in warnings
    assert "Cannot announce the alarm: assist_satellite.announce does not exist" in warnings


async def test_failing_announcer_is_logged_and_the_other_still_announces(
    hass: HomeAssistant,
    at_three_pm: FrozenDateTimeFactory,
    init_integration: MockConfigEntry,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A notify service that raises is logged; the satellite announcement is made anyway."""

    async def broken(call: ServiceCall) -> None:
        raise HomeAssistantError("phone is off")

    hass.services.async_register("notify", "phone", broken)
    satellites = async_mock_service(hass, "assist_satellite", "announce")
    await set_alarm(hass, "十分钟后", "关火")
    await pass_time(hass, at_three_pm, 11)
    assert [c.data["message"] for c in satellites] == ["关火"]
    assert any(
        r.levelno == logging.WARNING
        and r.getMessage() == "Announcing the alarm through notify.phone failed: phone is off"
        for r in caplog.records
    )


async def test_unreadable_stored_alarms_are_reset(
    hass: HomeAssistant,
    at_three_pm: FrozenDateTimeFactory,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Stored alarms of an unknown shape do not stop setup: dropped with a warning; new ones work."""
    key = entry_store_key(STORAGE_KIND, mock_config_entry.entry_id)
    hass_storage[key] = {
        "version": 1,
        "minor_version": 1,
        "key": key,
        "data": {"alarms": [{"id": "a", "due": "2026-11-22T06:00:00+00:00", "snooze": 5}]},
    }
    events = async_capture_events(hass, EVENT_ALARM)
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert events == []
    assert mock_config_entry.runtime_data.alarms.alarms == []
    assert hass.states.get(SENSOR).state == "unknown"
    assert any("Stored alarms were unreadable and have been reset" in r.getMessage() for r in caplog.records)
    await set_alarm(hass, "十分钟后", "关火")
    assert hass.states.get(SENSOR).state == "2026-11-22T07:10:00+00:00"


async def test_with_two_agents_each_alarm_is_announced_by_the_agent_that_set_it(
    hass: HomeAssistant,
    at_three_pm: FrozenDateTimeFactory,
    fake_openai: FakeOpenAI,
    agent_options: dict[str, Any],
) -> None:
    """An alarm set for one agent uses its notify service; one set for the whole entry, by no agent, none."""
    assert await async_setup_component(hass, "homeassistant", {})
    entry = _entry(
        fake_openai,
        _agent("Kitchen", **{**agent_options, CONF_ALARM_NOTIFY: "notify.phone", CONF_ALARM_SATELLITES: []}),
        _agent("Bedroom", **{**agent_options, CONF_ALARM_NOTIFY: "notify.tablet", CONF_ALARM_SATELLITES: []}),
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    phone = async_mock_service(hass, "notify", "phone")
    tablet = async_mock_service(hass, "notify", "tablet")
    agents = agent_ids(hass, entry)
    assert set(agents) == {"Kitchen", "Bedroom"}
    await set_alarm(hass, "十分钟后", "bedroom", agent=agents["Bedroom"])
    await set_alarm(hass, "二十分钟后", "anyone", config_entry=entry.entry_id)
    events = async_capture_events(hass, EVENT_ALARM)
    await pass_time(hass, at_three_pm, 11)
    await pass_time(hass, at_three_pm, 10)
    assert [e.data["message"] for e in events] == ["bedroom", "anyone"]
    assert [c.data["message"] for c in tablet] == ["bedroom"]
    assert phone == []
