"""Layer 0, HA's own matcher, with local action off: what it may run and what it leaves to us."""

import json
from pathlib import Path
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from custom_components.layered_assist.compat import open_chat_session
from custom_components.layered_assist.const import CONF_LOCAL_ACTION
from homeassistant.components import conversation
from homeassistant.components.conversation.agent_manager import get_agent_manager
from homeassistant.components.conversation.const import DATA_COMPONENT
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import intent

from ..conftest import AGENT_ID
from ..fake_openai import FakeOpenAI, text
from .talk import converse


@pytest.fixture
def agent_options(agent_options: dict[str, Any]) -> dict[str, Any]:
    """Switch local action off: HA's matcher is the only local layer that acts."""
    return {**agent_options, CONF_LOCAL_ACTION: False}


def layer(hass: HomeAssistant) -> str:
    """Return the layer that answered the last turn."""
    turn = hass.data[DATA_COMPONENT].get_entity(AGENT_ID).last_turn
    assert turn is not None
    return str(turn.layer)


@pytest.fixture
async def setup_zh(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the Chinese test home, then the integration."""
    return home


@pytest.mark.parametrize(
    ("sentence", "entity_id", "state"),
    [
        ("unlock the back door lock", "lock.back_door", "locked"),
        ("open the garage door", "cover.garage_door", "closed"),
        ("turn on the garage door", "cover.garage_door", "closed"),
    ],
)
async def test_ha_never_opens_up(
    hass: HomeAssistant,
    setup_en: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    entity_id: str,
    state: str,
) -> None:
    """HA's match that would unlock a lock or open a garage door is not run: it is left to us."""
    fake_openai.add(text("Are you sure?"))

    assert await converse(hass, sentence, "en") == "Are you sure?"

    assert setup_en.calls == []
    assert hass.states.get(entity_id).state == state
    assert len(fake_openai.chat_requests) == 1


@pytest.mark.parametrize(
    ("sentence", "entity_id", "state"),
    [("关掉入户门锁", "lock.front_door", "locked"), ("打开车库门", "cover.garage_door", "closed")],
)
async def test_ha_never_opens_up_in_chinese(
    hass: HomeAssistant,
    setup_zh: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    entity_id: str,
    state: str,
) -> None:
    """关掉入户门锁 (unlocking) and 打开车库门 are not run by HA's matcher: the model is asked."""
    fake_openai.add(text("确定吗？"))

    assert await converse(hass, sentence) == "确定吗？"

    assert setup_zh.calls == []
    assert hass.states.get(entity_id).state == state


# ("set the kitchen to 50%" was one more: HA 2026.2 read it as every device of the room;
# from 2026.10 HA reads it as the room's lights, which it may run.)
@pytest.mark.parametrize(
    "sentence",
    [
        # Later: HA would act now.
        "turn off the office light in 10 minutes",
    ],
)
async def test_ha_matches_left_to_us(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI, sentence: str
) -> None:
    """A match HA would run too widely or too early is not run; the model is asked instead."""
    fake_openai.add(text("Which one?"))

    assert await converse(hass, sentence, "en") == "Which one?"

    assert setup_en.calls == []
    assert hass.states.get("light.office").state == "on"
    assert layer(hass) == "model"


async def test_every_fan_of_a_room_is_not_assumed(
    hass: HomeAssistant, setup_zh: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "打开客厅风扇" is not read by HA as every fan of the living room: the model decides."""
    fake_openai.add(text("哪个风扇？"))

    assert await converse(hass, "打开客厅风扇") == "哪个风扇？"

    assert setup_zh.calls == []
    assert hass.states.get("fan.living_fan").state == "off"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "turn on the lights in the kitchen",
            {"light.kitchen_spotlights", "light.under_cabinet", "light.kitchen_island"},
        ),
        ("turn on the fans in the office", {"fan.desk_fan"}),
    ],
)
async def test_ha_runs_a_kind_in_a_room(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI, sentence: str, expected: set[str]
) -> None:
    """A kind said in the plural in a room is HA's to run on all of that kind there, without the model."""
    await converse(hass, sentence, "en")

    assert setup_en.acted_on() == expected
    assert all(hass.states.get(entity_id).state == "on" for entity_id in expected)
    assert layer(hass) == "fast_path"
    assert fake_openai.chat_requests == []


async def test_ha_answers_what_is_no_device(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "What time is it" is answered by HA's matcher, touching no device and asking no model."""
    reply = await converse(hass, "what time is it", "en")

    assert reply.endswith(("AM", "PM"))
    assert setup_en.calls == []
    assert layer(hass) == "fast_path"
    assert fake_openai.chat_requests == []


async def test_a_match_ha_cannot_carry_out_leaves_nothing_in_the_log(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """HA matched a sentence of the user's own but its intent failed: the model is asked, and
    neither it nor the conversation's log sees HA's attempt."""
    sentences = Path(hass.config.path("custom_sentences", "en"))
    sentences.mkdir(parents=True, exist_ok=True)
    (sentences / "bell.yaml").write_text(
        'language: "en"\nintents:\n  RingBell:\n    data:\n'
        '      - sentences:\n          - "ring the dinner bell"\n',
        encoding="utf-8",
    )

    class RingBell(intent.IntentHandler):
        intent_type = "RingBell"

        async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
            raise intent.IntentHandleError("the bell is broken")

    intent.async_register(hass, RingBell())
    await get_agent_manager(hass).default_agent.async_reload()  # type: ignore[union-attr]
    fake_openai.add(text("There is no bell I can ring."))

    reply = await converse(hass, "ring the dinner bell", "en")

    assert reply == "There is no bell I can ring."
    assert layer(hass) == "model"
    assert "RingBell" not in json.dumps(fake_openai.chat_requests[0]["messages"])
    with (
        open_chat_session(hass, _last_conversation_id(hass), Context()) as session,
        conversation.async_get_chat_log(hass, session) as chat_log,
    ):
        assert not [c for c in chat_log.content if getattr(c, "tool_calls", None)]


def _last_conversation_id(hass: HomeAssistant) -> str:
    turn = hass.data[DATA_COMPONENT].get_entity(AGENT_ID).last_turn
    assert turn is not None
    return str(turn.conversation_id)
