"""Per-conversation state (recent devices and rooms, last commands and turns) in a Store.

Updated after every turn without any model call, saved with a debounce and
restored after a restart, so "它" and "再来一次" keep working.
"""

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
import time
from typing import Any, Self

from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.storage import Store

from .const import LOGGER

STORAGE_VERSION = 1
STORAGE_KIND = "conversations"
SAVE_DELAY = 5
MAX_DEVICES, MAX_ROOMS, MAX_TURNS = 5, 3, 5
# Conversations untouched for this long are forgotten.
MAX_AGE = 24 * 3600


@dataclass
class ConversationState:
    """What one conversation remembers."""

    recent_devices: list[str] = field(default_factory=list)
    recent_rooms: list[str] = field(default_factory=list)
    last_commands: list[dict[str, Any]] = field(default_factory=list)
    recent_turns: list[dict[str, str]] = field(default_factory=list)
    # An open climate dialog and risky commands awaiting confirmation, if any.
    dialog: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    persona: str | None = None
    # The last turn's device request when nothing was done for it (which device was unclear):
    # a place said next ("客廳的") says which one.
    unsettled: str | None = None
    # Whether the last turn carried out commands (a number said next, "68.", may be their setting).
    just_acted: bool = False
    updated_at: float = 0.0

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Read a stored state, ignoring what does not fit."""
        return cls(
            recent_devices=[str(x) for x in data.get("recent_devices", [])][:MAX_DEVICES],
            recent_rooms=[str(x) for x in data.get("recent_rooms", [])][:MAX_ROOMS],
            last_commands=[dict(x) for x in data.get("last_commands", []) if isinstance(x, dict)],
            recent_turns=[dict(x) for x in data.get("recent_turns", []) if isinstance(x, dict)][-MAX_TURNS:],
            dialog=dict(data["dialog"]) if isinstance(data.get("dialog"), dict) else None,
            pending=dict(data["pending"]) if isinstance(data.get("pending"), dict) else None,
            persona=str(data["persona"]) if isinstance(data.get("persona"), str) else None,
            unsettled=str(data["unsettled"]) if isinstance(data.get("unsettled"), str) else None,
            just_acted=data.get("just_acted") is True,
            updated_at=float(data.get("updated_at", 0.0)),
        )


def _front(new: Iterable[str], old: list[str], limit: int) -> list[str]:
    """Return new items first, then the old ones, without repeats."""
    return list(dict.fromkeys([*new, *old]))[:limit]


class ConversationStateStore:
    """All conversations' state, one lock per conversation."""

    def __init__(self, hass: HomeAssistant, key: str) -> None:
        """Prepare an empty store, saved under ``key``."""
        self.hass = hass
        self._store: Store[dict[str, Any]] = Store(hass, STORAGE_VERSION, key)
        self._states: dict[str, ConversationState] = {}
        # A lock per conversation with turns running or waiting; dropped when idle.
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    async def async_load(self) -> None:
        """Load the stored states; corrupt data is reset and reported."""
        try:
            data = await self._store.async_load() or {}
            conversations = data.get("conversations", {})
            if not isinstance(conversations, dict):
                raise TypeError("conversations is not a mapping")
            self._states = {
                str(cid): ConversationState.from_dict(value)
                for cid, value in conversations.items()
                if isinstance(value, dict)
            }
        except (HomeAssistantError, ValueError, TypeError, AttributeError) as err:
            # Nothing for the user to do (a repair must ask for something): a warning only.
            LOGGER.warning("Stored conversation state was unreadable and has been reset: %s", err)
            self._states = {}
            await self._store.async_save(self._data())
        self._prune()

    @asynccontextmanager
    async def turn(self, conversation_id: str) -> AsyncIterator[ConversationState]:
        """Serialize the turns of a conversation; yield its state at the start of the turn."""
        lock, users = self._locks.get(conversation_id) or (asyncio.Lock(), 0)
        self._locks[conversation_id] = (lock, users + 1)
        try:
            async with lock:
                yield self.get(conversation_id)
        finally:
            lock, users = self._locks[conversation_id]
            if users == 1:
                del self._locks[conversation_id]
            else:
                self._locks[conversation_id] = (lock, users - 1)

    @property
    def held_locks(self) -> int:
        """Return how many conversations have turns running or waiting."""
        return len(self._locks)

    def get(self, conversation_id: str) -> ConversationState:
        """Return a conversation's state (empty for a new one)."""
        state = self._states.get(conversation_id)
        return state if state is not None else ConversationState()

    @callback
    def record(
        self,
        conversation_id: str,
        *,
        devices: Iterable[str] = (),
        rooms: Iterable[str] = (),
        commands: list[dict[str, Any]] | None = None,
        user_text: str | None = None,
        reply: str | None = None,
        unsettled: str | None = None,
    ) -> ConversationState:
        """Update a conversation after a turn; cheap, no I/O (the save is delayed)."""
        state = self._states.get(conversation_id) or ConversationState()
        state.recent_devices = _front(devices, state.recent_devices, MAX_DEVICES)
        state.recent_rooms = _front(rooms, state.recent_rooms, MAX_ROOMS)
        if commands:
            state.last_commands = commands
        if user_text is not None:
            # A turn said: what it left unsettled replaces what the turn before left.
            state.unsettled = unsettled
            state.just_acted = bool(commands)
            state.recent_turns = [*state.recent_turns, {"user": user_text, "assistant": reply or ""}][
                -MAX_TURNS:
            ]
        state.updated_at = time.time()
        self._states[conversation_id] = state
        self._store.async_delay_save(self._data, SAVE_DELAY)
        return state

    @callback
    def set_dialog(
        self,
        conversation_id: str,
        *,
        dialog: dict[str, Any] | None | object = ...,
        pending: dict[str, Any] | None | object = ...,
    ) -> None:
        """Store (or clear, with None) a conversation's open dialog or pending commands."""
        state = self._states.get(conversation_id) or ConversationState()
        if dialog is not ...:
            state.dialog = dialog  # type: ignore[assignment]
        if pending is not ...:
            state.pending = pending  # type: ignore[assignment]
        state.updated_at = time.time()
        self._states[conversation_id] = state
        self._store.async_delay_save(self._data, SAVE_DELAY)

    @callback
    def set_persona(self, conversation_id: str, persona: str | None) -> None:
        """Keep the role the conversation plays (None for the default)."""
        state = self._states.get(conversation_id) or ConversationState()
        state.persona = persona
        state.updated_at = time.time()
        self._states[conversation_id] = state
        self._store.async_delay_save(self._data, SAVE_DELAY)

    @callback
    def expire_dialogs(self, timeout: float, conversation_id: str | None = None) -> int:
        """Close dialogs and pending commands idle longer than ``timeout``; return how many.

        Of one conversation (a turn's own, before it is answered), or of every one (the timer's).
        """
        cutoff = time.time() - timeout
        closed = 0
        if conversation_id is None:
            states: Iterable[ConversationState] = self._states.values()
        else:
            states = [state] if (state := self._states.get(conversation_id)) is not None else []
        for state in states:
            for key in ("dialog", "pending"):
                value = getattr(state, key)
                if value is not None and float(value.get("updated_at", 0)) < cutoff:
                    setattr(state, key, None)
                    closed += 1
        if closed:
            self._store.async_delay_save(self._data, SAVE_DELAY)
        return closed

    @callback
    def forget(self, conversation_id: str) -> None:
        """Drop a conversation's state."""
        if self._states.pop(conversation_id, None) is not None:
            self._store.async_delay_save(self._data, SAVE_DELAY)

    async def async_flush(self) -> None:
        """Write pending changes now (on unload)."""
        await self._store.async_save(self._data())

    @property
    def size(self) -> int:
        """Return how many conversations are remembered."""
        return len(self._states)

    def _prune(self) -> None:
        cutoff = time.time() - MAX_AGE
        for cid in [cid for cid, state in self._states.items() if state.updated_at < cutoff]:
            del self._states[cid]

    def _data(self) -> dict[str, Any]:
        self._prune()
        return {"conversations": {cid: asdict(state) for cid, state in self._states.items()}}
