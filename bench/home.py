"""Load a HOME.json (docs/bench-format.md) into a real Home Assistant instance.

Floors, areas, devices and entities go into HA's registries, states into the state
machine and exposure into HA's exposure settings. Devices have no integration
behind them, so every service a command may call is registered as a recording
stub that also updates the entity's state the way a device would.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
import json
from pathlib import Path
import socket
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.compat import registry_aliases
from custom_components.layered_assist.const import CONF_BASE_URL, DOMAIN, SUBENTRY_CONVERSATION
from homeassistant import loader
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import ATTR_ENTITY_ID, ATTR_FRIENDLY_NAME, CONF_API_KEY
from homeassistant.core import HomeAssistant, ServiceCall, callback
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    floor_registry as fr,
    frame,
)
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM

PLATFORM = "bench"

# service → (new state, attribute updates from service data)
_STATE_AFTER: dict[str, str] = {
    "turn_on": "on",
    "turn_off": "off",
    "open_cover": "open",
    "close_cover": "closed",
    "lock": "locked",
    "unlock": "unlocked",
    "open_valve": "open",
    "close_valve": "closed",
    "media_play": "playing",
    "media_pause": "paused",
    "media_stop": "idle",
    "start": "cleaning",
    "return_to_base": "returning",
    "pause": "paused",
}
_SERVICES: dict[str, tuple[str, ...]] = {
    "light": ("turn_on", "turn_off", "toggle"),
    "switch": ("turn_on", "turn_off", "toggle"),
    "input_boolean": ("turn_on", "turn_off", "toggle"),
    "fan": (
        "turn_on",
        "turn_off",
        "toggle",
        "set_percentage",
        "increase_speed",
        "decrease_speed",
        "oscillate",
        "set_preset_mode",
        "set_direction",
    ),
    "climate": (
        "turn_on",
        "turn_off",
        "set_temperature",
        "set_hvac_mode",
        "set_fan_mode",
        "set_humidity",
        "set_preset_mode",
        "set_swing_mode",
    ),
    "cover": ("open_cover", "close_cover", "stop_cover", "set_cover_position", "toggle"),
    "lock": ("lock", "unlock", "open"),
    "media_player": (
        "turn_on",
        "turn_off",
        "media_play",
        "media_pause",
        "media_stop",
        "media_next_track",
        "media_previous_track",
        "volume_set",
        "volume_up",
        "volume_down",
        "volume_mute",
        "media_play_pause",
        "select_source",
        "select_sound_mode",
    ),
    "vacuum": ("start", "pause", "stop", "return_to_base", "locate", "clean_spot", "set_fan_speed"),
    "humidifier": ("turn_on", "turn_off", "set_humidity", "set_mode", "toggle"),
    "valve": ("open_valve", "close_valve", "set_valve_position", "stop_valve"),
    "scene": ("turn_on",),
    "script": ("turn_on", "turn_off"),
    "water_heater": ("turn_on", "turn_off", "set_temperature", "set_operation_mode"),
    "button": ("press",),
    "siren": ("turn_on", "turn_off"),
}


@dataclass
class LoadedHome:
    """A home in HA: id maps from the file to HA, and the service calls made."""

    language: str
    area_ids: dict[str, str] = field(default_factory=dict)
    floor_ids: dict[str, str] = field(default_factory=dict)
    # The service calls made, one per entity they were made for.
    calls: list[ServiceCall] = field(default_factory=list)

    def acted_on(self, since: int = 0) -> set[str]:
        """Return the entities targeted by service calls made after index ``since``."""
        acted: set[str] = set()
        for call in self.calls[since:]:
            ids = call.data.get(ATTR_ENTITY_ID, [])
            acted.update([ids] if isinstance(ids, str) else ids)
        return acted


def turn_expect(turn: dict[str, Any]) -> list[str]:
    """Return the entities a case turn expects: its ``expect``, else those of its ``calls``."""
    if "expect" in turn:
        return list(turn["expect"])
    return [call["entity_id"] for call in turn.get("calls") or []]


def read_home(path: str | Path) -> dict[str, Any]:
    """Read a HOME.json."""
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return data


async def async_load_home(hass: HomeAssistant, home: dict[str, Any]) -> LoadedHome:
    """Create the home's registries, states, exposure and services in ``hass``."""
    loaded = LoadedHome(language=home.get("language", "en"))
    config_entry = MockConfigEntry(domain=PLATFORM, title="Benchmark home")
    config_entry.add_to_hass(hass)

    floor_registry = fr.async_get(hass)
    for floor in home.get("floors", []):
        created = floor_registry.async_create(floor["name"], aliases=set(floor.get("aliases", [])))
        loaded.floor_ids[floor["id"]] = created.floor_id

    area_registry = ar.async_get(hass)
    for area in home.get("areas", []):
        created_area = area_registry.async_create(
            area["name"],
            aliases=set(area.get("aliases", [])),
            floor_id=loaded.floor_ids.get(area.get("floor", "")),
        )
        loaded.area_ids[area["id"]] = created_area.id

    device_registry = dr.async_get(hass)
    device_ids: dict[str, str] = {}
    for device in home.get("devices", []):
        created_device = device_registry.async_get_or_create(
            config_entry_id=config_entry.entry_id,
            identifiers={(PLATFORM, device["id"])},
            name=device["name"],
            manufacturer=device.get("manufacturer"),
            model=device.get("model"),
        )
        if area_id := loaded.area_ids.get(device.get("area", "")):
            device_registry.async_update_device(created_device.id, area_id=area_id)
        device_ids[device["id"]] = created_device.id

    entity_registry = er.async_get(hass)
    for entity in home.get("entities", []):
        entity_id = entity["entity_id"]
        domain, object_id = entity_id.split(".", 1)
        registry_entry = entity_registry.async_get_or_create(
            domain,
            PLATFORM,
            entity_id,
            suggested_object_id=object_id,
            config_entry=config_entry,
            device_id=device_ids.get(entity.get("device", "")),
            original_name=entity.get("name"),
        )
        assert registry_entry.entity_id == entity_id, f"{entity_id} is taken"
        entity_registry.async_update_entity(entity_id, aliases=registry_aliases(entity.get("aliases") or []))
        if area_id := loaded.area_ids.get(entity.get("area") or ""):
            try:
                entity_registry.async_update_entity(entity_id, area_id=area_id)
            except ValueError:
                # Since HA 2026.4 an entity named only by its device takes the device's area.
                device_registry.async_update_device(str(registry_entry.device_id), area_id=area_id)
        attributes = dict(entity.get("attributes") or {})
        attributes.setdefault(ATTR_FRIENDLY_NAME, entity.get("name") or object_id)
        hass.states.async_set(entity_id, str(entity.get("state", "unknown")), attributes)
        async_expose_entity(hass, "conversation", entity_id, bool(entity.get("exposed", True)))

    domains = {e["entity_id"].split(".", 1)[0] for e in home.get("entities", [])}
    # As in a real home, the domains' integrations are loaded: they register HA's intents.
    for domain in sorted(domains & set(_SERVICES)):
        await async_setup_component(hass, domain, {})
    _register_services(hass, loaded, domains)
    return loaded


