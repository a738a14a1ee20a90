"""System health: are the endpoints reachable, which models, how fast, how big the catalog is."""

import asyncio
from typing import Any

from homeassistant.components import system_health
from homeassistant.core import HomeAssistant, callback

from .const import CONF_MODEL, DOMAIN
from .models import LayeredAssistConfigEntry


@callback
def async_register(hass: HomeAssistant, register: system_health.SystemHealthRegistration) -> None:
    """Register the health info."""
    register.async_register_info(system_health_info)


async def system_health_info(hass: HomeAssistant) -> dict[str, Any]:
    """Return the health of every loaded entry, summed up."""
    entries: list[LayeredAssistConfigEntry] = hass.config_entries.async_loaded_entries(DOMAIN)
    if not entries:
        return {"loaded": False}
    runtimes = [entry.runtime_data for entry in entries]
    agents = [agent for r in runtimes for agent in r.agents.values()]
    models = [str(model) for agent in agents if (model := agent.options.get(CONF_MODEL))]
    sizes = {
        # Every entry's catalog holds the same exposed devices.
        "catalog_size": len(runtimes[0].catalog.entries),
        "conversations_stored": sum(r.states.size for r in runtimes),
    }
    clients = [r.client for r in runtimes if r.client is not None]
    if not clients:
        return {"endpoint_reachable": "local only", **sizes}
    trips = [c.last_round_trip for c in clients if c.last_round_trip is not None]
    return {
        "endpoint_reachable": _all_reachable(hass, [c.base_url for c in clients]),
        "models": ", ".join(dict.fromkeys(models)),
        "last_round_trip": f"{max(trips) * 1000:.0f} ms" if trips else "none yet",
        **sizes,
    }


async def _all_reachable(hass: HomeAssistant, base_urls: list[str]) -> Any:
    """Return "ok" when every endpoint answers, else the first failure."""
    urls = [base_url.rstrip("/") + "/models" for base_url in dict.fromkeys(base_urls)]
    results = await asyncio.gather(*(system_health.async_check_can_reach_url(hass, url) for url in urls))
    return next((result for result in results if result != "ok"), "ok")
