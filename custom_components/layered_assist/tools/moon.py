"""The ``get_moon_phase`` tool: computed locally with astral, no network."""

import math

from astral import moon
import voluptuous as vol

from homeassistant.util import dt as dt_util

from ..localize import async_reply, async_text
from .base import LOOKUP, ModelResult, ToolOutcome, ToolRequest, ToolSpec
from .dates import DateError, parse_date

# Upper bounds (in days of astral's 0–28 cycle) of each named phase.
_PHASES = (
    (1.84566, "new_moon"),
    (5.53699, "waxing_crescent"),
    (9.22831, "first_quarter"),
    (12.91963, "waxing_gibbous"),
    (16.61096, "full_moon"),
    (20.30228, "waning_gibbous"),
    (23.99361, "last_quarter"),
    (27.68493, "waning_crescent"),
    (28.0, "new_moon"),
)


def phase_key(age: float) -> str:
    """Return the named phase of a moon age (astral's 0–28 scale)."""
    return next(key for bound, key in _PHASES if age < bound)


def illumination(age: float) -> float:
    """Return the lit share of the disc, 0–1, for a moon age on astral's 28-day scale."""
    angle = 2 * math.pi * (age / 28.0)
    return round((1 - math.cos(angle)) / 2, 3)


async def _async_moon_phase(request: ToolRequest) -> ToolOutcome:
    """Return the phase name (in the user's language) and illumination for a date."""
    today = dt_util.now().date()
    try:
        day = parse_date(request.args.get("date"), today)
    except DateError as err:
        return ModelResult({"error": "invalid_date", "error_text": str(err)})
    age = moon.phase(day)
    key = phase_key(age)
    name = await async_text(request.hass, request.language, "selector", f"moon_phase.options.{key}")
    lit = round(illumination(age) * 100)
    speech = await async_reply(
        request.hass,
        request.language,
        "moon_phase",
        {"date": day.isoformat(), "phase": name, "illumination": str(lit)},
    )
    return ModelResult({"date": day.isoformat(), "phase": name, "illumination": f"{lit}%", "speech": speech})


MOON_PHASE_TOOL = ToolSpec(
    name="get_moon_phase",
    traits=LOOKUP,
    description=(
        "Get the moon phase and illumination for a date (default today; 明天, next Friday, 2026-12-01)."
    ),
    parameters=vol.Schema({vol.Optional("date"): vol.All(str, vol.Length(max=40))}),
    handler=_async_moon_phase,
)