def _register_services(hass: HomeAssistant, loaded: LoadedHome, domains: Iterable[str]) -> None:
    """Register recording services for every domain of the home."""

    @callback
    def record(call: ServiceCall) -> None:
        ids = call.data.get(ATTR_ENTITY_ID, [])
        if not ids:
            loaded.calls.append(call)
        # One record per device: a call for several ("every light off") is what each was told.
        for entity_id in [ids] if isinstance(ids, str) else ids:
            data = {**call.data, ATTR_ENTITY_ID: entity_id}
            loaded.calls.append(ServiceCall(hass, call.domain, call.service, data, call.context))
            _apply(hass, entity_id, call.service, data)

    # These replace the integrations' own services, which find no entities here.
    for domain in domains:
        for service in _SERVICES.get(domain, ()):
            hass.services.async_register(domain, service, record)


def _apply(hass: HomeAssistant, entity_id: str, service: str, data: dict[str, Any]) -> None:
    """Change a stub entity's state as a device would."""
    state = hass.states.get(entity_id)
    if state is None:
        return
    attributes = dict(state.attributes)
    new_state = _STATE_AFTER.get(service, state.state)
    if state.domain == "climate" and service == "turn_on":
        new_state = next((m for m in attributes.get("hvac_modes", []) if m != "off"), "on")
    if service == "set_hvac_mode":
        new_state = data.get("hvac_mode", new_state)
    if service == "toggle":
        new_state = "off" if state.state == "on" else "on"
    for key in ("temperature", "humidity", "percentage", "fan_mode", "preset_mode", "volume_level"):
        if key in data:
            attributes[key] = data[key]
    if "brightness_pct" in data:
        attributes["brightness"] = round(255 * data["brightness_pct"] / 100)
    if "position" in data:
        attributes["current_position"] = data["position"]
        new_state = "open" if data["position"] > 0 else "closed"
    hass.states.async_set(entity_id, new_state, attributes)


