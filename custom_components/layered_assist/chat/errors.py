"""Endpoint errors, each with a translation key for the message the user hears."""

from homeassistant.exceptions import HomeAssistantError

from ..const import DOMAIN


class EndpointError(HomeAssistantError):
    """The model endpoint failed; the message is translated."""

    key = "unknown_error"

    def __init__(self, detail: str = "", **placeholders: str) -> None:
        """Store the technical detail for logs and the user-facing placeholders."""
        self.detail = detail
        super().__init__(
            translation_domain=DOMAIN,
            translation_key=self.key,
            translation_placeholders=placeholders or None,
        )


class AuthenticationFailed(EndpointError):
    """The endpoint rejected the API key."""

    key = "auth_failed"


class ModelNotFound(EndpointError):
    """The endpoint does not know the model."""

    key = "model_not_found"


class RateLimited(EndpointError):
    """The endpoint asked us to slow down, for a number of seconds."""

    key = "rate_limited"


class Busy(EndpointError):
    """The endpoint asked us to slow down without saying for how long."""

    key = "busy"


class ServerError(EndpointError):
    """The endpoint answered with a 5xx status."""

    key = "server_error"


class EndpointTimeout(EndpointError):
    """The endpoint did not answer in time."""

    key = "timeout"


class CannotConnect(EndpointError):
    """The endpoint could not be reached."""

    key = "cannot_connect"


class BrokenStream(EndpointError):
    """The response stream ended early or carried data we cannot read."""

    key = "broken_stream"


class BadRequest(EndpointError):
    """The endpoint rejected the request."""

    key = "bad_request"


class ToolsUnsupported(BadRequest):
    """The model rejected the ``tools`` parameter."""
