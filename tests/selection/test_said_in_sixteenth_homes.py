"""What the sixteenth blind sets' first run found, in homes of the same kinds.

A Taipei flat with a cat feeder and a TV, and a Shanghai lane house with an air conditioner
upstairs: a request for when something has happened is not done now, and a number not
understood beside a request stops it from being done in part.
"""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI
from .homes import CLIMATE, TV, assert_said, entity, load_home

LOUD_TV = {
    **TV,
    "volume_level": 0.15,
    "is_volume_muted": False,
    "supported_features": 4 | 8 | 128 | 256 | 1024,
}

TAIPEI_FLAT: dict[str, Any] = {
    "language": "zh-TW",
    "areas": [{"id": "living", "name": "客廳"}, {"id": "balcony", "name": "陽台"}],
    "entities": [
        entity("media_player.tv", "BRAVIA XR-55X90L", "living", "on", LOUD_TV, aliases=["電視"]),
        entity("switch.feeder", "自動餵食器", "balcony", "on", {}),
    ],
}

SHANGHAI_HOUSE: dict[str, Any] = {
    "language": "zh-Hans",
    "floors": [{"id": "third", "name": "三楼"}],
    "areas": [{"id": "attic", "name": "亭子间", "floor": "third"}],
    "entities": [entity("climate.attic", "海尔空调", "attic", "off", CLIMATE)],
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
