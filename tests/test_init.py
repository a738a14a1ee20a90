"""Tests for setting up and unloading an entry."""

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.const import DOMAIN, LLM_API_ID
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir, llm
from homeassistant.setup import async_setup_component

from .conftest import AGENT_ID
from .fake_openai import FakeOpenAI


async def test_setup_unload_reload(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """The entry loads an agent entity, unloads it and loads again."""
    assert init_integration.state is ConfigEntryState.LOADED
    assert hass.states.get(AGENT_ID) is not None

    assert await hass.config_entries.async_unload(init_integration.entry_id)
    await hass.async_block_till_done()
    assert init_integration.state is ConfigEntryState.NOT_LOADED

    assert await hass.config_entries.async_setup(init_integration.entry_id)
    await hass.async_block_till_done()
    assert init_integration.state is ConfigEntryState.LOADED

    assert await hass.config_entries.async_reload(init_integration.entry_id)
    await hass.async_block_till_done()
    assert init_integration.state is ConfigEntryState.LOADED
    assert hass.states.get(AGENT_ID) is not None


async def test_llm_api_registered(hass: HomeAssistant) -> None:
    """Our tools are an LLM API as soon as the integration is set up."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, DOMAIN, {})
    api_ids = {api.id for api in llm.async_get_apis(hass)}
    assert LLM_API_ID in api_ids


async def test_setup_auth_failure_starts_reauth(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """A rejected key at start-up asks the user for a new one."""
    fake_openai.models_status = 401
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert mock_config_entry.state is ConfigEntryState.SETUP_ERROR
    assert mock_config_entry.error_reason_translation_key == "auth_failed"
    flows = hass.config_entries.flow.async_progress()
    assert [flow["context"]["source"] for flow in flows] == ["reauth"]


async def test_setup_unreachable_retries(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """An endpoint that is down makes the entry retry later."""
    await fake_openai.stop()
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY
    # Said in the user's language on the integration's card.
    assert mock_config_entry.error_reason_translation_key == "cannot_connect"
    issue = ir.async_get(hass).async_get_issue(DOMAIN, f"endpoint_unreachable_{mock_config_entry.entry_id}")
    assert issue is not None
