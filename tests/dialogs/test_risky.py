"""Risky device commands wait for the user's confirmation."""

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from custom_components.layered_assist.const import CONF_FAST_PATH, CONF_LOCAL_ACTION
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant

from ..conftest import AGENT_ID
from ..fake_openai import FakeOpenAI, call, text
from ..llm_tools import call_tool


@pytest.fixture
async def setup(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the home, then the integration."""
    return home


async def say(
    hass: HomeAssistant, sentence: str, conversation_id: str | None, language: str = "zh-Hans"
) -> tuple[str, str]:
    """Send a sentence; return the speech and the conversation id."""
    result = await conversation.async_converse(
        hass, sentence, conversation_id, Context(), language=language, agent_id=AGENT_ID
    )
    return result.response.speech["plain"]["speech"], result.conversation_id or ""


async def test_confirm_then_act(hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI) -> None:
    """打开车库门 asks first; 确认 opens it; no model request for either turn."""
    speech, cid = await say(hass, "打开车库门", None)
    assert speech == "确定要打开车库门吗？"
    assert setup.calls == []
    speech, _ = await say(hass, "确认", cid)
    assert hass.states.get("cover.garage_door").state == "open"
    assert "车库门" in speech
    assert fake_openai.chat_requests == []


async def test_refuse(hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI) -> None:
    """Unlock the front door? No → nothing happens."""
    speech, cid = await say(hass, "解锁入户门锁", None, "en")
    assert speech == "Do you really want to unlock 入户门锁?"
    speech, _ = await say(hass, "no", cid, "en")
    assert "left 入户门锁" in speech
    assert setup.calls == []
    assert hass.states.get("lock.front_door").state == "locked"


async def test_expiry(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, freezer: FrozenDateTimeFactory
) -> None:
    """A confirmation that comes too late does nothing."""
    _, cid = await say(hass, "打开车库门", None)
    freezer.tick(timedelta(seconds=301))
    fake_openai.add(text("确认什么？"))
    speech, _ = await say(hass, "确认", cid)
    assert speech == "确认什么？"
    assert setup.calls == []


async def test_restart_in_between(
    hass: HomeAssistant, setup: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """The held command survives a reload and runs on confirmation."""
    _, cid = await say(hass, "把入户门锁解锁", None)
    assert await hass.config_entries.async_reload(init_integration.entry_id)
    await hass.async_block_till_done()
    await say(hass, "好的", cid)
    assert hass.states.get("lock.front_door").state == "unlocked"


@pytest.mark.parametrize("agent_options", [{CONF_FAST_PATH: False, CONF_LOCAL_ACTION: False}], indirect=True)
async def test_model_command_is_held(hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI) -> None:
    """When the model asks to open the garage, the user is asked first (one model request)."""
    fake_openai.add(
        call("control_devices", {"commands": [{"entity_id": "cover.garage_door", "command": "open_cover"}]})
    )
    speech, cid = await say(hass, "打开车库门", None)
    assert speech == "确定要打开车库门吗？"
    assert setup.calls == []
    await say(hass, "确认", cid)
    assert hass.states.get("cover.garage_door").state == "open"
    assert len(fake_openai.chat_requests) == 1


@pytest.fixture
def agent_options(agent_options: dict[str, Any], request: pytest.FixtureRequest) -> dict[str, Any]:
    """Let a test switch local layers off."""
    return {**agent_options, **getattr(request, "param", {})}


async def test_other_agents_cannot_run_a_risky_command(hass: HomeAssistant, setup: LoadedHome) -> None:
    """Through the registered API (HA's own agents) there is no one to ask: refused, never run."""
    result = await call_tool(
        hass,
        "control_devices",
        {
            "commands": [
                {"entity_id": "lock.front_door", "command": "unlock"},
                {"entity_id": "light.living_main", "command": "turn_off"},
            ]
        },
    )
    assert result["invalid"] == [
        {"entity_id": "lock.front_door", "error": "this command needs the user's confirmation"}
    ]
    assert result["done"] == ["light.living_main"]
    assert [(c.service, c.data["entity_id"]) for c in setup.calls] == [("turn_off", "light.living_main")]
