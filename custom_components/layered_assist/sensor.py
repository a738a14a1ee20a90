"""The next alarm as a timestamp sensor."""

from datetime import datetime

from homeassistant.components.sensor import SensorDeviceClass, SensorEntity
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import LayeredAssistEntryEntity
from .models import LayeredAssistConfigEntry

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    """Add the next-alarm sensor."""
    async_add_entities([NextAlarmSensor(entry)])


class NextAlarmSensor(LayeredAssistEntryEntity, SensorEntity):
    """When the next alarm is due."""

    _attr_device_class = SensorDeviceClass.TIMESTAMP

    def __init__(self, entry: LayeredAssistConfigEntry) -> None:
        """Bind to the entry's alarms."""
        self.alarms = entry.runtime_data.alarms
        super().__init__(entry, "next_alarm", self.alarms)

    @property
    def native_value(self) -> datetime | None:
        """Return the next due time."""
        upcoming = self.alarms.upcoming
        return upcoming[0].due_at if upcoming else None

    @property
    def extra_state_attributes(self) -> dict[str, str | None]:
        """Return the next alarm's message."""
        upcoming = self.alarms.upcoming
        return {"message": upcoming[0].message if upcoming else None, "alarms": str(len(upcoming))}
