"""The memos as an HA to-do list entity."""

from homeassistant.components.todo import TodoItem, TodoListEntity
from homeassistant.components.todo.const import TodoItemStatus, TodoListEntityFeature
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .models import LayeredAssistConfigEntry, entry_device_info

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    """Add the memo list."""
    async_add_entities([MemoListEntity(entry)])


class MemoListEntity(TodoListEntity):
    """Memos, editable from the dashboard and by voice."""

    _attr_has_entity_name = True
    _attr_translation_key = "memos"
    _attr_supported_features = (
        TodoListEntityFeature.CREATE_TODO_ITEM
        | TodoListEntityFeature.DELETE_TODO_ITEM
        | TodoListEntityFeature.UPDATE_TODO_ITEM
    )

    def __init__(self, entry: LayeredAssistConfigEntry) -> None:
        """Bind to the entry's memos."""
        self.memos = entry.runtime_data.memos
        self._attr_unique_id = f"{entry.entry_id}_memos"
        self._attr_device_info = entry_device_info(entry)

    async def async_added_to_hass(self) -> None:
        """Follow changes made by the tools."""
        await super().async_added_to_hass()
        self.async_on_remove(self.memos.async_listen(self._changed))

    @callback
    def _changed(self) -> None:
        self.async_write_ha_state()

    @property
    def todo_items(self) -> list[TodoItem]:
        """Return the memos as to-do items."""
        return [
            TodoItem(
                summary=memo.summary,
                uid=memo.uid,
                status=TodoItemStatus.COMPLETED if memo.done else TodoItemStatus.NEEDS_ACTION,
            )
            for memo in self.memos.memos
        ]

    async def async_create_todo_item(self, item: TodoItem) -> None:
        """Add a memo from the dashboard."""
        self.memos.add(item.summary or "")

    async def async_update_todo_item(self, item: TodoItem) -> None:
        """Edit a memo from the dashboard."""
        assert item.uid is not None
        self.memos.update(item.uid, summary=item.summary, done=item.status == TodoItemStatus.COMPLETED)

    async def async_delete_todo_items(self, uids: list[str]) -> None:
        """Delete memos from the dashboard."""
        self.memos.delete(set(uids))
