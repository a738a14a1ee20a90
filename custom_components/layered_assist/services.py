"""The integration's services, registered once in ``async_setup``."""

from collections.abc import Callable, Coroutine
from typing import Any, NoReturn

import voluptuous as vol

from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import config_validation as cv

from .const import DOMAIN
from .dialogs.access import async_climate_step
from .llm_api import RegistryTool, local_llm_context
from .owners import OwnerHint, resolve_owner
from .tools import SERVICE_TOOLS, ToolRegistry
from .tools.base import ERROR_KEY

SERVICE_CLIMATE_CONFIRM = "climate_confirm"
# Tool errors that are no fault of the caller's input: a service down, a tool that broke.
FAILURE_KINDS = frozenset({"tool_failed", "unavailable"})
# Which agent or entry a call is for; needed only when there are several.
ATTR_AGENT = "agent"
ATTR_CONFIG_ENTRY = "config_entry"
OWNER_FIELDS = {
    vol.Optional(ATTR_AGENT): cv.entity_id,
    vol.Optional(ATTR_CONFIG_ENTRY): cv.string,
}
CLIMATE_CONFIRM_SCHEMA = vol.Schema(
    {
        **OWNER_FIELDS,
        vol.Optional("conversation_id", default="service"): cv.string,
        vol.Optional("temperature"): vol.Any(cv.string, vol.Coerce(float)),
        vol.Optional("humidity"): vol.Any(cv.string, vol.Coerce(float)),
        vol.Optional("confirm", default=False): cv.boolean,
        vol.Optional("cancel", default=False): cv.boolean,
        vol.Optional("target"): cv.string,
        vol.Optional("language"): cv.string,
    }
)


async def _async_climate_confirm(call: ServiceCall) -> ServiceResponse:
    """Advance the climate dialog of a conversation and return its state or result."""
    hass = call.hass
    hub = resolve_owner(hass, _owner_hint(call), need_agent=True).required_agent.dialogs
    data = call.data
    # Values or a target it cannot use raise a translated validation error; a target gone
    # or a failed service call, a translated error.
    step = await async_climate_step(
        hub,
        data["conversation_id"],
        data.get("language") or hass.config.language,
        call.context,
        temperature=data.get("temperature"),
        humidity=data.get("humidity"),
        confirm=data["confirm"],
        cancel=data["cancel"],
        target=data.get("target"),
    )
    return step.as_dict()


def _owner_hint(call: ServiceCall) -> OwnerHint:
    """Return the agent or entry a service call names."""
    return OwnerHint(
        agent_id=call.data.get(ATTR_AGENT), entry_id=call.data.get(ATTR_CONFIG_ENTRY), explicit=True
    )


def _tool_service(
    registry: ToolRegistry, name: str
) -> Callable[[ServiceCall], Coroutine[Any, Any, ServiceResponse]]:
    """Return a service handler that runs one of our tools and returns its result."""

    async def handle(call: ServiceCall) -> ServiceResponse:
        spec = registry.get(name)
        assert spec is not None
        args = {k: v for k, v in call.data.items() if k not in ("language", ATTR_AGENT, ATTR_CONFIG_ENTRY)}
        language = call.data.get("language") or call.hass.config.language
        hint = _owner_hint(call)
        if spec.owned_by is not None:
            # An unclear or unknown owner is the caller's error, raised before the tool runs.
            hint = resolve_owner(call.hass, hint, need_agent=spec.owned_by == "agent").hint()
        tool = RegistryTool(spec, hint)
        result = await tool.async_run(call.hass, args, local_llm_context(call.context, language))
        if (kind := result.get(ERROR_KEY)) is not None:
            _raise_tool_error(name, str(kind), str(result.get("error_text", kind)))
        return result

    return handle


def _raise_tool_error(name: str, kind: str, detail: str) -> NoReturn:
    """Raise what a tool returned as an error: the caller's input, or a failure of ours.

    A model reads the same result and acts on it; an action's caller gets an exception.
    """
    placeholders = {"action": f"{DOMAIN}.{name}", "detail": detail}
    if kind in FAILURE_KINDS:
        raise HomeAssistantError(
            translation_domain=DOMAIN, translation_key="action_failed", translation_placeholders=placeholders
        )
    raise ServiceValidationError(
        translation_domain=DOMAIN, translation_key="action_invalid", translation_placeholders=placeholders
    )


def async_setup_services(hass: HomeAssistant, registry: ToolRegistry) -> None:
    """Register the services."""
    for name in SERVICE_TOOLS:
        spec = registry.get(name)
        assert spec is not None
        hass.services.async_register(
            DOMAIN,
            name,
            _tool_service(registry, name),
            schema=spec.parameters.extend({vol.Optional("language"): cv.string, **OWNER_FIELDS}),
            supports_response=SupportsResponse.ONLY,
        )
    hass.services.async_register(
        DOMAIN,
        SERVICE_CLIMATE_CONFIRM,
        _async_climate_confirm,
        schema=CLIMATE_CONFIRM_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
