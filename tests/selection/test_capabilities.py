"""Every command is checked against what the entity itself reports before any service is called."""

from typing import Any

import pytest

from bench.home import LoadedHome, async_load_home, read_home
from custom_components.layered_assist.selection.capabilities import (
    ALL_RISKS,
    RISK_ALARMS,
    RISK_DOORS,
    RISK_LOCKS,
    RISK_VALVES,
    CommandError,
    commands_for,
    commands_meant,
    is_sensitive,
    validate_command,
)
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .conftest import EN_HOME


@pytest.fixture
async def en_home(hass: HomeAssistant) -> LoadedHome:
    """Load the English benchmark home, without the agent."""
    assert await async_setup_component(hass, "homeassistant", {})
    return await async_load_home(hass, read_home(EN_HOME))


def validate(hass: HomeAssistant, entity_id: str, command: str, params: dict[str, Any] | None = None) -> Any:
    """Validate a command on an entity of the home."""
    state = hass.states.get(entity_id)
    assert state is not None
    return validate_command(state, command, params)


@pytest.mark.parametrize(
    ("entity_id", "command", "params", "message"),
    [
        # Numbers: a true/false, a list or a word is no brightness; out of range is refused.
        ("light.kitchen_spotlights", "turn_on", {"brightness_pct": True}, "brightness_pct must be a number"),
        ("light.kitchen_spotlights", "turn_on", {"brightness_pct": [50]}, "brightness_pct must be a number"),
        (
            "light.kitchen_spotlights",
            "turn_on",
            {"brightness_pct": "bright"},
            "brightness_pct must be a number",
        ),
        (
            "light.kitchen_spotlights",
            "turn_on",
            {"brightness_pct": 150},
            "brightness_pct must be between 0 and 100",
        ),
        # The radiator's own range (5-25 ℃), not a general one.
        ("climate.living_room_radiator", "set_temperature", {"temperature": 28}, "between 5 and 25"),
        # A mode the device does not list.
        (
            "climate.living_room_radiator",
            "set_hvac_mode",
            {"hvac_mode": "cool"},
            "hvac_mode must be one of off, heat, auto",
        ),
        # A colour must be three values of 0-255.
        ("light.under_cabinet", "turn_on", {"rgb_color": [300, 0, 0]}, "rgb_color must be [r, g, b]"),
        ("light.under_cabinet", "turn_on", {"rgb_color": "red"}, "rgb_color must be [r, g, b]"),
        # A switch of a flag takes true or false, not a word.
        (
            "media_player.office_speaker",
            "volume_mute",
            {"is_volume_muted": "yes"},
            "is_volume_muted must be true or false",
        ),
        # A command the device does not have is refused with what it does have.
        ("lock.back_door", "open", None, "lock.back_door does not support open; it supports: lock, unlock"),
        ("sensor.office_temperature", "turn_on", None, "does not support turn_on; it supports: none"),
        # A parameter the command does not take.
        (
            "switch.kettle",
            "turn_on",
            {"brightness_pct": 50},
            "turn_on takes no brightness_pct; it takes: turn_on",
        ),
        # A setting with no value.
        (
            "climate.living_room_radiator",
            "set_temperature",
            {},
            "set_temperature needs set_temperature(temperature 5-25)",
        ),
        ("vacuum.roomba", "set_fan_speed", None, "set_fan_speed needs set_fan_speed(fan_speed Automatic|Eco"),
    ],
)
async def test_invalid_commands_are_refused_with_a_reason(
    hass: HomeAssistant, en_home: LoadedHome, entity_id: str, command: str, params: Any, message: str
) -> None:
    """A command the entity cannot carry out raises CommandError saying why, so nothing is called."""
    with pytest.raises(CommandError) as err:
        validate(hass, entity_id, command, params)
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("entity_id", "command", "params", "expected"),
    [
        # A number said as text is read as a number; a percentage is rounded to a whole one.
        (
            "light.kitchen_spotlights",
            "turn_on",
            {"brightness_pct": "40"},
            ("turn_on", {"brightness_pct": 40}),
        ),
        (
            "light.kitchen_spotlights",
            "turn_on",
            {"brightness_pct": 40.6},
            ("turn_on", {"brightness_pct": 41}),
        ),
        # A temperature keeps its half degree.
        (
            "climate.living_room_radiator",
            "set_temperature",
            {"temperature": "20.5"},
            ("set_temperature", {"temperature": 20.5}),
        ),
        (
            "light.under_cabinet",
            "turn_on",
            {"rgb_color": [255, 0, 0]},
            ("turn_on", {"rgb_color": [255, 0, 0]}),
        ),
        (
            "media_player.office_speaker",
            "volume_mute",
            {"is_volume_muted": True},
            ("volume_mute", {"is_volume_muted": True}),
        ),
        # A thermostat without a turn_on service is switched on by its mode.
        ("climate.living_room_radiator", "turn_off", None, ("turn_off", {})),
        # turn_on of a light needs no setting.
        ("light.kitchen_spotlights", "turn_on", {}, ("turn_on", {})),
    ],
)
async def test_valid_commands_give_the_service_and_its_data(
    hass: HomeAssistant, en_home: LoadedHome, entity_id: str, command: str, params: Any, expected: Any
) -> None:
    """A valid command gives HA's service and its data in their proper types."""
    assert validate(hass, entity_id, command, params) == expected


