"""What the ninth blind sets found handed on or done wrong, in homes of the same kinds.

A Taiwan flat, a Hong Kong flat and an American house; the sentences are of the kinds people
said there, the checks are the service calls HA received (and that the model was not asked).
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import (
    CLIMATE,
    DAIKIN_FANS,
    DEHUMIDIFIER,
    FAN,
    LIGHT,
    PERCENT_FANS,
    TV,
    VACUUM,
    assert_said,
    entity,
    load_home,
)

TAIWAN_FLAT: dict[str, Any] = {
    "language": "zh-Hant",
    "areas": [
        {"id": "living", "name": "客廳"},
        {"id": "master", "name": "主臥室", "aliases": ["主臥"]},
        {"id": "grandma", "name": "阿嬤房間", "aliases": ["阿嬤房"]},
        {"id": "qing", "name": "小晴房間", "aliases": ["小晴房"]},
        {"id": "yun", "name": "小芸房間", "aliases": ["小芸房"]},
        {"id": "washitsu", "name": "和室"},
        {"id": "back_balcony", "name": "後陽台"},
        {"id": "front_balcony", "name": "前陽台"},
        {"id": "entrance", "name": "玄關"},
    ],
    "devices": [
        {"id": "ac_qing", "name": "小晴房", "area": "qing", "manufacturer": "Daikin", "model": "FTXV22"},
        {"id": "dehum_back", "name": "後陽台除濕機", "area": "back_balcony", "manufacturer": "Panasonic"},
    ],
    "entities": [
        entity("climate.living_ac", "客廳冷氣", "living", "cool", PERCENT_FANS),
        entity("climate.grandma_ac", "阿嬤房冷氣", "grandma", "off", CLIMATE),
        {**entity("climate.qing_ac", "小晴房", "qing", "off", CLIMATE), "device": "ac_qing"},
        entity("switch.washitsu_dehumidifier", "和室除濕機", "washitsu", "off", {"device_class": "outlet"}),
        {
            **entity("humidifier.back_dehumidifier", "後陽台除濕機", None, "on", DEHUMIDIFIER),
            "device": "dehum_back",
        },
        {
            **entity("switch.back_dehumidifier_ion", "後陽台除濕機 負離子", None, "off", {}),
            "device": "dehum_back",
        },
        entity(
            "cover.shutter",
            "前陽台鐵捲門",
            "front_balcony",
            "closed",
            {"device_class": "shutter", "supported_features": 11},
        ),
        entity("media_player.living_tv", "客廳電視", "living", "on", TV),
        entity("media_player.yun_tv", "小芸房電視", "yun", "on", TV),
        entity("fan.yun_fan", "米家直流變頻電風扇 2", "yun", "off", FAN),
        entity("fan.grandma_fan", "阿嬤房電扇", "grandma", "off", FAN),
        entity("switch.living_right_key", "Aqara 牆壁開關 H1 右鍵", "living", "off", {}),
        entity("switch.master_right_key", "Aqara 牆壁開關 H1 右鍵", "master", "off", {}),
        entity("light.entrance", "玄關燈", "entrance", "off", LIGHT),
        entity("lock.front_door", "大門電子鎖", "entrance", "locked", {}),
    ],
}


@pytest.fixture
async def taiwan_flat(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A Banqiao flat: air conditioners named by room or model, two dehumidifiers, a rolling shutter."""
    return await load_home(hass, TAIWAN_FLAT)


