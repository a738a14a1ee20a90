"""What each entity can be told to do, with parameter ranges from its own state.

The same table serves the model (compact command schemas of the candidates) and
the validation of every command before a service call, whoever proposed it.
"""

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from homeassistant.const import ATTR_FRIENDLY_NAME, ATTR_SUPPORTED_FEATURES
from homeassistant.core import State

from ..language.concepts import LIGHTS
from ..language.lexicon import Category, names_lexicon
from ..language.tokens import normalize

# Feature bits of HA's entity feature flags (stable, public values).
LIGHT_COLOR_MODES_DIMMABLE = {"brightness", "color_temp", "hs", "xy", "rgb", "rgbw", "rgbww", "white"}
LIGHT_COLOR_MODES_COLOR = {"hs", "xy", "rgb", "rgbw", "rgbww"}
CLIMATE_TARGET_TEMPERATURE, CLIMATE_TARGET_HUMIDITY, CLIMATE_FAN_MODE = 1, 4, 8
CLIMATE_PRESET_MODE, CLIMATE_TURN_OFF, CLIMATE_TURN_ON = 16, 128, 256
COVER_OPEN, COVER_CLOSE, COVER_SET_POSITION, COVER_STOP = 1, 2, 4, 8
FAN_SET_SPEED, FAN_OSCILLATE, FAN_PRESET_MODE = 1, 2, 8
MEDIA_PAUSE, MEDIA_VOLUME_SET, MEDIA_VOLUME_MUTE, MEDIA_PREVIOUS, MEDIA_NEXT = 1, 4, 8, 16, 32
MEDIA_TURN_ON, MEDIA_TURN_OFF, MEDIA_VOLUME_STEP, MEDIA_STOP, MEDIA_PLAY = 128, 256, 1024, 4096, 16384
MEDIA_SELECT_SOURCE = 2048
VACUUM_PAUSE, VACUUM_STOP, VACUUM_RETURN_HOME, VACUUM_FAN_SPEED, VACUUM_LOCATE, VACUUM_START = (
    4,
    8,
    16,
    32,
    512,
    8192,
)
HUMIDIFIER_MODES = 1
VALVE_OPEN, VALVE_CLOSE, VALVE_SET_POSITION, VALVE_STOP = 1, 2, 4, 8
WATER_HEATER_TARGET_TEMPERATURE, WATER_HEATER_OPERATION_MODE, WATER_HEATER_ON_OFF = 1, 2, 8
LOCK_OPEN = 1


# What switches a device on or opens it, and what switches it off or closes it.
SWITCH_ON_COMMANDS = frozenset(
    {"turn_on", "open_cover", "open_valve", "unlock", "open", "start", "media_play"}
)
SWITCH_OFF_COMMANDS = frozenset(
    {
        "turn_off",
        "close_cover",
        "close_valve",
        "lock",
        "stop",
        "stop_cover",
        "stop_valve",
        "pause",
        "media_pause",
        "media_stop",
        "return_to_base",
    }
)
_SPEEDS = frozenset({"set_percentage", "increase_speed", "decrease_speed", "set_fan_mode", "set_fan_speed"})
_OPTIONS = frozenset(
    {"set_preset_mode", "set_mode", "set_fan_mode", "set_hvac_mode", "set_fan_speed", "select_source"}
)
# The commands that can carry out each kind of request, by the kind's name (language/actions.py):
# a model's command for a sentence must be one of those its requests can mean, so that
# "switch it on" never switches off, and "mute it" never turns the volume up. Kinds
# not listed ("as high as it goes", "a bit more") leave the model free.
COMMANDS_FOR_REQUEST: dict[str, frozenset[str]] = {
    "turn_on": SWITCH_ON_COMMANDS,
    "turn_off": SWITCH_OFF_COMMANDS,
    "stop": SWITCH_OFF_COMMANDS,
    "lock": frozenset({"lock"}),
    "unlock": frozenset({"unlock", "open"}),
    "set_temperature": frozenset({"set_temperature"}),
    "adjust_temperature": frozenset({"set_temperature"}),
    "set_brightness": frozenset({"turn_on"}),
    "adjust_brightness": frozenset({"turn_on"}),
    "set_color": frozenset({"turn_on"}),
    "set_color_temp": frozenset({"turn_on"}),
    "set_position": frozenset({"set_cover_position", "set_valve_position", "open_cover", "close_cover"}),
    "set_volume": frozenset({"volume_set"}),
    "adjust_volume": frozenset({"volume_set", "volume_up", "volume_down"}),
    "mute": frozenset({"volume_mute"}),
    "unmute": frozenset({"volume_mute"}),
    "set_speed": _SPEEDS,
    "set_speed_level": _SPEEDS,
    "set_humidity": frozenset({"set_humidity"}),
    "set_hvac_mode": frozenset({"set_hvac_mode"}),
    "set_fan_mode": _SPEEDS | frozenset({"set_preset_mode"}),
    "set_preset": _OPTIONS,
    "pause": frozenset({"pause", "media_pause"}),
    "play": frozenset({"media_play", "start"}),
    "next": frozenset({"media_next_track"}),
    "previous": frozenset({"media_previous_track"}),
    "start": frozenset({"start", "turn_on", "media_play"}),
    "return_home": frozenset({"return_to_base"}),
    "oscillate": frozenset({"oscillate"}),
}


