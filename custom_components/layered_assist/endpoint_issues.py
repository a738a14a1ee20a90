"""The model endpoint's availability, told once each way.

A repair while it cannot be reached; a log line when it goes and one when it comes back,
not one per failed turn.
"""

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.util.hass_dict import HassKey

from .chat.errors import CannotConnect, EndpointError, EndpointTimeout
from .const import CONF_BASE_URL, DOMAIN, LOGGER
from .models import LayeredAssistConfigEntry

# Entries whose endpoint failed its last request.
_UNAVAILABLE: HassKey[set[str]] = HassKey(f"{DOMAIN}_unavailable_endpoints")


def _issue_id(entry: LayeredAssistConfigEntry) -> str:
    return f"endpoint_unreachable_{entry.entry_id}"


@callback
def async_report_endpoint_error(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry, err: EndpointError
) -> None:
    """Log the first failure; raise the repair when the endpoint cannot be reached at all."""
    unavailable = hass.data.setdefault(_UNAVAILABLE, set())
    if entry.entry_id not in unavailable:
        unavailable.add(entry.entry_id)
        LOGGER.info("The model endpoint %s is unavailable: %s", entry.data.get(CONF_BASE_URL), err.detail)
    else:
        LOGGER.debug("The model endpoint %s failed again: %s", entry.data.get(CONF_BASE_URL), err.detail)
    if not isinstance(err, (CannotConnect, EndpointTimeout)):
        return
    ir.async_create_issue(
        hass,
        DOMAIN,
        _issue_id(entry),
        is_fixable=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key="endpoint_unreachable",
        translation_placeholders={"base_url": str(entry.data.get(CONF_BASE_URL)), "title": entry.title},
    )


@callback
def async_endpoint_reachable(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> None:
    """Log the endpoint's return once and clear the repair."""
    if entry.entry_id in hass.data.get(_UNAVAILABLE, set()):
        LOGGER.info("The model endpoint %s is available again", entry.data.get(CONF_BASE_URL))
    async_forget_endpoint(hass, entry)


@callback
def async_forget_endpoint(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> None:
    """Forget a removed entry's endpoint: no repair and no availability left behind."""
    hass.data.setdefault(_UNAVAILABLE, set()).discard(entry.entry_id)
    ir.async_delete_issue(hass, DOMAIN, _issue_id(entry))
