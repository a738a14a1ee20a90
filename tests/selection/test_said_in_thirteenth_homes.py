"""What the thirteenth blind sets found done wrong, in homes of the same kinds.

An Austin house whose Sonos speakers are named by their rooms, a Chengdu flat whose utility
balcony is lit by a wall switch, and a Sha Tin flat where one curtain kept an English name; the
checks are the service calls HA received, and that nothing is done where the sentence leaves it
open.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import LIGHT, TV, assert_said, entity, load_home

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
    "areas": [{"id": "utility", "name": "生活阳台", "aliases": ["小阳台"]}],
    "entities": [
        entity("light.airer_light", "晾衣架 照明", "utility", "off", LIGHT),
        entity("switch.balcony_light", "生活阳台灯", "utility", "off", {}),
    ],
}


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
    ],
    "entities": [
        entity("cover.living", "客廳窗簾", "living", "open", COVER),
        entity("cover.master", "主人房窗簾", "master", "open", COVER),
        entity("cover.daughter", "Curtain", "daughter", "open", COVER),
    ],
}


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
