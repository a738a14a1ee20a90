"""The weather tool on HA's demo weather entity, as a tool and a service."""

import json

import pytest

from custom_components.layered_assist.const import DOMAIN
from homeassistant.const import Platform
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component

from ..conftest import async_setup_demo
from ..llm_tools import call_tool


@pytest.fixture
async def setup_integration(hass: HomeAssistant) -> None:
    """Set up our integration."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, DOMAIN, {})


@pytest.fixture
async def demo_weather(hass: HomeAssistant, setup_integration: None) -> None:
    """A real weather entity with forecasts (HA's demo platform), exposed by the user."""
    await async_setup_demo(hass, Platform.WEATHER)


async def call(hass: HomeAssistant, args: dict) -> dict:
    """Call the tool as any agent would."""
    return await call_tool(hass, "get_weather", args, language="en")


@pytest.mark.usefixtures("demo_weather")
async def test_now_and_three_days(hass: HomeAssistant) -> None:
    """Current conditions and three days, compactly."""
    result = await call(hass, {})
    assert result["entity_id"].startswith("weather.")
    assert "condition" in result["now"]
    assert len(result["days"]) == 3
    assert {"date", "condition", "high"} <= set(result["days"][0])
    assert len(json.dumps(result, ensure_ascii=False).encode()) < 600


@pytest.mark.usefixtures("demo_weather")
async def test_service(hass: HomeAssistant) -> None:
    """The service returns the same data."""
    result = await hass.services.async_call(DOMAIN, "get_weather", {}, blocking=True, return_response=True)
    assert len(result["days"]) == 3


@pytest.mark.usefixtures("setup_integration")
async def test_no_weather_entity(hass: HomeAssistant) -> None:
    """Without a weather entity the result says so."""
    assert (await call(hass, {}))["error"] == "no_weather_entity"


@pytest.mark.usefixtures("demo_weather")
@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [("今天天气怎么样", "zh-Hans", "明天"), ("weather forecast", "en", "Tomorrow:")],
)
async def test_intent_through_default_agent(
    hass: HomeAssistant, sentence: str, language: str, expected: str
) -> None:
    """HA's own agent answers with our weather intent, in the user's language."""
    from homeassistant.components import conversation  # noqa: PLC0415

    assert await async_setup_component(hass, "conversation", {})
    result = await conversation.async_converse(hass, sentence, None, Context(), language=language)
    assert expected in result.response.speech["plain"]["speech"]
