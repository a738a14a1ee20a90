"""What the concepts of the language data mean for a home: kinds of devices and what implies them.

The words are data (``language/data``); these tables are the same for every language.
"""

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of device a noun names: HA domains, the first the main one, and device classes."""

    domains: tuple[str, ...]
    # Device classes within the domain ("curtain" of covers); empty: any.
    device_classes: frozenset[str] = frozenset()
    # Only a device named so is of this kind: a climate entity called 小晴房 may be an air
    # conditioner as well as a heater, so it is no 电暖器 unless its name says so.
    by_name: bool = False


KINDS: dict[str, Kind] = {
    "light": Kind(("light", "switch")),
    "room_light": Kind(("light", "switch")),
    "lamp": Kind(("light", "switch")),
    "desk_lamp": Kind(("light", "switch")),
    "floor_lamp": Kind(("light", "switch")),
    "bedside_lamp": Kind(("light", "switch")),
    "night_light": Kind(("light", "switch")),
    "reading_lamp": Kind(("light", "switch")),
    "wall_light": Kind(("light", "switch")),
    "ambient_light": Kind(("light", "switch")),
    "main_light": Kind(("light", "switch")),
    "pendant": Kind(("light", "switch")),
    "strip": Kind(("light", "switch")),
    "spotlight": Kind(("light", "switch")),
    "climate": Kind(("climate",)),
    "air_conditioner": Kind(("climate",)),
    # A room's radiator valve, whatever it is named ("Loft" of a tado); not an air conditioner.
    "radiator": Kind(("climate",)),
    "heater": Kind(("climate", "switch"), by_name=True),
    # A bathroom's heater and lamp (浴霸) and floor heating are not the room heater (电暖器).
    "bath_heater": Kind(("climate", "switch"), by_name=True),
    "floor_heating": Kind(("climate", "switch"), by_name=True),
    "curtain": Kind(("cover",), frozenset({"curtain"})),
    "sheer": Kind(("cover",), frozenset({"curtain"})),
    "blind": Kind(("cover",), frozenset({"blind", "shade", "shutter"})),
    "garage_door": Kind(("cover",), frozenset({"garage"})),
    "gate": Kind(("cover",), frozenset({"gate"})),
    "awning": Kind(("cover",), frozenset({"awning"})),
    "airer": Kind(("cover",)),
    "window": Kind(("cover",), frozenset({"window"})),
    "fan": Kind(("fan", "switch")),
    "ceiling_fan": Kind(("fan", "switch")),
    "floor_fan": Kind(("fan", "switch")),
    "desk_fan": Kind(("fan", "switch")),
    "circulator": Kind(("fan", "switch")),
    "fresh_air": Kind(("fan", "switch", "climate")),
    "bug_zapper": Kind(("switch",)),
    "exhaust_fan": Kind(("fan", "switch")),
    "range_hood": Kind(("fan", "switch")),
    # (A plug named for the appliance on it is that appliance: 和室除濕機 on a smart plug.)
    "purifier": Kind(("fan", "humidifier", "switch")),
    "humidifier": Kind(("humidifier", "switch"), frozenset({"humidifier"})),
    "dehumidifier": Kind(("humidifier", "switch"), frozenset({"dehumidifier"})),
    "tv": Kind(("media_player",), frozenset({"tv"})),
    "speaker": Kind(("media_player",), frozenset({"speaker"})),
    "projector": Kind(("media_player",)),
    "media_box": Kind(("media_player",)),
    "media": Kind(("media_player",)),
    "vacuum": Kind(("vacuum",)),
    "lock": Kind(("lock",)),
    "door": Kind(("lock", "cover")),
    "plug": Kind(("switch",), frozenset({"outlet"})),
    "switch": Kind(("switch", "light")),
    "valve": Kind(("valve", "switch")),
    "sprinkler": Kind(("valve", "switch")),
    # What is watered: the valve or switch that waters it ("浇一下阳台的花", "water the lawn").
    "plants": Kind(("valve", "switch")),
    "scene": Kind(("scene",)),
    "script": Kind(("script",)),
    "camera": Kind(("camera",)),
    "water_heater": Kind(("water_heater",)),
    "boiler": Kind(("water_heater", "climate")),
    "kettle": Kind(("switch",), by_name=True),
    "cooker": Kind(("switch",), by_name=True),
}

# Kinds that exclude devices named as another kind of the same domain ("所有冷气": not 浴室宝).
EXCLUDES: dict[str, frozenset[str]] = {
    "air_conditioner": frozenset({"heater", "bath_heater", "floor_heating"})
}

# Kinds that cool: a thermostat that only heats (a radiator zone named "Front Room") is none.
COOLING = frozenset({"air_conditioner"})

# Kinds that take in every device of their domain, whatever its name says ("所有灯": the lamps too).
GENERIC = frozenset({"light", "room_light", "climate", "media", "switch", "door"})
# Kinds that are one: a device named as one of these is of the others too.
_LAMPS = frozenset(
    {
        "lamp",
        "desk_lamp",
        "floor_lamp",
        "bedside_lamp",
        "night_light",
        "reading_lamp",
        "wall_light",
        "ambient_light",
    }
)
LIGHTS = _LAMPS | {"light", "room_light", "main_light", "pendant", "strip", "spotlight"}
# Fans by their build: "落地扇" is the floor fan among the fans, and any fan is one of them.
_FANS = frozenset({"ceiling_fan", "floor_fan", "desk_fan", "circulator"})
# The kinds a broader one takes in ("lamp": a desk lamp; "fan": a floor fan; "sprinkler": the
# zone named for what it waters).
_NARROWER = {"lamp": _LAMPS, "fan": _FANS, "sprinkler": frozenset({"plants"})}
FAMILIES = (
    LIGHTS,
    frozenset({"curtain", "sheer", "blind"}),
    frozenset({"door", "lock"}),
    frozenset({"climate", "air_conditioner"}),
    frozenset({"climate", "radiator"}),
    frozenset({"plug", "kettle", "cooker", "switch"}),
    frozenset({"valve", "sprinkler", "plants"}),
)


@lru_cache(maxsize=8192)
def same_family(kind: str, others: frozenset[str]) -> bool:
    """Tell whether any of the other kinds is the kind or of its family.

    A broader kind and a narrower one are ("fan" and 落地扇); two builds of one kind are not
    (a 吊扇 is no 循环扇).
    """
    if kind in others:
        return True
    if any(kind in builds and (others & builds) - {kind, broad} for broad, builds in _NARROWER.items()):
        return False
    if narrower(kind, others) or any(narrower(other, frozenset({kind})) for other in others):
        return True
    return any(kind in family and family & others for family in FAMILIES)


def narrower(kind: str, others: frozenset[str]) -> bool:
    """Tell whether a device named as the others is of the kind said ("lamp" takes a desk lamp)."""
    return kind in others or bool(_NARROWER.get(kind, frozenset()) & others)


def kinds_within(kind: str) -> frozenset[str]:
    """Return the kinds a device may be named as to be of the kind said (a lamp: 台灯, 落地灯 …)."""
    return _NARROWER.get(kind, frozenset()) | {kind}


# What a complaint implies: the kinds that could help ("好冷" → climate).
FEELINGS: dict[str, tuple[str, ...]] = {
    "cold": ("climate",),
    "hot": ("climate", "fan"),
    "dark": ("light",),
    "bright": ("cover", "light"),
    "humid": ("humidifier", "climate"),
    "dry": ("humidifier",),
    "noisy": ("media_player",),
    "smelly": ("fan", "switch"),
}

# Which way a complaint asks things to go ("好冷": up; "too bright": down).
RELIEF: dict[str, str] = {"cold": "up", "hot": "down", "dark": "up", "bright": "down", "noisy": "down"}

# Verbs of an activity that imply who does it ("扫地" → the vacuum, "water the lawn" → a valve).
ACTIVITIES: dict[str, tuple[str, ...]] = {
    "clean": ("vacuum",),
    "water": ("valve", "switch"),
    "boil": ("switch",),
    "dock": ("vacuum",),
    "lock": ("lock",),
    "unlock": ("lock",),
    "mute": ("media_player",),
    "unmute": ("media_player",),
    "next": ("media_player",),
    "previous": ("media_player",),
}

# The kind of device an activity is done with, when no kind is said ("煲壺水": the kettle).
ACTIVITY_KINDS: dict[str, str] = {"boil": "kettle"}

# States only some kinds of device have: asking about them names those kinds.
STATES: dict[str, tuple[str, ...]] = {
    "locked": ("lock",),
    "unlocked": ("lock",),
    "playing": ("media_player",),
    "cleaning": ("vacuum",),
    "docked": ("vacuum",),
    "open": ("binary_sensor", "cover", "valve"),
    "closed": ("binary_sensor", "cover", "valve"),
}

# The kinds of device a setting said belongs to ("亮度": a light).
ATTRIBUTE_DOMAINS: dict[str, tuple[str, ...]] = {
    "brightness": ("light",),
    "temperature": ("climate", "water_heater"),
    "humidity": ("humidifier",),
    "volume": ("media_player",),
    "colour": ("light",),
    "colour_temp": ("light",),
    # ("风速调低" of an air conditioner is its fan mode.)
    "speed": ("fan", "climate"),
}

# Settings a direction or a value may be for.
ATTRIBUTES = (
    "temperature",
    "humidity",
    "brightness",
    "volume",
    "speed",
    "position",
    "mode",
    "colour",
    "colour_temp",
)

# The option keys integrations use for each spoken preset, most likely first.
PRESET_KEYS: dict[str, tuple[str, ...]] = {
    "sleep": ("sleep", "night", "sleeping", "sleep_mode"),
    "eco": ("eco", "energy_saving", "economy", "energy_saver"),
    "smart": ("smart", "auto"),
    "boost": ("boost", "turbo", "strong", "powerful"),
    "comfort": ("comfort",),
    "away": ("away",),
    "home": ("home",),
    "baby": ("baby",),
    "quiet": ("quiet", "silent", "silence", "mute"),
    "nature": ("nature", "natural", "breeze", "natural_wind", "nature_wind"),
    # (A Midea dehumidifier's "Dry" is its clothes-drying mode.)
    "laundry": ("laundry", "clothes_drying", "dry_clothes", "cloth_dry", "clothes_dry", "clothes", "dry"),
    "normal": ("normal", "standard"),
    "manual": ("manual",),
    "pet": ("pet",),
    "vacation": ("vacation", "holiday"),
    "favorite": ("favorite", "favourite"),
    "auto": ("auto", "smart"),
}

# The fan modes climates use for each spoken fan level, most likely first.
FAN_MODE_KEYS: dict[str, tuple[str, ...]] = {
    "high": ("high", "max", "strong", "turbo"),
    "medium": ("medium", "mid", "middle"),
    "low": ("low", "min", "weak"),
    "auto": ("auto", "automatic"),
    "quiet": ("quiet", "silence", "silent", "sleep", "night"),
}
