"""A locally understood action becomes the one command that fits the device, or none when unsure."""

from typing import Any

import pytest

from bench.home import LoadedHome, async_load_home, read_home
from custom_components.layered_assist.language.actions import Action, ActionKind
from custom_components.layered_assist.selection.local_commands import Command, command_for_action
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import METRIC_SYSTEM, US_CUSTOMARY_SYSTEM

from ..conftest import update_state
from ..fake_openai import FakeOpenAI
from .conftest import EN_HOME
from .talk import converse

K = ActionKind
# A Daikin lists its fan speeds as numbers, with an "Auto" that is no step on the scale.
DAIKIN_FAN_MODES = ["Auto", "Silence", "1", "2", "3", "4", "5"]


@pytest.fixture
async def en_home(hass: HomeAssistant) -> LoadedHome:
    """Load the English benchmark home, in metric units, without the agent."""
    assert await async_setup_component(hass, "homeassistant", {})
    hass.config.units = METRIC_SYSTEM
    return await async_load_home(hass, read_home(EN_HOME))


def command(hass: HomeAssistant, entity_id: str, action: Action, **attributes: Any) -> Command | None:
    """Return the command an action maps to on an entity of the home, after changing its attributes."""
    if attributes:
        update_state(hass, entity_id, **attributes)
    state = hass.states.get(entity_id)
    assert state is not None
    return command_for_action(hass, state, action)


