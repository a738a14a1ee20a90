"""The ``climate_confirm`` tool: the climate dialog, driven by a model."""

import voluptuous as vol

from homeassistant.core import Context

from ..dialogs.access import async_climate_step, conversation_key
from .base import CONTROLS, DirectResponse, ModelResult, ToolOutcome, ToolRequest, ToolSpec


async def _async_climate_confirm(request: ToolRequest) -> ToolOutcome:
    """Advance the dialog; the final confirmation (or a cancel) answers the user directly."""
    hub = request.owner(need_agent=True).required_agent.dialogs
    context = request.llm_context.context
    conversation_id = conversation_key(None, f"context:{context.id if context else 'none'}")
    args = request.args
    step = await async_climate_step(
        hub,
        conversation_id,
        request.language,
        context or Context(),
        temperature=args.get("temperature"),
        humidity=args.get("humidity"),
        confirm=bool(args.get("confirm")),
        cancel=bool(args.get("cancel")),
        target=args.get("target"),
    )
    if step.reply.done or args.get("cancel"):
        return DirectResponse(step.reply.speech, step.as_dict())
    return ModelResult(step.as_dict())


CLIMATE_CONFIRM_TOOL = ToolSpec(
    owned_by="agent",
    name="climate_confirm",
    traits=CONTROLS,
    description=(
        "Set a target temperature and humidity with the user's confirmation. Pass the values "
        "the user said (e.g. '22度', '72°F', '60%'); ask the returned question; call again with "
        "confirm=true only after the user confirms, cancel=true if they cancel."
    ),
    parameters=vol.Schema(
        {
            vol.Optional("temperature"): vol.Any(str, int, float),
            vol.Optional("humidity"): vol.Any(str, int, float),
            vol.Optional("confirm"): bool,
            vol.Optional("cancel"): bool,
            vol.Optional("target", description="climate or humidifier entity_id or name"): str,
        }
    ),
    handler=_async_climate_confirm,
)
