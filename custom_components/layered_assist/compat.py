"""Calls whose shape changes between Home Assistant releases, kept in one place.

We test on 2026.2. Later releases move tool schemas to probatio (2026.9) and tool
results to ``llm.ToolResult`` (2026.10); each helper here picks the shape the
running release offers.
"""

from collections.abc import Callable
from typing import Any

from homeassistant.components import conversation
from homeassistant.helpers import llm

try:  # HA >= 2026.9
    from probatio import to_openapi as _to_openapi  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the HA release
    _to_openapi = None

from voluptuous_openapi import convert as _voluptuous_convert


def schema_to_json(schema: Any, custom_serializer: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """Return the JSON Schema of a tool's parameter schema."""
    if _to_openapi is not None:  # pragma: no cover - depends on the HA release
        return dict(_to_openapi(schema, custom_serializer=custom_serializer))
    return dict(_voluptuous_convert(schema, custom_serializer=custom_serializer))


def tool_result_data(content: conversation.ToolResultContent) -> Any:
    """Return the JSON data of a tool result, whichever field holds it."""
    result = getattr(content, "result", None)
    if result is not None:  # pragma: no cover - HA >= 2026.10
        return getattr(result, "data", result)
    return content.tool_result


def wrap_tool_result(data: dict[str, Any], *, error: bool = False) -> Any:
    """Return a tool's result in the type the running release expects."""
    tool_result_cls = getattr(llm, "ToolResult", None)
    if tool_result_cls is not None:  # pragma: no cover - HA >= 2026.10
        return tool_result_cls(data=data, error=error)
    return data


def current_conversation_id() -> str | None:
    """Return the conversation whose chat log is being worked on, if any."""
    from homeassistant.components.conversation.chat_log import current_chat_log  # noqa: PLC0415

    chat_log = current_chat_log.get()
    return chat_log.conversation_id if chat_log is not None else None


def add_default_agent_sentences(hass: Any, intents: dict[str, Any]) -> Callable[[], None]:
    """Add sentences for our intents to HA's default agent; return a remover.

    HA reads integration sentences only from <config>/custom_sentences; the agent
    manager's config intents (configuration.yaml ``conversation: intents:``) are
    merged into every language, so ours are added there next to the user's.
    """
    from homeassistant.components.conversation.agent_manager import get_agent_manager  # noqa: PLC0415

    manager = get_agent_manager(hass)
    user_intents = dict(manager.config_intents or {})
    merged = {**user_intents, "intents": {**user_intents.get("intents", {}), **intents.get("intents", {})}}
    merged["lists"] = {**user_intents.get("lists", {}), **intents.get("lists", {})}
    manager.update_config_intents(merged)

    def remove() -> None:
        manager.update_config_intents(user_intents)

    return remove
