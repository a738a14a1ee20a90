"""Roles (personas from the agent's options) and ending a conversation."""

from homeassistant.core import HomeAssistant

from .const import CONF_PERSONAS, DEFAULT_PERSONAS, DOMAIN, SUBENTRY_CONVERSATION
from .localize import async_text
from .models import loaded_runtime
from .state import ConversationStateStore


def parse_personas(text: str) -> dict[str, str]:
    """Read personas written one per line as ``name=instructions``."""
    personas = {}
    for line in text.splitlines():
        name, sep, prompt = line.partition("=")
        if sep and name.strip() and prompt.strip():
            personas[name.strip()] = prompt.strip()
    return personas


def personas(hass: HomeAssistant) -> dict[str, str]:
    """Return the personas of the first agent (the defaults when none are configured)."""
    for entry in hass.config_entries.async_loaded_entries(DOMAIN):
        for subentry in entry.subentries.values():
            if subentry.subentry_type == SUBENTRY_CONVERSATION:
                return parse_personas(str(subentry.data.get(CONF_PERSONAS, DEFAULT_PERSONAS)))
    return parse_personas(DEFAULT_PERSONAS)


def state_store(hass: HomeAssistant) -> ConversationStateStore:
    """Return the conversation states of the loaded entry."""
    return loaded_runtime(hass).states


async def async_end(hass: HomeAssistant, conversation_id: str | None, language: str) -> str:
    """Forget a conversation's state and return the farewell (no question: the mic stays closed)."""
    if conversation_id is not None:
        state_store(hass).forget(conversation_id)
    return await async_text(hass, language, "replies", "goodbye")
