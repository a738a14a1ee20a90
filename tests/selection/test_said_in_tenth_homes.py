"""What the tenth blind sets found handed on or done wrong, in homes of the same kinds.

A Hong Kong flat, a Taiwan townhouse over a shop, a Mainland flat and an American house; the
sentences are of the kinds people said there, the checks are the service calls HA received
(and that the model was not asked), and for questions what was answered.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, DEHUMIDIFIER, FAN, LIGHT, TV, VACUUM, assert_said, entity, load_home

# Volume set and mute (media_player.MediaPlayerEntityFeature.VOLUME_SET | VOLUME_MUTE).
SPEAKER = {"volume_level": 0.3, "is_volume_muted": False, "supported_features": 4 | 8}
HUMIDIFIER = {**DEHUMIDIFIER, "device_class": "humidifier", "available_modes": None, "mode": None}
# Speed and presets (fan.FanEntityFeature.SET_SPEED | PRESET_MODE | TURN_ON | TURN_OFF).
TOWER_FAN = {
    "percentage": 0,
    "percentage_step": 100 / 6,
    "preset_modes": ["normal", "natural", "sleep", "auto"],
    "preset_mode": "normal",
    "supported_features": 1 | 8 | 16 | 32,
}
CEILING_FAN = {"percentage": 33, "percentage_step": 100 / 3, "supported_features": 1 | 16 | 32}


def _modes(*modes: str) -> dict[str, Any]:
    """Return a dehumidifier's attributes with its own modes."""
    return {**DEHUMIDIFIER, "available_modes": list(modes), "mode": modes[0]}


HONG_KONG_FLAT: dict[str, Any] = {
    "language": "zh-Hant",
    "areas": [
        {"id": "living", "name": "客廳"},
        {"id": "nursery", "name": "BB房"},
    ],
    "entities": [
        entity("fan.floor_fan", "座地風扇", "living", "on", {**FAN, "percentage": 30}),
        entity("media_player.arc", "Arc", "living", "playing", SPEAKER),
        entity("humidifier.nursery", "Xiaomi 加濕器 2", "nursery", "on", HUMIDIFIER, aliases=["加濕器"]),
        entity("climate.living_ac", "客廳冷氣", "living", "cool", {"hvac_modes": ["off", "cool"]}),
        entity("fan.dyson", "Dyson Pure Cool", "living", "off", FAN),
        entity("script.bath", "沖涼準備", None, "off", {}),
    ],
}


