"""Runtime data of a config entry."""

from dataclasses import dataclass

from homeassistant.config_entries import ConfigEntry

from .chat.client import EndpointClient
from .memos import MemoStore
from .selection.catalog import DeviceCatalog
from .state import ConversationStateStore


@dataclass(slots=True)
class LayeredAssistRuntimeData:
    """What a loaded entry holds: its endpoint's client, the device catalog, the state."""

    client: EndpointClient
    catalog: DeviceCatalog
    states: ConversationStateStore
    memos: MemoStore


type LayeredAssistConfigEntry = ConfigEntry[LayeredAssistRuntimeData]
