"""Conversation control: ``change_role`` (a persona from the options) and ``end_conversation``."""

import voluptuous as vol

from ..compat import current_conversation_id
from ..dialogs.hub import async_farewell
from ..localize import async_reply
from .base import REMOVES, SETS, DirectResponse, ModelResult, ToolOutcome, ToolRequest, ToolSpec


async def _async_change_role(request: ToolRequest) -> ToolOutcome:
    wanted = request.args["role"].strip()
    owner = request.owner(need_agent=True)
    available = owner.required_agent.personas
    name = next((n for n in available if n.lower() == wanted.lower()), None)
    reset = wanted.lower() in ("default", "默认", "預設", "none")
    if name is None and not reset:
        return ModelResult({"error": "unknown_role", "error_text": f"roles: {', '.join(available)}"})
    conversation_id = current_conversation_id()
    if conversation_id is None:
        return ModelResult({"error": "no_conversation", "error_text": "roles belong to a conversation"})
    owner.runtime.states.set_persona(conversation_id, name)
    key, values = ("role_reset", {}) if name is None else ("role_changed", {"role": name})
    return DirectResponse(await async_reply(request.hass, request.language, key, values))


async def _async_end_conversation(request: ToolRequest) -> ToolOutcome:
    states = request.owner().runtime.states
    speech = await async_farewell(request.hass, states, current_conversation_id(), request.language)
    return DirectResponse(speech)


CHANGE_ROLE_TOOL = ToolSpec(
    owned_by="agent",
    name="change_role",
    traits=SETS,
    description="Switch this conversation to a configured persona (e.g. 英语老师, 儿童故事), or 'default'.",
    parameters=vol.Schema({vol.Required("role"): vol.All(str, vol.Length(min=1, max=40))}),
    handler=_async_change_role,
)
END_CONVERSATION_TOOL = ToolSpec(
    owned_by="entry",
    name="end_conversation",
    traits=REMOVES,
    description="End the conversation when the user says goodbye; forgets its state.",
    parameters=vol.Schema({}),
    handler=_async_end_conversation,
)
