"""Fixtures of the selection tests: the English benchmark home."""

from pathlib import Path

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, async_load_home, read_home
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

EN_HOME = Path(__file__).resolve().parents[2] / "bench" / "fixtures" / "en-home.home.json"


@pytest.fixture
async def setup_en(hass: HomeAssistant, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the English benchmark home after the integration."""
    assert await async_setup_component(hass, "homeassistant", {})
    return await async_load_home(hass, read_home(EN_HOME))
