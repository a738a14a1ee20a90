"""Our tools and the registry that offers them to models and to HA's LLM API."""

from collections.abc import Iterable

from .alarm import DELETE_ALARM_TOOL, LIST_ALARMS_TOOL, SET_ALARM_TOOL
from .base import ToolSpec
from .calculator import CALCULATE_TOOL
from .climate import CLIMATE_CONFIRM_TOOL
from .clock import DATETIME_TOOL
from .conversation_control import CHANGE_ROLE_TOOL, END_CONVERSATION_TOOL
from .memo import ADD_MEMO_TOOL, DELETE_MEMO_TOOL, LIST_MEMOS_TOOL
from .moon import MOON_PHASE_TOOL
from .news import NEWS_TOOL
from .space_news import SPACE_NEWS_TOOL
from .stock import STOCK_TOOL
from .weather import WEATHER_TOOL
from .wikipedia import WIKIPEDIA_TOOL

BUILTIN_TOOLS: tuple[ToolSpec, ...] = (
    ADD_MEMO_TOOL,
    CALCULATE_TOOL,
    CHANGE_ROLE_TOOL,
    CLIMATE_CONFIRM_TOOL,
    DATETIME_TOOL,
    DELETE_ALARM_TOOL,
    DELETE_MEMO_TOOL,
    END_CONVERSATION_TOOL,
    LIST_ALARMS_TOOL,
    LIST_MEMOS_TOOL,
    MOON_PHASE_TOOL,
    NEWS_TOOL,
    SET_ALARM_TOOL,
    SPACE_NEWS_TOOL,
    STOCK_TOOL,
    WEATHER_TOOL,
    WIKIPEDIA_TOOL,
)
# Tools that are also services (layered_assist.<name>) returning their result.
SERVICE_TOOLS = (
    "add_memo",
    "calculate",
    "delete_alarm",
    "delete_memo",
    "list_alarms",
    "list_memos",
    "get_datetime",
    "get_moon_phase",
    "get_news",
    "get_stock",
    "get_weather",
    "search_space_news",
    "set_alarm",
    "search_wikipedia",
)


class ToolRegistry:
    """Holds tools by name; later families register here too."""

    def __init__(self, tools: Iterable[ToolSpec] = BUILTIN_TOOLS) -> None:
        """Register the given tools."""
        self._tools: dict[str, ToolSpec] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: ToolSpec) -> None:
        """Add a tool; names must be unique."""
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name} is already registered")
        self._tools[tool.name] = tool

    def get(self, name: str) -> ToolSpec | None:
        """Return a tool by name."""
        return self._tools.get(name)

    @property
    def tools(self) -> list[ToolSpec]:
        """Return every tool, sorted by name."""
        return [self._tools[name] for name in sorted(self._tools)]
