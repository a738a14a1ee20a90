"""What the thirteenth blind sets found done wrong, in homes of the same kinds.

An Austin house whose Sonos speakers are named by their rooms, a Chengdu flat whose utility
balcony is lit by a wall switch, and a Sha Tin flat where one curtain kept an English name; the
checks are the service calls HA received, and that nothing is done where the sentence leaves it
open.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.language.reading import read
from custom_components.layered_assist.state import ConversationState
from homeassistant.components.conversation.const import DATA_COMPONENT
from homeassistant.core import HomeAssistant

from ..conftest import AGENT_ID
from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, DEHUMIDIFIER, LIGHT, TV, assert_said, entity, load_home

SPEAKER = {"device_class": "speaker", "supported_features": 1 | 4 | 8 | 128 | 256 | 16384}
COVER = {"device_class": "curtain", "current_position": 100, "supported_features": 15}

AUSTIN_HOUSE: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "bedroom", "name": "Primary Bedroom", "aliases": ["bedroom"]},
        {"id": "den", "name": "Den"},
    ],
    "devices": [
        {"id": "sonos_bed", "name": "Bedroom", "area": "bedroom", "manufacturer": "Sonos", "model": "One SL"},
        {"id": "roku", "name": '55" TCL Roku TV', "area": "den", "manufacturer": "TCL", "model": "Roku TV"},
    ],
    "entities": [
        entity("media_player.bedroom", "Bedroom", None, "paused", SPEAKER, device="sonos_bed"),
        entity("media_player.roku", '55" TCL Roku TV', None, "off", TV, device="roku"),
    ],
}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # The bedroom has a speaker named Bedroom and no TV: a speaker is no TV.
        ("Turn on the TV in the bedroom", []),
        # Said as what it is, it is that one.
        ("Pause the bedroom speaker", [("media_player.media_pause", "media_player.bedroom", {})]),
    ],
)
async def test_a_device_named_for_its_room_is_not_another_kind(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    sentence: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """A kind said whose class the named device is not: nothing is done to it."""
    home = await load_home(hass, AUSTIN_HOUSE)
    await assert_said(hass, home, fake_openai, [sentence], "en", expected)


CHENGDU_FLAT: dict[str, Any] = {
    "language": "zh-Hans",
    "areas": [
        {"id": "utility", "name": "生活阳台", "aliases": ["小阳台"]},
        {"id": "elder", "name": "老人房"},
        {"id": "entrance", "name": "玄关"},
    ],
    "entities": [
        entity("light.airer_light", "晾衣架 照明", "utility", "off", LIGHT),
        entity("switch.balcony_light", "生活阳台灯", "utility", "off", {}),
        entity("light.elder_light", "老人房灯", "elder", "off", LIGHT),
        entity(
            "climate.elder_ac",
            "空调 KFR-35GW",
            "elder",
            "off",
            {**CLIMATE, "supported_features": 9 | 128 | 256},
        ),
        entity("lock.front_door", "大门", "entrance", "unlocked", {"supported_features": 0}),
    ],
}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # 嘛 ends a request said softly, as Sichuan says it.
        ("把灯打开嘛", [("light.turn_on", "light.elder_light", {})]),
        ("门锁上嘛", [("lock.lock", "lock.front_door", {})]),
        ("那把空调开起嘛", [("climate.turn_on", "climate.elder_ac", {})]),
        ("帮我把灯打开嘛", [("light.turn_on", "light.elder_light", {})]),
        # Where it may be 吗 written 嘛, it asks: after a verb said done, with another question
        # word or mark, or asking leave.
        ("灯关了嘛", []),
        ("你把门锁了嘛", []),
        ("灯关没关嘛", []),
        ("门锁上没嘛", []),
        ("门锁上嘛？", []),
        ("灯可以关嘛", []),
        # 干嘛 asks what something is doing.
        ("空调在干嘛", []),
    ],
)
async def test_a_request_ended_with_ma(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    sentence: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """嘛 after a request asks for it to be done; after 了 alone it may ask whether it is."""
    home = await load_home(hass, CHENGDU_FLAT)
    await assert_said(hass, home, fake_openai, [sentence], "zh-Hans", expected, "elder")


async def test_the_lights_of_a_room_lit_by_a_wall_switch_are_not_left_to_ha(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """HA's "the lights there" are its light entities: the airer's light, not the room's switch."""
    home = await load_home(hass, CHENGDU_FLAT)
    await assert_said(hass, home, fake_openai, ["小阳台灯打开"], "zh-Hans", [])