@pytest.mark.parametrize(
    ("entity_id", "action", "expected"),
    [
        # Stopping: a vacuum stops where it is; a light has no "stop".
        ("vacuum.roomba", Action(K.STOP), ("stop", {})),
        ("cover.office_blind", Action(K.STOP), ("stop_cover", {})),
        ("light.kitchen_spotlights", Action(K.STOP), None),
        # Locking and unlocking are for locks only.
        ("lock.back_door", Action(K.LOCK), ("lock", {})),
        ("lock.front_door", Action(K.UNLOCK), ("unlock", {})),
        ("switch.kettle", Action(K.LOCK), None),
        ("light.hallway", Action(K.UNLOCK), None),
        # A scene is activated, never "switched off".
        ("scene.movie_night", Action(K.TURN_ON), ("turn_on", {})),
        ("scene.movie_night", Action(K.TURN_OFF), None),
        # A volume in percent is HA's 0-1 level.
        ("media_player.office_speaker", Action(K.SET_VOLUME, 35), ("volume_set", {"volume_level": 0.35})),
        # Swinging starts and stops on a fan that swings; a hood that cannot is left alone.
        ("fan.desk_fan", Action(K.OSCILLATE, 1), ("oscillate", {"oscillating": True})),
        ("fan.desk_fan", Action(K.OSCILLATE, 0), ("oscillate", {"oscillating": False})),
        ("fan.cooker_hood", Action(K.OSCILLATE, 1), None),
        # "Lower it by two": degrees of a thermostat or a boiler, nothing sure of a light.
        ("climate.office_ac", Action(K.ADJUST_VALUE, -2), ("set_temperature", {"temperature": 19})),
        ("water_heater.hot_water", Action(K.ADJUST_VALUE, 5), ("set_temperature", {"temperature": 60})),
        ("light.kitchen_spotlights", Action(K.ADJUST_VALUE, 10), None),
        # "Fan speed to the strongest / weakest" of an air conditioner: its highest or lowest fan mode.
        ("climate.office_ac", Action(K.SET_SPEED, 100), ("set_fan_mode", {"fan_mode": "high"})),
        ("climate.office_ac", Action(K.SET_SPEED, 1), ("set_fan_mode", {"fan_mode": "low"})),
        # A fan's speed in percent, and its numbered speeds ("speed 3" of ten is 30 %).
        ("fan.desk_fan", Action(K.SET_SPEED, 40), ("set_percentage", {"percentage": 40})),
        ("fan.desk_fan", Action(K.SET_SPEED_LEVEL, 3), ("set_percentage", {"percentage": 30})),
        ("fan.cooker_hood", Action(K.SET_SPEED_LEVEL, 2), ("set_percentage", {"percentage": 67})),
        # A speed the fan does not have, or a fan with no speeds: nothing is guessed.
        ("fan.desk_fan", Action(K.SET_SPEED_LEVEL, 11), None),
        ("fan.cooker_hood", Action(K.SET_SPEED_LEVEL, 0), None),
        ("fan.bathroom_extractor", Action(K.SET_SPEED_LEVEL, 1), None),
        # "Faster" / "slower" of a thermostat's fan: a step along its fan modes.
        ("climate.office_ac", Action(K.DECREASE, option="speed"), ("set_fan_mode", {"fan_mode": "low"})),
        # "Faster" is no light's.
        ("light.kitchen_spotlights", Action(K.INCREASE, option="speed"), None),
        # Verbs for players and vacuums mean nothing to a light or a switch.
        ("light.kitchen_spotlights", Action(K.PLAY), None),
        ("switch.kettle", Action(K.START), None),
        ("vacuum.roomba", Action(K.NEXT), None),
        # As high or as low as it goes.
        ("light.kitchen_spotlights", Action(K.SET_MAX), ("turn_on", {"brightness_pct": 100})),
        ("light.kitchen_spotlights", Action(K.SET_MIN), ("turn_on", {"brightness_pct": 1})),
        ("fan.desk_fan", Action(K.SET_MAX), ("set_percentage", {"percentage": 100})),
        ("fan.desk_fan", Action(K.SET_MIN), ("set_percentage", {"percentage": 10})),
        ("media_player.office_speaker", Action(K.SET_MAX), ("volume_set", {"volume_level": 1.0})),
        ("cover.office_blind", Action(K.SET_MAX), ("set_cover_position", {"position": 100})),
        ("cover.office_blind", Action(K.SET_MIN), None),
        ("vacuum.roomba", Action(K.SET_MAX), None),
        # Named speeds of a fan with ten numbered speeds, and of one with four.
        ("fan.desk_fan", Action(K.SET_FAN_MODE, option="low"), ("set_percentage", {"percentage": 10})),
        ("fan.desk_fan", Action(K.SET_FAN_MODE, option="medium"), ("set_percentage", {"percentage": 50})),
        ("fan.desk_fan", Action(K.SET_FAN_MODE, option="high"), ("set_percentage", {"percentage": 100})),
        (
            "fan.main_bedroom_ceiling_fan",
            Action(K.SET_FAN_MODE, option="medium"),
            ("set_percentage", {"percentage": 50}),
        ),
        # "Auto" is no speed of a fan without presets; a fan without speeds has no "low".
        ("fan.desk_fan", Action(K.SET_FAN_MODE, option="auto"), None),
        ("fan.bathroom_extractor", Action(K.SET_FAN_MODE, option="low"), None),
        # A vacuum's suction: "high" is its "Max"; a middle it does not name is not guessed.
        ("vacuum.roomba", Action(K.SET_FAN_MODE, option="high"), ("set_fan_speed", {"fan_speed": "Max"})),
        ("vacuum.roomba", Action(K.SET_FAN_MODE, option="medium"), None),
        # A colour by name; a word that is no colour, or a device with no colours, picks nothing.
        ("light.under_cabinet", Action(K.SET_COLOR, option="red"), ("turn_on", {"rgb_color": [255, 0, 0]})),
        ("light.under_cabinet", Action(K.SET_COLOR, option="sparkly"), None),
        ("fan.desk_fan", Action(K.SET_COLOR, option="red"), None),
        # "Up" and "down" of each kind of device.
        ("fan.desk_fan", Action(K.INCREASE), ("increase_speed", {})),
        ("fan.desk_fan", Action(K.DECREASE), ("decrease_speed", {})),
        ("media_player.office_speaker", Action(K.INCREASE), ("volume_up", {})),
        ("media_player.office_speaker", Action(K.DECREASE), ("volume_down", {})),
        ("light.kitchen_spotlights", Action(K.INCREASE), ("turn_on", {"brightness_step_pct": 20})),
        ("light.kitchen_spotlights", Action(K.DECREASE), ("turn_on", {"brightness_step_pct": -20})),
        ("climate.living_room_radiator", Action(K.INCREASE), ("set_temperature", {"temperature": 22})),
        ("water_heater.hot_water", Action(K.DECREASE), ("set_temperature", {"temperature": 54})),
        ("switch.kettle", Action(K.INCREASE), None),
        # "Brighter by 30 %" is 30 points; "a bit brighter" is the usual step.
        (
            "light.kitchen_spotlights",
            Action(K.ADJUST_BRIGHTNESS, 30),
            ("turn_on", {"brightness_step_pct": 30}),
        ),
        (
            "light.kitchen_spotlights",
            Action(K.ADJUST_BRIGHTNESS, -1),
            ("turn_on", {"brightness_step_pct": -20}),
        ),
        # A light that cannot dim: "brighter" switches it on when off, "dimmer" is unsure.
        ("light.hallway", Action(K.INCREASE), ("turn_on", {})),
        ("light.hallway", Action(K.DECREASE), None),
    ],
)
async def test_action_maps_to_the_device_command(
    hass: HomeAssistant, en_home: LoadedHome, entity_id: str, action: Action, expected: Command | None
) -> None:
    """Each kind of action becomes the command the device's own kind and features call for, or none."""
    assert command(hass, entity_id, action) == expected


async def test_a_light_that_cannot_dim_is_not_brightened_when_on(
    hass: HomeAssistant, en_home: LoadedHome
) -> None:
    """ "Brighter" of an on/off light already on has no command: the light cannot do more."""
    assert command(hass, "light.hallway", Action(K.INCREASE), brightness=None) == ("turn_on", {})
    update_state(hass, "light.hallway", "on")
    assert command(hass, "light.hallway", Action(K.INCREASE)) is None
    assert command(hass, "light.hallway", Action(K.ADJUST_BRIGHTNESS, 1)) is None


