"""Cantonese (zh-HK) and Taiwan Mandarin (zh-TW) through HA's conversation API: calls and replies."""

from pathlib import Path
import re
from typing import Any

from opencc_purepy import OpenCC
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, async_load_home, read_home
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .talk import converse, converse_in_turns

FIXTURES = Path(__file__).parent.parent.parent / "bench" / "fixtures"
# What a Simplified reply would change: a zh-HK or zh-TW reply changes under neither.
TRADITIONAL = {"zh-HK": OpenCC("s2t"), "zh-TW": OpenCC("s2twp")}
# 郁 is also the Simplified form of 鬱, but Cantonese writes its verb "move" so (唔郁).
CANTONESE_ONLY = str.maketrans("", "", "郁")
# Written Cantonese, which Mandarin replies never use.
CANTONESE = re.compile(r"[咗嘅喇嘢唔冇係喺郁]|而家|已經")


def assert_variant(reply: str, language: str) -> None:
    """The reply is in the variant's script; a Hong Kong one is in Cantonese."""
    assert reply
    text = reply.translate(CANTONESE_ONLY) if language == "zh-HK" else reply
    assert TRADITIONAL[language].convert(text) == text, reply
    if language == "zh-HK":
        assert CANTONESE.search(reply), reply


def calls(home: LoadedHome) -> list[tuple[str, str, dict[str, Any]]]:
    """Return the recorded service calls as (service, entity, data without the entity)."""
    return [
        (call.service, call.data["entity_id"], {k: v for k, v in call.data.items() if k != "entity_id"})
        for call in home.calls
    ]


async def _load(hass: HomeAssistant, name: str) -> LoadedHome:
    assert await async_setup_component(hass, "homeassistant", {})
    return await async_load_home(hass, read_home(FIXTURES / f"{name}.home.json"))


