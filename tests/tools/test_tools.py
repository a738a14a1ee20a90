"""Tests of the first tools through HA's LLM API, as any agent would call them."""

from freezegun.api import FrozenDateTimeFactory
import pytest

from custom_components.layered_assist.const import DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

from ..llm_tools import call_tool


@pytest.fixture(autouse=True)
async def setup_integration(hass: HomeAssistant) -> None:
    """Set up the integration (no entry needed for the LLM API)."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, DOMAIN, {})


async def test_calculate(hass: HomeAssistant) -> None:
    """The calculator answers and reports bad expressions."""
    assert await call_tool(hass, "calculate", {"expression": "(2+3)*4"}) == {
        "expression": "(2+3)*4",
        "result": 20,
    }
    result = await call_tool(hass, "calculate", {"expression": "2**99999"})
    assert result["error"] == "invalid_expression"
    result = await call_tool(hass, "calculate", {"expression": "x" * 500})
    assert result["error"] == "invalid_arguments"


@pytest.mark.parametrize(
    ("language", "weekday"),
    [("en", "Sunday"), ("zh-Hans", "星期日"), ("zh-CN", "星期日"), ("zh-Hant", "星期日"), ("de", "Sunday")],
)
async def test_get_datetime(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, language: str, weekday: str
) -> None:
    """Date, time and weekday are given in HA's time zone and the user's language."""
    await hass.config.async_set_time_zone("Asia/Shanghai")
    freezer.move_to("2026-11-22T01:30:00+00:00")
    result = await call_tool(hass, "get_datetime", {}, language)
    assert result == {"date": "2026-11-22", "time": "09:30", "weekday": weekday, "timezone": "Asia/Shanghai"}
    assert dt_util.now().tzinfo is not None
