"""Our intents as tools of HA's Assist API, for releases that build it from platforms.

Since 2026.7 the ``llm`` integration assembles the Assist API from ``<domain>/llm.py``
platforms, with tool names prefixed by the domain; earlier releases offer every
registered intent by themselves and never load this module.
"""

# Only releases that have the llm integration load this module.
from homeassistant.components.llm import LLMTools  # type: ignore[import-not-found,unused-ignore]
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import intent
from homeassistant.helpers.llm import LLM_API_ASSIST, IntentTool, LLMContext, Tool

from .compat import tag_tool
from .const import DOMAIN
from .intents import INTENT_TRAITS


@callback
def async_get_tools(hass: HomeAssistant, llm_context: LLMContext, api_id: str) -> LLMTools | None:  # type: ignore[no-any-unimported,unused-ignore]
    """Return a tool for each of our intents, in the Assist API only."""
    if api_id != LLM_API_ASSIST:
        return None
    tools: list[Tool] = []
    for handler in intent.async_get(hass):
        if (traits := INTENT_TRAITS.get(handler.intent_type or "")) is None:
            continue
        tool = IntentTool(f"{DOMAIN}__{handler.intent_type}", handler)
        tag_tool(tool, traits)
        tools.append(tool)
    return LLMTools(tools=tools) if tools else None
