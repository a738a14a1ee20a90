"""The base of an entry's own entities (memos, next alarm).

Named by translation key, on the entry's device, updated when their store says so.
"""

from collections.abc import Callable
from typing import Protocol

from homeassistant.config_entries import ConfigEntry
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers.entity import Entity

from .const import DOMAIN


class Listenable(Protocol):
    """A store that tells its listeners about every change."""

    def async_listen(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Add a listener; return its remover."""


def entry_device_info(entry: ConfigEntry) -> dr.DeviceInfo:
    """Return the service device that holds an entry's own entities (memos, next alarm)."""
    return dr.DeviceInfo(
        identifiers={(DOMAIN, entry.entry_id)},
        name="Layered Assist",
        manufacturer="Layered Assist",
        entry_type=dr.DeviceEntryType.SERVICE,
    )


class LayeredAssistEntryEntity(Entity):
    """An entity showing one of the entry's stores; the store pushes every change."""

    _attr_has_entity_name = True
    # Pushed by the store (tools, services, the dashboard): nothing to poll for.
    _attr_should_poll = False

    def __init__(self, entry: ConfigEntry, key: str, store: Listenable) -> None:
        """Name the entity by its translation key and bind it to its store."""
        self._store = store
        self._attr_translation_key = key
        self._attr_unique_id = f"{entry.entry_id}_{key}"
        self._attr_device_info = entry_device_info(entry)

    async def async_added_to_hass(self) -> None:
        """Follow the store."""
        await super().async_added_to_hass()
        self.async_on_remove(self._store.async_listen(self.async_write_ha_state))
