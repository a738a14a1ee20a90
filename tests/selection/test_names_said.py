"""What a name said picks: its maker, a number in it, its owner, a state said of a group."""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, async_load_home, read_home
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from ..conftest import update_state
from ..fake_openai import FakeOpenAI, text
from .conftest import EN_HOME
from .talk import converse

FAN_ATTRIBUTES = {
    "percentage": 0,
    "percentage_step": 25,
    "preset_modes": ["auto", "sleep"],
    "supported_features": 57,
}


@pytest.fixture
async def home_en(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """The English home with two devices of one maker, a numbered lamp and pool equipment."""
    assert await async_setup_component(hass, "homeassistant", {})
    home = read_home(EN_HOME)
    area = home["areas"][0]["id"]
    devices: list[dict[str, Any]] = [
        # VeSync registers Levoit's purifiers and humidifiers under its own name.
        {
            "id": "levoit",
            "name": "Levoit Core 300S",
            "manufacturer": "VeSync",
            "model": "Core300S",
            "area": area,
        },
        {
            "id": "hum",
            "name": "Nursery humidifier",
            "manufacturer": "VeSync",
            "model": "Classic300S",
            "area": area,
        },
        {"id": "pool", "name": "Pool Equipment", "manufacturer": "Pentair", "area": area},
    ]
    entities: list[dict[str, Any]] = [
        {
            "entity_id": "fan.levoit_core_300s",
            "name": "Levoit Core 300S",
            "device": "levoit",
            "state": "off",
            "attributes": {**FAN_ATTRIBUTES, "friendly_name": "Levoit Core 300S"},
        },
        {
            "entity_id": "switch.levoit_core_300s_display",
            "name": "Levoit Core 300S Display",
            "device": "levoit",
            "state": "off",
            "attributes": {"friendly_name": "Levoit Core 300S Display"},
            # A configuration entity: not exposed by default.
            "exposed": False,
        },
        {
            "entity_id": "humidifier.nursery_humidifier",
            "name": "Nursery humidifier",
            "device": "hum",
            "state": "off",
            "attributes": {
                "min_humidity": 30,
                "max_humidity": 80,
                "humidity": 45,
                "friendly_name": "Nursery humidifier",
            },
        },
        {
            "entity_id": "light.hue_white_lamp_1",
            "name": "Hue white lamp 1",
            "area": area,
            "state": "on",
            "attributes": {
                "supported_color_modes": ["brightness"],
                "color_mode": "brightness",
                "brightness": 200,
                "friendly_name": "Hue white lamp 1",
            },
        },
        {
            "entity_id": "switch.pool_light",
            "name": "Pool Light",
            "device": "pool",
            "state": "off",
            "attributes": {"friendly_name": "Pool Light"},
        },
    ]
    home["devices"] = [*home.get("devices", []), *devices]
    home["entities"] = [*home["entities"], *entities]
    return await async_load_home(hass, home)


async def test_a_maker_said_of_two_devices_is_asked(
    hass: HomeAssistant, home_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "the Levoit" of a VeSync purifier called Levoit and a VeSync humidifier: either is a Levoit."""
    fake_openai.add(text("Which one?"))
    await converse(hass, "Turn on the Levoit", "en")
    assert home_en.calls == []


async def test_another_number_names_another_device(
    hass: HomeAssistant, home_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Hue white lamp two" where only lamp 1 exists: nothing is dimmed; "one" dims lamp 1."""
    fake_openai.add(text("There is no lamp 2."))
    await converse(hass, "Dim Hue white lamp two", "en")
    assert home_en.calls == []
    await converse(hass, "Dim Hue white lamp one", "en")
    assert [(c.service, c.data["entity_id"]) for c in home_en.calls] == [
        ("turn_on", "light.hue_white_lamp_1")
    ]


async def test_a_kind_said_of_another_family_completes_no_name(
    hass: HomeAssistant, home_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "the pool heater" is not the Pool Light, though "pool" and a kind word are said."""
    fake_openai.add(text("There is no pool heater."))
    await converse(hass, "Turn on the pool heater", "en")
    assert home_en.calls == []


@pytest.fixture
async def home_zh(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """The Chinese test home, then the integration."""
    return home


async def test_a_device_said_as_the_owner_of_another_kind(
    hass: HomeAssistant, home_zh: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "客厅主灯的夜灯" is a night light of the main light, not the main light."""
    update_state(hass, "light.living_main", "off")
    fake_openai.add(text("没有找到夜灯。"))
    await converse(hass, "客厅主灯的夜灯打开")
    assert home_zh.calls == []


async def test_a_state_said_of_a_group_keeps_those_in_it(
    hass: HomeAssistant, home_zh: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "开着的空调全部关掉": only the air conditioners that are on; all of them without it."""
    await converse(hass, "家里开着的空调全部关掉")
    assert {c.data["entity_id"] for c in home_zh.calls} == {"climate.living_ac"}
    home_zh.calls.clear()
    await converse(hass, "家里的空调全部关掉")
    assert {c.data["entity_id"] for c in home_zh.calls} == {
        "climate.living_ac",
        "climate.master_ac",
        "climate.kids_ac",
    }
