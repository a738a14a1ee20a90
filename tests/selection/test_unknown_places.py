"""A floor that is not in the home selects nothing, never everything, in every language."""

from pathlib import Path

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, async_load_home, read_home
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from ..fake_openai import FakeOpenAI, text
from .conftest import EN_HOME
from .talk import converse

ZH_HOME = EN_HOME.with_name("zh-home.home.json")


async def _without_floors(hass: HomeAssistant, path: Path) -> LoadedHome:
    """Load a benchmark home as a one-storey home: no floors at all (as HA's demo has)."""
    assert await async_setup_component(hass, "homeassistant", {})
    home = read_home(path)
    home["floors"] = []
    for area in home["areas"]:
        area.pop("floor", None)
    return await async_load_home(hass, home)


@pytest.mark.parametrize(
    ("home", "sentence", "language", "reply"),
    [
        (EN_HOME, "turn off all the lights upstairs", "en", "There is no upstairs in this home."),
        (EN_HOME, "switch off the lights downstairs", "en", "There is no downstairs in this home."),
        (EN_HOME, "turn on every light in the attic", "en", "There is no attic in this home."),
        (ZH_HOME, "把楼上的灯全部关掉", "zh-Hans", "家里没有楼上。"),
        (ZH_HOME, "关掉二楼所有的灯", "zh-Hans", "家里没有二楼。"),
        (ZH_HOME, "閂晒樓上啲燈", "zh-HK", "屋企冇樓上。"),
        (ZH_HOME, "把二樓的燈都關掉", "zh-TW", "家裡沒有二樓。"),
    ],
)
async def test_floor_not_in_home(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    home: Path,
    sentence: str,
    language: str,
    reply: str,
) -> None:
    """The answer says the place is not there; no service is called, HA's matcher is not asked."""
    loaded = await _without_floors(hass, home)
    assert await converse(hass, sentence, language) == reply
    assert loaded.calls == []


async def test_floor_of_the_home_still_acts(hass: HomeAssistant, setup_en: LoadedHome) -> None:
    """Where the floor exists, the same sentence acts on that floor's lights only."""
    await converse(hass, "turn off all the lights upstairs", "en")
    assert setup_en.calls
    assert {call.data["entity_id"] for call in setup_en.calls} >= {"light.landing", "light.main_bedroom"}
    assert "light.kitchen_island" not in {call.data["entity_id"] for call in setup_en.calls}


async def test_a_name_with_a_floor_word_is_not_a_place(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """楼梯灯 and a device named after a floor ("Loft Lamp") are names, not missing places."""
    loaded = await _without_floors(hass, ZH_HOME)
    assert await converse(hass, "打开楼梯灯", "zh-Hans") == "已打开楼梯灯。"
    assert [call.data["entity_id"] for call in loaded.calls] == ["light.stairs"]


async def test_upstairs_in_a_home_of_floors_without_that_alias(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """With two floors, "楼上" names one of them, only not which: not "no upstairs", and no guess."""
    assert await async_setup_component(hass, "homeassistant", {})
    home = read_home(ZH_HOME)
    for floor in home["floors"]:
        floor.pop("aliases", None)
    loaded = await async_load_home(hass, home)
    fake_openai.add(text("楼上是二楼吗？"))
    assert await converse(hass, "把楼上的灯都关掉", "zh-Hans") == "楼上是二楼吗？"
    assert loaded.calls == []
