"""What the eleventh blind sets found handed on or done wrong, in homes of the same kinds.

A Chongqing duplex and a British terrace; the sentences are of the kinds people said there,
the checks are the service calls HA received and that the model was not asked.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, DEHUMIDIFIER, FAN, LIGHT, TV, VACUUM, assert_said, entity, load_home

CHONGQING_DUPLEX: dict[str, Any] = {
    "language": "zh-Hans",
    "areas": [
        {"id": "living", "name": "客厅"},
        {"id": "elder", "name": "老人房"},
        {"id": "second", "name": "次卧"},
        {"id": "study", "name": "书房"},
        {"id": "stairs", "name": "楼梯间"},
    ],
    "entities": [
        entity("light.living_main", "客厅主灯", "living", "on", LIGHT, aliases=["主灯"]),
        entity("light.living_strip", "Yeelight 灯带 1S", "living", "off", LIGHT, aliases=["灯带"]),
        entity("light.elder_bedside", "床头灯", "elder", "on", LIGHT),
        entity("light.second_bedside", "床头灯", "second", "on", LIGHT),
        entity("light.second_main", "次卧灯", "second", "on", LIGHT),
        entity("light.study_main", "书房灯", "study", "on", LIGHT),
        entity("light.study_lamp", "米家智能台灯Pro", "study", "on", LIGHT, aliases=["台灯"]),
        entity("switch.study_printer", "打印机", "study", "off", {"device_class": "outlet"}),
        entity("light.stairs", "楼梯灯", "stairs", "off", LIGHT),
        entity("vacuum.dreame", "Dreame L10s Ultra", "living", "cleaning", VACUUM, aliases=["扫地机"]),
        entity(
            "humidifier.heran",
            "禾联除湿机",
            "living",
            "on",
            {**DEHUMIDIFIER, "available_modes": ["auto", "continuous", "sleep"], "mode": "auto"},
        ),
    ],
}


@pytest.fixture
async def chongqing_duplex(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A duplex with bedside lamps in two rooms, a study with two lights and a robot vacuum."""
    return await load_home(hass, CHONGQING_DUPLEX)


@pytest.mark.parametrize(
    ("sentences", "area", "expected"),
    [
        # 开起: switched on, as Chongqing says it.
        (["楼梯灯开起"], None, [("light.turn_on", "light.stairs", {})]),
        # The main light is left as it is.
        (["主灯别关哈，把灯带开起就是了"], "living", [("light.turn_on", "light.living_strip", {})]),
        # 都 after two rooms: every light of each, not the printer's plug.
        (
            ["次卧和书房的灯都关掉"],
            None,
            [
                ("light.turn_off", "light.second_bedside", {}),
                ("light.turn_off", "light.second_main", {}),
                ("light.turn_off", "light.study_lamp", {}),
                ("light.turn_off", "light.study_main", {}),
            ],
        ),
        # A mode the device names in English, said in Chinese.
        (["除湿机改成连续除湿"], None, [("humidifier.set_mode", "humidifier.heran", {"mode": "continuous"})]),
        # "Carry on sweeping": the cleaning is started again.
        (
            ["扫地机暂停一下", "好了，让它继续扫吧"],
            None,
            [("vacuum.pause", "vacuum.dreame", {}), ("vacuum.start", "vacuum.dreame", {})],
        ),
    ],
)
async def test_what_people_say_in_a_chongqing_duplex(
    hass: HomeAssistant,
    chongqing_duplex: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    area: str | None,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each conversation does exactly the expected calls with no model."""
    await assert_said(hass, chongqing_duplex, fake_openai, sentences, "zh-Hans", expected, area)


@pytest.mark.parametrize("sentence", ["床头灯关了吗", "床头灯关了嘛"])
async def test_a_question_with_ma_is_still_a_question(
    hass: HomeAssistant, chongqing_duplex: LoadedHome, fake_openai: FakeOpenAI, sentence: str
) -> None:
    """ "床头灯关了吗" asks; so does 嘛 after a verb said done, where it may be written for 吗.

    (Nothing put before the verb: "把床头灯关了嘛" asks for it, test_said_in_thirteenth_homes.)
    """
    replies = await assert_said(hass, chongqing_duplex, fake_openai, [sentence], "zh-Hans", [], "elder")
    assert "床头灯" in replies[0]


async def test_a_name_said_in_each_of_two_rooms_is_no_group(
    hass: HomeAssistant, chongqing_duplex: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "客厅和次卧的主灯都打开": the main lights, never the living room's strip."""
    await assert_said(hass, chongqing_duplex, fake_openai, ["客厅和次卧的主灯都打开"], "zh-Hans", [])


BRITISH_TERRACE: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "lounge", "name": "Lounge"},
        {"id": "kitchen", "name": "Kitchen"},
        {"id": "loft", "name": "Loft"},
    ],
    # Made by Meaco, both: "the Meaco" names either.
    "devices": [
        {"id": "arete", "name": "Meaco Arete One", "area": "kitchen", "manufacturer": "Meaco"},
        {"id": "meacofan", "name": "MeacoFan 1056", "area": "loft", "manufacturer": "Meaco"},
    ],
    "entities": [
        entity("light.lounge_ceiling", "Lounge ceiling", "lounge", "off", LIGHT),
        entity("media_player.lounge", "Lounge", "lounge", "playing", {"device_class": "speaker"}),
        entity("scene.lounge_film_night", "Lounge Film night", "lounge", "unknown", {}),
        entity("scene.lounge_relax", "Lounge Relax", "lounge", "unknown", {}),
        {
            **entity(
                "humidifier.meaco",
                "Meaco Arete One",
                "kitchen",
                "on",
                {**DEHUMIDIFIER, "available_modes": ["auto", "laundry", "sleep"], "mode": "auto"},
            ),
            "device": "arete",
        },
        {
            **entity(
                "fan.meaco",
                "MeacoFan 1056",
                "loft",
                "off",
                {
                    **FAN,
                    "supported_features": 1 | 8,
                    "preset_modes": ["normal", "sleep"],
                    "preset_mode": None,
                },
            ),
            "device": "meacofan",
        },
        entity("climate.loft", "Loft", "loft", "heat", CLIMATE),
        entity("light.loft_desk", "Desk lamp", "loft", "on", LIGHT),
        entity(
            "media_player.telly",
            "LG webOS Smart TV",
            "lounge",
            "on",
            {
                **TV,
                "volume_level": 0.3,
                "source_list": ["Netflix", "BBC iPlayer", "ITVX"],
                # Volume set and mute, select source, on and off.
                "supported_features": 4 | 8 | 2048 | 128 | 256,
            },
            aliases=["telly"],
        ),
        entity("vacuum.robovac", "RoboVac 15C", "loft", "paused", VACUUM),
        # Open, close, set position (cover.CoverEntityFeature).
        entity(
            "cover.loft_blind",
            "Loft blind",
            "loft",
            "open",
            {"device_class": "blind", "current_position": 100, "supported_features": 1 | 2 | 4},
        ),
    ],
}


