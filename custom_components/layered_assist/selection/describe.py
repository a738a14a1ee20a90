"""Answer a question about devices from their states, in the user's language, with no model."""

from typing import Any

from homeassistant.const import (
    ATTR_FRIENDLY_NAME,
    ATTR_UNIT_OF_MEASUREMENT,
    STATE_UNAVAILABLE,
    UnitOfTemperature,
)
from homeassistant.core import HomeAssistant, State

from ..localize import async_reply, is_chinese

# Most devices a spoken answer lists; more are left to a screen.
MAX_DESCRIBED = 8
# Domains whose state answers a question about them; the weather has its own tool.
DESCRIBED_DOMAINS = frozenset(
    {
        "light",
        "switch",
        "fan",
        "cover",
        "valve",
        "lock",
        "climate",
        "media_player",
        "vacuum",
        "humidifier",
        "water_heater",
        "binary_sensor",
        "sensor",
        "input_boolean",
        "lawn_mower",
    }
)
_MODES = ("cool", "heat", "dry", "fan_only", "auto", "heat_cool")
# What a vacuum or a mower is doing, each said in words.
_ROBOT_STATES = ("cleaning", "mowing", "docked", "returning", "paused", "idle", "error")
# Binary sensors whose "on" means open.
_OPENINGS = ("door", "window", "opening", "garage_door")


def _temperature(hass: HomeAssistant, value: Any) -> str:
    symbol = "℃" if hass.config.units.temperature_unit == UnitOfTemperature.CELSIUS else "℉"
    return f"{float(value):g}{symbol}"


def _climate_target(hass: HomeAssistant, attributes: Any) -> str | None:
    """Return what a climate is set to: one temperature, or the range of heat_cool ("21–24℃")."""
    if attributes.get("temperature") is not None:
        return _temperature(hass, attributes["temperature"])
    low, high = attributes.get("target_temp_low"), attributes.get("target_temp_high")
    if low is None or high is None:
        return None
    return f"{float(low):g}–{_temperature(hass, high)}"


def _percent(value: Any) -> str:
    return f"{round(float(value)):d}"


def _reading(hass: HomeAssistant, state: State) -> tuple[str, dict[str, str]]:
    """Return the reply key and values that describe one state."""
    attributes = state.attributes
    domain, value = state.domain, state.state
    if value == STATE_UNAVAILABLE:
        return "state_unavailable", {}
    if domain == "light" and value == "on" and attributes.get("brightness") is not None:
        return "state_light_on", {"brightness": _percent(float(attributes["brightness"]) * 100 / 255)}
    if domain == "fan" and value == "on" and attributes.get("percentage") is not None:
        return "state_fan_on", {"percentage": _percent(attributes["percentage"])}
    if domain == "humidifier" and value == "on" and attributes.get("humidity") is not None:
        # "加濕器濕度設咗幾多": the humidity it is set to.
        return "state_humidifier_on", {"humidity": _percent(attributes["humidity"])}
    if domain in ("cover", "valve"):
        position = attributes.get("current_position")
        if value == "open" and position is not None and 0 < float(position) < 100:
            return "state_open_position", {"position": _percent(position)}
        if value in ("open", "closed", "opening", "closing"):
            return f"state_{value}", {}
    if domain == "binary_sensor" and attributes.get("device_class") in _OPENINGS and value in ("on", "off"):
        return ("state_open" if value == "on" else "state_closed"), {}
    if domain == "lock" and value in ("locked", "unlocked"):
        return f"state_{value}", {}
    if domain == "climate" and value != "off":
        # On without one setting (fan only, dry, a range half reported): its mode by name.
        target = _climate_target(hass, attributes)
        key, values = (
            ("state_climate", {"temperature": target, "mode": value})
            if target
            else ("state_climate_mode", {"mode": value})
        )
        if attributes.get("current_temperature") is not None:
            values["current"] = _temperature(hass, attributes["current_temperature"])
            return f"{key}_current", values
        return key, values
    if domain == "media_player" and value in ("playing", "paused", "idle"):
        return f"state_{value}", {}
    if domain in ("vacuum", "lawn_mower") and value in _ROBOT_STATES:
        return f"state_{value}", {}
    if value in ("on", "off"):
        return f"state_{value}", {}
    unit = attributes.get(ATTR_UNIT_OF_MEASUREMENT) or ""
    return "state_value", {"value": f"{value}{unit}"}


def _volume(state: State) -> str | None:
    """Return a player's volume in percent, when it is on and reports one."""
    level = state.attributes.get("volume_level")
    if state.domain != "media_player" or state.state in ("off", STATE_UNAVAILABLE) or level is None:
        return None
    try:
        return _percent(float(level) * 100)
    except (TypeError, ValueError):
        return None


async def async_describe(hass: HomeAssistant, language: str, entity_ids: list[str]) -> str | None:
    """Return a spoken description of the devices' states, or None when there are too many."""
    if not entity_ids or len(entity_ids) > MAX_DESCRIBED:
        return None
    if any(entity_id.split(".", 1)[0] not in DESCRIBED_DOMAINS for entity_id in entity_ids):
        return None
    sentences = []
    for entity_id in entity_ids:
        if (state := hass.states.get(entity_id)) is None:
            return None
        key, values = _reading(hass, state)
        if (mode := values.get("mode")) is not None:
            values["mode"] = await async_reply(hass, language, f"mode_{mode}") if mode in _MODES else mode
        values["name"] = str(state.attributes.get(ATTR_FRIENDLY_NAME, entity_id))
        sentence = await async_reply(hass, language, key, values)
        if (volume := _volume(state)) is not None:
            # "书房音箱现在多大声": a player's loudness is part of its state.
            sentence += await async_reply(hass, language, "state_with_volume", {"volume": volume})
        sentences.append(sentence)
    separator, end = ("；", "。") if is_chinese(language) else ("; ", ".")
    return separator.join(sentences) + end
