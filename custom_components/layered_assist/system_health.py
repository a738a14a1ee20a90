"""System health: is the endpoint reachable, which model, how fast, how big the catalog is."""

from typing import Any

from homeassistant.components import system_health
from homeassistant.core import HomeAssistant, callback

from .const import CONF_MODEL, DOMAIN, SUBENTRY_CONVERSATION


@callback
def async_register(hass: HomeAssistant, register: system_health.SystemHealthRegistration) -> None:
    """Register the health info."""
    register.async_register_info(system_health_info)


async def system_health_info(hass: HomeAssistant) -> dict[str, Any]:
    """Return the health of the first loaded entry."""
    for entry in hass.config_entries.async_loaded_entries(DOMAIN):
        runtime = entry.runtime_data
        models = [
            s.data.get(CONF_MODEL)
            for s in entry.subentries.values()
            if s.subentry_type == SUBENTRY_CONVERSATION
        ]
        sizes = {"catalog_size": len(runtime.catalog.entries), "conversations_stored": runtime.states.size}
        client = runtime.client
        if client is None:
            return {"endpoint_reachable": "local only", **sizes}
        trip = client.last_round_trip
        return {
            "endpoint_reachable": system_health.async_check_can_reach_url(hass, _models_url(client.base_url)),
            "models": ", ".join(str(m) for m in models if m),
            "last_round_trip": f"{trip * 1000:.0f} ms" if trip is not None else "none yet",
            **sizes,
        }
    return {"loaded": False}


def _models_url(base_url: str) -> str:
    return base_url.rstrip("/") + "/models"
