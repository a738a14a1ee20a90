"""What the thirteenth blind sets found done wrong, in homes of the same kinds.

An Austin house whose Sonos speakers are named by their rooms, a Chengdu flat whose utility
balcony is lit by a wall switch and whose grandfather ends requests with 嘛, a Sha Tin flat where
one curtain kept an English name, and a Taichung flat; the checks are the service calls HA
received, and that nothing is done where the sentence leaves it open.
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
from .homes import CLIMATE, DEHUMIDIFIER, LIGHT, TV, assert_home_said, assert_said, entity, load_home, said

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


ELDER_LIGHT_ON = [("light.turn_on", "light.elder_light", {})]
LIVING_LIGHTS_AND_DINING = [
    ("light.turn_off", entity_id, {})
    for entity_id in ("light.living_main", "light.living_strip", "light.dining")
]


@pytest.mark.parametrize(
    ("home", "sentences", "expected", "area"),
    [
        # The bedroom has a speaker named Bedroom and no TV: a speaker is no TV; said as what it
        # is, it is that one.
        said(AUSTIN_HOUSE, ["Turn on the TV in the bedroom"], [], why="speaker-is-no-tv"),
        said(
            AUSTIN_HOUSE,
            ["Pause the bedroom speaker"],
            [("media_player.media_pause", "media_player.bedroom", {})],
            why="speaker-said-so",
        ),
        # 嘛 ends a request said softly, as Sichuan says it.
        said(CHENGDU_FLAT, ["把灯打开嘛"], ELDER_LIGHT_ON, "elder", why="ma-request"),
        said(CHENGDU_FLAT, ["帮我把灯打开嘛"], ELDER_LIGHT_ON, "elder", why="ma-polite-request"),
        said(CHENGDU_FLAT, ["门锁上嘛"], [("lock.lock", "lock.front_door", {})], "elder", why="ma-lock"),
        said(
            CHENGDU_FLAT,
            ["那把空调开起嘛"],
            [("climate.turn_on", "climate.elder_ac", {})],
            "elder",
            why="ma-kai-qi",
        ),
        # Where it may be 吗 written 嘛, it asks: after a verb said done, with another question
        # word or mark, or asking leave; 干嘛 asks what something is doing.
        *(
            said(CHENGDU_FLAT, [sentence], [], "elder", why=f"ma-asks-{n}")
            for n, sentence in enumerate(
                [
                    "灯关了嘛",
                    "你把门锁了嘛",
                    "灯关没关嘛",
                    "门锁上没嘛",
                    "门锁上嘛？",
                    "灯可以关嘛",
                    "空调在干嘛",
                ]
            )
        ),
        # HA's "the lights there" are its light entities: the airer's light, not the room's switch.
        said(CHENGDU_FLAT, ["小阳台灯打开"], [], why="room-lit-by-a-wall-switch"),
        # The model's name is the one plug's own, and only the others' device's.
        said(SHA_TIN_FLAT, ["開米家智能插座三"], [("switch.turn_on", "switch.plug_2", {})], why="own-name"),
        said(
            SHA_TIN_FLAT,
            ["客廳抽濕機轉持續抽濕"],
            [("humidifier.set_mode", "humidifier.living", {"mode": "Continuous"})],
            why="continuous",
        ),
        # Three curtains, and "curtain" is what 窗簾 says: which one is not said; in her room, hers.
        said(SHA_TIN_FLAT, ["Close the curtain"], [], why="curtain-is-the-kind"),
        said(
            SHA_TIN_FLAT,
            ["Close the curtain"],
            [("cover.close_cover", "cover.daughter", {})],
            "daughter",
            why="curtain-here",
        ),
        # 也是 / 也一樣 after a room's lights: the same to the lights of the room said.
        said(TAICHUNG_FLAT, ["客廳的燈全關", "餐廳的也是"], LIVING_LIGHTS_AND_DINING, why="ye-shi"),
        said(TAICHUNG_FLAT, ["客廳的燈全關", "餐廳的也一樣"], LIVING_LIGHTS_AND_DINING, why="ye-yi-yang"),
        # 乾脆 ("just") adds nothing to the request after a volume follow-up.
        said(
            TAICHUNG_FLAT,
            ["可以幫我把電視聲音轉小一點嗎", "好了乾脆靜音"],
            [
                ("media_player.volume_down", "media_player.tv", {}),
                ("media_player.volume_mute", "media_player.tv", {"is_volume_muted": True}),
            ],
            why="gan-cui",
        ),
    ],
)
async def test_what_is_said_in_the_thirteenth_homes(
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
