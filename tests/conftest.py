"""Fixtures: a real HA core, the fake model server and a configured entry."""

from collections.abc import AsyncGenerator, Generator
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, async_load_home, read_home
from custom_components.layered_assist.const import (
    CONF_BASE_URL,
    CONF_MAX_TOOL_ROUNDS,
    CONF_MODEL,
    CONF_STREAM,
    CONF_TIMEOUT,
    DEFAULT_AGENT_NAME,
    DOMAIN,
    LLM_API_ID,
    SUBENTRY_CONVERSATION,
)
from custom_components.layered_assist.entry_storage import PER_ENTRY_MINOR_VERSION
from custom_components.layered_assist.selection.catalog import DeviceCatalog
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import CONF_API_KEY, CONF_LLM_HASS_API, Platform
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import METRIC_SYSTEM

from .fake_openai import FakeOpenAI

AGENT_ID = "conversation.layered_assist"


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Load integrations from custom_components."""


@pytest.fixture
async def fake_openai(socket_enabled: None) -> AsyncGenerator[FakeOpenAI]:
    """Run the fake OpenAI-compatible server for one test (only 127.0.0.1 is reachable)."""
    server = FakeOpenAI()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def agent_options() -> dict[str, Any]:
    """Return the options of the test agent; tests override what they need."""
    return {
        CONF_MODEL: "gpt-test",
        CONF_LLM_HASS_API: [LLM_API_ID],
        CONF_MAX_TOOL_ROUNDS: 3,
        CONF_TIMEOUT: 2,
        CONF_STREAM: True,
    }


@pytest.fixture
async def mock_config_entry(
    hass: HomeAssistant, fake_openai: FakeOpenAI, agent_options: dict[str, Any]
) -> MockConfigEntry:
    """Return an entry pointing at the fake server, with one agent, on a started core."""
    assert await async_setup_component(hass, "homeassistant", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        minor_version=PER_ENTRY_MINOR_VERSION,
        title="127.0.0.1",
        data={CONF_BASE_URL: fake_openai.base_url, CONF_API_KEY: "sk-test"},
        subentries_data=[
            {
                "subentry_type": SUBENTRY_CONVERSATION,
                "data": agent_options,
                "title": DEFAULT_AGENT_NAME,
                "unique_id": None,
            }
        ],
    )
    entry.add_to_hass(hass)
    return entry


@pytest.fixture
async def init_integration(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> MockConfigEntry:
    """Set up our entry."""
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    return mock_config_entry


HOME_ZH = Path(__file__).parent / "fixtures" / "home_zh.json"


@pytest.fixture
async def home(hass: HomeAssistant) -> LoadedHome:
    """Load the Chinese test home into HA's registries and state machine."""
    assert await async_setup_component(hass, "homeassistant", {})
    hass.config.units = METRIC_SYSTEM
    return await async_load_home(hass, read_home(HOME_ZH))


@pytest.fixture
def catalog(hass: HomeAssistant, home: LoadedHome) -> Generator[DeviceCatalog]:
    """Build the device catalog of the test home."""
    device_catalog = DeviceCatalog(hass)
    device_catalog.async_start()
    yield device_catalog
    device_catalog.async_stop()


async def async_setup_demo(hass: HomeAssistant, *platforms: Platform) -> None:
    """Set up HA's demo entities of some platforms, exposed to Assist as a user would."""
    with patch("homeassistant.components.demo.COMPONENTS_WITH_CONFIG_ENTRY_DEMO_PLATFORM", list(platforms)):
        assert await async_setup_component(hass, "demo", {})
        await hass.async_block_till_done()
    for platform in platforms:
        for entity_id in hass.states.async_entity_ids(platform.value):
            async_expose_entity(hass, "conversation", entity_id, True)


def update_state(hass: HomeAssistant, entity_id: str, state: str | None = None, **attributes: Any) -> None:
    """Give an entity of the test home another state or more attributes, keeping the rest."""
    current = hass.states.get(entity_id)
    assert current is not None
    hass.states.async_set(entity_id, state or current.state, {**current.attributes, **attributes})
