"""Memos: the to-do entity round trip, the tools, the services and the intents."""

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.const import DOMAIN
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant

from .llm_tools import call_tool

TODO = "todo.layered_assist_memos"
pytestmark = pytest.mark.usefixtures("init_integration")


async def todo_items(hass: HomeAssistant) -> list[dict]:
    """Return the to-do list as HA's own service shows it."""
    result = await hass.services.async_call(
        "todo", "get_items", {"entity_id": TODO}, blocking=True, return_response=True
    )
    return result[TODO]["items"]


async def test_round_trip(hass: HomeAssistant) -> None:
    """What the tool adds shows on the to-do list; what the dashboard changes the tool sees."""
    added = await call_tool(hass, "add_memo", {"text": "买牛奶"})
    assert added["speech"] == "已记下：买牛奶。"
    assert [i["summary"] for i in await todo_items(hass)] == ["买牛奶"]
    assert hass.states.get(TODO).state == "1"

    await hass.services.async_call("todo", "add_item", {"entity_id": TODO, "item": "交电费"}, blocking=True)
    await hass.services.async_call(
        "todo", "update_item", {"entity_id": TODO, "item": "买牛奶", "status": "completed"}, blocking=True
    )
    listed = await call_tool(hass, "list_memos", {})
    assert listed["memos"] == ["交电费"]
    assert listed["speech"] == "你有1条备忘：1. 交电费。"

    deleted = await call_tool(hass, "delete_memo", {"memo": "电费"})
    assert deleted["speech"] == "已删除备忘：交电费。"
    assert [i["summary"] for i in await todo_items(hass)] == ["买牛奶"]
    assert (await call_tool(hass, "delete_memo", {"memo": "3"}))["error"] == "not_found"


async def test_services(hass: HomeAssistant) -> None:
    """The memo services return results."""
    await hass.services.async_call(
        DOMAIN,
        "add_memo",
        {"text": "water the plants", "language": "en"},
        blocking=True,
        return_response=True,
    )
    result = await hass.services.async_call(
        DOMAIN, "list_memos", {"language": "en"}, blocking=True, return_response=True
    )
    assert result["memos"] == ["water the plants"]
    assert result["speech"] == "You have 1 memos: 1. water the plants."


@pytest.mark.parametrize(
    ("add", "listing", "language", "expected"),
    [
        ("帮我记一下明天带伞", "我的备忘录有什么", "zh-Hans", "明天带伞"),
        ("remember to call mum", "what are my memos", "en", "call mum"),
    ],
)
async def test_intents(hass: HomeAssistant, add: str, listing: str, language: str, expected: str) -> None:
    """HA's own agent adds and reads memos through our intents."""
    added = await conversation.async_converse(hass, add, None, Context(), language=language)
    assert expected in added.response.speech["plain"]["speech"]
    listed = await conversation.async_converse(hass, listing, None, Context(), language=language)
    assert expected in listed.response.speech["plain"]["speech"]


async def test_memos_survive_reload(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """Memos are stored."""
    await call_tool(hass, "add_memo", {"text": "续签护照"})
    assert await hass.config_entries.async_reload(init_integration.entry_id)
    await hass.async_block_till_done()
    assert (await call_tool(hass, "list_memos", {}))["memos"] == ["续签护照"]
