"""Memos: stored in a Store and shown as an HA to-do list, so edits on either side are one."""

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
import time
from typing import Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.storage import Store
from homeassistant.util.ulid import ulid_now

from .const import LOGGER

STORAGE_KIND = "memos"
SAVE_DELAY = 2


@dataclass
class Memo:
    """One memo."""

    summary: str
    uid: str = field(default_factory=ulid_now)
    done: bool = False
    created: float = field(default_factory=time.time)


class MemoStore:
    """The memos, with listeners (the to-do entity) told of every change."""

    def __init__(self, hass: HomeAssistant, key: str) -> None:
        """Prepare an empty list, saved under ``key``."""
        self._store: Store[dict[str, Any]] = Store(hass, 1, key)
        self.memos: list[Memo] = []
        self._listeners: list[Callable[[], None]] = []

    async def async_load(self) -> None:
        """Load the memos; unreadable data starts an empty list."""
        try:
            data = await self._store.async_load() or {}
            self.memos = [Memo(**item) for item in data.get("memos", []) if isinstance(item, dict)]
        except (ValueError, TypeError, AttributeError) as err:
            LOGGER.warning("Stored memos were unreadable and have been reset: %s", err)
            self.memos = []

    @callback
    def async_listen(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` after every change; return the remover."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    @callback
    def add(self, summary: str) -> Memo:
        """Add a memo."""
        memo = Memo(summary.strip())
        self.memos.append(memo)
        self._changed()
        return memo

    @callback
    def update(self, uid: str, *, summary: str | None = None, done: bool | None = None) -> None:
        """Change a memo's text or done state."""
        for memo in self.memos:
            if memo.uid == uid:
                if summary is not None:
                    memo.summary = summary
                if done is not None:
                    memo.done = done
        self._changed()

    @callback
    def delete(self, uids: set[str]) -> list[Memo]:
        """Delete memos by uid; return the deleted ones."""
        deleted = [m for m in self.memos if m.uid in uids]
        self.memos = [m for m in self.memos if m.uid not in uids]
        self._changed()
        return deleted

    @callback
    def find(self, reference: str) -> Memo | None:
        """Return the memo a user means: its number (1-based) or words of its text."""
        open_memos = [m for m in self.memos if not m.done]
        if reference.strip().isdigit():
            index = int(reference) - 1
            return open_memos[index] if 0 <= index < len(open_memos) else None
        words = reference.strip().lower()
        return next((m for m in open_memos if words and words in m.summary.lower()), None)

    async def async_flush(self) -> None:
        """Write pending changes now (on unload)."""
        await self._store.async_save(self._data())

    def _data(self) -> dict[str, Any]:
        return {"memos": [asdict(m) for m in self.memos]}

    def _changed(self) -> None:
        self._store.async_delay_save(self._data, SAVE_DELAY)
        for listener in list(self._listeners):
            listener()