@pytest.fixture
async def hong_kong_flat(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A flat with a standing fan, a soundbar, a nursery humidifier and a Dyson."""
    return await load_home(hass, HONG_KONG_FLAT)


async def test_how_high_a_fan_is_on_is_a_question(
    hass: HomeAssistant, hong_kong_flat: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """座地風扇開咗幾大: how high it is on, answered; the fan is not turned up."""
    replies = await assert_said(hass, hong_kong_flat, fake_openai, ["座地風扇開咗幾大？"], "zh-HK", [])
    assert "30%" in replies[0]
    assert fake_openai.chat_requests == []


async def test_what_a_humidifier_is_set_to_is_answered(
    hass: HomeAssistant, hong_kong_flat: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """加濕器濕度設咗幾多: the humidity it is set to; then raised "去" a value."""
    replies = await assert_said(
        hass,
        hong_kong_flat,
        fake_openai,
        ["加濕器濕度設咗幾多？", "校高去六十五"],
        "zh-HK",
        [("humidifier.set_humidity", "humidifier.nursery", {"humidity": 65})],
    )
    assert "55%" in replies[0]


@pytest.mark.parametrize(
    ("sentences", "area", "expected"),
    [
        # 兩成半 is a quarter, not two tenths.
        (
            ["Arc 而家幾大聲？", "較到兩成半"],
            None,
            [("media_player.volume_set", "media_player.arc", {"volume_level": 0.25})],
        ),
        # 吹吓: what the fan is switched on for.
        (
            ["閂咗呢度部冷氣，開Dyson吹吓"],
            "living",
            [
                ("climate.set_hvac_mode", "climate.living_ac", {"hvac_mode": "off"}),
                ("fan.turn_on", "fan.dyson", {}),
            ],
        ),
        # A verb said twice around 一, in English among Cantonese.
        (["幫我 run 一 run 沖涼準備"], None, [("script.turn_on", "script.bath", {})]),
    ],
)
async def test_what_people_say_in_a_hong_kong_flat(
    hass: HomeAssistant,
    hong_kong_flat: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    area: str | None,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each conversation does exactly the expected calls with no model."""
    await assert_said(hass, hong_kong_flat, fake_openai, sentences, "zh-HK", expected, area)


TAIWAN_TOWNHOUSE: dict[str, Any] = {
    "language": "zh-Hant",
    "floors": [{"id": "f2", "name": "二樓"}, {"id": "f4", "name": "四樓", "aliases": ["4樓"]}],
    "areas": [
        {"id": "study", "name": "書房", "floor": "f2"},
        {"id": "master", "name": "主臥", "floor": "f2"},
        {"id": "son", "name": "阿凱房間", "floor": "f4"},
        {"id": "shrine", "name": "神明廳", "floor": "f4"},
        {"id": "elder", "name": "孝親房"},
        {"id": "laundry", "name": "洗衣間"},
    ],
    "devices": [{"id": "shrine_switch", "name": "神明廳開關", "area": "shrine"}],
    "entities": [
        entity("light.study_lamp", "米家智慧檯燈 Pro", "study", "on", LIGHT),
        entity("light.desk_lamp", "檯燈", "son", "on", LIGHT),
        entity("light.son_room", "阿凱房間燈", "son", "on", LIGHT),
        entity("light.star", "星空投影燈", "son", "on", LIGHT, aliases=["星空燈"]),
        {**entity("light.shrine_hall", "神明廳電燈", None, "on", LIGHT), "device": "shrine_switch"},
        {**entity("switch.shrine_lamp", "神明燈", None, "on", {}), "device": "shrine_switch"},
        entity("humidifier.master", "主臥除濕機", "master", "off", DEHUMIDIFIER),
        entity("humidifier.elder", "孝親房除濕機", "elder", "on", _modes("自動除濕", "連續除濕", "防黴抑菌")),
        entity(
            "humidifier.laundry", "米家智慧除濕機 22L", "laundry", "on", _modes("智慧", "乾衣", "持續除濕")
        ),
        entity("scene.open_shop", "開店", None, "unknown", {}),
        entity("script.close_shop", "關店", None, "off", {}),
    ],
}


@pytest.fixture
async def taiwan_townhouse(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A four-floor townhouse over a shop, with a shrine room and three dehumidifiers."""
    return await load_home(hass, TAIWAN_TOWNHOUSE)


@pytest.mark.parametrize(
    ("sentences", "area", "expected"),
    [
        # A kind word that is one lamp's whole name elsewhere: said in the study, the study's.
        (["檯燈關掉"], "study", [("light.turn_off", "light.study_lamp", {})]),
        (["檯燈關掉"], "son", [("light.turn_off", "light.desk_lamp", {})]),
        # A floor's lights: not the shrine's lamp on a wall switch, the light of a thing.
        (
            ["四樓的燈全部關掉"],
            None,
            [
                ("light.turn_off", "light.desk_lamp", {}),
                ("light.turn_off", "light.shrine_hall", {}),
                ("light.turn_off", "light.son_room", {}),
                ("light.turn_off", "light.star", {}),
            ],
        ),
        # A trailing off after "could you … that …" is a pause in one request.
        (["呃，可以把那個…主臥的除濕機打開嗎"], None, [("humidifier.turn_on", "humidifier.master", {})]),
        # A routine said as what is happening, then run by name; the end of the working day.
        (["早上要開店了，幫我按一下開店"], None, [("scene.turn_on", "scene.open_shop", {})]),
        (["好了今天收工，幫我執行關店"], None, [("script.turn_on", "script.close_shop", {})]),
        # The start of one of a device's own modes; a complaint beside a mode.
        (
            ["孝親房除濕機切到防黴"],
            None,
            [("humidifier.set_mode", "humidifier.elder", {"mode": "防黴抑菌"})],
        ),
        (
            ["除濕機開乾衣模式，衣服都不會乾"],
            "laundry",
            [("humidifier.set_mode", "humidifier.laundry", {"mode": "乾衣"})],
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
    """Each conversation does exactly the expected calls with no model."""
    await assert_said(hass, taiwan_townhouse, fake_openai, sentences, "zh-TW", expected, area)


MAINLAND_FLAT: dict[str, Any] = {
    "language": "zh-Hans",
    "areas": [{"id": "master", "name": "主卧"}, {"id": "living", "name": "客厅"}],
    "entities": [
        entity("light.master_left", "主卧床头灯 左", "master", "off", LIGHT),
        entity("light.master_right", "主卧床头灯 右", "master", "off", LIGHT),
        entity("light.master_ceiling", "主卧吸顶灯", "master", "off", LIGHT),
        entity("light.living_bedside", "客厅床头灯 右", "living", "off", LIGHT),
        entity("media_player.living_tv", "客厅电视", "living", "on", TV),
        entity("climate.master_ac", "主卧空调", "master", "cool", CLIMATE),
    ],
}


@pytest.fixture
async def mainland_flat(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A flat with a pair of bedside lamps told apart by their sides."""
    return await load_home(hass, MAINLAND_FLAT)


@pytest.mark.parametrize(
    ("sentences", "area", "expected"),
    [
        (["右边床头灯打开"], "master", [("light.turn_on", "light.master_right", {})]),
        (["把左边的床头灯关掉"], "master", [("light.turn_off", "light.master_left", {})]),
        # With no room known, a right one in two rooms: not sure which.
        (["右边床头灯打开"], None, []),
        # "So hot I can't sleep" complains; it asks nothing of the air conditioner.
        (["好热啊，热到睡不着"], "master", []),
    ],
)
async def test_a_side_said_picks_one_of_a_pair(
    hass: HomeAssistant,
    mainland_flat: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    area: str | None,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """The lamp of the side said, where the speaker is; nothing when that is unclear."""
    await assert_said(hass, mainland_flat, fake_openai, sentences, "zh-Hans", expected, area)


AMERICAN_HOUSE: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "bedroom", "name": "Primary Bedroom"},
        {"id": "grandkids", "name": "Grandkids Room"},
        {"id": "office", "name": "Office"},
        {"id": "patio", "name": "Patio"},
        {"id": "yard", "name": "Yard"},
    ],
    "devices": [{"id": "kasa", "name": "String Lights", "area": "patio", "manufacturer": "TP-Link"}],
    "entities": [
        entity("fan.grandkids", "Grandkids Fan", "grandkids", "off", CEILING_FAN),
        entity("fan.bedroom_ceiling", "Bedroom Ceiling Fan", "bedroom", "on", CEILING_FAN),
        entity("fan.tower", "Tower Fan", "office", "off", TOWER_FAN),
        entity("switch.back_lawn", "Back Lawn", "yard", "on", {}),
        entity("media_player.arc", "Arc", None, "playing", SPEAKER),
        entity("lock.front_door", "Front Door", None, "unlocked", {}),
        entity("lock.back_door", "Back Door", None, "unlocked", {}),
        entity("light.porch", "Porch Light", None, "off", LIGHT),
        {**entity("switch.string_lights", "String Lights", None, "off", {}), "device": "kasa"},
        {**entity("switch.misters", "Misters", None, "off", {}), "device": "kasa"},
        entity("vacuum.roborock", "Roborock S7", None, "docked", VACUUM, aliases=["Robbie"]),
        entity("light.hue_play_right", "Hue Play right", None, "off", LIGHT),
        entity(
            "climate.bedroom_trv", "Bedroom", "bedroom", "heat", {**CLIMATE, "hvac_modes": ["off", "heat"]}
        ),
        entity("climate.office_heater", "Office Dyson heater", "office", "off", CLIMATE),
        entity("climate.office_ac", "Office AC", "office", "off", CLIMATE),
    ],
}


