"""Where an entry's data is stored: one Store of each kind per entry.

Before version 1.2 the stores had fixed keys shared by every entry; the first entry
migrated takes that data over, so an existing user loses nothing.
"""

from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store

from .alarms import STORAGE_KIND as ALARMS
from .const import DOMAIN, LOGGER
from .memos import STORAGE_KIND as MEMOS
from .state import STORAGE_KIND as CONVERSATIONS, STORAGE_VERSION as CONVERSATIONS_VERSION

# Each kind of store and its storage version.
STORE_VERSIONS = {CONVERSATIONS: CONVERSATIONS_VERSION, MEMOS: 1, ALARMS: 1}
# The entry version that keeps its data under its own keys.
PER_ENTRY_MINOR_VERSION = 2


def entry_store_key(kind: str, entry_id: str) -> str:
    """Return the storage key of one kind of an entry's data."""
    return f"{DOMAIN}.{entry_id}.{kind}"


def _legacy_key(kind: str) -> str:
    return f"{DOMAIN}.{kind}"


async def async_adopt_legacy_stores(hass: HomeAssistant, entry_id: str) -> None:
    """Move the data of the shared stores of older versions to this entry's keys."""
    for kind, version in STORE_VERSIONS.items():
        legacy: Store[Any] = Store(hass, version, _legacy_key(kind))
        try:
            data = await legacy.async_load()
        except Exception as err:  # noqa: BLE001 - unreadable old data must not block setup
            LOGGER.warning("Could not read the old %s store: %s", kind, err)
            continue
        if data is None:
            continue
        await Store(hass, version, entry_store_key(kind, entry_id)).async_save(data)
        await legacy.async_remove()
        LOGGER.info("Moved the stored %s to entry %s", kind, entry_id)


async def async_remove_entry_stores(hass: HomeAssistant, entry_id: str) -> None:
    """Delete every store of a removed entry."""
    for kind, version in STORE_VERSIONS.items():
        await Store(hass, version, entry_store_key(kind, entry_id)).async_remove()
