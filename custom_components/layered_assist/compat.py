"""Calls whose shape changes between Home Assistant releases, kept in one place.

Supported from 2026.2 to the newest release. Each helper detects the feature it
needs (never a private attribute without a fallback); the test legs run the oldest
release and the newest ones, so each branch here runs on one of them:

- 2026.9 validates with probatio (``import voluptuous`` resolves to it) and drops
  voluptuous_openapi;
- 2026.10 wraps tool results in ``llm.ToolResult``, adds tool annotations and asks
  tools for the integration that provides them;
- 2026.10 keeps config intents per intent source, with a subscription;
- 2026.7–2026.9 move the Assist API into the ``llm`` integration, whose tools come
  from ``<domain>/llm.py`` platforms (see ``llm.py``);
- 2026.4 lets entity aliases hold a marker for the entity's computed name;
- 2026.10 adds child devices, which have no manufacturer or model of their own;
- 2026.11 takes ``None`` from ``async_setup_entry`` and a user context when a chat
  session is opened.
"""

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
import inspect
from typing import Any, Protocol, cast

from homeassistant.components import conversation
from homeassistant.const import MAJOR_VERSION, MINOR_VERSION
from homeassistant.core import Context, HomeAssistant, State, callback
from homeassistant.helpers import chat_session, llm

from .const import DOMAIN

_to_openapi: Callable[..., Any] | None
try:  # HA >= 2026.9
    from probatio import to_openapi as _to_openapi  # type: ignore[import-not-found,no-redef,unused-ignore]
except ImportError:
    _to_openapi = None

_TOOL_RESULT: type | None = getattr(llm, "ToolResult", None)
_TOOL_ANNOTATIONS: type | None = getattr(llm, "ToolAnnotations", None)

# Since 2026.11 an entry's setup returns None; earlier releases require True.
ENTRY_SETUP_DONE: Any = None if (MAJOR_VERSION, MINOR_VERSION) >= (2026, 11) else True