@pytest.fixture
async def american_house(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A house with Bond ceiling fans, a Dreo tower fan, sprinklers and a two-outlet patio plug."""
    return await load_home(hass, AMERICAN_HOUSE)


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        (["Turn on the grandkids' fan"], [("fan.turn_on", "fan.grandkids", {})]),
        (["Stop watering the back lawn"], [("switch.turn_off", "switch.back_lawn", {})]),
        (
            ["Mute the Arc for a sec"],
            [("media_player.volume_mute", "media_player.arc", {"is_volume_muted": True})],
        ),
        (
            ["Hmm, let's see, set the bedroom ceiling fan to... uh... full speed"],
            [("fan.set_percentage", "fan.bedroom_ceiling", {"percentage": 100})],
        ),
        (
            ["Tower fan on natural wind mode"],
            [("fan.set_preset_mode", "fan.tower", {"preset_mode": "natural"})],
        ),
        # What is taken back with "I mean" is not done.
        (
            ["Lock the front door... I mean the back door, and turn the porch light on"],
            [("light.turn_on", "light.porch", {}), ("lock.lock", "lock.back_door", {})],
        ),
        # The device's name is its outlet named so, not its other outlet.
        (
            ["Okay so... the string lights, turn those on"],
            [("switch.turn_on", "switch.string_lights", {})],
        ),
        (["Turn off the misters"], [("switch.turn_off", "switch.misters", {})]),
    ],
)
async def test_what_people_say_in_an_american_house(
    hass: HomeAssistant,
    american_house: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each conversation does exactly the expected calls with no model."""
    await assert_said(hass, american_house, fake_openai, sentences, "en", expected)


async def test_a_pause_word_alone_is_no_name(
    hass: HomeAssistant, american_house: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Right, set it going then" after a question about Robbie starts Robbie, not Hue Play right."""
    await assert_said(
        hass,
        american_house,
        fake_openai,
        ["Has Robbie finished?", "Right, set it going then"],
        "en",
        [("vacuum.start", "vacuum.roborock", {})],
        model_may_answer=True,
    )


@pytest.mark.parametrize(
    ("sentence", "area", "expected"),
    [
        # A radiator is a room's heating valve whatever it is named, not a heater named so.
        (
            "Can you set my radiator to twenty and a half?",
            "bedroom",
            [("climate.set_temperature", "climate.bedroom_trv", {"temperature": 20.5})],
        ),
        # Every radiator: not the office's air conditioner nor its heater.
        (
            "Turn off all the radiators",
            None,
            [("climate.set_hvac_mode", "climate.bedroom_trv", {"hvac_mode": "off"})],
        ),
    ],
)
async def test_a_radiator_is_a_rooms_heating(
    hass: HomeAssistant,
    american_house: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    area: str | None,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Radiators as British homes say it."""
    await assert_said(hass, american_house, fake_openai, [sentence], "en", expected, area)