@pytest.fixture
async def british_terrace(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A terrace with Hue scenes named after their room and two Meaco devices."""
    return await load_home(hass, BRITISH_TERRACE)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # The rest of the scene's name is the room said.
        ("Film night in the lounge please", [("scene.turn_on", "scene.lounge_film_night", {})]),
        # Of the two Meacos, only the dehumidifier has a laundry mode.
        ("Set the Meaco to laundry mode", [("humidifier.set_mode", "humidifier.meaco", {"mode": "laundry"})]),
        ("Carry on hoovering", [("vacuum.start", "vacuum.robovac", {})]),
        # A source said by one of its words.
        (
            "Put iPlayer on the telly",
            [("media_player.select_source", "media_player.telly", {"source": "BBC iPlayer"})],
        ),
        # "up in" says where: the lamp is switched off, not brightened.
        ("Turn off the desk lamp up in the loft", [("light.turn_off", "light.loft_desk", {})]),
        # A scene said with its kind word is run.
        (
            "Relax scene in the lounge, and turn the telly down to ten",
            [
                ("media_player.volume_set", "media_player.telly", {"volume_level": 0.1}),
                ("scene.turn_on", "scene.lounge_relax", {}),
            ],
        ),
    ],
)
async def test_what_people_say_in_a_british_terrace(
    hass: HomeAssistant,
    british_terrace: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each sentence does exactly the expected calls with no model."""
    await assert_said(hass, british_terrace, fake_openai, [sentence], "en", expected)


async def test_left_at_a_setting_is_set(
    hass: HomeAssistant, british_terrace: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Actually, leave it half open" after closing the blind: half open, not "left as it is"."""
    await assert_said(
        hass,
        british_terrace,
        fake_openai,
        ["Close the loft blind", "Actually, leave it half open"],
        "en",
        [
            ("cover.close_cover", "cover.loft_blind", {}),
            ("cover.set_cover_position", "cover.loft_blind", {"position": 50}),
        ],
    )


async def test_a_scene_asked_about_is_not_run(
    hass: HomeAssistant, british_terrace: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Relax scene?" asks; the scene is not run."""
    await assert_said(hass, british_terrace, fake_openai, ["Relax scene?"], "en", [])


async def test_a_not_before_a_request_with_no_verb_is_handed_on(
    hass: HomeAssistant, british_terrace: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Not the ceiling light, just the desk lamp": not answered as leaving both as they are."""
    replies = await assert_said(
        hass, british_terrace, fake_openai, ["Not the lounge ceiling, just the desk lamp please"], "en", []
    )
    assert fake_openai.chat_requests
    assert "leave" not in replies[0]


async def test_a_mode_two_devices_named_alike_have_is_handed_on(
    hass: HomeAssistant, british_terrace: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Both Meacos have a sleep mode: nothing is done, and the climate dialog is not opened."""
    await assert_said(hass, british_terrace, fake_openai, ["Set the Meaco to sleep mode"], "en", [])
    assert fake_openai.chat_requests