SHA_TIN_FLAT: dict[str, Any] = {
    "language": "zh-HK",
    "areas": [
        {"id": "living", "name": "客廳"},
        {"id": "master", "name": "主人房"},
        {"id": "daughter", "name": "Chloe房"},
        {"id": "kitchen", "name": "廚房"},
    ],
    "devices": [
        {
            "id": f"plug_{n}",
            "name": "米家智能插座3",
            "area": "kitchen",
            "manufacturer": "Xiaomi",
            "model": "cuco.plug.v3",
        }
        for n in (1, 2, 3)
    ],
    "entities": [
        entity("cover.living", "客廳窗簾", "living", "open", COVER),
        entity("cover.master", "主人房窗簾", "master", "open", COVER),
        entity("cover.daughter", "Curtain", "daughter", "open", COVER),
        entity(
            "humidifier.living",
            "客廳抽濕機",
            "living",
            "on",
            {**DEHUMIDIFIER, "available_modes": ["Set", "Continuous"]},
        ),
        # Three plugs of one model: two renamed for what is on them, one left as named.
        entity("switch.plug_1", "電飯煲", None, "off", {}, device="plug_1"),
        entity("switch.plug_2", "米家智能插座3", None, "off", {}, device="plug_2"),
        entity("switch.plug_3", "暖爐", None, "off", {}, device="plug_3"),
    ],
}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # The model's name is the one plug's own, and only the others' device's.
        ("開米家智能插座三", [("switch.turn_on", "switch.plug_2", {})]),
        ("客廳抽濕機轉持續抽濕", [("humidifier.set_mode", "humidifier.living", {"mode": "Continuous"})]),
    ],
)
async def test_what_people_say_in_a_sha_tin_flat(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    sentence: str,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """Each sentence does exactly the expected calls."""
    home = await load_home(hass, SHA_TIN_FLAT)
    await assert_said(hass, home, fake_openai, [sentence], "zh-HK", expected)


@pytest.mark.parametrize(
    ("area", "expected"),
    [
        # Three curtains, and "curtain" is what 窗簾 says: which one is not said.
        (None, []),
        # Said in her room, hers.
        ("daughter", [("cover.close_cover", "cover.daughter", {})]),
    ],
)
async def test_a_kind_word_as_a_name_in_another_language_is_the_kind(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    area: str | None,
    expected: list[tuple[str, str, dict[str, Any]]],
) -> None:
    """A curtain named Curtain beside 客廳窗簾 is one of the curtains, not the curtain."""
    home = await load_home(hass, SHA_TIN_FLAT)
    await assert_said(hass, home, fake_openai, ["Close the curtain"], "zh-HK", expected, area)


TAICHUNG_FLAT: dict[str, Any] = {
    "language": "zh-Hant",
    "areas": [{"id": "living", "name": "客廳"}, {"id": "dining", "name": "餐廳"}],
    "entities": [
        entity("light.living_main", "客廳大燈", "living", "on", LIGHT),
        entity("light.living_strip", "電視燈條", "living", "on", LIGHT),
        entity("light.dining", "餐桌吊燈", "dining", "on", LIGHT),
        entity(
            "climate.living_ac",
            "客廳冷氣",
            "living",
            "cool",
            {**CLIMATE, "supported_features": 9 | 128 | 256},
        ),
        entity(
            "media_player.tv",
            "客廳電視",
            "living",
            "on",
            {
                **TV,
                "volume_level": 0.4,
                "is_volume_muted": False,
                "supported_features": 4 | 8 | 128 | 256 | 1024,
            },
        ),
    ],
}


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        # 也是 after a room's lights: the same to the lights of the room said.
        (["客廳的燈全關", "餐廳的也是"], ["light.living_main", "light.living_strip", "light.dining"]),
        (["客廳的燈全關", "餐廳的也一樣"], ["light.living_main", "light.living_strip", "light.dining"]),
    ],
)
async def test_the_same_in_another_room(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    expected: list[str],
) -> None:
    """What was done to every light of one room is done to the lights of the room said next."""
    home = await load_home(hass, TAICHUNG_FLAT)
    calls = [("light.turn_off", entity_id, {}) for entity_id in expected]
    await assert_said(hass, home, fake_openai, sentences, "zh-Hant", calls)


async def test_the_same_of_two_kinds_is_not_half_done(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """A light and an air conditioner switched off, then "the dining room's too" where there is
    only a light: not the light alone (handed on)."""
    home = await load_home(hass, TAICHUNG_FLAT)
    await assert_said(
        hass,
        home,
        fake_openai,
        ["關掉客廳大燈和客廳冷氣", "餐廳的也是"],
        "zh-Hant",
        [("light.turn_off", "light.living_main", {}), ("climate.turn_off", "climate.living_ac", {})],
        model_may_answer=True,
    )
    assert len(fake_openai.chat_requests) > 0


async def test_simply_mute_it(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """乾脆 ("just") adds nothing to the request after a volume follow-up."""
    home = await load_home(hass, TAICHUNG_FLAT)
    await assert_said(
        hass,
        home,
        fake_openai,
        ["可以幫我把電視聲音轉小一點嗎", "好了乾脆靜音"],
        "zh-Hant",
        [
            ("media_player.volume_down", "media_player.tv", {}),
            ("media_player.volume_mute", "media_player.tv", {"is_volume_muted": True}),
        ],
    )


FLOOR_LAMPS: dict[str, Any] = {
    "language": "en",
    "areas": [{"id": room.lower(), "name": room} for room in ("Living", "Library", "Study", "Nursery")],
    "entities": [
        entity("light.floor_lamp", "Floor Lamp", "living", "on", LIGHT),
        *(
            entity(f"light.{room}_floor_lamp", f"{room.title()} Floor Lamp", room, "on", LIGHT)
            for room in ("library", "study", "nursery")
        ),
        *(entity(f"light.a{n}", f"Ceiling {n}", "study", "on", LIGHT) for n in range(30)),
    ],
}


async def test_a_name_read_as_its_kind_leaves_the_model_the_devices_of_that_kind(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """ "the floor lamp" among four rooms' floor lamps: nothing done, and the model is given
    the floor lamps (the one named so whole first), not the lights by their ids."""
    home = await load_home(hass, FLOOR_LAMPS)
    await assert_said(hass, home, fake_openai, ["Set the floor lamp to 50 percent"], "en", [])
    engine = hass.data[DATA_COMPONENT].get_entity(AGENT_ID).engine
    reading = read("Set the floor lamp to 50 percent", "en", engine.catalog.names)
    recall = engine.recall(reading, ConversationState(), None)
    assert list(recall.candidates[:4]) == [
        "light.floor_lamp",
        "light.library_floor_lamp",
        "light.nursery_floor_lamp",
        "light.study_floor_lamp",
    ]
