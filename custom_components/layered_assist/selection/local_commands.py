"""Map a locally parsed action onto one entity's command, when that is unambiguous."""

from dataclasses import replace
from typing import Any

from homeassistant.const import UnitOfTemperature
from homeassistant.core import HomeAssistant, State
from homeassistant.util import color as color_util
from homeassistant.util.unit_conversion import TemperatureConverter

from ..language.actions import Action, ActionKind
from .capabilities import commands_for
from .presets import (
    fan_mode_step,
    level_mode,
    numbered_fan_mode,
    percent_fan_mode,
    pick_fan_mode,
    pick_preset,
)

BRIGHTNESS_STEP = 20
# How far "a bit" moves a cover or a valve, in percentage points.
POSITION_STEP = 20
# The colour temperature, in kelvin, of a spoken white ("暖光", "cool white").
WHITES = {"warm": 2700, "neutral": 4000, "cool": 6500}
type Command = tuple[str, dict[str, Any]]

_ON = {
    "cover": "open_cover",
    "valve": "open_valve",
    "vacuum": "start",
    "button": "press",
    "input_button": "press",
}
_OFF = {"cover": "close_cover", "valve": "close_valve", "vacuum": "return_to_base", "lock": "lock"}
_STOP = {"cover": "stop_cover", "valve": "stop_valve", "vacuum": "stop", "media_player": "media_stop"}
# The command, its field and the attribute listing the options, of each domain with presets.
_PRESETS = {
    "fan": ("set_preset_mode", "preset_mode", "preset_modes"),
    "climate": ("set_preset_mode", "preset_mode", "preset_modes"),
    "humidifier": ("set_mode", "mode", "available_modes"),
    "water_heater": ("set_operation_mode", "operation_mode", "operation_list"),
    # A vacuum's suction levels ("set Dusty to turbo").
    "vacuum": ("set_fan_speed", "fan_speed", "fan_speed_list"),
}
_PAUSE = {"media_player": "media_pause", "vacuum": "pause", "cover": "stop_cover"}


def command_for_action(hass: HomeAssistant, state: State, action: Action) -> Command | None:
    """Return (command, params) for an action on an entity, or None when unsure."""
    command = _map(hass, state, action)
    if command is None or command[0] not in commands_for(state):
        return None
    return command


def _opened_or_switched(state: State, action: Action) -> Command | None:
    """Open or close a cover or a valve, or switch a water heater on or off.

    "窗帘关一点", "open the valve a little": a step from where it is. A water heater with no
    switch is switched by its modes (Hive's hot water: eco, on, off).
    """
    on = action.kind is ActionKind.TURN_ON
    if state.domain == "water_heater":
        command = "turn_on" if on else "turn_off"
        if command in commands_for(state):
            return (command, {})
        mode = "on" if on else "off"
        if mode in (state.attributes.get("operation_list") or ()):
            return ("set_operation_mode", {"operation_mode": mode})
        return None
    if action.value is not None:
        return _nudge(state, up=on)
    return (_ON[state.domain], {}) if on else (_OFF[state.domain], {})


def _temperature(hass: HomeAssistant, action: Action) -> float | None:
    if action.value is None:
        return None
    if action.fahrenheit and hass.config.units.temperature_unit != UnitOfTemperature.FAHRENHEIT:
        return round(
            TemperatureConverter.convert(
                action.value, UnitOfTemperature.FAHRENHEIT, hass.config.units.temperature_unit
            ),
            1,
        )
    return action.value