def commands_meant(requests: Collection[str]) -> frozenset[str] | None:
    """Return the commands that can carry out these kinds of request, or None when any may."""
    if not requests or any(kind not in COMMANDS_FOR_REQUEST for kind in requests):
        return None
    return frozenset().union(*(COMMANDS_FOR_REQUEST[kind] for kind in requests))


class CommandError(ValueError):
    """A command that the entity cannot carry out; the message says why."""


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a command."""

    name: str
    kind: Literal["number", "int", "enum", "bool", "color"]
    minimum: float | None = None
    maximum: float | None = None
    options: tuple[str, ...] = ()

    def describe(self) -> str:
        """Return the compact form the model reads: ``brightness_pct 0-100``."""
        if self.kind in ("number", "int"):
            return f"{self.name} {self.minimum:g}-{self.maximum:g}"
        if self.kind == "enum":
            return f"{self.name} {'|'.join(self.options)}"
        if self.kind == "color":
            return f"{self.name} [r,g,b]"
        return f"{self.name} true|false"

    def check(self, value: Any) -> Any:
        """Return the value in its proper type, or raise CommandError."""
        if self.kind in ("number", "int"):
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise CommandError(f"{self.name} must be a number")
            try:
                number = float(value)
            except ValueError as err:
                raise CommandError(f"{self.name} must be a number") from err
            low = self.minimum if self.minimum is not None else float("-inf")
            high = self.maximum if self.maximum is not None else float("inf")
            if not low <= number <= high:
                raise CommandError(f"{self.name} must be between {self.minimum:g} and {self.maximum:g}")
            return round(number) if self.kind == "int" else number
        if self.kind == "enum":
            if value not in self.options:
                raise CommandError(f"{self.name} must be one of {', '.join(self.options)}")
            return value
        if self.kind == "color":
            if not (
                isinstance(value, list)
                and len(value) == 3
                and all(isinstance(v, int) and 0 <= v <= 255 for v in value)
            ):
                raise CommandError(f"{self.name} must be [r, g, b] with values 0-255")
            return value
        if not isinstance(value, bool):
            raise CommandError(f"{self.name} must be true or false")
        return value


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """A command: the HA service it calls and the parameters it takes."""

    name: str
    service: str
    params: tuple[Param, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """Return ``turn_on(brightness_pct 0-100)`` or just ``turn_off``."""
        if not self.params:
            return self.name
        return f"{self.name}({', '.join(p.describe() for p in self.params)})"


def _number(state: State, key: str, default: float) -> float:
    value = state.attributes.get(key)
    return float(value) if isinstance(value, (int, float)) else default


def _specs(*specs: CommandSpec | None) -> dict[str, CommandSpec]:
    return {spec.name: spec for spec in specs if spec is not None}


def _when(condition: bool, spec: CommandSpec) -> CommandSpec | None:
    return spec if condition else None


# The commands last worked out for each entity, with the state they were read from: a state
# is never changed in place (HA writes a new one), so the same state object gives the same
# commands. A whole-home group plans hundreds of commands and checks each twice.
_COMMANDS_OF_STATE: dict[str, tuple[State, Mapping[str, CommandSpec]]] = {}


def commands_for(state: State) -> Mapping[str, CommandSpec]:
    """Return the commands an entity supports, by name."""
    known = _COMMANDS_OF_STATE.get(state.entity_id)
    if known is not None and known[0] is state:
        return known[1]
    features = int(state.attributes.get(ATTR_SUPPORTED_FEATURES) or 0)
    builder = _BUILDERS.get(state.domain)
    commands: Mapping[str, CommandSpec] = MappingProxyType(builder(state, features) if builder else {})
    _COMMANDS_OF_STATE[state.entity_id] = (state, commands)
    return commands


def _light(state: State, features: int) -> dict[str, CommandSpec]:
    modes = set(state.attributes.get("supported_color_modes") or [])
    params = []
    if modes & LIGHT_COLOR_MODES_DIMMABLE:
        params.append(Param("brightness_pct", "int", 0, 100))
        params.append(Param("brightness_step_pct", "int", -100, 100))
    if "color_temp" in modes:
        low = _number(state, "min_color_temp_kelvin", 2000)
        high = _number(state, "max_color_temp_kelvin", 6500)
        params.append(Param("color_temp_kelvin", "int", low, high))
    if modes & LIGHT_COLOR_MODES_COLOR:
        params.append(Param("rgb_color", "color"))
    return _specs(
        CommandSpec("turn_on", "turn_on", tuple(params)),
        CommandSpec("turn_off", "turn_off"),
    )


def _on_off(state: State, features: int) -> dict[str, CommandSpec]:
    return _specs(
        CommandSpec("turn_on", "turn_on"),
        CommandSpec("turn_off", "turn_off"),
    )


def _fan(state: State, features: int) -> dict[str, CommandSpec]:
    presets = tuple(state.attributes.get("preset_modes") or ())
    speed = bool(features & FAN_SET_SPEED)
    return _specs(
        CommandSpec("turn_on", "turn_on"),
        CommandSpec("turn_off", "turn_off"),
        _when(speed, CommandSpec("set_percentage", "set_percentage", (Param("percentage", "int", 0, 100),))),
        _when(speed, CommandSpec("increase_speed", "increase_speed")),
        _when(speed, CommandSpec("decrease_speed", "decrease_speed")),
        _when(
            bool(features & FAN_OSCILLATE),
            CommandSpec("oscillate", "oscillate", (Param("oscillating", "bool"),)),
        ),
        _when(
            bool(features & FAN_PRESET_MODE) and bool(presets),
            CommandSpec(
                "set_preset_mode", "set_preset_mode", (Param("preset_mode", "enum", options=presets),)
            ),
        ),
    )


def _climate(state: State, features: int) -> dict[str, CommandSpec]:
    hvac_modes = tuple(state.attributes.get("hvac_modes") or ())
    fan_modes = tuple(state.attributes.get("fan_modes") or ())
    presets = tuple(state.attributes.get("preset_modes") or ())
    low, high = _number(state, "min_temp", 7), _number(state, "max_temp", 35)
    on_mode = next((mode for mode in ("auto", "heat_cool", "cool", "heat") if mode in hvac_modes), None)
    turn_on = (
        CommandSpec("turn_on", "turn_on")
        if features & CLIMATE_TURN_ON
        else _when(on_mode is not None, CommandSpec("turn_on", "set_hvac_mode", fixed={"hvac_mode": on_mode}))
    )
    turn_off = (
        CommandSpec("turn_off", "turn_off")
        if features & CLIMATE_TURN_OFF
        else _when("off" in hvac_modes, CommandSpec("turn_off", "set_hvac_mode", fixed={"hvac_mode": "off"}))
    )
    return _specs(
        turn_on,
        turn_off,
        _when(
            bool(features & CLIMATE_TARGET_TEMPERATURE),
            CommandSpec("set_temperature", "set_temperature", (Param("temperature", "number", low, high),)),
        ),
        _when(
            bool(hvac_modes),
            CommandSpec("set_hvac_mode", "set_hvac_mode", (Param("hvac_mode", "enum", options=hvac_modes),)),
        ),
        _when(
            bool(features & CLIMATE_FAN_MODE) and bool(fan_modes),
            CommandSpec("set_fan_mode", "set_fan_mode", (Param("fan_mode", "enum", options=fan_modes),)),
        ),
        _when(
            bool(features & CLIMATE_PRESET_MODE) and bool(presets),
            CommandSpec(
                "set_preset_mode", "set_preset_mode", (Param("preset_mode", "enum", options=presets),)
            ),
        ),
        _when(
            bool(features & CLIMATE_TARGET_HUMIDITY),
            CommandSpec(
                "set_humidity",
                "set_humidity",
                (
                    Param(
                        "humidity",
                        "int",
                        _number(state, "min_humidity", 30),
                        _number(state, "max_humidity", 99),
                    ),
                ),
            ),
        ),
    )


def _cover(state: State, features: int) -> dict[str, CommandSpec]:
    return _specs(
        _when(bool(features & COVER_OPEN), CommandSpec("open_cover", "open_cover")),
        _when(bool(features & COVER_CLOSE), CommandSpec("close_cover", "close_cover")),
        _when(bool(features & COVER_STOP), CommandSpec("stop_cover", "stop_cover")),
        _when(
            bool(features & COVER_SET_POSITION),
            CommandSpec("set_cover_position", "set_cover_position", (Param("position", "int", 0, 100),)),
        ),
    )


def _lock(state: State, features: int) -> dict[str, CommandSpec]:
    return _specs(
        CommandSpec("lock", "lock"),
        CommandSpec("unlock", "unlock"),
        _when(bool(features & LOCK_OPEN), CommandSpec("open", "open")),
    )


def _media_player(state: State, features: int) -> dict[str, CommandSpec]:
    volume_step = bool(features & (MEDIA_VOLUME_STEP | MEDIA_VOLUME_SET))
    sources = tuple(state.attributes.get("source_list") or ())
    return _specs(
        _when(
            bool(features & MEDIA_SELECT_SOURCE) and bool(sources),
            CommandSpec("select_source", "select_source", (Param("source", "enum", options=sources),)),
        ),
        _when(bool(features & MEDIA_TURN_ON), CommandSpec("turn_on", "turn_on")),
        _when(bool(features & MEDIA_TURN_OFF), CommandSpec("turn_off", "turn_off")),
        _when(bool(features & MEDIA_PLAY), CommandSpec("media_play", "media_play")),
        _when(bool(features & MEDIA_PAUSE), CommandSpec("media_pause", "media_pause")),
        _when(bool(features & MEDIA_STOP), CommandSpec("media_stop", "media_stop")),
        _when(bool(features & MEDIA_NEXT), CommandSpec("media_next_track", "media_next_track")),
        _when(bool(features & MEDIA_PREVIOUS), CommandSpec("media_previous_track", "media_previous_track")),
        _when(
            bool(features & MEDIA_VOLUME_SET),
            CommandSpec("volume_set", "volume_set", (Param("volume_level", "number", 0, 1),)),
        ),
        _when(volume_step, CommandSpec("volume_up", "volume_up")),
        _when(volume_step, CommandSpec("volume_down", "volume_down")),
        _when(
            bool(features & MEDIA_VOLUME_MUTE),
            CommandSpec("volume_mute", "volume_mute", (Param("is_volume_muted", "bool"),)),
        ),
    )


def _vacuum(state: State, features: int) -> dict[str, CommandSpec]:
    speeds = tuple(state.attributes.get("fan_speed_list") or ())
    return _specs(
        _when(
            bool(features & VACUUM_FAN_SPEED) and bool(speeds),
            CommandSpec("set_fan_speed", "set_fan_speed", (Param("fan_speed", "enum", options=speeds),)),
        ),
        _when(bool(features & VACUUM_START), CommandSpec("start", "start")),
        _when(bool(features & VACUUM_PAUSE), CommandSpec("pause", "pause")),
        _when(bool(features & VACUUM_STOP), CommandSpec("stop", "stop")),
        _when(bool(features & VACUUM_RETURN_HOME), CommandSpec("return_to_base", "return_to_base")),
        _when(bool(features & VACUUM_LOCATE), CommandSpec("locate", "locate")),
    )


def _humidifier(state: State, features: int) -> dict[str, CommandSpec]:
    modes = tuple(state.attributes.get("available_modes") or ())
    low, high = _number(state, "min_humidity", 0), _number(state, "max_humidity", 100)
    return _specs(
        CommandSpec("turn_on", "turn_on"),
        CommandSpec("turn_off", "turn_off"),
        CommandSpec("set_humidity", "set_humidity", (Param("humidity", "int", low, high),)),
        _when(
            bool(features & HUMIDIFIER_MODES) and bool(modes),
            CommandSpec("set_mode", "set_mode", (Param("mode", "enum", options=modes),)),
        ),
    )


def _valve(state: State, features: int) -> dict[str, CommandSpec]:
    return _specs(
        _when(bool(features & VALVE_OPEN), CommandSpec("open_valve", "open_valve")),
        _when(bool(features & VALVE_CLOSE), CommandSpec("close_valve", "close_valve")),
        _when(bool(features & VALVE_STOP), CommandSpec("stop_valve", "stop_valve")),
        _when(
            bool(features & VALVE_SET_POSITION),
            CommandSpec("set_valve_position", "set_valve_position", (Param("position", "int", 0, 100),)),
        ),
    )


def _water_heater(state: State, features: int) -> dict[str, CommandSpec]:
    modes = tuple(state.attributes.get("operation_list") or ())
    low, high = _number(state, "min_temp", 30), _number(state, "max_temp", 70)
    return _specs(
        _when(bool(features & WATER_HEATER_ON_OFF), CommandSpec("turn_on", "turn_on")),
        _when(bool(features & WATER_HEATER_ON_OFF), CommandSpec("turn_off", "turn_off")),
        _when(
            bool(features & WATER_HEATER_TARGET_TEMPERATURE),
            CommandSpec("set_temperature", "set_temperature", (Param("temperature", "number", low, high),)),
        ),
        _when(
            bool(features & WATER_HEATER_OPERATION_MODE) and bool(modes),
            CommandSpec(
                "set_operation_mode", "set_operation_mode", (Param("operation_mode", "enum", options=modes),)
            ),
        ),
    )


def _activate(state: State, features: int) -> dict[str, CommandSpec]:
    return _specs(CommandSpec("turn_on", "turn_on"))


def _press(state: State, features: int) -> dict[str, CommandSpec]:
    return _specs(CommandSpec("press", "press"))


_BUILDERS = {
    "light": _light,
    "switch": _on_off,
    "input_boolean": _on_off,
    "siren": _on_off,
    "fan": _fan,
    "climate": _climate,
    "cover": _cover,
    "lock": _lock,
    "media_player": _media_player,
    "vacuum": _vacuum,
    "humidifier": _humidifier,
    "valve": _valve,
    "water_heater": _water_heater,
    "scene": _activate,
    "script": _activate,
    "button": _press,
    "input_button": _press,
}


# What can be marked risky per agent: these need the user's confirmation.
RISK_LOCKS, RISK_DOORS, RISK_ALARMS, RISK_VALVES = "lock", "door", "alarm", "valve"
ALL_RISKS = (RISK_LOCKS, RISK_DOORS, RISK_ALARMS, RISK_VALVES)
DOOR_CLASSES = ("garage", "gate", "door")
# What a switch or button that opens a door is called ("大閘 Bot", "Garage Door Opener").
DOOR_KINDS = frozenset({"gate", "garage_door"})
_PRESSING = ("turn_on", "toggle", "press", "activate")


def is_sensitive(state: State, command: str, risks: tuple[str, ...] | frozenset[str] = ALL_RISKS) -> bool:
    """Tell whether a command opens the home up and needs the user's confirmation."""
    domain = state.domain
    if domain == "lock":
        return RISK_LOCKS in risks and command in ("unlock", "open")
    if domain == "cover" and (
        state.attributes.get("device_class") in DOOR_CLASSES
        or opens_a_door(str(state.attributes.get(ATTR_FRIENDLY_NAME, "")))
    ):
        # Its class, or its name (a rolling shutter named 鐵捲門, whatever class it was given).
        return RISK_DOORS in risks and command in ("open_cover", "set_cover_position")
    if domain == "alarm_control_panel":
        return RISK_ALARMS in risks and command == "alarm_disarm"
    if domain == "valve":
        return RISK_VALVES in risks and command in ("open_valve", "set_valve_position")
    if domain in ("switch", "button", "input_button", "script") and command in _PRESSING:
        return RISK_DOORS in risks and opens_a_door(str(state.attributes.get(ATTR_FRIENDLY_NAME, "")))
    return False