def schema_to_json(schema: Any, custom_serializer: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """Return the JSON Schema of a tool's parameter schema."""
    if _to_openapi is not None:
        return dict(_to_openapi(schema, custom_serializer=custom_serializer))
    from voluptuous_openapi import convert  # noqa: PLC0415 - only before 2026.9

    return dict(convert(schema, custom_serializer=custom_serializer))


def tool_result_data(content: conversation.ToolResultContent) -> Any:
    """Return the JSON data of a tool result in the chat log."""
    result = getattr(content, "result", None)
    if result is not None:
        return result.data
    return content.tool_result


def wrap_tool_result(data: dict[str, Any], *, error: bool = False) -> Any:
    """Return a tool's result in the type the running release expects."""
    if _TOOL_RESULT is not None:
        return _TOOL_RESULT(data=data, error=error)
    return data


def tool_result_delta(
    tool_call_id: str, tool_name: str, data: dict[str, Any]
) -> conversation.ToolResultContentDeltaDict:
    """Return a failed tool call's result as a chat log delta."""
    delta: dict[str, Any] = {"role": "tool_result", "tool_call_id": tool_call_id, "tool_name": tool_name}
    if _TOOL_RESULT is not None:
        delta["result"] = _TOOL_RESULT(data=data, error=True)
    else:
        delta["tool_result"] = data
    return cast(conversation.ToolResultContentDeltaDict, delta)


class ToolTraitsLike(Protocol):
    """How a tool behaves (tools.base.ToolTraits)."""

    @property
    def read_only(self) -> bool: ...  # noqa: D102
    @property
    def destructive(self) -> bool: ...  # noqa: D102
    @property
    def idempotent(self) -> bool: ...  # noqa: D102
    @property
    def open_world(self) -> bool: ...  # noqa: D102


def tag_tool(tool: llm.Tool, traits: ToolTraitsLike) -> None:
    """Record that a tool is ours and how it behaves, where the release reads it."""
    # A plain attribute on releases that do not read it.
    setattr(tool, "integration", DOMAIN)  # noqa: B010
    if _TOOL_ANNOTATIONS is not None:
        annotations = _TOOL_ANNOTATIONS(
            read_only=traits.read_only,
            destructive=traits.destructive,
            idempotent=traits.idempotent,
            open_world=traits.open_world,
        )
        setattr(tool, "annotations", annotations)  # noqa: B010


def entity_aliases(aliases: Iterable[Any]) -> list[str]:
    """Return an entity's alias texts, without the computed-name marker."""
    return [alias for alias in aliases if isinstance(alias, str)]


def registry_aliases(aliases: Iterable[str]) -> Any:
    """Return aliases to write to the entity registry, keeping the entity's own name matched.

    Since 2026.4 the entity's computed name is matched only while its aliases hold the
    marker for it; earlier releases match the name anyway and store a set.
    """
    from homeassistant.helpers import entity_registry as er  # noqa: PLC0415

    computed_name = getattr(er, "COMPUTED_NAME", None)
    if computed_name is None:
        return set(aliases)
    return [computed_name, *aliases]


def device_brand(hass: HomeAssistant, device: Any) -> list[str]:
    """Return the manufacturer and model a device is known by ("ecobee", "Roborock S7").

    Since 2026.10 a child device has neither: they are its parent's.
    """
    from homeassistant.helpers import device_registry as dr  # noqa: PLC0415

    if (parent_id := getattr(device, "parent_device_id", None)) is not None:
        device = dr.async_get(hass).async_get(parent_id)
    if not isinstance(device, dr.DeviceEntry):
        return []
    return [text for text in (device.manufacturer, device.model) if text]


def spoken_entity_name(hass: HomeAssistant, state: State) -> str:
    """Return the name HA's intents know an entity by (since 2026.4 with its device's name)."""
    from homeassistant.helpers import entity_registry as er, intent  # noqa: PLC0415

    get_aliases = getattr(intent, "async_get_entity_aliases", None)
    entry = er.async_get(hass).async_get(state.entity_id)
    if get_aliases is not None and entry is not None and (names := get_aliases(hass, entry, state=state)):
        return str(names[0])
    return state.name


def current_conversation_id() -> str | None:
    """Return the conversation whose chat log is being worked on, if any."""
    from homeassistant.components.conversation.chat_log import current_chat_log  # noqa: PLC0415

    chat_log = current_chat_log.get()
    return chat_log.conversation_id if chat_log is not None else None


def open_chat_session(
    hass: HomeAssistant, conversation_id: str | None, context: Context | None
) -> AbstractContextManager[chat_session.ChatSession]:
    """Open a chat session for a user (since 2026.11 sessions belong to one)."""
    if "context" in inspect.signature(chat_session.async_get_chat_session).parameters:
        return chat_session.async_get_chat_session(hass, conversation_id, context=context)  # type: ignore[call-arg,unused-ignore]
    return chat_session.async_get_chat_session(hass, conversation_id)


def add_default_agent_sentences(hass: HomeAssistant, intents: dict[str, Any]) -> Callable[[], None]:
    """Add sentences for our intents to HA's default agent; return a remover.

    HA reads integration sentences only from <config>/custom_sentences; the config
    intents (configuration.yaml ``conversation: intents:``) are merged into every
    language, so ours are added there next to the user's. ``intents`` maps intent
    names to their data; wildcard lists are declared in each data block.
    """
    from homeassistant.components.conversation.agent_manager import get_agent_manager  # noqa: PLC0415

    manager = get_agent_manager(hass)
    if hasattr(manager, "subscribe_intents"):
        return _add_to_config_source(manager, intents)
    user_intents: dict[str, Any] = dict(getattr(manager, "config_intents", None) or {})
    manager.update_config_intents({**user_intents, "intents": {**user_intents.get("intents", {}), **intents}})

    def remove() -> None:
        manager.update_config_intents(user_intents)

    return remove


def _add_to_config_source(manager: Any, intents: dict[str, Any]) -> Callable[[], None]:
    """Keep our intents in the config intent source, also after the user's reload."""
    user_intents: dict[str, Any] = {}

    @callback
    def on_update(update: dict[str, dict[str, Any]]) -> None:
        if (source := update.get("config")) is None:
            return
        current: dict[str, Any] = source.get("intents", {})
        user_intents.clear()
        user_intents.update({name: data for name, data in current.items() if name not in intents})
        if any(current.get(name) is not data for name, data in intents.items()):
            manager.update_config_intents({**user_intents, **intents})

    unsubscribe = manager.subscribe_intents(on_update)

    def remove() -> None:
        unsubscribe()
        manager.update_config_intents(dict(user_intents))

    return remove
