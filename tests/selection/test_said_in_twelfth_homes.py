"""What the twelfth blind sets found done wrong, in homes of the same kinds.

A Taiwan townhouse with two desk lamps, a Hangzhou flat and a Minneapolis house; the checks
are the service calls HA received, and that nothing is done where the sentence leaves it open.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, LIGHT, TV, VACUUM, assert_said, entity, load_home

TAIWAN_TOWNHOUSE: dict[str, Any] = {
    "language": "zh-Hant",
    "areas": [
        {"id": "study", "name": "書房"},
        {"id": "master", "name": "主臥"},
        {"id": "living", "name": "客廳"},
    ],
    "entities": [
        entity("light.study_lamp", "檯燈", "study", "on", LIGHT),
        entity("light.master_lamp", "米家LED智慧檯燈 1S", "master", "on", LIGHT),
        entity("light.master_ceiling", "主臥燈", "master", "off", LIGHT),
        entity("light.master_bedside", "米家床頭燈2", "master", "off", LIGHT),
        entity("light.living_main", "客廳主燈", "living", "on", LIGHT),
        entity("light.living_strip", "電視背景燈帶", "living", "on", LIGHT),
    ],
}


@pytest.fixture
async def taiwan_townhouse(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A townhouse where one desk lamp is named 檯燈 and another holds the word in its name."""
    return await load_home(hass, TAIWAN_TOWNHOUSE)


@pytest.mark.parametrize(
    ("sentences", "area", "expected"),
    [
        # Both are desk lamps: with no room known, which one is not said.
        (["檯燈關掉"], None, []),
        # Said in the study, the study's.
        (["檯燈關掉"], "study", [("light.turn_off", "light.study_lamp", {})]),
        (["書房檯燈關掉"], None, [("light.turn_off", "light.study_lamp", {})]),
        # 几个 asks how many; it switches nothing on.
        (["這個房間的燈開了幾個"], "living", []),
        # A bedside lamp after the ceiling light: the bedside lamp of that room.
        (
            ["把主臥燈打開", "也把床頭燈開了"],
            None,
            [("light.turn_on", "light.master_bedside", {}), ("light.turn_on", "light.master_ceiling", {})],
        ),
    ],
)
async def test_what_people_say_in_a_taiwan_townhouse(
    hass: HomeAssistant,
    taiwan_townhouse: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    area: str | None,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each conversation does exactly the expected calls."""
    await assert_said(hass, taiwan_townhouse, fake_openai, sentences, "zh-Hant", expected, area)


MAINLAND_FLAT: dict[str, Any] = {
    "language": "zh-Hans",
    "areas": [{"id": "study", "name": "书房"}, {"id": "roof", "name": "露台"}],
    "entities": [
        entity("light.desk_lamp", "米家智能台灯Pro", "study", "on", LIGHT, aliases=["台灯"]),
        entity("light.roof", "天台灯", "roof", "on", LIGHT),
        entity("media_player.tv", "电视", "study", "on", TV),
        entity("light.tv_strip", "电视背景灯带", "study", "on", LIGHT),
    ],
}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # An alias the user gave is meant, whatever other names hold its characters.
        ("台灯关掉", [("light.turn_off", "light.desk_lamp", {})]),
        # A light named for the TV is no TV.
        ("把电视关了", [("media_player.turn_off", "media_player.tv", {})]),
    ],
)
async def test_a_kind_word_given_as_a_name_is_meant(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    sentence: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """A kind word that is the user's alias, or whose others are of another kind, names one device."""
    home = await load_home(hass, MAINLAND_FLAT)
    await assert_said(hass, home, fake_openai, [sentence], "zh-Hans", expected)


TWO_VACUUMS: dict[str, Any] = {
    "language": "zh-Hans",
    "areas": [{"id": "living", "name": "客厅"}, {"id": "hall", "name": "走廊"}],
    "devices": [
        {"id": "roborock", "name": "石头扫地机器人", "area": "living"},
        {"id": "ecovacs", "name": "科沃斯扫地机器人", "area": "hall"},
    ],
    "entities": [
        entity("vacuum.roborock_s8", "扫地机器人", None, "docked", VACUUM, device="roborock"),
        entity("vacuum.ecovacs_t20", "扫拖机器人", None, "docked", VACUUM, device="ecovacs"),
    ],
}


async def test_a_name_only_a_device_holds_does_not_weaken_the_one_named_so(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """扫地机器人 is one vacuum's own name; the other is 扫拖机器人, on a device 科沃斯扫地机器人."""
    home = await load_home(hass, TWO_VACUUMS)
    await assert_said(
        hass,
        home,
        fake_openai,
        ["扫地机器人开始打扫"],
        "zh-Hans",
        [("vacuum.start", "vacuum.roborock_s8", {})],
    )


MINNEAPOLIS_HOUSE: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "kids_bath", "name": "Kids Bath"},
        {"id": "living", "name": "Living Room"},
        {"id": "bedroom", "name": "Bedroom"},
    ],
    "entities": [
        entity("switch.kids_bath_fan", "Kids Bath Fan", "kids_bath", "on", {}),
        entity("light.kids_bath_lights", "Kids Bath Lights", "kids_bath", "on", LIGHT),
        entity("light.living_lamp", "Living Room Lamp", "living", "on", LIGHT),
        # Two air conditioners named alike; only the bedroom's has a dry mode.
        entity("climate.living_ac", "AC", "living", "cool", {**CLIMATE, "hvac_modes": ["off", "cool"]}),
        entity("climate.bedroom_ac", "AC", "bedroom", "off", CLIMATE),
        entity(
            "climate.my_ecobee",
            "My ecobee",
            "living",
            "heat",
            {**CLIMATE, "fan_modes": ["auto", "on"], "fan_mode": "auto", "supported_features": 1 | 8},
        ),
    ],
}