@pytest.fixture
async def hk(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """The Chinese benchmark home with names in Hong Kong's characters."""
    return await _load(hass, "zh-hk-home")


@pytest.fixture
async def tw(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """The Chinese benchmark home with names in Taiwan's characters."""
    return await _load(hass, "zh-tw-home")


@pytest.mark.parametrize(
    ("sentence", "service", "entity_id", "data"),
    [
        # Verbs and particles: 閂/熄 off, 開埋 on, 拉埋佢 draw it closed, 較/校 set.
        ("閂咗客廳筒燈", "turn_off", "light.living_room_spotlights", {}),
        ("熄咗廚房燈", "turn_off", "light.kitchen_main", {}),
        ("開埋主人房紗簾", "open_cover", "cover.master_bedroom_sheer", {}),
        ("唔該將主人房窗簾拉埋佢", "close_cover", "cover.master_bedroom_curtain", {}),
        # Numbers as said: 廿四 is twenty-four.
        ("書房冷氣較到廿四度", "set_temperature", "climate.study_ac", {"temperature": 24}),
        ("細路房吊扇較快一檔", "increase_speed", "fan.kids_room_ceiling_fan", {}),
        ("書房枱燈較到最光", "turn_on", "light.study_desk_lamp", {"brightness_pct": 100}),
        ("客廳冷氣較做暖氣", "set_hvac_mode", "climate.living_room_ac", {"hvac_mode": "heat"}),
        # Places: 廳 is the living room, 主人房 the master bedroom.
        ("開廳燈", "turn_on", "light.living_room_main", {}),
    ],
)
async def test_cantonese_commands(
    hass: HomeAssistant, hk: LoadedHome, sentence: str, service: str, entity_id: str, data: dict[str, Any]
) -> None:
    """Everyday Cantonese is carried out exactly, with no model, and answered in Cantonese."""
    reply = await converse(hass, sentence, "zh-HK")
    assert calls(hk) == [(service, entity_id, data)]
    assert_variant(reply, "zh-HK")


async def test_cantonese_all_lights_of_a_room(hass: HomeAssistant, hk: LoadedHome) -> None:
    """熄晒主人房啲燈 switches off every light of the master bedroom."""
    reply = await converse(hass, "熄晒主人房啲燈", "zh-HK")
    assert sorted(entity for _, entity, _ in calls(hk)) == [
        "light.master_bedroom_bedside_left",
        "light.master_bedroom_bedside_right",
        "light.master_bedroom_main",
        "light.master_bedroom_strip",
    ]
    assert {service for service, _, _ in calls(hk)} == {"turn_off"}
    assert_variant(reply, "zh-HK")


@pytest.mark.parametrize(
    "sentence",
    [
        # Negations: 唔好, 咪, 唔使.
        "唔好閂廚房燈",
        "咪開書房冷氣",
        "唔使開主人房窗簾",
        # Questions: 咗未, 係咪, 呀 at the end.
        "客廳燈開咗未呀",
        "主人房冷氣係咪開咗",
        # Later: scheduled, not run now.
        "十分鐘後閂客廳燈",
        "聽朝七點打開主人房窗簾",
    ],
)
async def test_cantonese_that_does_nothing_now(hass: HomeAssistant, hk: LoadedHome, sentence: str) -> None:
    """A negation, a question or a request for later changes nothing now, and is answered in Cantonese."""
    reply = await converse(hass, sentence, "zh-HK")
    assert calls(hk) == []
    assert_variant(reply, "zh-HK")


async def test_cantonese_pronoun(hass: HomeAssistant, hk: LoadedHome) -> None:
    """佢 is the device of the last turn: 閂返佢 switches it off again."""
    replies = await converse_in_turns(hass, "開客廳筒燈", "閂返佢", language="zh-HK")
    assert calls(hk) == [
        ("turn_on", "light.living_room_spotlights", {}),
        ("turn_off", "light.living_room_spotlights", {}),
    ]
    for reply in replies:
        assert_variant(reply, "zh-HK")


@pytest.mark.parametrize(
    ("sentence", "service", "entity_id", "data"),
    [
        # 電燈 of a room is its main light.
        ("把主臥室的電燈關掉", "turn_off", "light.master_bedroom_main", {}),
        # 冷氣 is the air conditioner; 抽風機 the exhaust fan; 燈條 a light strip.
        ("客廳冷氣調到二十四度", "set_temperature", "climate.living_room_ac", {"temperature": 24}),
        ("把公衛的抽風機打開", "turn_on", "fan.guest_bathroom_exhaust", {}),
        ("客廳燈條調成紅色", "turn_on", "light.living_room_strip", {"rgb_color": (255, 0, 0)}),
        ("主臥室冷氣調到自動模式", "set_hvac_mode", "climate.master_bedroom_ac", {"hvac_mode": "auto"}),
    ],
)
async def test_taiwan_commands(
    hass: HomeAssistant, tw: LoadedHome, sentence: str, service: str, entity_id: str, data: dict[str, Any]
) -> None:
    """Taiwan's words for devices and rooms, carried out and answered in Taiwan's characters."""
    reply = await converse(hass, sentence, "zh-TW")
    assert [
        (s, e, {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}) for s, e, d in calls(tw)
    ] == [(service, entity_id, data)]
    assert_variant(reply, "zh-TW")


@pytest.mark.parametrize("sentence", ["客廳燈有開嗎", "書房檯燈有關嗎", "先不要開客廳筒燈", "不用開書房冷氣"])
async def test_taiwan_that_does_nothing_now(hass: HomeAssistant, tw: LoadedHome, sentence: str) -> None:
    """有開嗎 / 有關嗎 are questions and 先不要 a negation: nothing changes."""
    reply = await converse(hass, sentence, "zh-TW")
    assert calls(tw) == []
    assert_variant(reply, "zh-TW")


@pytest.mark.parametrize("yes", ["好呀", "得", "係"])
async def test_cantonese_climate_dialog(hass: HomeAssistant, hk: LoadedHome, yes: str) -> None:
    """溫度校到廿二度，濕度六成 asks, and a Cantonese yes applies 22 °C and 60 %."""
    question, done = await converse_in_turns(
        hass, "主人房冷氣溫度校到廿二度，濕度六成", yes, language="zh-HK"
    )
    assert "22" in question
    assert "60" in question
    applied = {(service, entity): data for service, entity, data in calls(hk)}
    assert applied[("set_temperature", "climate.master_bedroom_ac")] == {"temperature": 22.0}
    assert {data["humidity"] for (service, _), data in applied.items() if service == "set_humidity"} == {60.0}
    for reply in (question, done):
        assert_variant(reply, "zh-HK")


@pytest.mark.parametrize(("no", "closes"), [("算啦", True), ("唔好", False)])
async def test_cantonese_climate_dialog_no(
    hass: HomeAssistant, hk: LoadedHome, no: str, closes: bool
) -> None:
    """算啦 cancels the dialog; 唔好 refuses the values and asks what to change; nothing is set."""
    _, reply = await converse_in_turns(hass, "主人房冷氣溫度校到廿二度，濕度六成", no, language="zh-HK")
    assert calls(hk) == []
    assert ("取消" in reply) is closes
    assert_variant(reply, "zh-HK")


async def test_taiwan_climate_dialog(hass: HomeAssistant, tw: LoadedHome) -> None:
    """The dialog in Taiwan Mandarin: 確認 applies, replies in Taiwan's characters."""
    question, done = await converse_in_turns(
        hass, "主臥室冷氣溫度調到二十二度，濕度六十", "確認", language="zh-TW"
    )
    assert ("set_temperature", "climate.master_bedroom_ac", {"temperature": 22.0}) in calls(tw)
    for reply in (question, done):
        assert_variant(reply, "zh-TW")
