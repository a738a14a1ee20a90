"""Names said with words inside or around them, kinds by their build, and what a word picks out.

A Hong Kong and Taiwan flat, then an American house: the sentences are what people say there,
the checks are the service calls HA received.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, async_load_home, satellite_in_area
from custom_components.layered_assist.language.reading import read
from custom_components.layered_assist.selection.recall import RecallContext, Recaller
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component

from ..conftest import AGENT_ID
from ..fake_openai import FakeOpenAI, text
from .homes import entity
from .talk import converse, converse_in_turns

# Start, pause, return home, state (vacuum.VacuumEntityFeature).
VACUUM = {"supported_features": 8192 | 4 | 16 | 4096}
LIGHT = {"supported_color_modes": ["onoff"], "color_mode": "onoff", "supported_features": 0}
WHITE_LIGHT = {
    "supported_color_modes": ["color_temp"],
    "color_mode": "color_temp",
    "color_temp_kelvin": 4000,
    "min_color_temp_kelvin": 2700,
    "max_color_temp_kelvin": 6500,
    "brightness": 180,
    "supported_features": 0,
}
# Speed and swing (fan.FanEntityFeature.SET_SPEED | OSCILLATE).
FAN = {"percentage": 40, "percentage_step": 10, "oscillating": True, "supported_features": 3}
CLIMATE = {
    "hvac_modes": ["off", "cool", "heat", "auto"],
    "fan_modes": ["Auto", "Silence", "1", "2", "3", "4", "5"],
    "fan_mode": "Auto",
    "min_temp": 16,
    "max_temp": 30,
    "temperature": 25,
    "target_temp_step": 0.5,
    "supported_features": 9,
}


@pytest.fixture
async def flat(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A flat with a boy's room, grandparents' room, a master bedroom and a living room."""
    assert await async_setup_component(hass, "homeassistant", {})
    home: dict[str, Any] = {
        "areas": [
            {"id": "ethan", "name": "Ethan 房"},
            {"id": "grandparents", "name": "阿公阿嬤房", "aliases": ["阿公房間"]},
            {"id": "master", "name": "主人房"},
            {"id": "living", "name": "客廳"},
            {"id": "study", "name": "書房"},
        ],
        "entities": [
            entity("light.ethan_room", "Ethan 房燈", "ethan", "on", LIGHT),
            entity("light.ethan_desk", "Yeelight 檯燈", "ethan", "on", LIGHT),
            entity("switch.radio_plug", "收音機", "grandparents", "on", {}),
            entity("light.grandparents", "阿公阿嬤房電燈", "grandparents", "on", LIGHT),
            entity("light.master_ceiling", "主人房燈", "master", "on", WHITE_LIGHT),
            entity("light.master_lamp", "Hue color lamp 1", "master", "on", LIGHT),
            entity("light.hue_play_left", "Hue Play left", "living", "off", LIGHT),
            entity("light.hue_play_right", "Hue Play right", "living", "off", LIGHT),
            entity("fan.floor_fan", "米家直流變頻落地扇2", "living", "off", FAN),
            entity("fan.circulator", "循環扇", "living", "on", FAN, aliases=["客廳電扇"]),
            entity("fan.study_fan", "書房電扇", "study", "off", FAN),
            entity("climate.living_ac", "客廳冷氣", "living", "cool", CLIMATE),
            entity("button.pet_feeder_out", "貓咪餵食器 出糧", "living", "unknown", {}, aliases=["餵麻糬"]),
            entity("script.leave_home", "出門", "living", "off", {}),
            entity("script.bedtime_story", "睡前故事", "living", "off", {}),
            {
                **entity("fan.purifier", "352空气净化器 X86C", "study", "on", {"supported_features": 1}),
                "device": "air352",
            },
            {
                **entity("switch.purifier_child_lock", "352空气净化器 X86C 童锁", "study", "off", {}),
                "device": "air352",
            },
        ],
        "devices": [{"id": "air352", "name": "352空气净化器 X86C", "area": "study"}],
    }
    return await async_load_home(hass, home)


