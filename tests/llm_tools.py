"""Calling tools through HA's LLM APIs, as any agent does, on every supported release."""

from typing import Any

from custom_components.layered_assist.const import LLM_API_ID
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm


def llm_context(language: str = "zh-Hans", platform: str = "test") -> llm.LLMContext:
    """Return the LLM context of another agent's turn."""
    return llm.LLMContext(
        platform=platform, context=Context(), language=language, assistant="conversation", device_id=None
    )


def result_data(result: Any) -> dict[str, Any]:
    """Return a tool result's data; a failed call is flagged where the release has the flag."""
    data = dict(getattr(result, "data", result))
    if hasattr(result, "error"):
        assert result.error == ("error" in data), data
    return data


async def call_tool(
    hass: HomeAssistant,
    name: str,
    args: dict[str, Any],
    language: str = "zh-Hans",
    api_id: str = LLM_API_ID,
) -> dict[str, Any]:
    """Call a tool of an LLM API (ours by default) and return its data."""
    api = await llm.async_get_api(hass, api_id, llm_context(language))
    return result_data(await api.async_call_tool(llm.ToolInput(tool_name=name, tool_args=args)))
