"""Alarms: stored, scheduled with HA's event helpers, announced when due, late ones fired once."""

from collections.abc import Callable, Coroutine
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.event import async_track_point_in_time
from homeassistant.helpers.storage import Store
from homeassistant.util import dt as dt_util
from homeassistant.util.ulid import ulid_now

from .const import DOMAIN, LOGGER
from .language.times import next_occurrence

STORAGE_KIND = "alarms"
EVENT_ALARM = f"{DOMAIN}_alarm"


@dataclass
class Alarm:
    """One alarm: when it is next due (ISO, UTC), its message and how it repeats."""

    due: str
    message: str = ""
    repeat: str | None = None
    id: str = field(default_factory=ulid_now)
    # Device commands to carry out when due (a request for later), and for whom.
    commands: list[dict[str, Any]] = field(default_factory=list)
    user_id: str | None = None
    # The agent (subentry) that set it: its announcers announce it.
    agent: str | None = None

    @property
    def due_at(self) -> datetime:
        """Return the due time."""
        parsed = dt_util.parse_datetime(self.due)
        assert parsed is not None
        return parsed


@dataclass(frozen=True, slots=True)
class Announcers:
    """Where a due alarm is announced besides the event."""

    notify: str | None = None
    satellites: tuple[str, ...] = ()


class AlarmManager:
    """Keeps the alarms and fires them."""

    def __init__(self, hass: HomeAssistant, key: str, announcers: Callable[[str | None], Announcers]) -> None:
        """Prepare an empty manager saved under ``key``; ``announcers`` looks up an agent's."""
        self.hass = hass
        self.announcers = announcers
        self._store: Store[dict[str, Any]] = Store(hass, 1, key)
        self.alarms: list[Alarm] = []
        self._cancel: CALLBACK_TYPE | None = None
        self._listeners: list[Callable[[], None]] = []
        # Runs an alarm's device commands when it is due (set by the integration).
        self.command_runner: Callable[[Alarm], Coroutine[Any, Any, None]] | None = None

    async def async_start(self) -> None:
        """Load the alarms; fire once those that fell due while HA was down."""
        try:
            data = await self._store.async_load() or {}
            self.alarms = [Alarm(**item) for item in data.get("alarms", []) if isinstance(item, dict)]
        except (ValueError, TypeError, HomeAssistantError) as err:
            LOGGER.warning("Stored alarms were unreadable and have been reset: %s", err)
            self.alarms = []
        now = dt_util.utcnow()
        for alarm in [a for a in self.alarms if a.due_at <= now]:
            self._fire(alarm, late=True)
        self._schedule()

    @callback
    def async_stop(self) -> None:
        """Stop the timer."""
        if self._cancel is not None:
            self._cancel()
            self._cancel = None

    @callback
    def async_listen(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` after every change (the next-alarm sensor)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def scheduled(self) -> list[Alarm]:
        """Return the alarms that carry device commands (requests for later), oldest first."""
        return [alarm for alarm in self.alarms if alarm.commands]

    @property
    def upcoming(self) -> list[Alarm]:
        """Return the alarms in due order."""
        return sorted(self.alarms, key=lambda a: a.due_at)

    @callback
    def add(
        self,
        due: datetime,
        message: str,
        repeat: str | None,
        *,
        commands: list[dict[str, Any]] | None = None,
        user_id: str | None = None,
        agent: str | None = None,
    ) -> Alarm:
        """Add an alarm (with device commands: a request for later)."""
        alarm = Alarm(
            due=dt_util.as_utc(due).isoformat(),
            message=message.strip(),
            repeat=repeat,
            commands=list(commands or []),
            user_id=user_id,
            agent=agent,
        )
        self.alarms.append(alarm)
        self._changed()
        return alarm

    @callback
    def delete(self, alarm_id: str) -> None:
        """Delete an alarm."""
        self.alarms = [a for a in self.alarms if a.id != alarm_id]
        self._changed()

    async def async_flush(self) -> None:
        """Write the alarms now."""
        await self._store.async_save(self._data())

    def _data(self) -> dict[str, Any]:
        return {"alarms": [asdict(a) for a in self.alarms]}

    def _changed(self) -> None:
        self._store.async_delay_save(self._data, 1)
        self._schedule()
        for listener in list(self._listeners):
            listener()

    def _schedule(self) -> None:
        """Set one timer for the next alarm."""
        self.async_stop()
        if upcoming := self.upcoming:
            self._cancel = async_track_point_in_time(self.hass, self._on_time, upcoming[0].due_at)

    @callback
    def _on_time(self, now: datetime) -> None:
        self._cancel = None
        for alarm in [a for a in self.alarms if a.due_at <= now]:
            self._fire(alarm, late=False)
        self._changed()

    def _announce(self, domain: str, service: str, data: dict[str, Any]) -> None:
        """Call an announcing service in the background; a missing one is logged, not fatal."""
        if not self.hass.services.has_service(domain, service):
            LOGGER.warning("Cannot announce the alarm: %s.%s does not exist", domain, service)
            return

        async def call() -> None:
            try:
                await self.hass.services.async_call(domain, service, data, blocking=True)
            except HomeAssistantError as err:
                LOGGER.warning("Announcing the alarm through %s.%s failed: %s", domain, service, err)

        self.hass.async_create_background_task(call(), f"{DOMAIN} alarm announcement")

    def _fire(self, alarm: Alarm, *, late: bool) -> None:
        """Announce an alarm, then move a repeating one on or drop a single one."""
        data = {"id": alarm.id, "message": alarm.message, "scheduled": alarm.due, "late": late}
        self.hass.bus.async_fire(EVENT_ALARM, data)
        if alarm.commands:
            if self.command_runner is not None:
                self.hass.async_create_background_task(
                    self.command_runner(alarm), f"{DOMAIN} scheduled command"
                )
            self.alarms.remove(alarm)
            if late:
                self._store.async_delay_save(self._data, 1)
            return
        text = alarm.message or "⏰"
        announcers = self.announcers(alarm.agent)
        if announcers.notify:
            domain, _, service = announcers.notify.partition(".")
            self._announce(domain, service, {"message": text, "title": "Layered Assist"})
        if announcers.satellites:
            self._announce(
                "assist_satellite",
                "announce",
                {ATTR_ENTITY_ID: list(announcers.satellites), "message": text},
            )
        if alarm.repeat:
            local = dt_util.as_local(max(alarm.due_at, dt_util.utcnow()))
            nxt = next_occurrence(
                local,
                dt_util.as_local(alarm.due_at).hour,
                dt_util.as_local(alarm.due_at).minute,
                alarm.repeat,
            )
            alarm.due = dt_util.as_utc(nxt).isoformat()
        else:
            self.alarms.remove(alarm)
        if late:
            self._store.async_delay_save(self._data, 1)
