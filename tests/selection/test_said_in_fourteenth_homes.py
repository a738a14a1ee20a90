"""What the fourteenth blind sets found, in homes of the same kinds.

An Edinburgh house heated by a Hive thermostat named Heating and radiator valves in some
rooms, a Harbin flat spoken to in Northeastern Mandarin, a North Point flat with three Google
Nest speakers, and a Hualien homestay whose lobby (大廳) is not the family's living room (客廳);
the checks are the service calls HA received, and that nothing is done where the sentence
leaves it open or only says how things are.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, LIGHT, TV, VACUUM, assert_home_said, assert_said, entity, load_home, said

SPEAKER = {"device_class": "speaker", "volume_level": 0.4, "supported_features": 4 | 8 | 128 | 256 | 1024}
LOUD_TV = {
    **TV,
    "volume_level": 0.5,
    "is_volume_muted": False,
    "supported_features": 4 | 8 | 128 | 256 | 1024,
}
HUMIDIFIER = {
    "device_class": "humidifier",
    "humidity": 50,
    "min_humidity": 30,
    "max_humidity": 80,
    "available_modes": ["自动", "一档", "二档", "三档", "恒湿"],
    "mode": "自动",
    "supported_features": 1,
}
DEHUMIDIFIER = {
    **HUMIDIFIER,
    "device_class": "dehumidifier",
    "available_modes": ["自動", "連續抽濕", "乾衣"],
    "mode": "自動",
}

EDINBURGH_HOUSE: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "hall", "name": "Hall"},
        {"id": "study", "name": "Study"},
        {"id": "lounge", "name": "Lounge"},
    ],
    "entities": [
        entity("climate.heating", "Heating", "hall", "heat", {**CLIMATE, "hvac_modes": ["off", "heat"]}),
        entity("climate.study", "Study", "study", "heat", {**CLIMATE, "hvac_modes": ["off", "heat"]}),
        entity("light.lounge", "Lounge ceiling", "lounge", "off", LIGHT, aliases=["big light"]),
        entity("light.lounge_lamp", "Lounge lamp", "lounge", "off", LIGHT),
        entity("light.hall", "Hall", "hall", "off", LIGHT),
        entity("light.desk_lamp", "Desk lamp", "study", "off", LIGHT),
        entity("vacuum.dreame", "Dreame L10s Ultra", "hall", "docked", VACUUM, aliases=["Hamish"]),
        entity(
            "water_heater.hot_water",
            "Hot Water",
            "hall",
            "off",
            {"operation_list": ["eco", "on", "off"], "operation_mode": "off", "supported_features": 2},
        ),
        entity("lock.front_door", "Front door", "hall", "unlocked", {"supported_features": 0}),
    ],
}

HARBIN_FLAT: dict[str, Any] = {
    "language": "zh-Hans",
    "areas": [
        {"id": "parents", "name": "老人房"},
        {"id": "master", "name": "主卧"},
        {"id": "stairs", "name": "楼梯"},
        {"id": "living", "name": "客厅"},
    ],
    "devices": [
        {
            "id": "ceiling",
            "name": "Yeelight 吸顶灯 Arwen 550C",
            "area": "living",
            "model": "yeelink.light.ceilc",
        },
        {
            "id": "ac_a",
            "name": "空调 KFR-35GW",
            "area": "living",
            "manufacturer": "Midea",
            "model": "KFR-35GW/N8XHC1",
        },
        {
            "id": "ac_b",
            "name": "次卧空调",
            "area": "master",
            "manufacturer": "Midea",
            "model": "KFR-35GW/N8MJA3",
        },
    ],
    "entities": [
        entity("light.ceiling", "客厅主灯", None, "on", LIGHT, device="ceiling", aliases=["客厅吸顶灯"]),
        entity(
            "light.ceiling_ambient",
            "Yeelight 吸顶灯 Arwen 550C 氛围灯",
            None,
            "on",
            {"supported_color_modes": ["hs"], "color_mode": "hs", "brightness": 100},
            device="ceiling",
            aliases=["氛围灯"],
        ),
        entity("switch.blanket", "电热毯", "parents", "off", {}, aliases=["电褥子"]),
        entity("media_player.parents_tv", "小米电视 EA43", "parents", "on", LOUD_TV),
        entity("humidifier.parents", "老人房加湿器", "parents", "on", HUMIDIFIER),
        entity("humidifier.master", "主卧加湿器", "master", "on", HUMIDIFIER),
        entity("light.stairs", "楼梯灯", "stairs", "on", LIGHT),
        entity("climate.ac_a", "空调 KFR-35GW", None, "cool", CLIMATE, device="ac_a"),
        entity("climate.ac_b", "次卧空调", None, "cool", CLIMATE, device="ac_b"),
        entity("climate.master_ac", "主卧空调", "master", "off", CLIMATE),
    ],
}

NORTH_POINT_FLAT: dict[str, Any] = {
    "language": "zh-HK",
    "areas": [
        {"id": "living", "name": "客廳"},
        {"id": "kitchen", "name": "廚房"},
        {"id": "chloe", "name": "Chloe房"},
    ],
    "entities": [
        entity(
            "media_player.living", "Living Room speaker", "living", "playing", SPEAKER, aliases=["Nest Audio"]
        ),
        entity(
            "media_player.kitchen", "Kitchen display", "kitchen", "playing", SPEAKER, aliases=["Nest Hub"]
        ),
        entity("media_player.chloe", "Chloe's Nest Mini", "chloe", "playing", SPEAKER),
        entity("media_player.tv", "小米電視 A Pro 43", "living", "on", LOUD_TV),
        entity("climate.living", "Living Room", "living", "cool", CLIMATE),
        entity("light.living_ceiling", "客廳燈", "living", "on", LIGHT),
        entity("light.floor_lamp", "落地燈", "living", "on", LIGHT),
        entity("humidifier.living", "抽濕機", "living", "off", DEHUMIDIFIER),
        entity(
            "valve.roof",
            "淋花水喉",
            "living",
            "closed",
            {"device_class": "water", "supported_features": 3},
            aliases=["淋花", "水喉"],
        ),
        entity("valve.main", "總水掣", "kitchen", "open", {"device_class": "water", "supported_features": 3}),
    ],
}

HUALIEN_HOMESTAY: dict[str, Any] = {
    "language": "zh-TW",
    "areas": [{"id": "lobby", "name": "大廳"}, {"id": "living", "name": "客廳"}],
    "entities": [
        entity("light.lobby_main", "大廳主燈", "lobby", "on", LIGHT),
        entity("light.living_main", "客廳主燈", "living", "on", LIGHT),
        entity(
            "climate.lobby_ac",
            "大廳冷氣",
            "lobby",
            "cool",
            {**CLIMATE, "preset_modes": ["none", "eco", "boost"], "supported_features": 9 | 16},
        ),
        entity("climate.living_ac", "客廳冷氣", "living", "off", CLIMATE),
        entity("switch.coffee", "咖啡機", "lobby", "off", {}),
        entity("switch.plug_3", "智慧插座 3 開關 1", "lobby", "off", {}),
        entity("switch.plug_2", "智慧插座 2", "lobby", "off", {}),
    ],
}


@pytest.mark.parametrize(
    ("home", "sentences", "expected", "area"),
    [
        # A thermostat named Heating, said in a room with its own radiator valve: either may be
        # meant ("the heating" is the central heating, "in here" the study's), so neither is set.
        said(
            EDINBURGH_HOUSE,
            ["It's baltic in here, put the heating up to 21"],
            [],
            "study",
            why="heating-here",
        ),
        said(EDINBURGH_HOUSE, ["Turn the heating off"], [], "study", why="heating-off-here"),
        # The hall's one light is "Hall"; the lamp is the lounge's or the study's, not the hall's.
        said(EDINBURGH_HOUSE, ["Turn on the lamp"], [], "hall", why="lamp-not-hall-light"),
        said(
            EDINBURGH_HOUSE,
            ["Turn on the lamp"],
            [("light.turn_on", "light.lounge_lamp", {})],
            "lounge",
            why="lamp-here",
        ),
        said(
            EDINBURGH_HOUSE,
            ["Turn the heating off"],
            [("climate.set_hvac_mode", "climate.heating", {"hvac_mode": "off"})],
            "lounge",
            why="heating-off-elsewhere",
        ),
        said(
            EDINBURGH_HOUSE,
            ["Put the heating up to 21"],
            [("climate.set_temperature", "climate.heating", {"temperature": 21})],
            why="heating-named",
        ),
        # Scots: "pit" is put, "aye" says yes; the thought said aloud before is no question.
        said(
            EDINBURGH_HOUSE,
            ["Pit the big light on in the lounge"],
            [("light.turn_on", "light.lounge", {})],
            why="pit-on",
        ),
        said(
            EDINBURGH_HOUSE,
            ["Och, where was I… oh aye, lock the front door"],
            [("lock.lock", "lock.front_door", {})],
            why="oh-aye",
        ),
        # "to do" is no question; a vacuum given a nickname is told to clean.
        said(
            EDINBURGH_HOUSE,
            ["Get Hamish to do a clean"],
            [("vacuum.start", "vacuum.dreame", {})],
            why="to-do",
        ),
        # Hive's hot water has no switch: its modes switch it.
        said(
            EDINBURGH_HOUSE,
            ["Put the hot water on"],
            [("water_heater.set_operation_mode", "water_heater.hot_water", {"operation_mode": "on"})],
            why="hot-water-by-mode",
        ),
        # Northeastern Mandarin: 整 does and sets, 麻溜儿 hurries, 老/贼 say how much.
        said(
            HARBIN_FLAT,
            ["把电褥子给我整开，老冷了"],
            [("switch.turn_on", "switch.blanket", {})],
            why="zheng-kai",
        ),
        said(HARBIN_FLAT, ["麻溜儿把楼梯灯关了"], [("light.turn_off", "light.stairs", {})], why="ma-liu-er"),
        said(
            HARBIN_FLAT,
            ["这电视声儿贼大，给我整小点儿"],
            [("media_player.volume_down", "media_player.parents_tv", {})],
            "parents",
            why="zheng-xiao",
        ),
        said(
            HARBIN_FLAT,
            ["把主卧空调打开，整成制热，二十五度"],
            [
                # (Switched on by its mode: it cannot be switched on by itself.)
                ("climate.set_hvac_mode", "climate.master_ac", {"hvac_mode": "heat"}),
                ("climate.set_temperature", "climate.master_ac", {"temperature": 25}),
            ],
            why="zheng-cheng",
        ),
        # A model in one's own name, and only in the other's maker's model: the first.
        said(
            HARBIN_FLAT,
            ["KFR-35GW调到26度"],
            [("climate.set_temperature", "climate.ac_a", {"temperature": 26})],
            why="model-in-own-name",
        ),
        # 调一调 is the verb said twice, no value of 1.
        said(HARBIN_FLAT, ["把楼梯灯调一调"], [], why="tiao-yi-tiao"),
        # How loud it is, with a word of degree before it, is not which way to turn it.
        *(
            said(HARBIN_FLAT, [sentence], [], "parents", why=f"how-it-is-{n}")
            for n, sentence in enumerate(["电视声音好大", "电视声音太小了", "这电视声儿贼大"])
        ),
        said(
            HARBIN_FLAT,
            ["电视声音大一点"],
            [("media_player.volume_up", "media_player.parents_tv", {})],
            "parents",
            why="louder-asked",
        ),
        # The part named after its device: the ceiling light's ambient light.
        said(
            HARBIN_FLAT,
            ["客厅吸顶灯的氛围灯调成蓝色"],
            [("light.turn_on", "light.ceiling_ambient", {"rgb_color": [0, 0, 255]})],
            why="part-after-its-device",
        ),
        # A level said of a humidifier whose modes are levels; a mode whose name holds 湿.
        said(
            HARBIN_FLAT,
            ["老人房的加湿器开到三档"],
            [
                ("humidifier.turn_on", "humidifier.parents", {}),
                ("humidifier.set_mode", "humidifier.parents", {"mode": "三档"}),
            ],
            why="level-mode",
        ),
        said(
            HARBIN_FLAT,
            ["主卧加湿器调到恒湿模式"],
            [("humidifier.set_mode", "humidifier.master", {"mode": "恒湿"})],
            why="mode-named-humid",
        ),
        # "Nest" is part of three speakers' names: which one is not said.
        said(NORTH_POINT_FLAT, ["Nest 大聲啲"], [], why="nest-is-three"),
        said(
            NORTH_POINT_FLAT,
            ["Nest Audio 大聲啲"],
            [("media_player.volume_up", "media_player.living", {})],
            why="nest-audio",
        ),
        # A climate named Living Room leaves the room 客廳 its English name.
        said(
            NORTH_POINT_FLAT,
            ["熄 living room 啲燈"],
            [("light.turn_off", "light.living_ceiling", {}), ("light.turn_off", "light.floor_lamp", {})],
            "kitchen",
            why="living-room-said-in-english",
        ),
        # In Cantonese 整 is to fix: "我要整水喉" is no command to the valve called 水喉 (a word
        # not understood beside a device's name: the turn is handed on, nothing done).
        said(NORTH_POINT_FLAT, ["閂咗個總水掣先，我要整水喉"], [], why="zheng-is-fix-in-cantonese"),
        # 四十五 after 校 is the humidity, not part of "A Pro 43" said as 四十三.
        said(
            NORTH_POINT_FLAT,
            ["開抽濕機，用乾衣模式，濕度校四十五"],
            [
                ("humidifier.turn_on", "humidifier.living", {}),
                ("humidifier.set_mode", "humidifier.living", {"mode": "乾衣"}),
                ("humidifier.set_humidity", "humidifier.living", {"humidity": 45}),
            ],
            why="number-after-jiao",
        ),
        # 乾燥 after a verb of setting is the dry mode; said of the air, a feeling.
        said(
            NORTH_POINT_FLAT,
            ["客廳冷氣轉做乾燥"],
            [("climate.set_hvac_mode", "climate.living", {"hvac_mode": "dry"})],
            why="gan-zao-as-mode",
        ),
        said(NORTH_POINT_FLAT, ["客廳好乾燥"], [], why="gan-zao-as-feeling"),
        # The lobby's 大廳主燈 is not the living room's 客廳主燈, though 大廳 may mean 客廳.
        said(
            HUALIEN_HOMESTAY,
            ["大廳主燈調到百分之六十，順便把咖啡機打開"],
            [
                ("light.turn_on", "light.lobby_main", {"brightness_pct": 60}),
                ("switch.turn_on", "switch.coffee", {}),
            ],
            why="lobby-is-not-living-room",
        ),
        said(
            HUALIEN_HOMESTAY,
            ["大廳冷氣開節電模式"],
            [("climate.set_preset_mode", "climate.lobby_ac", {"preset_mode": "eco"})],
            why="jie-dian",
        ),
        # 插座三: the plug 智慧插座 3, said for short (智慧插座 is a plug, and so is 插座).
        said(
            HUALIEN_HOMESTAY, ["插座三打開"], [("switch.turn_on", "switch.plug_3", {})], why="plug-said-short"
        ),
        said(
            HUALIEN_HOMESTAY,
            ["客廳主燈關掉"],
            [("light.turn_off", "light.living_main", {})],
            why="living-room",
        ),
    ],
)
async def test_what_is_said_in_the_fourteenth_homes(
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


async def test_a_valve_named_by_what_it_does_is_asked_for(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """ "幫我淋花" of a valve aliased 淋花 asks for it to be opened (a water valve is opened on
    consent), and "係" opens it."""
    home = await load_home(hass, NORTH_POINT_FLAT)
    replies = await assert_said(
        hass, home, fake_openai, ["幫我淋花", "係"], "zh-HK", [("valve.open_valve", "valve.roof", {})]
    )
    assert "淋花水喉" in replies[0]
