"""What a clause asks to be done, before it is mapped onto an entity's services."""

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ActionKind(StrEnum):
    """What the user wants done."""

    TURN_ON = "turn_on"
    TURN_OFF = "turn_off"
    STOP = "stop"
    LOCK = "lock"
    UNLOCK = "unlock"
    SET_TEMPERATURE = "set_temperature"
    ADJUST_TEMPERATURE = "adjust_temperature"
    SET_BRIGHTNESS = "set_brightness"
    ADJUST_BRIGHTNESS = "adjust_brightness"
    SET_POSITION = "set_position"
    SET_VOLUME = "set_volume"
    ADJUST_VOLUME = "adjust_volume"
    SET_SPEED = "set_speed"
    SET_SPEED_LEVEL = "set_speed_level"
    SET_HUMIDITY = "set_humidity"
    SET_VALUE = "set_value"
    # A change by a number whose meaning depends on the device ("lower it by two").
    ADJUST_VALUE = "adjust_value"
    INCREASE = "increase"
    DECREASE = "decrease"
    PAUSE = "pause"
    PLAY = "play"
    NEXT = "next"
    PREVIOUS = "previous"
    START = "start"
    RETURN_HOME = "return_home"
    MUTE = "mute"
    UNMUTE = "unmute"
    SET_HVAC_MODE = "set_hvac_mode"
    SET_FAN_MODE = "set_fan_mode"
    SET_PRESET = "set_preset"
    SET_MAX = "set_max"
    SET_MIN = "set_min"
    SET_COLOR = "set_color"
    SET_COLOR_TEMP = "set_color_temp"
    # Swinging of a fan: value 1 starts it, 0 stops it.
    OSCILLATE = "oscillate"


@dataclass(frozen=True, slots=True)
class Action:
    """One thing to do; ``value`` is absolute or a change depending on the kind."""

    kind: ActionKind
    value: float | None = None
    fahrenheit: bool = False
    # The named choice of a mode, a colour or a colour temperature ("cool", "purple", "warm").
    option: str | None = None

    @classmethod
    def from_record(cls, record: Any) -> "Action | None":
        """Return an action as a conversation's state keeps it (its fields), or None when unreadable."""
        if not isinstance(record, dict) or record.get("kind") not in ActionKind.__members__.values():
            return None
        value = record.get("value")
        return cls(
            ActionKind(record["kind"]),
            float(value) if value is not None else None,
            bool(record.get("fahrenheit")),
            str(record["option"]) if record.get("option") else None,
        )


# The option of a switch-on that only goes with a setting ("开到26度"): done only where it helps.
IMPLIED = "implied"

# Actions that name a choice or an end of a range a device may not offer.
MODIFIERS = frozenset(
    {
        ActionKind.SET_COLOR,
        ActionKind.SET_COLOR_TEMP,
        ActionKind.SET_HVAC_MODE,
        ActionKind.SET_FAN_MODE,
        ActionKind.SET_PRESET,
        ActionKind.SET_MAX,
        ActionKind.SET_MIN,
        ActionKind.SET_POSITION,
    }
)
# Verbs that, said alone, are for whatever is playing.
MEDIA_VERBS = frozenset(
    {
        ActionKind.PAUSE,
        ActionKind.PLAY,
        ActionKind.NEXT,
        ActionKind.PREVIOUS,
        ActionKind.ADJUST_VOLUME,
        ActionKind.SET_VOLUME,
        ActionKind.MUTE,
        ActionKind.UNMUTE,
    }
)

# The kinds of device an action can be for ("再低一度" is no TV's); actions not listed fit any.
ACTION_DOMAINS: dict[ActionKind, tuple[str, ...]] = {
    ActionKind.SET_TEMPERATURE: ("climate", "water_heater"),
    ActionKind.ADJUST_TEMPERATURE: ("climate", "water_heater"),
    ActionKind.SET_BRIGHTNESS: ("light",),
    ActionKind.ADJUST_BRIGHTNESS: ("light",),
    ActionKind.SET_COLOR: ("light",),
    ActionKind.SET_COLOR_TEMP: ("light",),
    ActionKind.SET_VOLUME: ("media_player",),
    ActionKind.ADJUST_VOLUME: ("media_player",),
    ActionKind.MUTE: ("media_player",),
    ActionKind.UNMUTE: ("media_player",),
    ActionKind.NEXT: ("media_player",),
    ActionKind.PREVIOUS: ("media_player",),
    ActionKind.SET_HUMIDITY: ("humidifier", "climate"),
    # (A climate's fan speed is its fan mode: "风速调到最大", "風速較到二".)
    ActionKind.SET_SPEED: ("fan", "climate"),
    ActionKind.SET_SPEED_LEVEL: ("fan", "climate"),
    ActionKind.OSCILLATE: ("fan",),
    ActionKind.SET_HVAC_MODE: ("climate", "fan", "humidifier"),
    ActionKind.SET_FAN_MODE: ("climate", "fan", "vacuum", "humidifier"),
    ActionKind.LOCK: ("lock",),
    ActionKind.UNLOCK: ("lock",),
    ActionKind.RETURN_HOME: ("vacuum",),
    ActionKind.ADJUST_VALUE: ("climate", "water_heater", "humidifier"),
}