async def _assert_done_locally(
    hass: HomeAssistant,
    home: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    language: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Say the sentence; exactly the expected calls are made, and the model is never asked."""
    await converse(hass, sentence, language)
    assert sorted(_calls(home)) == sorted(expected)
    assert fake_openai.chat_requests == []


def _calls(home: LoadedHome) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (
            f"{c.domain}.{c.service}",
            c.data["entity_id"],
            {k: v for k, v in c.data.items() if k != "entity_id"},
        )
        for c in home.calls
    ]


@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [
        # A measure word said inside a name: 盞 of "Ethan 房燈".
        ("Ethan 房盞燈熄咗佢", "zh-HK", [("light.turn_off", "light.ethan_room", {})]),
        # 啲 before a kind is "the" of several: every light of the room.
        (
            "熄咗主人房啲燈",
            "zh-HK",
            [("light.turn_off", "light.master_ceiling", {}), ("light.turn_off", "light.master_lamp", {})],
        ),
        # 暖光啲: warmer white, not warmer and brighter.
        (
            "主人房燈轉暖光啲",
            "zh-HK",
            [("light.turn_on", "light.master_ceiling", {"color_temp_kelvin": 2700})],
        ),
        # A numbered fan mode of the air conditioner's own.
        ("客廳冷氣風速較去三", "zh-HK", [("climate.set_fan_mode", "climate.living_ac", {"fan_mode": "3"})]),
        # A person said for their room: 阿公 of 阿公房間.
        ("阿公的收音機關掉", "zh-TW", [("switch.turn_off", "switch.radio_plug", {})]),
        # 電燈 of a room is the light named for the room.
        ("阿公房間的電燈關掉", "zh-TW", [("light.turn_off", "light.grandparents", {})]),
        # 落地扇 is the floor fan among three fans.
        ("落地扇開三十趴", "zh-TW", [("fan.set_percentage", "fan.floor_fan", {"percentage": 30})]),
        # An activity's name said with 一下 inside it, asked for politely: the button is pressed.
        ("麻煩幫我餵一下麻糬", "zh-TW", [("button.press", "button.pet_feeder_out", {})]),
        # A script named 出門 (a door, to the words) said as the script it is.
        ("可以幫我跑一下出門的腳本嗎", "zh-TW", [("script.turn_on", "script.leave_home", {})]),
    ],
)
async def test_words_inside_and_around_names(
    hass: HomeAssistant,
    flat: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    language: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each sentence is carried out locally, on exactly the devices and values meant."""
    await _assert_done_locally(hass, flat, fake_openai, sentence, language, expected)


@pytest.mark.parametrize(
    ("sentence", "language"),
    [
        # No ceiling fan in the living room: the circulator there is no 吊扇.
        ("客廳的吊扇打開", "zh-TW"),
        # Don't feed her.
        ("不要餵麻糬", "zh-TW"),
        # A number the air conditioner has no fan mode for.
        ("客廳冷氣風速較去九", "zh-HK"),
    ],
)
async def test_what_fits_nothing_does_nothing(
    hass: HomeAssistant, flat: LoadedHome, fake_openai: FakeOpenAI, sentence: str, language: str
) -> None:
    """A build of fan the room lacks, a "don't", a fan speed the device lacks: nothing is done."""
    fake_openai.default_reply = text("唔好意思。")
    await converse(hass, sentence, language)
    assert flat.calls == []


async def test_a_swing_switched_off_is_the_swing(
    hass: HomeAssistant, flat: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "擺頭關掉" after a fan turn stops its swing and leaves it on; "擺頭也開" starts it."""
    await converse_in_turns(hass, "循環扇開一下", "擺頭關掉", "擺頭也開", language="zh-TW")
    assert _calls(flat) == [
        ("fan.turn_on", "fan.circulator", {}),
        ("fan.oscillate", "fan.circulator", {"oscillating": False}),
        ("fan.oscillate", "fan.circulator", {"oscillating": True}),
    ]


async def test_a_part_of_a_name_that_is_also_a_filler(
    hass: HomeAssistant, flat: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "right 都開埋" after Hue Play left is Hue Play right, not a "right," of hesitation."""
    await converse_in_turns(hass, "開客廳 Hue Play left", "right 都開埋", language="zh-HK")
    assert _calls(flat) == [
        ("light.turn_on", "light.hue_play_left", {}),
        ("light.turn_on", "light.hue_play_right", {}),
    ]


async def test_a_part_of_a_name_alone_after_a_joiner(
    hass: HomeAssistant, flat: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "開 Hue Play left 同 right": the right one too (only a clause that opens the sentence pauses)."""
    await converse_in_turns(hass, "開 Hue Play left 同 right", language="zh-HK")
    assert _calls(flat) == [
        ("light.turn_on", "light.hue_play_left", {}),
        ("light.turn_on", "light.hue_play_right", {}),
    ]


@pytest.fixture
async def house(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A two-storey house: one thermostat a floor, Nest speakers, lights and a switch named as lights."""
    assert await async_setup_component(hass, "homeassistant", {})
    thermostat = {
        "hvac_modes": ["off", "heat", "cool"],
        "min_temp": 45,
        "max_temp": 90,
        "temperature": 68,
        "target_temp_step": 1,
        "supported_features": 1,
    }
    speaker = {"volume_level": 0.3, "supported_features": 4 | 8 | 1024}
    home: dict[str, Any] = {
        "floors": [{"id": "main", "name": "Main floor"}, {"id": "up", "name": "Upstairs"}],
        "areas": [
            {"id": "living", "name": "Living Room", "floor": "main"},
            {"id": "kitchen", "name": "Kitchen", "floor": "main"},
            {"id": "garage", "name": "Garage", "floor": "main"},
            {"id": "emma", "name": "Emma's Room", "floor": "up"},
            {"id": "hall", "name": "Upstairs Hallway", "floor": "up"},
            {"id": "bath", "name": "Bathroom", "floor": "up"},
        ],
        "devices": [
            {
                "id": "roborock",
                "name": "Roborock S8",
                "area": "kitchen",
                "manufacturer": "Roborock",
                "model": "roborock.vacuum.a70",
            },
            {
                "id": "eufy",
                "name": "RoboVac 30C",
                "area": "hall",
                "manufacturer": "Anker",
                "model": "eufy RoboVac 30C",
            },
            {
                "id": "rachio",
                "name": "Rachio-5A1B2C",
                "area": "garage",
                "manufacturer": "Rachio",
                "model": "Generation 3",
            },
            {
                "id": "coway",
                "name": "Airmega 400S",
                "area": "bath",
                "manufacturer": "Coway",
                "model": "AP-2015F",
            },
            {
                "id": "mini",
                "name": "Kitchen speaker",
                "area": "kitchen",
                "manufacturer": "Google Inc.",
                "model": "Google Nest Mini",
            },
            {
                "id": "audio",
                "name": "Emma's Nest Audio",
                "area": "emma",
                "manufacturer": "Google Inc.",
                "model": "Google Nest Audio",
            },
        ],
        "entities": [
            entity("climate.my_ecobee", "My ecobee", "living", "heat", thermostat),
            entity("climate.upstairs", "Upstairs", "hall", "heat", thermostat),
            entity("light.living_lamp", "Living Room Lamp", "living", "on", LIGHT),
            entity("light.emma_ceiling", "Emma's Ceiling", "emma", "on", LIGHT),
            entity("switch.garage_lights", "Garage Lights", "garage", "on", {}),
            {
                **entity("vacuum.roborock_s8", "Roborock S8", "kitchen", "docked", VACUUM),
                "aliases": ["Rosie"],
                "device": "roborock",
            },
            {**entity("vacuum.robovac_30c", "RoboVac 30C", "hall", "docked", VACUUM), "device": "eufy"},
            {**entity("switch.front_lawn", "Front Lawn", "garage", "off", {}), "device": "rachio"},
            {**entity("switch.side_yard", "Side Yard", "garage", "off", {}), "device": "rachio"},
            {
                **entity("switch.garden_drip", "Garden Drip", "garage", "off", {}),
                "aliases": ["vegetable garden"],
                "device": "rachio",
            },
            {
                **entity("switch.rachio_rain_delay", "Rachio-5A1B2C Rain Delay", "garage", "off", {}),
                "device": "rachio",
            },
            {
                **entity("fan.airmega_400s", "Airmega 400S", "bath", "off", {"supported_features": 1}),
                "device": "coway",
            },
            {
                **entity("media_player.kitchen_speaker", "Kitchen speaker", "kitchen", "playing", speaker),
                "device": "mini",
            },
            {
                **entity("media_player.emma_s_nest_audio", "Emma's Nest Audio", "emma", "idle", speaker),
                "device": "audio",
            },
        ],
    }
    return await async_load_home(hass, home)


async def test_the_heat_of_a_room_without_a_thermostat(
    hass: HomeAssistant, house: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Said in Emma's room, which has none: the one thermostat of her floor; in the hall, its own."""
    satellite = satellite_in_area(hass, house.area_ids["emma"])
    await conversation.async_converse(
        hass,
        "bump the heat up a degree",
        None,
        Context(),
        language="en",
        agent_id=AGENT_ID,
        device_id=satellite,
    )
    assert _calls(house) == [("climate.set_temperature", "climate.upstairs", {"temperature": 69.0})]


async def test_the_lights_of_the_house_are_its_lights(
    hass: HomeAssistant, house: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Every light in the house: the lights, not the switch named "Garage Lights"; the garage's own are it."""
    await converse(hass, "Turn off every light in the house", "en")
    assert {entity for _, entity, _ in _calls(house)} == {"light.living_lamp", "light.emma_ceiling"}
    house.calls.clear()
    await converse(hass, "Turn off the garage lights", "en")
    assert _calls(house) == [("switch.turn_off", "switch.garage_lights", {})]


async def test_a_model_word_is_no_name_of_the_device(
    hass: HomeAssistant, house: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "the Nest" of a Kitchen speaker that is a Nest Mini and of Emma's Nest Audio: not sure which."""
    fake_openai.default_reply = text("Which one?")
    await converse(hass, "Nest louder", "en")
    assert house.calls == []


async def test_a_device_the_words_name_better_is_shown_to_the_model(
    hass: HomeAssistant, flat: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """ "净化器童锁": the child lock is what is switched on, not the purifier in its place.

    Its name is "352空气净化器 X86C 童锁": said without the model code, it is still named whole.
    """
    catalog = init_integration.runtime_data.catalog
    said = Recaller(catalog).recall(read("把净化器童锁打开", "zh-Hans", catalog.names), RecallContext())
    assert "switch.purifier_child_lock" in said.candidates
    fake_openai.default_reply = text("要打开哪一个？")
    await converse(hass, "把净化器童锁打开")
    assert _calls(flat) == [("switch.turn_on", "switch.purifier_child_lock", {})]
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # Two vacuums, one a Roborock by its maker: "the vacuum" is not sure.
        ("Start the vacuum", []),
        ("Start the RoboVac", [("vacuum.start", "vacuum.robovac_30c", {})]),
        ("Start the Roborock", [("vacuum.start", "vacuum.roborock_s8", {})]),
        (
            "Don't start Rosie, just send the RoboVac home",
            [("vacuum.return_to_base", "vacuum.robovac_30c", {})],
        ),
        # The Rachio's zones, whatever their names say, and not its rain delay.
        (
            "Turn off all the sprinklers",
            [
                ("switch.turn_off", "switch.front_lawn", {}),
                ("switch.turn_off", "switch.garden_drip", {}),
                ("switch.turn_off", "switch.side_yard", {}),
            ],
        ),
        # A Coway is a purifier, no bathroom fan.
        ("Turn on the bathroom fan", []),
    ],
)
async def test_what_a_maker_makes(
    hass: HomeAssistant,
    house: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """A device whose name says no kind is the kind its maker makes (data/makers.txt)."""
    fake_openai.default_reply = text("Which one?")
    await converse(hass, sentence, "en")
    assert sorted(_calls(house)) == sorted(expected)


@pytest.fixture
async def apartment(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """A flat with two bedrooms' curtains, Mijia lamps, a Dyson, a soundbar and a robot called 石頭."""
    assert await async_setup_component(hass, "homeassistant", {})
    curtain = {"current_position": 0, "device_class": "curtain", "supported_features": 15}
    speaker = {"volume_level": 0.3, "supported_features": 4 | 16384 | 1 | 8}
    home: dict[str, Any] = {
        "devices": [
            {"id": "arc", "name": "Soundbar", "area": "living", "manufacturer": "Sonos", "model": "Arc"},
            {
                "id": "hitachi_1",
                "name": "主臥冷氣",
                "area": "master",
                "manufacturer": "Hitachi",
                "model": "RAS-36NJP",
            },
            {
                "id": "hitachi_2",
                "name": "RAS-28NK",
                "area": "study",
                "manufacturer": "Hitachi",
                "model": "RAS-28NK",
            },
        ],
        "areas": [
            {"id": "master", "name": "主臥"},
            {"id": "sister", "name": "妹妹房"},
            {"id": "living", "name": "客廳"},
            {"id": "study", "name": "書房"},
        ],
        "entities": [
            entity("cover.master_curtain", "主臥窗簾", "master", "closed", curtain),
            entity("cover.sister_curtain", "妹妹房窗簾", "sister", "closed", curtain),
            entity("light.master_ceiling", "主臥大燈", "master", "off", WHITE_LIGHT),
            entity("light.mijia_desk_lamp", "米家智慧檯燈 Pro", "study", "off", WHITE_LIGHT),
            entity("light.mijia_bedside", "米家床頭燈2", "master", "off", WHITE_LIGHT),
            entity("fan.dyson", "Dyson Purifier Cool", "living", "on", FAN),
            {**entity("media_player.soundbar", "Soundbar", "living", "paused", speaker), "device": "arc"},
            {
                **entity("switch.soundbar_night_sound", "Soundbar Night Sound", "living", "off", {}),
                "device": "arc",
            },
            entity("vacuum.roborock", "Roborock S8", "living", "docked", VACUUM, aliases=["石頭"]),
            entity("script.feed_doudou", "喂豆豆", "living", "off", {}),
            {**entity("climate.master_ac", "主臥冷氣", "master", "cool", CLIMATE), "device": "hitachi_1"},
            {**entity("climate.study_ac", "RAS-28NK", "study", "cool", CLIMATE), "device": "hitachi_2"},
            entity("switch.shrine_lamp", "神明燈", "living", "on", {}),
            entity(
                "climate.living_ac",
                "客廳冷氣",
                "living",
                "cool",
                {**CLIMATE, "preset_modes": ["none", "boost"], "supported_features": 25},
            ),
        ],
    }
    return await async_load_home(hass, home)


@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [
        ("喂一下豆豆", "zh-Hans", [("script.turn_on", "script.feed_doudou", {})]),
        ("不用开大灯，开个台灯就行", "zh-Hans", [("light.turn_on", "light.mijia_desk_lamp", {})]),
        ("嗯，那个谁，呃，主卧窗帘拉开吧", "zh-Hans", [("cover.open_cover", "cover.master_curtain", {})]),
        (
            "客厅冷气搞高一点",
            "zh-Hans",
            [("climate.set_temperature", "climate.living_ac", {"temperature": 26.0})],
        ),
        (
            "客廳冷氣開強力運轉",
            "zh-TW",
            [("climate.set_preset_mode", "climate.living_ac", {"preset_mode": "boost"})],
        ),
        (
            "米家檯燈調成暖白光",
            "zh-TW",
            [("light.turn_on", "light.mijia_desk_lamp", {"color_temp_kelvin": 2700})],
        ),
        ("主臥窗簾不要動，妹妹房的打開就好", "zh-TW", [("cover.open_cover", "cover.sister_curtain", {})]),
        (
            "Soundbar 聲量較到四十",
            "zh-HK",
            [("media_player.volume_set", "media_player.soundbar", {"volume_level": 0.4})],
        ),
        ("開 Soundbar 得喇", "zh-HK", [("media_player.media_play", "media_player.soundbar", {})]),
        # A percentage is the speaker's volume, not its night-sound switch's.
        (
            "Turn the Soundbar down to twenty percent",
            "en",
            [("media_player.volume_set", "media_player.soundbar", {"volume_level": 0.2})],
        ),
        ("Dyson 細力啲", "zh-HK", [("fan.decrease_speed", "fan.dyson", {})]),
        ("Dyson 唔好再擺頭喇", "zh-HK", [("fan.oscillate", "fan.dyson", {"oscillating": False})]),
        ("叫石頭吸吓地", "zh-HK", [("vacuum.start", "vacuum.roborock", {})]),
        # "can't see clearly": the reason, not a "don't" about the lamp.
        (
            "米家檯燈要白光呀，睇唔清",
            "zh-HK",
            [("light.turn_on", "light.mijia_desk_lamp", {"color_temp_kelvin": 6500})],
        ),
    ],
)
async def test_what_people_say_in_the_eighth_homes(
    hass: HomeAssistant,
    apartment: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    language: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Sentences of the kinds the eighth blind sets found handed on, carried out locally."""
    await _assert_done_locally(hass, apartment, fake_openai, sentence, language, expected)


@pytest.mark.parametrize(
    "sentence",
    [
        # Two Hitachi air conditioners, one of them named 冷氣: the maker does not say which.
        "日立冷氣關掉",
        # May it be switched off? A question, and a worry.
        "神明燈可以關嗎？會不會對神明不好意思",
        # Keep it on, no need to change it.
        "主臥冷氣開著就好，不用調",
    ],
)
async def test_what_is_not_asked_for_is_not_done(
    hass: HomeAssistant, apartment: LoadedHome, fake_openai: FakeOpenAI, sentence: str
) -> None:
    """A maker's name of two devices, a question of permission, a "keep it": nothing is done."""
    fake_openai.default_reply = text("好的。")
    await converse(hass, sentence, "zh-TW")
    assert apartment.calls == []