async def test_fahrenheit_is_converted_for_a_celsius_home(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """ "130 degrees Fahrenheit" sets 54.4 ℃ in a metric home and 130 in a US one."""
    action = Action(K.SET_TEMPERATURE, 130, fahrenheit=True)
    assert command(hass, "water_heater.hot_water", action) == ("set_temperature", {"temperature": 54.4})
    hass.config.units = US_CUSTOMARY_SYSTEM
    assert command(hass, "water_heater.hot_water", action) == ("set_temperature", {"temperature": 130})


async def test_a_temperature_needs_a_number(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """A temperature setting with no number, or a step from no setting, has no command."""
    assert command(hass, "climate.office_ac", Action(K.SET_TEMPERATURE)) is None
    # In heat_cool a thermostat has a range and no single temperature to step from.
    update_state(
        hass, "climate.office_ac", "heat_cool", temperature=None, target_temp_low=20, target_temp_high=24
    )
    assert command(hass, "climate.office_ac", Action(K.ADJUST_TEMPERATURE, 1)) is None
    assert command(hass, "climate.office_ac", Action(K.INCREASE)) is None
    # Not a thermostat: no temperature at all.
    assert command(hass, "light.kitchen_spotlights", Action(K.ADJUST_TEMPERATURE, 1)) is None


@pytest.mark.parametrize(
    ("current", "kind", "expected"),
    [
        ("3", K.INCREASE, "4"),
        ("1", K.DECREASE, "1"),
        # From "Auto" a numbered scale has no next step.
        ("Auto", K.DECREASE, None),
    ],
)
async def test_numbered_fan_modes_are_stepped(
    hass: HomeAssistant, en_home: LoadedHome, current: str, kind: ActionKind, expected: str | None
) -> None:
    """ "Fan faster" of a Daikin moves one number along its fan modes, never from "Auto"."""
    result = command(
        hass,
        "climate.office_ac",
        Action(kind, option="speed"),
        fan_modes=DAIKIN_FAN_MODES,
        fan_mode=current,
    )
    assert result == (None if expected is None else ("set_fan_mode", {"fan_mode": expected}))


async def test_a_fan_preset_is_its_named_speed(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """ "Quiet fan" picks a fan's sleep preset when it has one, before any speed."""
    result = command(
        hass,
        "fan.desk_fan",
        Action(K.SET_FAN_MODE, option="quiet"),
        preset_modes=["normal", "sleep", "nature"],
        supported_features=51 | 8,
    )
    assert result == ("set_preset_mode", {"preset_mode": "sleep"})


async def test_a_two_speed_fan_has_no_middle(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """A fan with two speeds has a "high" and a "low" but no "medium"."""
    assert command(hass, "fan.desk_fan", Action(K.SET_FAN_MODE, option="medium"), percentage_step=50) is None
    assert command(hass, "fan.desk_fan", Action(K.SET_FAN_MODE, option="high")) == (
        "set_percentage",
        {"percentage": 100},
    )
    assert command(hass, "fan.desk_fan", Action(K.SET_FAN_MODE, option="low")) == (
        "set_percentage",
        {"percentage": 50},
    )


@pytest.mark.parametrize(
    ("sentence", "entity_id", "service", "data", "reply", "after"),
    [
        (
            "Set the desk fan to speed 3",
            "fan.desk_fan",
            "set_percentage",
            {"percentage": 30},
            "Set Desk Fan to 30% speed.",
            # (The bench fan records the speed; its on/off is not modelled.)
            (None, "percentage", 30),
        ),
        ("Pause the Roomba", "vacuum.roomba", "pause", {}, "Paused Roomba.", ("paused", None, None)),
        ("Stop the Roomba", "vacuum.roomba", "stop", {}, "Stopped Roomba.", ("docked", None, None)),
        (
            "Lock the front door",
            "lock.front_door",
            "lock",
            {},
            "Locked Front Door Lock.",
            ("locked", None, None),
        ),
        (
            "Set the office speaker volume to 40",
            "media_player.office_speaker",
            "volume_set",
            {"volume_level": 0.4},
            "Set Office Speaker volume to 40%.",
            ("idle", "volume_level", 0.4),
        ),
    ],
)
async def test_english_commands_are_carried_out_locally(
    hass: HomeAssistant,
    setup_en: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    entity_id: str,
    service: str,
    data: dict[str, Any],
    reply: str,
    after: tuple[str | None, str | None, Any],
) -> None:
    """A command understood locally calls the one service it means on its device, with no model request."""
    assert await converse(hass, sentence, "en") == reply
    [call] = setup_en.calls
    assert (call.service, call.data["entity_id"]) == (service, entity_id)
    assert {k: v for k, v in call.data.items() if k != "entity_id"} == data
    state = hass.states.get(entity_id)
    assert state is not None
    expected_state, attribute, value = after
    if expected_state is not None:
        assert state.state == expected_state
    if attribute is not None:
        assert state.attributes[attribute] == value
    assert fake_openai.chat_requests == []
