"""A question about devices is answered from their states, in the user's language, with no model."""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, async_load_home, read_home
from custom_components.layered_assist.selection.describe import MAX_DESCRIBED, async_describe
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import METRIC_SYSTEM

from ..conftest import update_state
from ..fake_openai import FakeOpenAI
from .conftest import EN_HOME
from .talk import converse


@pytest.fixture
async def en_home(hass: HomeAssistant) -> LoadedHome:
    """Load the English benchmark home, in metric units, without the agent."""
    assert await async_setup_component(hass, "homeassistant", {})
    hass.config.units = METRIC_SYSTEM
    return await async_load_home(hass, read_home(EN_HOME))


@pytest.mark.parametrize(
    ("entity_id", "state", "attributes", "language", "answer"),
    [
        ("fan.desk_fan", "on", {"percentage": 40}, "en", "Desk Fan is on at 40%."),
        ("fan.desk_fan", "on", {"percentage": 40}, "zh-Hans", "Desk Fan开着，风速40%。"),
        # A fan on with no speed reported is just on.
        ("fan.bathroom_extractor", "on", {}, "en", "Bathroom Extractor Fan is on."),
        ("light.kitchen_spotlights", "unavailable", {}, "en", "Kitchen Spotlights is unavailable."),
        ("light.kitchen_spotlights", "unavailable", {}, "zh-Hans", "Kitchen Spotlights现在不可用。"),
        # A thermostat with no room temperature says only what it is set to.
        (
            "climate.office_ac",
            "cool",
            {"temperature": 22, "current_temperature": None},
            "en",
            "Office Air Conditioner is on (cooling), set to 22℃.",
        ),
        ("vacuum.roomba", "cleaning", {}, "en", "Roomba is cleaning."),
        ("vacuum.roomba", "returning", {}, "zh-Hans", "Roomba正在回充。"),
        ("vacuum.roomba", "docked", {}, "en", "Roomba is docked."),
        # A sensor's value with its unit.
        ("sensor.office_temperature", "20.2", {}, "en", "Office Temperature is 20.2°C."),
        ("sensor.router_plug_power", "9.8", {}, "zh-Hans", "Router Plug Power是9.8W。"),
        # A window sensor is open or closed, not on or off.
        ("binary_sensor.main_bedroom_window", "on", {}, "en", "Bedroom Window is open."),
        ("cover.office_blind", "open", {"current_position": 40}, "en", "Office Blind is open at 40%."),
        ("valve.water_main", "closing", {}, "en", "Water Main is closing."),
        ("lock.back_door", "unlocked", {}, "zh-Hans", "Back Door Lock没锁。"),
    ],
)
async def test_one_device_is_described(
    hass: HomeAssistant,
    en_home: LoadedHome,
    entity_id: str,
    state: str,
    attributes: dict[str, Any],
    language: str,
    answer: str,
) -> None:
    """Each kind of device is described by what matters of its state, in the asked language."""
    update_state(hass, entity_id, state, **attributes)
    assert await async_describe(hass, language, [entity_id]) == answer


async def test_several_devices_are_joined(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """Several devices are said in one answer, joined as the language joins them."""
    ids = ["lock.back_door", "lock.front_door"]
    assert await async_describe(hass, "en", ids) == "Back Door Lock is locked; Front Door Lock is unlocked."
    assert await async_describe(hass, "zh-Hans", ids) == "Back Door Lock锁着；Front Door Lock没锁。"


@pytest.mark.parametrize(
    "entity_ids",
    [
        # Nothing to describe.
        [],
        # Too many for a spoken answer.
        [
            f"light.{name}"
            for name in (
                "office",
                "desk_lamp",
                "porch",
                "landing",
                "hallway",
                "patio",
                "garage",
                "bathroom",
                "ensuite",
            )
        ],
        # A camera's or a scene's state answers no question about it.
        ["camera.doorbell"],
        ["light.office", "scene.movie_night"],
        # A device that is not there.
        ["light.office", "light.not_in_this_home"],
    ],
)
async def test_no_answer_when_unsure(hass: HomeAssistant, en_home: LoadedHome, entity_ids: list[str]) -> None:
    """No answer is made up for too many devices, devices of other kinds, or a device that does not exist."""
    assert await async_describe(hass, "en", entity_ids) is None


async def test_eight_devices_are_still_described(hass: HomeAssistant, en_home: LoadedHome) -> None:
    """Up to eight devices are all said, one sentence each."""
    ids = [
        f"light.{name}" for name in ("office", "desk_lamp", "porch", "landing", "hallway", "patio", "garage")
    ]
    ids.append("lock.back_door")
    assert len(ids) == MAX_DESCRIBED
    answer = await async_describe(hass, "en", ids)
    assert answer is not None
    assert answer.count("; ") == MAX_DESCRIBED - 1
    assert answer.startswith("Office Light is on at 86% brightness; ")
    assert answer.endswith("Back Door Lock is locked.")


@pytest.mark.parametrize(
    ("mode", "attributes", "name"),
    [
        # Blowing air: nothing to keep at a temperature.
        ("fan_only", {"temperature": None}, "送风"),
        ("dry", {"temperature": None}, "除湿"),
        # Heat·cool reporting only one end of its range.
        ("heat_cool", {"temperature": None, "target_temp_low": 20, "target_temp_high": None}, "自动冷暖"),
    ],
)
async def test_a_thermostat_without_a_setting_says_its_mode_by_name(
    hass: HomeAssistant, en_home: LoadedHome, mode: str, attributes: dict[str, Any], name: str
) -> None:
    """An air conditioner on with no single temperature is said with its mode's name, not HA's code."""
    update_state(hass, "climate.office_ac", mode, **attributes)
    answer = await async_describe(hass, "zh-Hans", ["climate.office_ac"])
    assert answer is not None
    assert mode not in answer
    assert name in answer


@pytest.mark.parametrize(("state", "word"), [("paused", "暂停中"), ("idle", "空闲")])
async def test_a_paused_vacuum_is_said_in_words(
    hass: HomeAssistant, en_home: LoadedHome, state: str, word: str
) -> None:
    """A vacuum paused mid-clean, or idle off its dock, is said as such in Chinese, not as 'paused'/'idle'."""
    update_state(hass, "vacuum.roomba", state)
    assert await async_describe(hass, "zh-Hans", ["vacuum.roomba"]) == f"Roomba{word}。"


async def test_a_question_is_answered_without_the_model(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Is the desk fan on?" is answered from its state, with its speed, and nothing is called."""
    hass.config.units = METRIC_SYSTEM
    update_state(hass, "fan.desk_fan", "on", percentage=60)
    assert await converse(hass, "Is the desk fan on?", "en") == "Desk Fan is on at 60%."
    assert setup_en.calls == []
    assert fake_openai.chat_requests == []


async def test_asking_about_a_paused_vacuum_in_chinese(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """ "扫地机器人开着吗" of a paused vacuum is answered in Chinese words, not HA's "paused"."""
    update_state(hass, "vacuum.robot", "paused")
    assert await converse(hass, "扫地机器人开着吗") == "扫地机器人暂停中。"
    assert home.calls == []
    assert fake_openai.chat_requests == []
