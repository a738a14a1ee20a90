"""Diagnostics (secrets redacted) and system health."""

import asyncio
import json

from pytest_homeassistant_custom_component.common import MockConfigEntry, get_system_health_info
from pytest_homeassistant_custom_component.components.diagnostics import get_diagnostics_for_config_entry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component

from .conftest import AGENT_ID
from .fake_openai import FakeOpenAI, text


async def test_diagnostics(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
) -> None:
    """The key is redacted; sizes, settings and the last turn are there."""
    fake_openai.add(text("hello"))
    await conversation.async_converse(
        hass, "tell me a joke", None, Context(), language="en", agent_id=AGENT_ID
    )
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, init_integration)
    assert diagnostics["entry"]["data"]["api_key"] == "**REDACTED**"
    assert "sk-test" not in json.dumps(diagnostics)
    [agent] = diagnostics["agents"].values()
    assert agent["options"]["model"] == "gpt-test"
    assert agent["last_turn"]["layer"] == "model"
    assert diagnostics["endpoint"]["last_round_trip_s"] > 0
    assert "catalog" in diagnostics
    assert diagnostics["stores"]["conversations"] == 1


async def test_system_health(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Health shows the model, the catalog and whether the endpoint answers."""
    assert await async_setup_component(hass, "system_health", {})
    await hass.async_block_till_done()
    info = await get_system_health_info(hass, "layered_assist")
    # HA resolves the reachability check lazily, as the UI does.
    info = {key: await value if asyncio.iscoroutine(value) else value for key, value in info.items()}
    assert info["models"] == "gpt-test"
    assert info["last_round_trip"] == "none yet"
    assert info["endpoint_reachable"] == "ok"
