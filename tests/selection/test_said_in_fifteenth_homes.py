"""What the fifteenth blind sets found, in homes of the same kinds.

A Texas house whose teenagers say "yo … pls" and whose grandmother asks "would you mind…",
with a Roku TV in one bedroom and a Roku Express in another; a Chengdu flat spoken to in
Sichuan-flavoured Mandarin (莫 for "don't"); a Tainan townhouse (免 for "no need"); a Sai Kung
village house typed to in Cantonese with "jor". The checks are the service calls HA
received, and that nothing is done where the sentence leaves it open.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, FAN, LIGHT, TV, assert_home_said, assert_said, entity, load_home, said

LOUD_TV = {
    **TV,
    "volume_level": 0.5,
    "is_volume_muted": False,
    "supported_features": 4 | 8 | 128 | 256 | 1024,
}
COLOUR_LIGHT = {"supported_color_modes": ["hs"], "color_mode": "hs", "brightness": 200}
COVER = {"device_class": "garage", "supported_features": 3}
WINDOW_AC = {**CLIMATE, "fan_modes": ["auto", "low", "medium", "high"], "fan_mode": "auto"}

TEXAS_HOUSE: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "primary_bedroom", "name": "Primary Bedroom"},
        {"id": "jakes_room", "name": "Jake's Room"},
        {"id": "mayas_room", "name": "Maya's Room"},
        {"id": "nanas_room", "name": "Nana's Room"},
        {"id": "game_room", "name": "Game Room"},
        {"id": "backyard", "name": "Backyard"},
        {"id": "workshop", "name": "Workshop"},
        {"id": "garage", "name": "Garage"},
    ],
    "devices": [
        {"id": "bedroom_tv", "name": "Bedroom TV", "area": "primary_bedroom", "model": "55S455 (Roku TV)"},
        {
            "id": "roku",
            "name": "Roku Express 4K",
            "area": "jakes_room",
            "manufacturer": "Roku",
            "model": "3941X",
        },
    ],
    "entities": [
        entity("media_player.bedroom_tv", "Bedroom TV", None, "off", LOUD_TV, device="bedroom_tv"),
        entity("media_player.roku", "Roku Express 4K", None, "off", LOUD_TV, device="roku"),
        entity("fan.jakes_fan", "Jake's Fan", "jakes_room", "on", FAN),
        entity("light.govee", "Govee H6159", "mayas_room", "off", COLOUR_LIGHT),
        entity("switch.flat_iron", "Flat Iron", "mayas_room", "on", {}),
        entity("media_player.nanas_tv", "Nana's TV", "nanas_room", "on", LOUD_TV),
        entity("light.hue_play_left", "Hue Play left", "game_room", "on", COLOUR_LIGHT),
        entity("light.hue_play_right", "Hue Play right", "game_room", "on", COLOUR_LIGHT),
        entity("switch.string_lights", "Patio String Lights", "backyard", "on", {}),
        entity("light.floods", "Backyard Floods", "backyard", "on", LIGHT),
        entity("switch.off_grid_shed", "Off-Grid Shed", "backyard", "off", {}),
        entity("climate.workshop_ac", "Workshop AC", "workshop", "off", WINDOW_AC, aliases=["shop AC"]),
        entity("lock.workshop_door", "Workshop Door", "workshop", "unlocked", {"supported_features": 0}),
        entity("lock.back_door", "Back Door", None, "unlocked", {"supported_features": 0}),
        entity("cover.left_garage_door", "Left Garage Door", "garage", "open", COVER),
        entity("cover.right_garage_door", "Right Garage Door", "garage", "open", COVER),
    ],
}

CHENGDU_FLAT: dict[str, Any] = {
    "language": "zh-Hans",
    "areas": [{"id": "grandparents", "name": "老人房"}, {"id": "terrace", "name": "露台"}],
    "entities": [
        entity("climate.grandparents", "美的空调 酷省电", "grandparents", "cool", CLIMATE),
        entity("light.grandparents_ceiling", "老人房吸顶灯", "grandparents", "on", LIGHT, aliases=["大灯"]),
        entity("light.bedside", "老人房床头灯", "grandparents", "off", LIGHT),
        entity("media_player.tv", "Redmi 电视 A43", "grandparents", "off", TV),
        entity("switch.fish_tank", "鱼缸灯", "terrace", "on", {"device_class": "outlet"}),
        entity("switch.fish_pump", "插座2", "terrace", "on", {"device_class": "outlet"}, aliases=["鱼缸泵"]),
        entity(
            "valve.terrace",
            "露台水阀",
            "terrace",
            "closed",
            {"device_class": "water", "supported_features": 3},
        ),
    ],
}

TAINAN_TOWNHOUSE: dict[str, Any] = {
    "language": "zh-TW",
    "areas": [{"id": "ama", "name": "阿嬤房"}],
    "entities": [
        entity("climate.ama", "阿嬤房冷氣", "ama", "off", CLIMATE),
        entity("switch.ama_fan", "阿嬤房電扇", "ama", "off", {}),
    ],
}

SAI_KUNG_HOUSE: dict[str, Any] = {
    "language": "zh-HK",
    "areas": [{"id": "ethan", "name": "Ethan房"}],
    "entities": [
        entity("switch.plug_3", "智能插座 3", "ethan", "on", {}),
        entity("switch.plug_4", "智能插座 4", "ethan", "on", {}),
    ],
}


@pytest.mark.parametrize(
    ("home", "sentences", "expected", "area"),
    [
        # The bedroom's TV is a Roku TV, the Roku Express is in Jake's room: either may be meant.
        said(TEXAS_HOUSE, ["Turn on the Roku."], [], "primary_bedroom", why="roku-here-and-there"),
        said(
            TEXAS_HOUSE,
            ["Turn on the Roku."],
            [("media_player.turn_on", "media_player.roku", {})],
            "jakes_room",
            why="roku-in-its-room",
        ),
        said(
            TEXAS_HOUSE,
            ["yo turn off my fan"],
            [("fan.turn_off", "fan.jakes_fan", {})],
            "jakes_room",
            why="yo",
        ),
        said(
            TEXAS_HOUSE,
            ["Would you mind lowering the television a little?"],
            [("media_player.volume_down", "media_player.nanas_tv", {})],
            "nanas_room",
            why="would-you-mind-lowering",
        ),
        # A state said is no command, even with a wish or a statement around it.
        said(TEXAS_HOUSE, ["is the back door locked?"], [], why="is-it-locked"),
        said(TEXAS_HOUSE, ["the back door's locked right"], [], why="its-locked-right"),
        said(TEXAS_HOUSE, ["pretty sure I closed the garage door"], [], why="i-closed-it"),
        # A question about the flat iron between: "it" may be the flat iron or the Govee.
        said(
            TEXAS_HOUSE,
            ["omg did i leave my flat iron on", "turn it off pls"],
            [("switch.turn_off", "switch.flat_iron", {})],
            "mayas_room",
            why="it-after-a-question",
        ),
        said(
            TEXAS_HOUSE,
            ["dont turn off the string lights, just the floods"],
            [("light.turn_off", "light.floods", {})],
            "backyard",
            why="just-the-floods",
        ),
        said(
            TEXAS_HOUSE,
            ["make the hue plays red"],
            [
                ("light.turn_on", "light.hue_play_left", {"rgb_color": [255, 0, 0]}),
                ("light.turn_on", "light.hue_play_right", {"rgb_color": [255, 0, 0]}),
            ],
            why="hue-plays",
        ),
        # The workshop is what is locked, not where the garage doors are.
        said(
            TEXAS_HOUSE,
            ["Close both garage doors and lock the workshop."],
            [
                ("cover.close_cover", "cover.left_garage_door", {}),
                ("cover.close_cover", "cover.right_garage_door", {}),
                ("lock.lock", "lock.workshop_door", {}),
            ],
            why="lock-the-workshop",
        ),
        # The room said last is the lights' too, when what it ends with is named.
        said(
            TEXAS_HOUSE,
            ["turn off the lights and the flat iron in maya's room"],
            [("light.turn_off", "light.govee", {}), ("switch.turn_off", "switch.flat_iron", {})],
            "game_room",
            why="trailing-room-of-a-name",
        ),
        said(
            TEXAS_HOUSE,
            ["turn on Off-Grid Shed"],
            [("switch.turn_on", "switch.off_grid_shed", {})],
            why="hyphenated-name",
        ),
        # A number said on its own after a thermostat is its temperature.
        said(
            TEXAS_HOUSE,
            ["AC on.", "24."],
            [
                ("climate.set_hvac_mode", "climate.workshop_ac", {"hvac_mode": "cool"}),
                ("climate.set_temperature", "climate.workshop_ac", {"temperature": 24.0}),
            ],
            "workshop",
            why="bare-number",
        ),
        # Where there is no fan, "fan on high" after the window AC is its fan.
        said(
            TEXAS_HOUSE,
            ["Shop AC on", "Fan on high."],
            [
                ("climate.set_hvac_mode", "climate.workshop_ac", {"hvac_mode": "cool"}),
                ("climate.set_fan_mode", "climate.workshop_ac", {"fan_mode": "high"}),
            ],
            "workshop",
            why="fan-of-the-ac",
        ),
        said(
            TEXAS_HOUSE,
            ["Shop AC on", "Fan on high."],
            [
                ("climate.set_hvac_mode", "climate.workshop_ac", {"hvac_mode": "cool"}),
                ("fan.set_percentage", "fan.jakes_fan", {"percentage": 100}),
            ],
            "jakes_room",
            why="a-fan-where-there-is-one",
        ),
        said(
            CHENGDU_FLAT,
            ["空调莫关，调到二十五度就要得"],
            [("climate.set_temperature", "climate.grandparents", {"temperature": 25.0})],
            "grandparents",
            why="mo-is-dont",
        ),
        # 还开起的 says it is still on; only the 关 is asked.
        said(
            CHENGDU_FLAT,
            ["鱼缸灯关了没有？", "哦豁，还开起的啊，帮我关了噻"],
            [("switch.turn_off", "switch.fish_tank", {})],
            why="kai-qi-de-is-a-state",
        ),
        said(
            CHENGDU_FLAT,
            ["电视打开，我要看新闻"],
            [("media_player.turn_on", "media_player.tv", {})],
            "grandparents",
            why="watching-the-news-is-a-reason",
        ),
        # Watering is the valve's (asked first, as every water valve is), not the fish tank plugs'.
        said(
            CHENGDU_FLAT,
            ["露台开始浇水", "好"],
            [("valve.open_valve", "valve.terrace", {})],
            why="watering-is-the-valves",
        ),
        said(
            TAINAN_TOWNHOUSE,
            ["冷氣免開啦，電風開一下就好"],
            [("switch.turn_on", "switch.ama_fan", {})],
            "ama",
            why="mian-is-no-need",
        ),
        said(SAI_KUNG_HOUSE, ["閂 jor 插座四"], [("switch.turn_off", "switch.plug_4", {})], why="jor"),
    ],
)
async def test_what_is_said_in_the_fifteenth_homes(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    home: dict[str, Any],
    sentences: list[str],
    expected: list[tuple[str, str, dict[str, Any]]],
    area: str | None,
) -> None:
    """Each conversation does exactly the expected calls, with no model."""
    await assert_home_said(hass, fake_openai, home, sentences, expected, area)


async def test_a_number_alone_is_no_lights_brightness_nor_another_devices(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """ "24" after a light sets neither its brightness nor the one thermostat: it is handed on."""
    home = await load_home(hass, TEXAS_HOUSE)
    await assert_said(
        hass,
        home,
        fake_openai,
        ["turn on the govee", "24"],
        "en",
        [("light.turn_on", "light.govee", {})],
        model_may_answer=True,
    )


@pytest.mark.parametrize(
    ("sentences", "expected", "area"),
    [
        # "turn it off" after a question about another device: the Govee or the flat iron.
        (
            ["turn on the govee pls", "omg did i leave my flat iron on", "turn it off pls"],
            [("light.turn_on", "light.govee", {})],
            "mayas_room",
        ),
        # "nvm" before a thing leaves it out: nothing is done on a guess.
        (["turn off the floods, never mind the string lights"], [], "backyard"),
        (["turn off the floods, nvm the string lights"], [], "backyard"),
        # "in 20" is a time, not a temperature.
        (
            ["Shop AC on", "in 20"],
            [("climate.set_hvac_mode", "climate.workshop_ac", {"hvac_mode": "cool"})],
            "workshop",
        ),
    ],
    ids=["it-after-a-question-about-another", "never-mind-a-thing", "nvm-a-thing", "in-twenty"],
)
async def test_what_is_left_open_in_the_texas_house(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    expected: list[tuple[str, str, dict[str, Any]]],
    area: str,
) -> None:
    """Where either may be meant, nothing more is done than what is sure (the turn is handed on)."""
    home = await load_home(hass, TEXAS_HOUSE)
    await assert_said(hass, home, fake_openai, sentences, "en", expected, area, model_may_answer=True)