def _map(hass: HomeAssistant, state: State, action: Action) -> Command | None:
    """Translate an action for the entity's domain."""
    domain = state.domain
    kind = action.kind
    value = action.value
    if kind in (ActionKind.TURN_ON, ActionKind.TURN_OFF) and domain in ("cover", "valve", "water_heater"):
        return _opened_or_switched(state, action)
    if kind is ActionKind.TURN_ON:
        if domain == "media_player" and "turn_on" not in (available := commands_for(state)):
            # A speaker that cannot be switched on is played ("開 Soundbar").
            return ("media_play", {}) if "media_play" in available else None
        return ("unlock", {}) if domain == "lock" else (_ON.get(domain, "turn_on"), {})
    if kind is ActionKind.TURN_OFF:
        if domain in ("scene", "button"):
            return None
        if domain == "media_player":
            # A speaker that cannot be switched off is stopped ("闩咗部 Sonos").
            available = commands_for(state)
            return next(((c, {}) for c in ("turn_off", "media_stop", "media_pause") if c in available), None)
        return (_OFF.get(domain, "turn_off"), {})
    if kind is ActionKind.STOP:
        return (_STOP[domain], {}) if domain in _STOP else None
    if kind is ActionKind.PAUSE:
        return (_PAUSE[domain], {}) if domain in _PAUSE else None
    if kind is ActionKind.LOCK:
        return ("lock", {}) if domain == "lock" else None
    if kind is ActionKind.UNLOCK:
        return ("unlock", {}) if domain == "lock" else None
    if kind is ActionKind.SET_VALUE:
        return _map(hass, state, settled(action, domain))
    if kind in (ActionKind.SET_TEMPERATURE, ActionKind.ADJUST_TEMPERATURE):
        return _temperature_command(hass, state, action)
    if domain == "light" and kind in _LIGHT_SETTINGS and action.option is None:
        return _light_setting(state, kind, value)
    if kind is ActionKind.SET_POSITION and value is not None:
        return _percent(state, value)
    if kind is ActionKind.SET_VOLUME and domain == "media_player" and value is not None:
        return ("volume_set", {"volume_level": round(value / 100, 2)})
    if kind is ActionKind.ADJUST_VOLUME and domain == "media_player" and value is not None:
        return ("volume_up" if value > 0 else "volume_down", {})
    if kind in (ActionKind.MUTE, ActionKind.UNMUTE) and domain == "media_player":
        return ("volume_mute", {"is_volume_muted": kind is ActionKind.MUTE})
    if kind is ActionKind.OSCILLATE and domain == "fan" and value is not None:
        return ("oscillate", {"oscillating": value > 0})
    if kind is ActionKind.ADJUST_VALUE and value is not None:
        # "lower it by two": degrees of a thermostat; nothing else is sure.
        if domain in ("climate", "water_heater"):
            return _temperature_command(hass, state, Action(ActionKind.ADJUST_TEMPERATURE, value))
        if domain == "humidifier" and isinstance(humidity := state.attributes.get("humidity"), (int, float)):
            # "較低 5%" of a dehumidifier: its humidity, in points.
            return ("set_humidity", {"humidity": round(humidity + value)})
        return None
    if kind is ActionKind.SET_SPEED and domain == "climate" and value is not None:
        if (mode := percent_fan_mode(value, state.attributes.get("fan_modes") or ())) is not None:
            # "风速调到60%" of fan modes written as percentages.
            return ("set_fan_mode", {"fan_mode": mode})
        if value in (100.0, 1.0):
            # "风速调到最强": the climate's highest fan mode.
            return _choice(state, ActionKind.SET_FAN_MODE, "high" if value == 100.0 else "low")
        return None
    if kind is ActionKind.SET_SPEED and domain == "fan" and value is not None:
        return ("set_percentage", {"percentage": round(value)})
    if kind is ActionKind.SET_SPEED_LEVEL and domain == "fan" and value is not None:
        return _fan_level(state, value, said=True)
    if kind is ActionKind.SET_SPEED_LEVEL and domain == "humidifier" and value is not None:
        mode = level_mode(value, state.attributes.get("available_modes") or ())
        return ("set_mode", {"mode": mode}) if mode is not None else None
    if kind is ActionKind.SET_SPEED_LEVEL and domain == "climate" and value is not None:
        mode = numbered_fan_mode(value, state.attributes.get("fan_modes") or ())
        if mode is None and value == 1.0:
            # "风速调到最小", "一档": the lowest of named fan modes ("Low").
            return _choice(state, ActionKind.SET_FAN_MODE, "low")
        return ("set_fan_mode", {"fan_mode": mode}) if mode is not None else None
    if kind is ActionKind.SET_HUMIDITY and domain in ("humidifier", "climate") and value is not None:
        return ("set_humidity", {"humidity": round(value)})
    if kind in (ActionKind.INCREASE, ActionKind.DECREASE):
        if action.option == "speed" and domain == "climate":
            # "风速调低": a step down a numbered scale, else the climate's lowest (or highest) fan mode.
            wanted = fan_mode_step(
                state.attributes.get("fan_mode"),
                state.attributes.get("fan_modes") or (),
                up=kind is ActionKind.INCREASE,
            )
            return ("set_fan_mode", {"fan_mode": wanted}) if wanted is not None else None
        if action.option == "speed" and domain != "fan":
            return None
        if domain == "cover":
            # "lower the blind" closes it; "raise it a bit" is a step from where it is.
            if value is not None:
                return _nudge(state, up=kind is ActionKind.INCREASE)
            return (_ON[domain] if kind is ActionKind.INCREASE else _OFF[domain], {})
        return _step(hass, state, up=kind is ActionKind.INCREASE)
    if kind in (ActionKind.SET_MAX, ActionKind.SET_MIN):
        return _extreme(state, highest=kind is ActionKind.SET_MAX)
    if action.option is not None:
        return _choice(state, kind, action.option)
    if domain == "media_player":
        media = {
            ActionKind.PLAY: "media_play",
            ActionKind.NEXT: "media_next_track",
            ActionKind.PREVIOUS: "media_previous_track",
        }
        return (media[kind], {}) if kind in media else None
    if domain == "vacuum":
        vacuum = {ActionKind.START: "start", ActionKind.RETURN_HOME: "return_to_base"}
        return (vacuum[kind], {}) if kind in vacuum else None
    return None