async def test_a_thermostat_without_on_off_is_switched_by_its_mode(hass: HomeAssistant) -> None:
    """A climate with no turn_on/turn_off is switched on by its first usable mode, off by "off"."""
    hass.states.async_set(
        "climate.old_ac", "off", {"hvac_modes": ["off", "heat", "cool"], "supported_features": 1}
    )
    state = hass.states.get("climate.old_ac")
    assert state is not None
    assert validate_command(state, "turn_on", None) == ("set_hvac_mode", {"hvac_mode": "cool"})
    assert validate_command(state, "turn_off", None) == ("set_hvac_mode", {"hvac_mode": "off"})
    # With neither an "off" nor an "on" mode it cannot be switched at all.
    hass.states.async_set(
        "climate.fan_only", "fan_only", {"hvac_modes": ["fan_only"], "supported_features": 1}
    )
    fan_only = hass.states.get("climate.fan_only")
    assert fan_only is not None
    assert set(commands_for(fan_only)) == {"set_temperature", "set_hvac_mode"}


async def test_buttons_are_pressed(hass: HomeAssistant) -> None:
    """A button or an input button can only be pressed."""
    hass.states.async_set("button.doorbell_chime", "unknown", {"friendly_name": "Doorbell Chime"})
    hass.states.async_set("input_button.feed_cat", "unknown", {"friendly_name": "Feed Cat"})
    for entity_id in ("button.doorbell_chime", "input_button.feed_cat"):
        state = hass.states.get(entity_id)
        assert state is not None
        assert list(commands_for(state)) == ["press"]
        assert validate_command(state, "press", None) == ("press", {})
        with pytest.raises(CommandError, match="supports: press"):
            validate_command(state, "turn_on", None)


@pytest.mark.parametrize(
    ("entity_id", "attributes", "command", "risks", "sensitive"),
    [
        ("lock.front_door", {}, "unlock", ALL_RISKS, True),
        ("lock.front_door", {}, "lock", ALL_RISKS, False),
        ("lock.front_door", {}, "unlock", (RISK_DOORS,), False),
        # A garage door or a gate opening lets people in; closing it does not.
        ("cover.garage_door", {"device_class": "garage"}, "open_cover", ALL_RISKS, True),
        ("cover.gate", {"device_class": "gate"}, "set_cover_position", (RISK_DOORS,), True),
        ("cover.garage_door", {"device_class": "garage"}, "close_cover", ALL_RISKS, False),
        ("cover.garage_door", {"device_class": "garage"}, "open_cover", (RISK_LOCKS,), False),
        # Blinds are no door.
        ("cover.office_blind", {"device_class": "blind"}, "open_cover", ALL_RISKS, False),
        # Disarming an alarm, not arming it.
        ("alarm_control_panel.house", {}, "alarm_disarm", ALL_RISKS, True),
        ("alarm_control_panel.house", {}, "alarm_arm_away", ALL_RISKS, False),
        ("alarm_control_panel.house", {}, "alarm_disarm", (RISK_LOCKS, RISK_DOORS), False),
        # Opening the water main, not closing it.
        ("valve.water_main", {}, "open_valve", ALL_RISKS, True),
        ("valve.water_main", {}, "set_valve_position", (RISK_VALVES,), True),
        ("valve.water_main", {}, "close_valve", ALL_RISKS, False),
        ("valve.water_main", {}, "open_valve", (RISK_ALARMS,), False),
        # A light is never risky.
        ("light.porch", {}, "turn_on", ALL_RISKS, False),
        # A switch or button that opens a gate or a garage door is a door; its light is not.
        ("switch.gate_bot", {"friendly_name": "大閘 Bot"}, "turn_on", ALL_RISKS, True),
        ("button.garage_opener", {"friendly_name": "Garage Door Opener"}, "press", ALL_RISKS, True),
        ("switch.gate_bot", {"friendly_name": "大閘 Bot"}, "turn_on", (RISK_LOCKS,), False),
        ("switch.garage_lights", {"friendly_name": "Garage Lights"}, "turn_on", ALL_RISKS, False),
        ("switch.gate_light", {"friendly_name": "閘口燈"}, "turn_on", ALL_RISKS, False),
        # 鐵閘 is a shutter or the gate of a flat: never opened without a yes.
        ("switch.shutter_bot", {"friendly_name": "車房鐵閘"}, "turn_on", ALL_RISKS, True),
        ("switch.gate_bot", {"friendly_name": "大閘 Bot"}, "turn_off", ALL_RISKS, False),
    ],
)
async def test_risky_commands_need_confirmation(
    hass: HomeAssistant,
    entity_id: str,
    attributes: dict[str, Any],
    command: str,
    risks: tuple[str, ...],
    sensitive: bool,
) -> None:
    """Unlocking, opening a door or a valve and disarming need confirmation, when marked risky."""
    hass.states.async_set(entity_id, "closed", attributes)
    state = hass.states.get(entity_id)
    assert state is not None
    assert is_sensitive(state, command, risks) is sensitive


def test_commands_meant_by_requests() -> None:
    """A request limits the model to the commands that can carry it out; an open-ended one does not."""
    assert commands_meant({"mute"}) == {"volume_mute"}
    assert commands_meant({"lock", "return_home"}) == {"lock", "return_to_base"}
    assert "turn_off" not in (commands_meant({"turn_on"}) or ())
    assert commands_meant({"set_max"}) is None
    assert commands_meant(set()) is None
