"""Per-conversation state: isolation, persistence across restarts, corrupt data."""

import time
from typing import Any

import pytest

from custom_components.layered_assist.const import DOMAIN
from custom_components.layered_assist.entry_storage import entry_store_key
from custom_components.layered_assist.state import (
    MAX_DEVICES,
    STORAGE_KIND,
    ConversationStateStore,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

STORAGE_KEY = entry_store_key(STORAGE_KIND, "test-entry")


async def test_isolated_and_bounded(hass: HomeAssistant) -> None:
    """Conversations keep their own state; lists stay short, newest first."""
    store = ConversationStateStore(hass, STORAGE_KEY)
    await store.async_load()
    for number in range(8):
        store.record("a", devices=[f"light.l{number}"], rooms=["kitchen"])
    store.record("b", devices=["fan.f"])
    assert store.get("a").recent_devices == [f"light.l{n}" for n in range(7, 7 - MAX_DEVICES, -1)]
    assert store.get("b").recent_devices == ["fan.f"]
    assert store.get("c").recent_devices == []


async def test_idle_dialogs_expire_per_conversation_or_all(hass: HomeAssistant) -> None:
    """A turn expires its own conversation's idle dialog; the timer's sweep expires every one."""
    store = ConversationStateStore(hass, STORAGE_KEY)
    await store.async_load()
    for conversation_id in ("a", "b"):
        store.set_dialog(conversation_id, dialog={"kind": "climate", "updated_at": 0}, pending=None)
    store.set_dialog("c", dialog={"kind": "climate", "updated_at": time.time()})
    assert store.expire_dialogs(60, "a") == 1
    assert (store.get("a").dialog, store.get("b").dialog is not None) == (None, True)
    assert store.expire_dialogs(60, "unknown") == 0
    assert store.expire_dialogs(60) == 1
    assert (store.get("b").dialog, store.get("c").dialog is not None) == (None, True)


async def test_survives_restart(hass: HomeAssistant, hass_storage: dict[str, Any]) -> None:
    """What was recorded is there after a new load (as after an HA restart)."""
    store = ConversationStateStore(hass, STORAGE_KEY)
    await store.async_load()
    store.record(
        "conv",
        devices=["climate.ac"],
        rooms=["bedroom"],
        commands=[{"entity_id": "climate.ac", "command": "turn_on", "params": {}}],
        user_text="打开空调",
        reply="已打开空调。",
    )
    await store.async_flush()
    assert STORAGE_KEY in hass_storage

    again = ConversationStateStore(hass, STORAGE_KEY)
    await again.async_load()
    state = again.get("conv")
    assert state.recent_devices == ["climate.ac"]
    assert state.last_commands[0]["command"] == "turn_on"
    assert state.recent_turns == [{"user": "打开空调", "assistant": "已打开空调。"}]


@pytest.mark.parametrize(
    "stored",
    [
        {
            "version": 1,
            "minor_version": 1,
            "key": STORAGE_KEY,
            "data": {"conversations": ["not", "a", "dict"]},
        },
        {"version": 1, "minor_version": 1, "key": STORAGE_KEY, "data": "garbage"},
        "{ this is not json",
    ],
)
async def test_corrupt_store_is_reset(
    hass: HomeAssistant, hass_storage: dict[str, Any], stored: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Unreadable state is reset with a warning (no repair: nothing to do), and the store works."""
    hass_storage[STORAGE_KEY] = stored
    store = ConversationStateStore(hass, STORAGE_KEY)
    await store.async_load()
    assert store.size == 0
    assert "unreadable and has been reset" in caplog.text
    assert not [i for i in ir.async_get(hass).issues.values() if i.domain == DOMAIN]
    store.record("x", devices=["light.a"])
    assert store.get("x").recent_devices == ["light.a"]