_LIGHT_SETTINGS = frozenset(
    {ActionKind.SET_BRIGHTNESS, ActionKind.ADJUST_BRIGHTNESS, ActionKind.SET_COLOR_TEMP}
)


def _light_setting(state: State, kind: ActionKind, value: float | None) -> Command | None:
    """Return a light's brightness set or changed, or its colour temperature in kelvins."""
    if value is None:
        return None
    if kind is ActionKind.SET_BRIGHTNESS:
        return ("turn_on", {"brightness_pct": round(value)})
    if kind is ActionKind.ADJUST_BRIGHTNESS:
        # ±1 is "a bit"; a bigger number is percentage points ("brighter by 20%").
        return _brighter(state, up=value > 0, step=None if abs(value) == 1 else round(abs(value)))
    # "色温调到四千K": a number of kelvins the light makes (never bent into its range).
    low = state.attributes.get("min_color_temp_kelvin")
    high = state.attributes.get("max_color_temp_kelvin")
    if not isinstance(low, (int, float)) or not isinstance(high, (int, float)):
        return None
    return ("turn_on", {"color_temp_kelvin": round(value)}) if low <= value <= high else None


def _extreme(state: State, *, highest: bool) -> Command | None:
    """Return the far end of what the device sets: brightness, speed, volume, opening."""
    domain = state.domain
    if domain == "light":
        return ("turn_on", {"brightness_pct": 100 if highest else 1})
    if domain == "fan":
        return ("set_percentage", {"percentage": 100}) if highest else _fan_level(state, 1)
    if highest and domain in ("media_player", "cover", "valve"):
        return _percent(state, 100)
    return None


def _choice(state: State, kind: ActionKind, option: str) -> Command | None:
    """Return the command that picks a named mode, fan mode, colour or white of the entity."""
    attributes = state.attributes
    hvac_modes = attributes.get("hvac_modes", ())
    if kind is ActionKind.SET_HVAC_MODE and option in hvac_modes:
        return ("set_hvac_mode", {"hvac_mode": option})
    if kind is ActionKind.SET_HVAC_MODE and option == "auto" and "heat_cool" in hvac_modes:
        # A thermostat's "Auto" (ecobee's, Nest's Heat·Cool) is HA's heat_cool when it has no auto.
        return ("set_hvac_mode", {"hvac_mode": "heat_cool"})
    if kind in (ActionKind.SET_PRESET, ActionKind.SET_HVAC_MODE) and state.domain in _PRESETS:
        # "自动模式" of a purifier is its preset; of a climate, its HVAC mode.
        command, key, attribute = _PRESETS[state.domain]
        choice = pick_preset(option, tuple(attributes.get(attribute) or ()))
        return (command, {key: choice}) if choice is not None else None
    if kind is ActionKind.SET_FAN_MODE and state.domain == "climate":
        chosen = pick_fan_mode(option, attributes.get("fan_modes") or ())
        return ("set_fan_mode", {"fan_mode": chosen}) if chosen is not None else None
    if kind is ActionKind.SET_FAN_MODE and state.domain == "fan":
        return _fan_named_level(state, option)
    if kind is ActionKind.SET_FAN_MODE and state.domain == "vacuum":
        speed = pick_fan_mode(option, attributes.get("fan_speed_list") or ())
        return ("set_fan_speed", {"fan_speed": speed}) if speed is not None else None
    if kind is ActionKind.SET_FAN_MODE and state.domain == "humidifier":
        # A humidifier's modes are often its levels ("开到高档": High).
        mode = pick_fan_mode(option, attributes.get("available_modes") or ())
        return ("set_mode", {"mode": mode}) if mode is not None else None
    if kind is ActionKind.SET_COLOR and state.domain == "light":
        try:
            rgb = color_util.color_name_to_rgb(option)
        except ValueError:
            return None
        return ("turn_on", {"rgb_color": list(rgb)})
    if kind is ActionKind.SET_COLOR_TEMP and state.domain == "light":
        low = int(attributes.get("min_color_temp_kelvin") or WHITES["warm"])
        high = int(attributes.get("max_color_temp_kelvin") or WHITES["cool"])
        return ("turn_on", {"color_temp_kelvin": max(low, min(high, WHITES[option]))})
    return None


