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


async def converse_in_turns(hass: HomeAssistant, *sentences: str, language: str = "zh-Hans") -> list[str]:
    """Say sentences one after another in one conversation; return the replies."""
    replies, conversation_id = [], None
    for sentence in sentences:
        result = await conversation.async_converse(
            hass, sentence, conversation_id, Context(), language=language, agent_id=AGENT_ID
        )
        conversation_id = result.conversation_id
        replies.append(result.response.speech["plain"]["speech"])
    return replies
