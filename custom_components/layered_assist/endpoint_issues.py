"""Repair issues about the model endpoint being unreachable."""

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from .chat.errors import CannotConnect, EndpointError, EndpointTimeout
from .const import CONF_BASE_URL, DOMAIN
from .models import LayeredAssistConfigEntry


def _issue_id(entry: LayeredAssistConfigEntry) -> str:
    return f"endpoint_unreachable_{entry.entry_id}"


@callback
def async_report_endpoint_error(
    hass: HomeAssistant, entry: LayeredAssistConfigEntry, err: EndpointError
) -> None:
    """Raise the repair when the endpoint cannot be reached (not for its own refusals)."""
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
    """Clear the repair once the endpoint answered."""
    ir.async_delete_issue(hass, DOMAIN, _issue_id(entry))