@pytest.mark.parametrize(
    ("sentences", "area", "expected"),
    [
        # No heater in this home: a climate named only by its room is no 電暖器.
        (["電暖器開一下"], None, []),
        # A plug named for its dehumidifier is one, its feature switch is not: two, none sure.
        (["除濕機關掉"], None, []),
        (["和室除濕機打開"], None, [("switch.turn_on", "switch.washitsu_dehumidifier", {})]),
        # A rolling shutter is a garage door here: opened only after a yes.
        (["車庫門打開"], None, []),
        (["欸，那個…鐵捲門幫我拉下來"], None, [("cover.close_cover", "cover.shutter", {})]),
        # Fan modes written as percentages.
        (
            ["客廳冷氣風速調到最大"],
            None,
            [("climate.set_fan_mode", "climate.living_ac", {"fan_mode": "100%"})],
        ),
        (
            ["客廳冷氣風速調到60%"],
            None,
            [("climate.set_fan_mode", "climate.living_ac", {"fan_mode": "60%"})],
        ),
        # A place said after a request whose device was unclear, in the sentence or next turn.
        (["把電視關掉，客廳的"], None, [("media_player.turn_off", "media_player.living_tv", {})]),
        (["把電視關掉", "客廳的"], None, [("media_player.turn_off", "media_player.living_tv", {})]),
        (["電扇開一下", "小芸房那台"], None, [("fan.turn_on", "fan.yun_fan", {})]),
        # Two switches of one name: the one where the speaker is.
        (["Aqara 右鍵打開"], "living", [("switch.turn_on", "switch.living_right_key", {})]),
        (["Aqara 右鍵打開"], None, []),
        # A held unlock dropped, and the request after it carried out.
        (["門鎖打開", "算了，那幫我把玄關燈打開"], None, [("light.turn_on", "light.entrance", {})]),
    ],
)
async def test_what_people_say_in_a_taiwan_flat(
    hass: HomeAssistant,
    taiwan_flat: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    area: str | None,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each conversation does exactly the expected calls, or nothing."""
    await assert_said(
        hass, taiwan_flat, fake_openai, sentences, "zh-TW", expected, area, model_may_answer=True
    )
    if expected:
        assert hass.states.get("lock.front_door").state == "locked"


HONG_KONG_FLAT: dict[str, Any] = {
    "language": "zh-Hant",
    "areas": [
        {"id": "living", "name": "客廳"},
        {"id": "master", "name": "主人房", "aliases": ["大房"]},
        {"id": "son", "name": "阿仔房"},
        {"id": "entrance", "name": "玄關"},
        {"id": "study", "name": "書房"},
    ],
    "entities": [
        entity("light.living_main", "客廳大燈", "living", "on", LIGHT, aliases=["客廳燈"]),
        entity("light.living_spots", "射燈", "living", "on", LIGHT),
        entity("light.son_room", "阿仔房燈", "son", "on", LIGHT),
        entity("light.son_desk", "Mi Desk Lamp Pro", "son", "on", LIGHT),
        entity("light.son_strip", "Hue lightstrip plus 1", "son", "on", LIGHT),
        entity("light.winnie_bedside", "Winnie 床頭燈", "master", "on", LIGHT, aliases=["老婆床頭燈"]),
        entity("light.ken_bedside", "Ken 床頭燈", "master", "on", LIGHT, aliases=["老公床頭燈"]),
        entity("lock.front_door", "大門", "entrance", "unlocked", {}),
        entity("lock.iron_gate", "鐵閘", "entrance", "unlocked", {}),
        entity("humidifier.master_dehumidifier", "主人房抽濕機", "master", "off", DEHUMIDIFIER),
        entity("climate.study_ac", "Daikin AP81234", "study", "off", DAIKIN_FANS),
        entity("climate.living_ac", "客廳冷氣", "living", "cool", DAIKIN_FANS),
        entity("switch.computer_bot", "SwitchBot Bot 1F2A", "son", "off", {}, aliases=["電腦掣"]),
        entity("light.hue_play_left", "Hue Play left", "living", "on", LIGHT),
        entity("light.hue_play_right", "Hue Play right", "living", "on", LIGHT),
        entity("vacuum.roborock", "Roborock S8", "living", "docked", VACUUM, aliases=["掃地機"]),
        entity("script.clean_living_room", "掃客廳", None, "off", {}),
    ],
}


@pytest.fixture
async def hong_kong_flat(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A Ho Man Tin flat: lamps by whose they are, a son's room, two locks, a Midea dehumidifier."""
    return await load_home(hass, HONG_KONG_FLAT)


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        # "That one (lamp) too": the son's room's own light, not every light there.
        (
            ["閂客廳燈", "阿仔房嗰盞都閂埋"],
            [("light.turn_off", "light.living_main", {}), ("light.turn_off", "light.son_room", {})],
        ),
        # No heater here: the Daikin is no 暖爐.
        (["開暖爐"], []),
        # 個 between a person and the lamp, and "enough" after the value.
        (
            ["老婆個床頭燈校暗啲, 兩成就夠"],
            [("light.turn_on", "light.winnie_bedside", {"brightness_pct": 20})],
        ),
        (["撳下個電腦掣"], [("switch.turn_on", "switch.computer_bot", {})]),
        # A false start said again whole: "幫我開…開埋".
        (["嗯…幫我開…開埋電腦掣"], [("switch.turn_on", "switch.computer_bot", {})]),
        (["客廳冷氣風速轉靜音"], [("climate.set_fan_mode", "climate.living_ac", {"fan_mode": "Silence"})]),
        (
            ["開大房抽濕機, 用乾衣模式"],
            [
                ("humidifier.turn_on", "humidifier.master_dehumidifier", {}),
                ("humidifier.set_mode", "humidifier.master_dehumidifier", {"mode": "Dry"}),
            ],
        ),
        (["叫掃地機掃客廳"], [("script.turn_on", "script.clean_living_room", {})]),
        # The vacuum's own room, not said, is no room to clean: the vacuum starts.
        (["掃地機，開始掃地"], [("vacuum.start", "vacuum.roborock", {})]),
        # A pair said without its sides is both.
        (
            ["唔好熄客廳燈住，淨係熄Hue Play就得"],
            [("light.turn_off", "light.hue_play_left", {}), ("light.turn_off", "light.hue_play_right", {})],
        ),
        (["開 Hue Play left"], [("light.turn_on", "light.hue_play_left", {})]),
        # With nowhere said or known, every door of the home.
        (["鎖晒啲門"], [("lock.lock", "lock.front_door", {}), ("lock.lock", "lock.iron_gate", {})]),
    ],
)
async def test_what_people_say_in_a_hong_kong_flat(
    hass: HomeAssistant,
    hong_kong_flat: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each conversation does exactly the expected calls with no model, or hands the turn on."""
    await assert_said(hass, hong_kong_flat, fake_openai, sentences, "zh-HK", expected)


RALEIGH_HOUSE: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "primary", "name": "Primary Bedroom"},
        {"id": "caleb", "name": "Caleb's Room"},
        {"id": "nora", "name": "Nora's Room", "aliases": ["nursery"]},
        {"id": "kitchen", "name": "Kitchen"},
        {"id": "bonus", "name": "Bonus Room"},
        {"id": "living", "name": "Living Room"},
    ],
    "devices": [
        {"id": "roborock", "name": "Roborock S7 MaxV", "area": "kitchen", "manufacturer": "Roborock"},
        {"id": "shark", "name": "Upstairs Shark", "area": "kitchen", "manufacturer": "Shark"},
    ],
    "entities": [
        {
            **entity("vacuum.roborock", "Roborock S7 MaxV", None, "docked", VACUUM, aliases=["Rosie"]),
            "device": "roborock",
        },
        {
            **entity("vacuum.shark", "Upstairs Shark", None, "docked", VACUUM, aliases=["Shark"]),
            "device": "shark",
        },
        entity("light.primary_main", "Primary Bedroom Main Lights", "primary", "on", LIGHT),
        entity("light.primary_lamp", "Hue color lamp 1", "primary", "on", LIGHT),
        entity("light.caleb_ceiling", "Caleb Ceiling", "caleb", "on", LIGHT),
        entity("light.caleb_leds", "Caleb's LEDs", "caleb", "on", LIGHT),
        entity("switch.fish_tank_light", "Fish Tank Light", "caleb", "on", {}),
        entity("switch.sound_machine", "Sound Machine", "nora", "off", {}, aliases=["white noise"]),
        entity("climate.mini_split", "Bonus Room Mini Split", "bonus", "off", CLIMATE),
        entity(
            "media_player.arc",
            "Arc",
            "living",
            "idle",
            {"device_class": "speaker", "volume_level": 0.35, "supported_features": 4 | 8},
        ),
        entity("switch.coffee_maker", "Coffee Maker", "kitchen", "off", {}),
        entity("climate.upstairs", "Upstairs", "bonus", "heat", {**CLIMATE, "fan_modes": ["auto", "on"]}),
        entity("lock.front_door", "Front Door", "living", "unlocked", {}),
        entity("lock.back_door", "Back Door", "kitchen", "unlocked", {}),
        entity(
            "water_heater.water_heater",
            "Water Heater",
            "kitchen",
            "eco",
            {"operation_list": ["off", "eco", "heat_pump", "high_demand"], "supported_features": 3},
        ),
        entity("script.vacuum_the_kitchen", "Vacuum the Kitchen", None, "off", {}),
        entity("light.island", "Island Pendants", "kitchen", "off", LIGHT, aliases=["island lights"]),
    ],
}


@pytest.fixture
async def raleigh_house(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A house with two vacuums, a boy's room with a plug for the fish tank light, a nursery."""
    return await load_home(hass, RALEIGH_HOUSE)


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        # Two vacuums, one a Roborock by its maker: "the vacuum" is either.
        (["Start the vacuum"], []),
        (["Don't run the Roborock, start the Shark instead"], [("vacuum.start", "vacuum.shark", {})]),
        (
            ["Start the Shark", "Actually, send it back"],
            [
                ("vacuum.return_to_base", "vacuum.shark", {}),
                ("vacuum.start", "vacuum.shark", {}),
            ],
        ),
        # A room's lights are not the plug of the fish tank's light.
        (
            ["Turn off all the lights in the primary bedroom", "Caleb's room too"],
            [
                ("light.turn_off", "light.caleb_ceiling", {}),
                ("light.turn_off", "light.caleb_leds", {}),
                ("light.turn_off", "light.primary_lamp", {}),
                ("light.turn_off", "light.primary_main", {}),
            ],
        ),
        (
            ["Would you turn on the white noise for Nora, please?"],
            [("switch.turn_on", "switch.sound_machine", {})],
        ),
        (
            ["Turn on the bonus room mini split, heat, 21 degrees"],
            [
                # (It cannot be switched on but by a mode: the mode said, not first another.)
                ("climate.set_hvac_mode", "climate.mini_split", {"hvac_mode": "heat"}),
                ("climate.set_temperature", "climate.mini_split", {"temperature": 21.0}),
            ],
        ),
        # "The Arc's volume": the Arc is asked about, so "it" is the Arc next.
        (
            ["What's the Arc's volume at?", "Set it to 25"],
            [
                ("media_player.volume_set", "media_player.arc", {"volume_level": 0.25}),
            ],
        ),
        # A thermostat's fan is run by its "on" fan mode, said of it or after it.
        (
            ["Run the fan on the upstairs thermostat"],
            [("climate.set_fan_mode", "climate.upstairs", {"fan_mode": "on"})],
        ),
        (
            ["Set the upstairs thermostat to 21 and run the fan"],
            [
                ("climate.set_fan_mode", "climate.upstairs", {"fan_mode": "on"}),
                ("climate.set_temperature", "climate.upstairs", {"temperature": 21.0}),
            ],
        ),
        # With no place said or known, the doors are every lock of the home.
        (["Lock the doors"], [("lock.lock", "lock.back_door", {}), ("lock.lock", "lock.front_door", {})]),
        (
            ["Put the water heater in heat pump mode"],
            [
                (
                    "water_heater.set_operation_mode",
                    "water_heater.water_heater",
                    {"operation_mode": "heat_pump"},
                )
            ],
        ),
        # A room to clean is the script named for cleaning it, not the whole home vacuumed.
        (["Can you hoover the kitchen?"], [("script.turn_on", "script.vacuum_the_kitchen", {})]),
        # A turn opening with "and" is more of the last.
        (
            ["Turn on the coffee maker", "And the island lights"],
            [
                ("light.turn_on", "light.island", {}),
                ("switch.turn_on", "switch.coffee_maker", {}),
            ],
        ),
    ],
)
async def test_what_people_say_in_an_american_house(
    hass: HomeAssistant,
    raleigh_house: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each conversation does exactly the expected calls with no model, or hands the turn on."""
    await assert_said(hass, raleigh_house, fake_openai, sentences, "en", expected)
