"""Diagnostics: settings (secrets redacted), catalog and store sizes, recent turns."""

from dataclasses import asdict
from typing import Any

from homeassistant.components.conversation.const import DATA_COMPONENT
from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .const import CONF_FILTER_API_KEY, CONF_PROMPT, DOMAIN
from .models import LayeredAssistConfigEntry

TO_REDACT = {CONF_API_KEY, CONF_FILTER_API_KEY, CONF_PROMPT}


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry
) -> dict[str, Any]:
    """Return what helps to understand how the agent behaves, without secrets or conversations."""
    runtime = entry.runtime_data
    registry = er.async_get(hass)
    component = hass.data.get(DATA_COMPONENT)
    agents = {}
    for subentry in entry.subentries.values():
        entity_id = registry.async_get_entity_id("conversation", DOMAIN, subentry.subentry_id)
        agent = component.get_entity(entity_id) if component is not None and entity_id else None
        last_turn = getattr(agent, "last_turn", None)
        agents[subentry.subentry_id] = {
            "title": subentry.title,
            "options": async_redact_data(dict(subentry.data), TO_REDACT),
            # Which conversation it was is nobody else's business.
            "last_turn": _without_conversation(asdict(last_turn)) if last_turn is not None else None,
        }
    return {
        "entry": {"title": entry.title, "data": async_redact_data(dict(entry.data), TO_REDACT)},
        "agents": agents,
        "endpoint": (
            {"last_round_trip_s": runtime.client.last_round_trip, "last_error": runtime.client.last_error}
            if runtime.client is not None
            else None
        ),
        "catalog": {
            "entities": len(runtime.catalog.entries),
            "areas": len(runtime.catalog.areas),
            "floors": len(runtime.catalog.floors),
        },
        "stores": {
            "conversations": runtime.states.size,
            "memos": len(runtime.memos.memos),
            "alarms": len(runtime.alarms.alarms),
        },
    }


def _without_conversation(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "conversation_id"}
