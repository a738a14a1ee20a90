"""The ``get_weather`` tool: now and the next three days from an HA weather entity."""

from typing import Any

import voluptuous as vol

from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError

from ..const import CONF_WEATHER_ENTITY
from ..localize import async_reply, async_text, is_chinese
from .base import LOOKUP, ModelResult, ToolOutcome, ToolRequest, ToolSpec

FORECAST_DAYS = 3


def _weather_entity(request: ToolRequest) -> str | None:
    """Return the asked entity, the asking agent's, else the first exposed one."""
    configured = None
    if not request.args.get("entity_id"):
        try:
            configured = request.owner(need_agent=True).required_agent.options.get(CONF_WEATHER_ENTITY)
        except ServiceValidationError:
            # Asked by none of our agents, with several of them: no agent's choice applies.
            configured = None
    for chosen in (request.args.get("entity_id"), configured):
        if chosen and request.hass.states.get(chosen):
            return str(chosen)
    for state in sorted(request.hass.states.async_all("weather"), key=lambda s: s.entity_id):
        if async_should_expose(request.hass, "conversation", state.entity_id):
            return state.entity_id
    return None


async def _async_weather(request: ToolRequest) -> ToolOutcome:
    """Return the current conditions and a short daily forecast."""
    hass = request.hass
    entity_id = _weather_entity(request)
    if entity_id is None:
        return ModelResult({"error": "no_weather_entity", "error_text": "no weather entity is exposed"})
    state = hass.states.get(entity_id)
    assert state is not None
    attributes = state.attributes
    now: dict[str, Any] = {"condition": state.state}
    for key in ("temperature", "humidity", "wind_speed", "temperature_unit"):
        if key in attributes:
            now[key] = attributes[key]
    days: list[dict[str, Any]] = []
    try:
        response = await hass.services.async_call(
            "weather",
            "get_forecasts",
            {ATTR_ENTITY_ID: entity_id, "type": "daily"},
            blocking=True,
            return_response=True,
        )
    except HomeAssistantError as err:
        return ModelResult({"entity_id": entity_id, "now": now, "forecast_error": str(err)})
    forecast = _forecast_items(response, entity_id)
    for item in forecast[:FORECAST_DAYS]:
        day = {"date": str(item.get("datetime", ""))[:10], "condition": item.get("condition")}
        for key, short in (
            ("temperature", "high"),
            ("templow", "low"),
            ("precipitation_probability", "rain_chance"),
        ):
            if item.get(key) is not None:
                day[short] = item[key]
        days.append(day)
    speech = await _async_speech(request, now, days)
    return ModelResult({"entity_id": entity_id, "now": now, "days": days, "speech": speech})


async def _async_speech(request: ToolRequest, now: dict[str, Any], days: list[dict[str, Any]]) -> str:
    """Say the weather now and tomorrow in the user's language."""

    async def condition(value: Any) -> str:
        return await async_text(
            request.hass, request.language, "selector", f"weather_condition.options.{value}"
        )

    unit = str(now.get("temperature_unit", ""))
    parts = [
        await async_reply(
            request.hass,
            request.language,
            "weather_now",
            {
                "condition": await condition(now["condition"]),
                "temperature": f"{now.get('temperature', '?')}{unit}",
            },
        )
    ]
    if len(days) > 1:
        day = days[1]
        parts.append(
            await async_reply(
                request.hass,
                request.language,
                "weather_tomorrow",
                {
                    "condition": await condition(day.get("condition")),
                    "low": str(day.get("low", "?")),
                    "high": f"{day.get('high', '?')}{unit}",
                },
            )
        )
    return ("" if is_chinese(request.language) else " ").join(parts)


WEATHER_TOOL = ToolSpec(
    name="get_weather",
    traits=LOOKUP,
    description="Get the current weather and the next three days from Home Assistant's weather entity.",
    parameters=vol.Schema({vol.Optional("entity_id"): str}),
    handler=_async_weather,
)


def _forecast_items(response: Any, entity_id: str) -> list[dict[str, Any]]:
    """Return the forecast list of a ``weather.get_forecasts`` response."""
    entity = response.get(entity_id) if isinstance(response, dict) else None
    forecast = entity.get("forecast") if isinstance(entity, dict) else None
    return [item for item in forecast if isinstance(item, dict)] if isinstance(forecast, list) else []