@pytest.fixture
async def minneapolis_house(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A house with a bath fan on a switch beside the bath lights, and an ecobee."""
    return await load_home(hass, MINNEAPOLIS_HOUSE)


async def test_a_kind_said_after_another_device_is_that_kind(
    hass: HomeAssistant, minneapolis_house: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "And the light" after the bath fan: the bath's light, not the fan again."""
    await assert_said(
        hass,
        minneapolis_house,
        fake_openai,
        ["turn off the kids bath fan", "and the light"],
        "en",
        [("light.turn_off", "light.kids_bath_lights", {}), ("switch.turn_off", "switch.kids_bath_fan", {})],
    )


async def test_a_kind_said_is_not_looked_for_among_older_devices(
    hass: HomeAssistant, minneapolis_house: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "And the light" after the lamp and then the fan: the bath's light, not the lamp again."""
    await assert_said(
        hass,
        minneapolis_house,
        fake_openai,
        ["turn off the living room lamp", "turn on the kids bath fan", "and the light"],
        "en",
        [
            ("light.turn_off", "light.living_lamp", {}),
            ("light.turn_on", "light.kids_bath_lights", {}),
            ("switch.turn_on", "switch.kids_bath_fan", {}),
        ],
    )


async def test_of_two_devices_named_alike_the_user_says_which(
    hass: HomeAssistant, minneapolis_house: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Only the bedroom's AC has a dry mode, but "the AC" does not say it is the one meant."""
    await assert_said(hass, minneapolis_house, fake_openai, ["set the AC to dry mode"], "en", [])
    assert fake_openai.chat_requests


async def test_what_follows_instead_of_is_not_done(
    hass: HomeAssistant, minneapolis_house: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "to on instead of auto": never the auto said last; handed on."""
    await assert_said(
        hass,
        minneapolis_house,
        fake_openai,
        ["switch the ecobee fan to on instead of auto"],
        "en",
        [],
    )
    assert fake_openai.chat_requests
