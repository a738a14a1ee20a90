"""Stores of older versions: taken over when readable, left alone when not; entries of a newer version."""

import logging
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.alarms import STORAGE_KIND as ALARMS
from custom_components.layered_assist.const import (
    CONF_BASE_URL,
    CONF_MODEL,
    DEFAULT_AGENT_NAME,
    DOMAIN,
    SUBENTRY_CONVERSATION,
)
from custom_components.layered_assist.entry_storage import PER_ENTRY_MINOR_VERSION, entry_store_key
from custom_components.layered_assist.memos import STORAGE_KIND as MEMOS
from custom_components.layered_assist.state import STORAGE_KIND as CONVERSATIONS
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .fake_openai import FakeOpenAI


def legacy_store(hass_storage: dict[str, Any], kind: str, data: dict[str, Any], version: int = 1) -> str:
    """Write one shared store of version 1.1 and return its key."""
    key = f"{DOMAIN}.{kind}"
    hass_storage[key] = {"version": version, "minor_version": 1, "key": key, "data": data}
    return key


async def entry_of(
    hass: HomeAssistant, fake_openai: FakeOpenAI, version: int, minor_version: int
) -> MockConfigEntry:
    """Add an entry of a given version with one agent, on a started core."""
    assert await async_setup_component(hass, "homeassistant", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        version=version,
        minor_version=minor_version,
        data={CONF_BASE_URL: fake_openai.base_url, CONF_API_KEY: "sk-test"},
        subentries_data=[
            {
                "subentry_type": SUBENTRY_CONVERSATION,
                "data": {CONF_MODEL: "gpt-test"},
                "title": DEFAULT_AGENT_NAME,
                "unique_id": None,
            }
        ],
    )
    entry.add_to_hass(hass)
    return entry


async def test_an_unreadable_old_store_is_left_and_the_rest_moved(
    hass: HomeAssistant,
    fake_openai: FakeOpenAI,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Old memos of a version we cannot read stay where they are; old alarms move; setup goes on."""
    memos_key = legacy_store(hass_storage, MEMOS, {"memos": [{"summary": "x"}]}, version=9)
    alarms_key = legacy_store(
        hass_storage,
        ALARMS,
        {"alarms": [{"id": "a1", "due": "2099-11-23T07:00:00+00:00", "message": "wake"}]},
    )
    entry = await entry_of(hass, fake_openai, 1, 1)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    assert entry.minor_version == PER_ENTRY_MINOR_VERSION
    assert [a.message for a in entry.runtime_data.alarms.alarms] == ["wake"]
    assert entry.runtime_data.memos.memos == []
    # The unreadable data is kept for the user to restore; the moved one is gone from the old key.
    assert hass_storage[memos_key]["data"] == {"memos": [{"summary": "x"}]}
    assert alarms_key not in hass_storage
    assert entry_store_key(ALARMS, entry.entry_id) in hass_storage
    # No old conversations: none are written for the entry either.
    assert entry_store_key(CONVERSATIONS, entry.entry_id) not in hass_storage
    assert any(
        r.levelno == logging.WARNING and r.getMessage().startswith("Could not read the old memos store")
        for r in caplog.records
    )


async def test_nothing_old_is_nothing_moved(
    hass: HomeAssistant, fake_openai: FakeOpenAI, hass_storage: dict[str, Any]
) -> None:
    """An entry of 1.1 with no old stores is migrated and starts empty."""
    entry = await entry_of(hass, fake_openai, 1, 1)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.minor_version == PER_ENTRY_MINOR_VERSION
    assert entry.runtime_data.alarms.alarms == []
    assert entry.runtime_data.memos.memos == []
    assert not [key for key in hass_storage if key.startswith(f"{DOMAIN}.")]


async def test_an_entry_of_a_newer_version_is_not_set_up(
    hass: HomeAssistant, fake_openai: FakeOpenAI, hass_storage: dict[str, Any]
) -> None:
    """An entry written by a newer major version (a downgrade) fails migration and is left untouched."""
    entry = await entry_of(hass, fake_openai, 2, 1)
    assert not await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.MIGRATION_ERROR
    assert (entry.version, entry.minor_version) == (2, 1)
    assert fake_openai.requests == []
