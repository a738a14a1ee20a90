"""Presets of fans, purifiers and humidifiers, speed and temperature steps, and names said in full."""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, async_load_home, read_home
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from ..conftest import HOME_ZH, update_state
from ..fake_openai import FakeOpenAI
from .talk import converse, converse_in_turns

PURIFIER: dict[str, Any] = {
    "entity_id": "fan.living_purifier",
    "name": "空气净化器",
    "area": "living",
    "state": "on",
    "attributes": {
        "preset_modes": ["auto", "sleep", "favorite"],
        "preset_mode": "auto",
        "supported_features": 56,
        "friendly_name": "空气净化器",
    },
}
HUMIDIFIER_MODES = {"available_modes": ["normal", "sleep", "auto"], "mode": "normal", "supported_features": 1}


def assert_one_call(home: LoadedHome, entity_id: str, service: str, data: dict[str, Any]) -> None:
    """Assert that exactly one service was called: this one, on this entity, with these data."""
    [call] = home.calls
    assert (call.service, call.data["entity_id"]) == (service, entity_id)
    assert {key: call.data[key] for key in data} == data


@pytest.fixture
async def setup(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """The Chinese test home with a purifier whose presets are HA's keys, and a humidifier with modes."""
    assert await async_setup_component(hass, "homeassistant", {})
    home = read_home(HOME_ZH)
    area = next(a["id"] for a in home["areas"] if a["name"] == "客厅")
    home["entities"].append({**PURIFIER, "area": area})
    for entity in home["entities"]:
        if entity["entity_id"] == "humidifier.master_humidifier":
            entity["attributes"] = {**entity["attributes"], **HUMIDIFIER_MODES}
    return await async_load_home(hass, home)


@pytest.mark.parametrize(
    ("sentence", "entity_id", "service", "data", "reply"),
    [
        (
            "空气净化器调到睡眠模式",
            "fan.living_purifier",
            "set_preset_mode",
            {"preset_mode": "sleep"},
            "空气净化器已切换到睡眠模式。",
        ),
        (
            "空气净化器开自动模式",
            "fan.living_purifier",
            "set_preset_mode",
            {"preset_mode": "auto"},
            "空气净化器已切换到自动模式。",
        ),
        (
            "主卧加湿器调到睡眠模式",
            "humidifier.master_humidifier",
            "set_mode",
            {"mode": "sleep"},
            "主卧加湿器已切换到睡眠模式。",
        ),
        ("落地扇调快一档", "fan.living_fan", "increase_speed", {}, "已调高落地扇的风速。"),
        # 湿度 alone is a humidity command, not the climate dialog (湿度 holds 度).
        (
            "主卧加湿器湿度调到五十",
            "humidifier.master_humidifier",
            "set_humidity",
            {"humidity": 50},
            "主卧加湿器湿度已设为50%。",
        ),
    ],
)
async def test_presets_and_speed_steps(
    hass: HomeAssistant,
    setup: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    entity_id: str,
    service: str,
    data: dict[str, Any],
    reply: str,
) -> None:
    """The device's own preset (not the climate dialog's), one speed step (not speed 1)."""
    assert await converse(hass, sentence) == reply
    assert_one_call(setup, entity_id, service, data)
    assert fake_openai.chat_requests == []


async def test_a_device_without_area_is_placed_by_its_name(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """HA's demo humidifier has no registry entry, so no area: "主卧加湿器" still names it."""
    assert await async_setup_component(hass, "homeassistant", {})
    home = read_home(HOME_ZH)
    for entity in home["entities"]:
        if entity["entity_id"] == "humidifier.master_humidifier":
            entity.pop("area", None)
            entity.pop("device", None)
    loaded = await async_load_home(hass, home)
    assert await converse(hass, "主卧加湿器开着吗") == "主卧加湿器关着。"
    await converse(hass, "把主卧加湿器打开")
    assert_one_call(loaded, "humidifier.master_humidifier", "turn_on", {})
    assert fake_openai.chat_requests == []


async def test_a_preset_the_device_lacks_is_a_clear_answer(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """No guess at the nearest preset: the device is named, nothing is called."""
    assert await converse(hass, "空气净化器调到节能模式") == "空气净化器不支持这个模式。"
    assert await converse(hass, "落地扇调到睡眠模式") == "落地扇不支持这个模式。"
    assert setup.calls == []
    assert fake_openai.chat_requests == []


async def test_a_preset_word_in_a_name_names_the_device(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Without a device of its own, 睡眠模式 stays the climate dialog's preset for the air conditioner."""
    reply = await converse(hass, "主卧空调调到睡眠模式")
    assert "主卧空调" in reply
    assert "确认" in reply
    assert setup.calls == []


async def test_a_name_said_in_full_wins_over_the_name_inside_it(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """客厅灯带 is the strip, not 客厅灯 (in 客厅灯带) nor the main light of the same room."""
    await converse(hass, "客厅灯带调成红色")
    assert_one_call(setup, "light.living_strip", "turn_on", {})


async def test_a_repeated_speed_step_is_a_step_again(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """再来一次 after 调快一档 steps once more."""
    await converse_in_turns(hass, "落地扇调快一档", "再来一次")
    assert [call.service for call in setup.calls] == ["increase_speed", "increase_speed"]


@pytest.mark.parametrize(
    ("sentence", "entity_id", "service", "data"),
    [
        (
            "Put the dehumidifier on laundry mode",
            "humidifier.utility_dehumidifier",
            "set_mode",
            {"mode": "laundry"},
        ),
        ("Make the office light as bright as possible", "light.office", "turn_on", {"brightness_pct": 100}),
        ("Set the landing light to its lowest brightness", "light.landing", "turn_on", {"brightness_pct": 1}),
        (
            "Change the table lamp to 30 percent brightness",
            "light.living_room_table_lamp",
            "turn_on",
            {"brightness_pct": 30},
        ),
        (
            "Set the brightness of the table lamp to max",
            "light.living_room_table_lamp",
            "turn_on",
            {"brightness_pct": 100},
        ),
        # Vacuums, water heaters, scenes: "away mode" is the scene's name, not a preset.
        ("Tell the robot vacuum to start cleaning", "vacuum.roomba", "start", {}),
        ("Send the robot vacuum home", "vacuum.roomba", "return_to_base", {}),
        ("Set the hot water to 60 degrees", "water_heater.hot_water", "set_temperature", {"temperature": 60}),
        ("Activate away mode", "scene.away", "turn_on", {}),
        ("Turn on cinema mode", "scene.movie_night", "turn_on", {}),
    ],
)
async def test_english_phrasings(
    hass: HomeAssistant,
    setup_en: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    entity_id: str,
    service: str,
    data: dict[str, Any],
) -> None:
    """Modes, superlatives, vacuums, water heaters and scenes said the English way, carried out exactly."""
    await converse(hass, sentence, "en")
    assert_one_call(setup_en, entity_id, service, data)
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("sentence", "entity_id", "step"),
    [
        ("Turn the hallway radiator down two degrees", "climate.hallway_radiator", -2),
        ("Turn Emma's radiator up half a degree", "climate.emma_radiator", 0.5),
    ],
)
async def test_english_degree_steps(
    hass: HomeAssistant,
    setup_en: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    entity_id: str,
    step: float,
) -> None:
    """ "Down two degrees" is a step from the set temperature, not a target of 2 degrees."""
    before = hass.states.get(entity_id)
    assert before is not None
    await converse(hass, sentence, "en")
    target = before.attributes["temperature"] + step
    assert_one_call(setup_en, entity_id, "set_temperature", {"temperature": target})
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("sentence", "entity_id", "service", "data"),
    [
        ("扫地机器人开始扫地", "vacuum.robot", "start", {}),
        ("扫地机器人回去充电", "vacuum.robot", "return_to_base", {}),
        ("热水器调到50度", "water_heater.boiler", "set_temperature", {"temperature": 50}),
        ("打开观影模式", "scene.movie", "turn_on", {}),
    ],
)
async def test_vacuums_water_heaters_and_scenes(
    hass: HomeAssistant,
    setup: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    entity_id: str,
    service: str,
    data: dict[str, Any],
) -> None:
    """Vacuum start and dock, a water heater's temperature, a scene whose name holds 模式."""
    await converse(hass, sentence)
    assert_one_call(setup, entity_id, service, data)
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("sentence", "service", "data"),
    [
        # The fan said beside a level: the fan's speed, though "quiet" is a preset word too.
        ("Set the office air conditioner fan to quiet", "set_fan_mode", {"fan_mode": "quiet"}),
        # A thermostat's "auto" is heat_cool when it offers no auto mode.
        ("Put the office air conditioner on auto", "set_hvac_mode", {"hvac_mode": "heat_cool"}),
    ],
)
async def test_a_mini_split_as_its_integration_lists_it(
    hass: HomeAssistant,
    setup_en: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    service: str,
    data: dict[str, Any],
) -> None:
    """Fan modes and HVAC modes named the way a mini split's integration names them."""
    update_state(
        hass,
        "climate.office_ac",
        hvac_modes=["off", "cool", "heat", "dry", "fan_only", "heat_cool"],
        fan_modes=["superQuiet", "quiet", "low", "powerful", "auto"],
    )
    await converse(hass, sentence, "en")
    assert_one_call(setup_en, "climate.office_ac", service, data)
    assert fake_openai.chat_requests == []
