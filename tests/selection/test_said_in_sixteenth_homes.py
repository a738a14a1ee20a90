"""What the sixteenth blind sets found, in homes of the same kinds.

A Taipei flat with a cat feeder and a TV, and a Shanghai lane house with an air conditioner
upstairs: a request for when something has happened is not done now, and a number not
understood beside a request stops it from being done in part. A Sydney house whose ducted
air conditioner has zone switches beside the sprinkler valves, a Tin Shui Wai flat with a
power strip, and the Shanghai house spoken to in Shanghainese (关脱, 开开, 覅, 伊, 一眼眼).
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, LIGHT, TV, assert_home_said, assert_said, entity, load_home, said

LOUD_TV = {
    **TV,
    "volume_level": 0.15,
    "is_volume_muted": False,
    "supported_features": 4 | 8 | 128 | 256 | 1024,
}

WATER_VALVE = {"device_class": "water", "supported_features": 3}
OUTLET = {"device_class": "outlet"}

TAIPEI_FLAT: dict[str, Any] = {
    "language": "zh-TW",
    "areas": [
        {"id": "living", "name": "客廳"},
        {"id": "balcony", "name": "陽台"},
        {"id": "kitchen", "name": "廚房"},
        {"id": "study", "name": "書房"},
        {"id": "bedroom", "name": "臥室", "aliases": ["房間"]},
    ],
    "devices": [{"id": "hue_lamp", "name": "Hue color lamp 3", "area": "living"}],
    "entities": [
        entity("media_player.tv", "BRAVIA XR-55X90L", "living", "on", LOUD_TV, aliases=["電視"]),
        entity("switch.feeder", "自動餵食器", "balcony", "on", {}),
        # Placed by its device only; 立燈 sounds like the 裡的燈 of "這裡的燈".
        entity("light.hue_lamp", "沙發立燈", None, "off", LIGHT, device="hue_lamp"),
        entity("light.kitchen", "廚房燈", "kitchen", "off", LIGHT),
        entity("light.study_ceiling", "書房燈", "study", "on", LIGHT),
        entity("light.study_lamp", "米家檯燈 1S", "study", "on", LIGHT),
        entity("light.bedroom_ceiling", "臥室大燈", "bedroom", "on", LIGHT),
    ],
}

SHANGHAI_HOUSE: dict[str, Any] = {
    "language": "zh-Hans",
    "floors": [{"id": "third", "name": "三楼"}],
    "areas": [
        {"id": "attic", "name": "亭子间", "floor": "third"},
        {"id": "parlour", "name": "客堂间"},
    ],
    "entities": [
        entity("climate.attic", "海尔空调", "attic", "off", CLIMATE),
        entity("switch.shrine", "关公像灯", "parlour", "off", {}),
        entity("switch.boiler", "开水机", "parlour", "on", {}),
        entity("switch.fish_pump", "鱼缸水泵", "parlour", "on", {}),
        entity("switch.fish_light", "鱼缸灯", "parlour", "on", {}),
        entity("light.parlour", "客堂间大灯", "parlour", "on", LIGHT),
        entity("switch.heater", "取暖器插座", "parlour", "off", OUTLET, aliases=["客堂间汀"]),
        entity("media_player.tv", "小米电视", "parlour", "on", LOUD_TV),
    ],
}

SYDNEY_HOUSE: dict[str, Any] = {
    "language": "en",
    "areas": [
        {"id": "living", "name": "Living room"},
        {"id": "kitchen", "name": "Kitchen"},
        {"id": "garden", "name": "Garden"},
        {"id": "main_bedroom", "name": "Main bedroom"},
    ],
    "devices": [
        {"id": "daikin", "name": "Ducted", "manufacturer": "Daikin"},
        {"id": "rainbird", "name": "Rain Bird", "manufacturer": "Rain Bird", "area": "garden"},
    ],
    "entities": [
        entity(
            "switch.ducted_living",
            "Ducted Living",
            "living",
            "on",
            {},
            device="daikin",
            aliases=["Living zone"],
        ),
        entity(
            "switch.ducted_kitchen",
            "Ducted Kitchen",
            "kitchen",
            "on",
            {},
            device="daikin",
            aliases=["Kitchen zone"],
        ),
        entity("valve.shut_off", "Shut-Off Valve", None, "open", WATER_VALVE, aliases=["Water main"]),
        entity("valve.sprinkler_1", "Front lawn", "garden", "open", WATER_VALVE, device="rainbird"),
        entity("valve.sprinkler_2", "Back lawn", "garden", "open", WATER_VALVE, device="rainbird"),
        entity(
            "valve.sprinkler_4", "Rain Bird Sprinkler 4", "garden", "open", WATER_VALVE, device="rainbird"
        ),
        entity("light.downlights", "Main bedroom downlights", "main_bedroom", "on", LIGHT),
        entity("light.bedside_left", "Bedside left", "main_bedroom", "on", LIGHT),
        entity("light.bedside_right", "Bedside right", "main_bedroom", "on", LIGHT),
    ],
}

TIN_SHUI_WAI_FLAT: dict[str, Any] = {
    "language": "zh-HK",
    "areas": [{"id": "living", "name": "客廳"}],
    "devices": [{"id": "strip", "name": "拖板", "area": "living", "model": "智能拖板 4位+USB"}],
    "entities": [
        entity("switch.strip_1", "魚缸", None, "on", OUTLET, device="strip"),
        entity("switch.strip_2", "拖板 插座 2", None, "on", OUTLET, device="strip"),
        entity("switch.strip_usb", "拖板 USB", None, "on", {}, device="strip", exposed=False),
    ],
}


@pytest.mark.parametrize(
    ("home", "sentences"),
    [
        (TAIPEI_FLAT, ["等貓吃完再把餵食器關掉"]),
        (SHANGHAI_HOUSE, ["小宝回来了就把三楼空调开开"]),
        (TAIPEI_FLAT, ["電視音量多大", "調大聲一點，二十五"]),
    ],
    ids=["after-the-cat-has-eaten", "when-he-is-back", "a-number-not-understood"],
)
async def test_nothing_is_done_now(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    home: dict[str, Any],
    sentences: list[str],
) -> None:
    """A request for later, or one with a value left out, is not carried out now (it is handed on)."""
    loaded = await load_home(hass, home)
    await assert_said(hass, loaded, fake_openai, sentences, home["language"], [], model_may_answer=True)


@pytest.mark.parametrize(
    ("home", "sentences", "expected", "area"),
    [
        said(
            SYDNEY_HOUSE,
            ["Turn all the sprinklers off"],
            [
                ("valve.close_valve", "valve.sprinkler_1", {}),
                ("valve.close_valve", "valve.sprinkler_2", {}),
                ("valve.close_valve", "valve.sprinkler_4", {}),
            ],
            why="sprinklers-not-the-water-main-nor-the-aircon-zones",
        ),
        said(
            SYDNEY_HOUSE,
            ["Turn the downlights off", "and the bedside lamps"],
            [
                ("light.turn_off", "light.downlights", {}),
                ("light.turn_off", "light.bedside_left", {}),
                ("light.turn_off", "light.bedside_right", {}),
            ],
            "main_bedroom",
            why="bedside-lamps-named-bedside",
        ),
        said(
            TAIPEI_FLAT,
            ["書房的燈全部關掉"],
            [("light.turn_off", "light.study_ceiling", {}), ("light.turn_off", "light.study_lamp", {})],
            why="a-rooms-de-is-no-room",
        ),
        said(
            TAIPEI_FLAT,
            ["這裡的燈打開"],
            [("light.turn_on", "light.kitchen", {})],
            "kitchen",
            why="here-de-light",
        ),
        said(
            SHANGHAI_HOUSE,
            ["帮我把关公像灯开开好伐", "开水机关脱"],
            [("switch.turn_on", "switch.shrine", {}), ("switch.turn_off", "switch.boiler", {})],
            why="kaikai-guantuo",
        ),
        said(
            SHANGHAI_HOUSE,
            ["鱼缸水泵覅关，就把鱼缸灯关脱"],
            [("switch.turn_off", "switch.fish_light", {})],
            why="fiao-is-dont",
        ),
        said(
            SHANGHAI_HOUSE,
            ["汀开开"],
            [("switch.turn_on", "switch.heater", {})],
            "parlour",
            why="ting-is-a-heater",
        ),
        said(
            SHANGHAI_HOUSE,
            ["客堂间大灯开开", "再暗一眼眼", "好了，关脱伊"],
            [
                ("light.turn_on", "light.parlour", {}),
                ("light.turn_on", "light.parlour", {"brightness_step_pct": -20}),
                ("light.turn_off", "light.parlour", {}),
            ],
            why="yi-is-it",
        ),
    ],
)
async def test_what_is_said_in_the_sixteenth_homes(
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


@pytest.mark.parametrize("sentence", ["拖板 USB 閂咗佢", "閂咗拖板"])
async def test_a_strip_is_not_its_renamed_socket(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI, sentence: str
) -> None:
    """拖板 names the whole strip, not the socket renamed 魚缸; its USB port is not exposed."""
    home = await load_home(hass, TIN_SHUI_WAI_FLAT)
    await assert_said(hass, home, fake_openai, [sentence], "zh-HK", [], model_may_answer=True)
