"""The ``get_datetime`` tool: date, time and weekday in HA's time zone."""

import voluptuous as vol

from homeassistant.util import dt as dt_util

from ..localize import async_text
from .base import LOOKUP, ModelResult, ToolOutcome, ToolRequest, ToolSpec


async def _async_get_datetime(request: ToolRequest) -> ToolOutcome:
    """Return now, in the HA time zone, with the weekday in the user's language."""
    now = dt_util.now()
    weekday = await async_text(request.hass, request.language, "selector", f"weekday.options.{now.weekday()}")
    return ModelResult(
        {
            "date": now.strftime("%Y-%m-%d"),
            "time": now.strftime("%H:%M"),
            "weekday": weekday,
            "timezone": str(now.tzinfo),
        }
    )


DATETIME_TOOL = ToolSpec(
    name="get_datetime",
    traits=LOOKUP,
    description="Get the current date, time and weekday in the home's time zone.",
    parameters=vol.Schema({}),
    handler=_async_get_datetime,
)
