"""What the seventeenth blind sets found, in homes of the same kinds.

A Dublin semi heated by radiator zones named after their rooms beside a thermostat named
Heating; a Chiayi house whose bathroom heater is a 浴室暖風機 on a wall switch and whose fish
tank is on a plug; a Hong Kong flat with a Nest Mini and a kettle on a plug; a Tianjin flat
spoken to in Tianjin-flavoured Mandarin. The checks are the service calls HA received.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, LIGHT, TV, assert_home_said, assert_said, entity, load_home, said

RADIATOR = {
    **CLIMATE,
    "hvac_modes": ["off", "heat", "auto"],
    "min_temp": 5,
    "max_temp": 25,
    "target_temp_step": 0.5,
    "temperature": 19,
}
SPEAKER = {
    "device_class": "speaker",
    "volume_level": 0.4,
    "is_volume_muted": False,
    "supported_features": 4 | 8 | 32 | 128 | 256 | 1024 | 16384,
}
GARAGE = {"device_class": "garage", "supported_features": 3}
WHITE_LAMP = {
    "supported_color_modes": ["color_temp"],
    "color_mode": "color_temp",
    "brightness": 200,
    "color_temp_kelvin": 3000,
    "min_color_temp_kelvin": 2700,
    "max_color_temp_kelvin": 6500,
}

DUBLIN_SEMI: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "hall", "name": "Hall"},
        {"id": "front_room", "name": "Front room"},
        {"id": "main_bedroom", "name": "Main bedroom"},
        {"id": "kitchen", "name": "Kitchen"},
        {"id": "garage", "name": "Garage"},
    ],
    "entities": [
        entity("climate.heating", "Heating", "hall", "auto", RADIATOR),
        entity("climate.front_room", "Front Room", "front_room", "auto", RADIATOR),
        entity("climate.bedroom", "Bedroom", "main_bedroom", "auto", RADIATOR),
        entity("cover.garage_door", "Garage door", "garage", "open", GARAGE),
        entity("switch.kettle", "Kettle", "kitchen", "off", {}),
        entity("switch.fairy_lights", "Fairy lights", "front_room", "on", {}),
    ],
}

CHIAYI_HOUSE: dict[str, Any] = {
    "language": "zh-TW",
    "areas": [
        {"id": "bathroom", "name": "浴室"},
        {"id": "living", "name": "客廳"},
        {"id": "boy", "name": "小宇房間"},
        {"id": "girl", "name": "妹妹房間"},
    ],
    "entities": [
        entity("switch.bath_heater", "暖風機", "bathroom", "off", {}, aliases=["浴室暖風機"]),
        entity("switch.fish_tank", "魚缸", "living", "on", {"device_class": "outlet"}),
        entity("media_player.tv", "電視", "living", "on", TV),
        entity("light.living", "客廳燈", "living", "on", LIGHT),
        entity("light.boy", "小宇房間燈", "boy", "on", LIGHT),
        entity("light.girl", "妹妹房間燈", "girl", "on", LIGHT),
        entity("light.stars", "星空燈", "girl", "on", LIGHT),
        entity(
            "fan.percent_fan",
            "電扇",
            "girl",
            "off",
            {"percentage": 0, "percentage_step": 1, "supported_features": 49},
        ),
    ],
}

HONG_KONG_FLAT: dict[str, Any] = {
    "language": "zh-HK",
    "areas": [
        {"id": "baby", "name": "BB房"},
        {"id": "kitchen", "name": "廚房"},
        {"id": "master", "name": "主人房"},
        {"id": "toilet", "name": "廁所", "aliases": ["洗手間"]},
    ],
    "devices": [{"id": "wall_switch", "name": "廁所開關", "area": "toilet"}],
    "entities": [
        entity("light.toilet", "廁所燈", "toilet", "off", LIGHT, device="wall_switch", aliases=["洗手間燈"]),
        entity(
            "switch.toilet_fan", "廁所抽氣扇", "toilet", "off", {}, device="wall_switch", aliases=["抽氣扇"]
        ),
        entity("media_player.nest_mini", "BB房 Nest Mini", "baby", "playing", SPEAKER),
        entity("switch.kettle_plug", "水煲", "kitchen", "off", {"device_class": "outlet"}),
        entity("climate.master_ac", "主人房冷氣", "master", "off", CLIMATE),
    ],
}

TIANJIN_FLAT: dict[str, Any] = {
    "language": "zh-Hans",
    "areas": [{"id": "living", "name": "客厅"}, {"id": "grandpa", "name": "姥爷房"}],
    "entities": [
        entity("media_player.tv", "客厅电视", "living", "on", TV),
        entity("media_player.radio", "姥爷的小爱", "grandpa", "playing", SPEAKER, aliases=["戏匣子"]),
        entity("light.desk_lamp", "米家台灯", "grandpa", "on", WHITE_LAMP),
    ],
}


@pytest.mark.parametrize(
    ("home", "sentences", "expected", "area"),
    [
        said(
            DUBLIN_SEMI,
            ["Turn the bedroom heating up by two degrees"],
            [("climate.set_temperature", "climate.bedroom", {"temperature": 21})],
            why="the-bedroom-heating",
        ),
        said(
            DUBLIN_SEMI,
            ["Put the front room heating back on the schedule"],
            [("climate.set_hvac_mode", "climate.front_room", {"hvac_mode": "auto"})],
            why="back-on-the-schedule",
        ),
        said(
            DUBLIN_SEMI,
            ["Close the garage door, Declan left it open again"],
            [("cover.close_cover", "cover.garage_door", {})],
            why="a-past-remark-beside",
        ),
        said(
            DUBLIN_SEMI,
            ["Would you ever switch off the fairy lights, she's after leaving them on again"],
            [("switch.turn_off", "switch.fairy_lights", {})],
            why="would-you-ever",
        ),
        said(
            DUBLIN_SEMI,
            ["Put the kettle on, love"],
            [("switch.turn_on", "switch.kettle", {})],
            why="kettle-on",
        ),
        said(
            CHIAYI_HOUSE,
            ["電視不要關，阿公還在看，把燈關掉就好"],
            [("light.turn_off", "light.living", {})],
            "living",
            why="a-remark-takes-no-verb",
        ),
        said(
            HONG_KONG_FLAT,
            ["唔該你幫我煲壺水"],
            [("switch.turn_on", "switch.kettle_plug", {})],
            why="boil-water",
        ),
        # The room said first names its light in part: the fan said after it is no part of it.
        said(
            HONG_KONG_FLAT,
            ["洗手間抽氣扇開咗佢"],
            [("switch.turn_on", "switch.toilet_fan", {})],
            why="the-fan-not-the-light-of-its-switch",
        ),
        said(
            HONG_KONG_FLAT,
            ["Nest Mini 細聲啲"],
            [("media_player.volume_down", "media_player.nest_mini", {})],
            why="nest-mini-after-chinese",
        ),
        said(
            HONG_KONG_FLAT,
            ["set 個冷氣去 24 度"],
            [("climate.set_temperature", "climate.master_ac", {"temperature": 24})],
            "master",
            why="a-counted-aircon",
        ),
        said(
            TIANJIN_FLAT,
            ["把介电视给我关喽"],
            [("media_player.turn_off", "media_player.tv", {})],
            why="jie-is-this",
        ),
        said(
            TIANJIN_FLAT,
            ["把戏匣子声儿开大点儿，听不清"],
            [("media_player.volume_up", "media_player.radio", {})],
            why="the-radio-louder",
        ),
        said(
            TIANJIN_FLAT,
            ["台灯色温调到四千K"],
            [("light.turn_on", "light.desk_lamp", {"color_temp_kelvin": 4000})],
            why="kelvins",
        ),
    ],
)
async def test_what_is_said_in_the_seventeenth_homes(
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


@pytest.mark.parametrize(
    ("home", "sentence"),
    [
        # A radiator zone named Front Room heats only: no air conditioner.
        (DUBLIN_SEMI, "Put on the air con in the front room"),
        # "Who turned it off?" asks: nothing is done, not even the request before it.
        (DUBLIN_SEMI, "Turn on the fairy lights, who turned them off?"),
        (CHIAYI_HOUSE, "浴缸放水"),
        (CHIAYI_HOUSE, "我洗完澡再開暖風機"),
        # What was done gives no verb to the device named beside it.
        (TIANJIN_FLAT, "客厅电视，刚才关了"),
        # A place in the past remark is where, not a remark: the speaker's room is not meant.
        (DUBLIN_SEMI, "Turn off the fairy lights, they were left on in the bedroom"),
        # A request that looks back is a request: nothing is dropped.
        (DUBLIN_SEMI, "Close the garage door, and turn on whatever was on last night"),
        (DUBLIN_SEMI, "Close the garage door, could you turn on whatever was on last night"),
        # A fan set by the percent has no third speed (not 3 %).
        (CHIAYI_HOUSE, "電扇開到第三段"),
        # No kettle here: boiling water switches no plug on.
        (TIANJIN_FLAT, "烧壶水"),
        # Colder than the lamp can make: not bent into its range.
        (TIANJIN_FLAT, "台灯色温调到两千K"),
    ],
    ids=[
        "no-air-con",
        "who-turned-it-off",
        "bathtub-is-no-fish-tank",
        "after-my-bath",
        "past-gives-no-verb",
        "where-it-was-left-on",
        "a-request-that-looks-back",
        "a-polite-request-that-looks-back",
        "no-third-speed-of-a-hundred",
        "no-kettle",
        "kelvins-out-of-range",
    ],
)
async def test_nothing_is_done(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    home: dict[str, Any],
    sentence: str,
) -> None:
    """Nothing here is what was asked for, or it is asked for later: it is handed on."""
    loaded = await load_home(hass, home)
    await assert_said(hass, loaded, fake_openai, [sentence], home["language"], [], model_may_answer=True)
