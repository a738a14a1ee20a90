"""Runtime data of a config entry."""

from dataclasses import dataclass

from homeassistant.config_entries import ConfigEntry

from .chat.client import EndpointClient


@dataclass(slots=True)
class LayeredAssistRuntimeData:
    """What a loaded entry holds: the client of its endpoint."""

    client: EndpointClient


type LayeredAssistConfigEntry = ConfigEntry[LayeredAssistRuntimeData]
