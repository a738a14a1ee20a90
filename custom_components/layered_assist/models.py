"""Runtime data of a config entry."""

from dataclasses import dataclass

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import device_registry as dr

from .alarms import AlarmManager
from .chat.client import EndpointClient
from .const import DOMAIN
from .memos import MemoStore
from .selection.catalog import DeviceCatalog
from .state import ConversationStateStore


@dataclass(slots=True)
class LayeredAssistRuntimeData:
    """What a loaded entry holds: its endpoint's client, the device catalog, the state."""

    # None in local-only mode: no model endpoint is configured.
    client: EndpointClient | None
    catalog: DeviceCatalog
    states: ConversationStateStore
    memos: MemoStore
    alarms: AlarmManager


type LayeredAssistConfigEntry = ConfigEntry[LayeredAssistRuntimeData]


def entry_device_info(entry: ConfigEntry) -> dr.DeviceInfo:
    """Return the service device that holds an entry's own entities (memos, next alarm)."""
    return dr.DeviceInfo(
        identifiers={(DOMAIN, entry.entry_id)},
        name="Layered Assist",
        manufacturer="Layered Assist",
        entry_type=dr.DeviceEntryType.SERVICE,
    )


def loaded_runtime(hass: HomeAssistant) -> LayeredAssistRuntimeData:
    """Return the runtime data of the loaded entry, for tools, services and intents."""
    for entry in hass.config_entries.async_loaded_entries(DOMAIN):
        runtime: LayeredAssistRuntimeData = entry.runtime_data
        return runtime
    raise HomeAssistantError(translation_domain=DOMAIN, translation_key="not_loaded")