def satellite_in_area(hass: HomeAssistant, area_id: str) -> str:
    """Return a device placed in an area, for the speaker of a case (created on first use)."""
    registry = dr.async_get(hass)
    entry_id = next(iter(hass.config_entries.async_entries(PLATFORM))).entry_id
    device = registry.async_get_or_create(
        config_entry_id=entry_id,
        identifiers={(PLATFORM, f"satellite_{area_id}")},
        name=f"Satellite {area_id}",
    )
    registry.async_update_device(device.id, area_id=area_id)
    return device.id


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` of the values lie (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def write_report(report: dict[str, Any], out: Path | None) -> None:
    """Print a report as JSON, and write it to ``out`` when given."""
    output = json.dumps(report, ensure_ascii=False, indent=2)
    if out:
        out.write_text(output + "\n", encoding="utf-8")
    print(output)


async def async_prepare_home(hass: HomeAssistant, home: dict[str, Any]) -> LoadedHome:
    """Set up HA's core, conversation and intents with our custom integration, then the home."""
    # As HA's bootstrap does: deprecation reports (frame.report_usage) need it.
    frame.async_setup(hass)
    hass.data.pop(loader.DATA_CUSTOM_COMPONENTS, None)
    # Recent releases start HA's web server for conversation: on a free loopback port, not
    # 0.0.0.0:8123 where a running Home Assistant (the demo) may already listen.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert await async_setup_component(
        hass, "http", {"http": {"server_host": ["127.0.0.1"], "server_port": port}}
    )
    for component in ("homeassistant", "conversation", "intent"):
        assert await async_setup_component(hass, component, {})
    if _in_fahrenheit(home):
        # A home whose thermostats report °F runs HA in US customary units, as its owner would.
        hass.config.units = US_CUSTOMARY_SYSTEM
    return await async_load_home(hass, home)


def _in_fahrenheit(home: dict[str, Any]) -> bool:
    """Tell whether the home's temperatures are in °F (its thermostats' or its sensors' unit)."""
    return any(
        (attributes := e.get("attributes") or {}).get("temperature_unit") in ("°F", "℉")
        or attributes.get("unit_of_measurement") in ("°F", "℉")
        for e in home.get("entities", [])
    )


def our_entry(base_url: str, agents: dict[str, dict[str, Any]]) -> MockConfigEntry:
    """Return a Layered Assist entry on an endpoint, with one agent per (title, options)."""
    return MockConfigEntry(
        domain=DOMAIN,
        data={CONF_BASE_URL: base_url, CONF_API_KEY: None},
        subentries_data=[
            {"subentry_type": SUBENTRY_CONVERSATION, "data": options, "title": title, "unique_id": None}
            for title, options in agents.items()
        ],
    )
