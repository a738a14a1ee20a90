"""The memos as an HA to-do list entity."""

from homeassistant.components.todo import TodoItem, TodoListEntity
from homeassistant.components.todo.const import TodoItemStatus, TodoListEntityFeature
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import LayeredAssistEntryEntity
from .models import LayeredAssistConfigEntry

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    """Add the memo list."""
    async_add_entities([MemoListEntity(entry)])


class MemoListEntity(LayeredAssistEntryEntity, TodoListEntity):
    """Memos, editable from the dashboard and by voice."""

    _attr_supported_features = (
        TodoListEntityFeature.CREATE_TODO_ITEM
        | TodoListEntityFeature.DELETE_TODO_ITEM
        | TodoListEntityFeature.UPDATE_TODO_ITEM
    )

    def __init__(self, entry: LayeredAssistConfigEntry) -> None:
        """Bind to the entry's memos."""
        self.memos = entry.runtime_data.memos
        super().__init__(entry, "memos", self.memos)

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
