"""The next alarm as a timestamp sensor."""

from datetime import datetime

from homeassistant.components.sensor import SensorDeviceClass, SensorEntity
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .models import LayeredAssistConfigEntry, entry_device_info

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    """Add the next-alarm sensor."""
    async_add_entities([NextAlarmSensor(entry)])


class NextAlarmSensor(SensorEntity):
    """When the next alarm is due."""

    _attr_has_entity_name = True
    _attr_translation_key = "next_alarm"
    _attr_device_class = SensorDeviceClass.TIMESTAMP

    def __init__(self, entry: LayeredAssistConfigEntry) -> None:
        """Bind to the entry's alarms."""
        self.alarms = entry.runtime_data.alarms
        self._attr_unique_id = f"{entry.entry_id}_next_alarm"
        self._attr_device_info = entry_device_info(entry)

    async def async_added_to_hass(self) -> None:
        """Follow the alarms."""
        await super().async_added_to_hass()
        self.async_on_remove(self.alarms.async_listen(self._changed))

    @callback
    def _changed(self) -> None:
        self.async_write_ha_state()

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
