"""Saying a sentence to our agent through HA's conversation API."""

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant

from ..conftest import AGENT_ID


async def converse(hass: HomeAssistant, sentence: str, language: str = "zh-Hans") -> str:
    """Say a sentence to our agent in a new conversation; return the reply."""
    result = await conversation.async_converse(
        hass, sentence, None, Context(), language=language, agent_id=AGENT_ID
    )
    speech: str = result.response.speech["plain"]["speech"]
    return speech
