"""Entities, calls and conversations of the homes the understanding tests are said in."""

import copy
from typing import Any

import pytest

from bench.home import LoadedHome, async_load_home, satellite_in_area
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component

from ..conftest import AGENT_ID
from ..fake_openai import FakeOpenAI, text

LIGHT = {"supported_color_modes": ["brightness"], "color_mode": "brightness", "brightness": 200}
CLIMATE = {
    "hvac_modes": ["off", "cool", "dry", "fan_only", "heat"],
    "min_temp": 16,
    "max_temp": 30,
    "temperature": 26,
    "target_temp_step": 1,
    "supported_features": 9,
}
# A Panasonic's fan modes written as percentages.
PERCENT_FANS = {**CLIMATE, "fan_modes": ["自動", "20%", "40%", "60%", "80%", "100%"], "fan_mode": "自動"}
# A Daikin's fan modes.
DAIKIN_FANS = {**CLIMATE, "fan_modes": ["Auto", "Silence", "1", "2", "3", "4", "5"], "fan_mode": "Auto"}
FAN = {"percentage": 0, "percentage_step": 10, "supported_features": 1}
DEHUMIDIFIER = {
    "device_class": "dehumidifier",
    "humidity": 55,
    "min_humidity": 35,
    "max_humidity": 85,
    "available_modes": ["Set", "Continuous", "Smart", "Dry"],
    "mode": "Set",
    "supported_features": 1,
}
# Switched on and off (media_player.MediaPlayerEntityFeature.TURN_ON | TURN_OFF).
TV = {"device_class": "tv", "supported_features": 128 | 256}
# Start, pause, return home, state (vacuum.VacuumEntityFeature).
VACUUM = {"supported_features": 8192 | 4 | 16 | 4096}


def entity(
    entity_id: str, name: str, area: str | None, state: str, attributes: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    entity = {
        "entity_id": entity_id,
        "name": name,
        "state": state,
        "attributes": {**attributes, "friendly_name": name},
        **extra,
    }
    if area is not None:
        entity["area"] = area
    return entity


async def load_home(hass: HomeAssistant, home: dict[str, Any]) -> LoadedHome:
    """Load a copy of a test home into HA, with HA's own core integration set up."""
    assert await async_setup_component(hass, "homeassistant", {})
    return await async_load_home(hass, copy.deepcopy(home))


def calls_made(home: LoadedHome) -> list[tuple[str, str, dict[str, Any]]]:
    """Return the service calls HA received, in a stable order."""
    made = [
        (
            f"{c.domain}.{c.service}",
            c.data["entity_id"],
            {k: v for k, v in c.data.items() if k != "entity_id"},
        )
        for c in home.calls
    ]
    return sorted(made, key=repr)


async def assert_said(
    hass: HomeAssistant,
    home: LoadedHome,
    fake_openai: FakeOpenAI,
    sentences: list[str],
    language: str,
    expected: list[tuple[str, str, dict[str, Any]]],
    area: str | None = None,
    *,
    model_may_answer: bool = False,
) -> list[str]:
    """Say the sentences in one conversation: exactly the expected calls, and no model asked for them.

    ``area``: the room of the satellite they are said to; ``model_may_answer``: a turn before the
    one that acts may be handed on. Returns the replies.
    """
    fake_openai.default_reply = text("OK")
    device_id = satellite_in_area(hass, home.area_ids[area]) if area else None
    replies, conversation_id = [], None
    for sentence in sentences:
        result = await conversation.async_converse(
            hass,
            sentence,
            conversation_id,
            Context(),
            language=language,
            agent_id=AGENT_ID,
            device_id=device_id,
        )
        conversation_id = result.conversation_id
        replies.append(result.response.speech["plain"]["speech"])
    made = calls_made(home)
    assert made == sorted(expected, key=repr), (made, replies)
    if expected and not model_may_answer:
        assert fake_openai.chat_requests == []
    return replies


def said(
    home: dict[str, Any],
    sentences: list[str],
    expected: list[tuple[str, str, dict[str, Any]]],
    area: str | None = None,
    *,
    why: str,
) -> Any:
    """One conversation in a test home, as a test case named by what it shows."""
    return pytest.param(home, sentences, expected, area, id=why)


async def assert_home_said(
    hass: HomeAssistant,
    fake_openai: FakeOpenAI,
    home: dict[str, Any],
    sentences: list[str],
    expected: list[tuple[str, str, dict[str, Any]]],
    area: str | None,
) -> None:
    """Load a test home and say one conversation in it: exactly the expected calls, no model."""
    loaded = await load_home(hass, home)
    await assert_said(hass, loaded, fake_openai, sentences, home["language"], expected, area)