def _fan_named_level(state: State, option: str) -> Command | None:
    """Return a fan's preset named so, else its lowest, middle or highest speed ("风速调到高")."""
    # "睡眠风", "quiet fan": the preset a fan's integration names so (sleep, silent, night).
    if chosen := pick_fan_mode(option, state.attributes.get("preset_modes") or ()):
        return ("set_preset_mode", {"preset_mode": chosen})
    step = state.attributes.get("percentage_step")
    if not isinstance(step, (int, float)) or step <= 0 or (step >= 50 and option == "medium"):
        return None
    speeds = round(100 / step)
    level = {"low": 1, "medium": max(1, round(speeds / 2)), "high": speeds}.get(option)
    return None if level is None else _fan_level(state, level)


def _temperature_command(hass: HomeAssistant, state: State, action: Action) -> Command | None:
    if state.domain not in ("climate", "water_heater"):
        return None
    if action.kind is ActionKind.SET_TEMPERATURE:
        target = _temperature(hass, action)
    else:
        current = state.attributes.get("temperature")
        if not isinstance(current, (int, float)) or action.value is None:
            return None
        target = current + action.value
    return ("set_temperature", {"temperature": target}) if target is not None else None


def settled(action: Action, domain: str) -> Action:
    """Return a bare number ("set it to 19") as a device reads it: degrees of a thermostat, else a percentage.

    What is remembered for "and the landing as well" is the settled reading: 19 degrees is no
    light's 19 %.
    """
    if action.kind is not ActionKind.SET_VALUE:
        return action
    kind = ActionKind.SET_TEMPERATURE if domain in ("climate", "water_heater") else ActionKind.SET_POSITION
    return replace(action, kind=kind)


def _percent(state: State, value: float) -> Command | None:
    percent = round(value)
    commands: dict[str, Command] = {
        "cover": ("set_cover_position", {"position": percent}),
        "valve": ("set_valve_position", {"position": percent}),
        "light": ("turn_on", {"brightness_pct": percent}),
        "fan": ("set_percentage", {"percentage": percent}),
        "media_player": ("volume_set", {"volume_level": round(percent / 100, 2)}),
        "humidifier": ("set_humidity", {"humidity": percent}),
    }
    return commands.get(state.domain)


def _nudge(state: State, *, up: bool) -> Command | None:
    """Move a cover or a valve a step, from the position it reports (none reported: unsure)."""
    current = state.attributes.get("current_position")
    if not isinstance(current, (int, float)):
        return None
    return _percent(state, max(0, min(100, round(current) + (POSITION_STEP if up else -POSITION_STEP))))


# The most speeds a fan told "third speed" has; more are set by the percent.
_MOST_LEVELS = 12


def _fan_level(state: State, level: float, *, said: bool = False) -> Command | None:
    """Return a fan's speed by its number (``said``: the number said, not the lowest or highest)."""
    step = state.attributes.get("percentage_step")
    if not isinstance(step, (int, float)) or step <= 0:
        return None
    speeds = round(100 / step)
    if not 1 <= level <= speeds or (said and speeds > _MOST_LEVELS):
        # (A fan set by the percent has no third speed: "第三段" is not 3 %; its lowest is 1 %.)
        return None
    return ("set_percentage", {"percentage": min(100, round(level * 100 / speeds))})


def _step(hass: HomeAssistant, state: State, *, up: bool) -> Command | None:
    domain = state.domain
    if domain == "fan":
        return ("increase_speed" if up else "decrease_speed", {})
    if domain == "media_player":
        return ("volume_up" if up else "volume_down", {})
    if domain == "light":
        return _brighter(state, up=up)
    if domain in ("climate", "water_heater"):
        return _temperature_command(hass, state, Action(ActionKind.ADJUST_TEMPERATURE, 1.0 if up else -1.0))
    return None


def _brighter(state: State, *, up: bool, step: int | None = None) -> Command | None:
    """Step the brightness; a light that cannot dim is just switched on when off."""
    turn_on = commands_for(state).get("turn_on")
    if turn_on is not None and any(p.name == "brightness_step_pct" for p in turn_on.params):
        size = step or BRIGHTNESS_STEP
        return ("turn_on", {"brightness_step_pct": size if up else -size})
    return ("turn_on", {}) if up and state.state == "off" else None