def opens_a_door(name: str) -> bool:
    """Tell whether a name says its device opens a gate or a garage door.

    "大閘 Bot", "Garage Door Opener"; not a light there ("Garage Lights", "閘口燈").
    """
    lexicon = names_lexicon()
    words = lexicon.kinds_in(normalize(name))
    # Every kind a word may be (鐵閘: a shutter, or the gate of a flat), so a door is never missed.
    kinds = {s.concept for word in words for s in lexicon.senses_of(word) if s.category is Category.KIND}
    return bool(kinds & DOOR_KINDS) and not set(words.values()) & LIGHTS


def validate_command(
    state: State, command: str, params: Mapping[str, Any] | None
) -> tuple[str, dict[str, Any]]:
    """Return (service, service data) for a valid command, or raise CommandError."""
    specs = commands_for(state)
    spec = specs.get(command)
    if spec is None:
        allowed = ", ".join(specs) or "none"
        raise CommandError(f"{state.entity_id} does not support {command}; it supports: {allowed}")
    given = dict(params or {})
    known = {param.name: param for param in spec.params}
    unknown = set(given) - set(known)
    if unknown:
        raise CommandError(f"{command} takes no {', '.join(sorted(unknown))}; it takes: {spec.describe()}")
    data = {name: known[name].check(value) for name, value in given.items()}
    if spec.params and not data and spec.name not in ("turn_on",):
        raise CommandError(f"{command} needs {spec.describe()}")
    return spec.service, {**spec.fixed, **data}
