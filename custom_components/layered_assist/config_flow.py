"""Config flow: the endpoint as the entry, each conversation agent as a subentry."""

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlparse

import voluptuous as vol

from homeassistant.config_entries import (
    SOURCE_RECONFIGURE,
    ConfigEntry,
    ConfigEntryState,
    ConfigFlow,
    ConfigFlowResult,
    ConfigSubentryData,
    ConfigSubentryFlow,
    SubentryFlowResult,
)
from homeassistant.const import CONF_API_KEY, CONF_LLM_HASS_API, CONF_NAME
from homeassistant.core import HomeAssistant, callback
from homeassistant.data_entry_flow import section
from homeassistant.helpers import llm
from homeassistant.helpers.selector import (
    BooleanSelector,
    EntitySelector,
    EntitySelectorConfig,
    NumberSelector,
    NumberSelectorConfig,
    NumberSelectorMode,
    SelectOptionDict,
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
    TemplateSelector,
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)

from .chat.client import EndpointClient
from .chat.errors import (
    AuthenticationFailed,
    CannotConnect,
    EndpointError,
    EndpointTimeout,
    ModelNotFound,
    ServerError,
)
from .const import (
    CONF_ALARM_NOTIFY,
    CONF_ALARM_SATELLITES,
    CONF_BASE_URL,
    CONF_DIALOG_TIMEOUT,
    CONF_FAST_PATH,
    CONF_FILTER_API_KEY,
    CONF_FILTER_BASE_URL,
    CONF_FILTER_MODEL,
    CONF_LOCAL_ACTION,
    CONF_MAX_HUMIDITY,
    CONF_MAX_TEMPERATURE,
    CONF_MAX_TOKENS,
    CONF_MAX_TOOL_ROUNDS,
    CONF_MIN_HUMIDITY,
    CONF_MIN_TEMPERATURE,
    CONF_MODEL,
    CONF_NEWS_FEEDS,
    CONF_PERSONAS,
    CONF_PRESETS,
    CONF_PROMPT,
    CONF_RECOMMENDED,
    CONF_RISKY,
    CONF_STREAM,
    CONF_TEMPERATURE,
    CONF_TIMEOUT,
    CONF_TOP_K,
    CONF_WEATHER_ENTITY,
    DEFAULT_AGENT_NAME,
    DEFAULT_BASE_URL,
    DEFAULT_DIALOG_TIMEOUT,
    DEFAULT_FAST_PATH,
    DEFAULT_LOCAL_ACTION,
    DEFAULT_MAX_HUMIDITY,
    DEFAULT_MAX_TEMPERATURE,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MAX_TOOL_ROUNDS,
    DEFAULT_MIN_HUMIDITY,
    DEFAULT_MIN_TEMPERATURE,
    DEFAULT_MODEL,
    DEFAULT_PERSONAS,
    DEFAULT_PRESETS,
    DEFAULT_STREAM,
    DEFAULT_TEMPERATURE,
    DEFAULT_TIMEOUT,
    DEFAULT_TOP_K,
    DOMAIN,
    LLM_API_ID,
    LOGGER,
    MAX_TOOL_ROUNDS,
    MIN_TOOL_ROUNDS,
    SUBENTRY_CONVERSATION,
    VALIDATION_TIMEOUT,
)
from .entry_storage import PER_ENTRY_MINOR_VERSION
from .selection.capabilities import ALL_RISKS

LOCAL_ONLY_TITLE = "Local only"
# A new agent: our tools, and the recommended settings (each read with its default).
DEFAULT_AGENT_OPTIONS: dict[str, Any] = {CONF_LLM_HASS_API: [LLM_API_ID], CONF_RECOMMENDED: True}


def _error_code(err: EndpointError) -> str:
    """Return the form error for a failed validation."""
    if isinstance(err, AuthenticationFailed):
        return "invalid_auth"
    if isinstance(err, ModelNotFound):
        return "model_not_found"
    if isinstance(err, (CannotConnect, EndpointTimeout, ServerError)):
        return "cannot_connect"
    return "unknown"


def _url_parses(hass: HomeAssistant, url: str | None) -> bool:
    """Tell whether an optional endpoint URL is one the HTTP client can use."""
    if not url:
        return True
    try:
        EndpointClient(hass, url, None)
    except Exception:  # noqa: BLE001 - whatever the client raises, the URL is unusable
        return False
    return True


async def _async_validate_endpoint(
    flow: ConfigFlow, base_url: str, api_key: str | None
) -> tuple[list[str] | None, str | None]:
    """List the endpoint's models; return them (None when unlisted) or an error code."""
    try:
        # A URL the HTTP client cannot parse fails here already.
        client = EndpointClient(flow.hass, base_url, api_key)
        await client.async_prepare(flow.hass)
        return await client.async_list_models(VALIDATION_TIMEOUT), None
    except EndpointError as err:
        LOGGER.debug("Endpoint %s failed validation: %s", base_url, err.detail)
        return None, _error_code(err)
    except Exception:  # noqa: BLE001 - any failure must become a form error
        LOGGER.exception("Unexpected error validating %s", base_url)
        return None, "unknown"


def _first_agent(options: dict[str, Any]) -> ConfigSubentryData:
    """Return the subentry of the agent an entry starts with."""
    return {
        "subentry_type": SUBENTRY_CONVERSATION,
        "data": {**DEFAULT_AGENT_OPTIONS, **options},
        "title": DEFAULT_AGENT_NAME,
        "unique_id": None,
    }


def _endpoint_schema(defaults: Mapping[str, Any]) -> vol.Schema:
    """Return the form of the endpoint."""
    return vol.Schema(
        {
            vol.Optional(
                CONF_BASE_URL, description={"suggested_value": defaults.get(CONF_BASE_URL, DEFAULT_BASE_URL)}
            ): TextSelector(TextSelectorConfig(type=TextSelectorType.URL)),
            vol.Optional(CONF_API_KEY): TextSelector(TextSelectorConfig(type=TextSelectorType.PASSWORD)),
        }
    )


def _model_selector(models: list[str] | None) -> SelectSelector | TextSelector:
    """Return a dropdown of the endpoint's models that also takes free text."""
    if not models:
        return TextSelector()
    return SelectSelector(
        SelectSelectorConfig(options=models, custom_value=True, mode=SelectSelectorMode.DROPDOWN, sort=True)
    )


def _number(low: float, high: float, unit: str | None = None, cast: type = float) -> vol.All:
    """Return a number field in steps of one (``cast=int`` for a whole number)."""
    config = NumberSelectorConfig(min=low, max=high, step=1, mode=NumberSelectorMode.BOX)
    if unit is not None:
        config["unit_of_measurement"] = unit
    return vol.All(NumberSelector(config), vol.Coerce(cast))


def _title(base_url: str) -> str:
    """Return an entry title from the endpoint's host."""
    return urlparse(base_url).netloc or base_url


class LayeredAssistConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up an endpoint and its first agent."""

    VERSION = 1
    MINOR_VERSION = PER_ENTRY_MINOR_VERSION

    def __init__(self) -> None:
        """Start with no endpoint."""
        self._endpoint: dict[str, Any] = {}
        self._models: list[str] | None = None

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the endpoint and check that it answers."""
        errors: dict[str, str] = {}
        if user_input is not None and not (user_input.get(CONF_BASE_URL) or "").strip():
            # No endpoint: the local layers, dialogs and local tools work on their own.
            self._async_abort_entries_match({CONF_BASE_URL: None})
            return self.async_create_entry(
                title=LOCAL_ONLY_TITLE,
                data={CONF_BASE_URL: None, CONF_API_KEY: None},
                subentries=[_first_agent({})],
            )
        if user_input is not None:
            base_url = user_input[CONF_BASE_URL].rstrip("/")
            api_key = user_input.get(CONF_API_KEY) or None
            self._async_abort_entries_match({CONF_BASE_URL: base_url, CONF_API_KEY: api_key})
            models, error = await _async_validate_endpoint(self, base_url, api_key)
            if error:
                errors["base"] = error
            else:
                self._endpoint = {CONF_BASE_URL: base_url, CONF_API_KEY: api_key}
                self._models = models
                return await self.async_step_model()
        return self.async_show_form(
            step_id="user", data_schema=_endpoint_schema(user_input or {}), errors=errors
        )

    async def async_step_model(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Choose the model of the first agent."""
        errors: dict[str, str] = {}
        if user_input is not None:
            model = user_input[CONF_MODEL].strip()
            if self._models is None or model not in self._models:
                error = await self._async_probe(model)
                if error:
                    errors["base"] = error
            if not errors:
                return self.async_create_entry(
                    title=_title(self._endpoint[CONF_BASE_URL]),
                    data=self._endpoint,
                    subentries=[_first_agent({CONF_MODEL: model})],
                )
        default = self._models[0] if self._models else DEFAULT_MODEL
        if self._models and DEFAULT_MODEL in self._models:
            default = DEFAULT_MODEL
        return self.async_show_form(
            step_id="model",
            data_schema=vol.Schema(
                {vol.Required(CONF_MODEL, default=default): _model_selector(self._models)}
            ),
            errors=errors,
        )

    async def _async_probe(self, model: str) -> str | None:
        """Send a 1-token request; return an error code when it fails."""
        client = EndpointClient(self.hass, self._endpoint[CONF_BASE_URL], self._endpoint[CONF_API_KEY])
        try:
            await client.async_probe(model, VALIDATION_TIMEOUT)
        except EndpointError as err:
            LOGGER.debug("Model %s failed the probe: %s", model, err.detail)
            return _error_code(err)
        return None

    async def async_step_reauth(self, entry_data: Mapping[str, Any]) -> ConfigFlowResult:
        """Start reauthentication after the endpoint rejected the key."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for a new API key."""
        entry = self._get_reauth_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            api_key = user_input.get(CONF_API_KEY) or None
            _, error = await _async_validate_endpoint(self, entry.data[CONF_BASE_URL], api_key)
            if error:
                errors["base"] = error
            else:
                return self.async_update_reload_and_abort(entry, data_updates={CONF_API_KEY: api_key})
        return self.async_show_form(
            step_id="reauth_confirm",
            data_schema=vol.Schema(
                {vol.Optional(CONF_API_KEY): TextSelector(TextSelectorConfig(type=TextSelectorType.PASSWORD))}
            ),
            description_placeholders={"base_url": entry.data[CONF_BASE_URL]},
            errors=errors,
        )

    async def async_step_reconfigure(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Change the endpoint's URL or key."""
        entry = self._get_reconfigure_entry()
        errors: dict[str, str] = {}
        if user_input is not None and not (user_input.get(CONF_BASE_URL) or "").strip():
            return self.async_update_reload_and_abort(
                entry, title=LOCAL_ONLY_TITLE, data_updates={CONF_BASE_URL: None, CONF_API_KEY: None}
            )
        if user_input is not None:
            base_url = user_input[CONF_BASE_URL].rstrip("/")
            api_key = user_input.get(CONF_API_KEY) or None
            _, error = await _async_validate_endpoint(self, base_url, api_key)
            if error:
                errors["base"] = error
            else:
                return self.async_update_reload_and_abort(
                    entry,
                    title=_title(base_url),
                    data_updates={CONF_BASE_URL: base_url, CONF_API_KEY: api_key},
                )
        return self.async_show_form(
            step_id="reconfigure",
            data_schema=_endpoint_schema(user_input or entry.data),
            errors=errors,
        )

    @classmethod
    @callback
    def async_get_supported_subentry_types(
        cls, config_entry: ConfigEntry
    ) -> dict[str, type[ConfigSubentryFlow]]:
        """Offer conversation agents as subentries."""
        return {SUBENTRY_CONVERSATION: ConversationAgentFlow}


class ConversationAgentFlow(ConfigSubentryFlow):
    """Create or reconfigure a conversation agent.

    The first form asks what every agent needs (name, model, instructions, tools and the
    settings of our own tools) and whether to keep the recommended settings; only without
    them does a second form show the rest, in sections: the model, device control, dialogs.
    """

    def __init__(self) -> None:
        """Start with no options read yet."""
        self._options: dict[str, Any] = {}

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Create an agent."""
        if not self._options:
            self._options = dict(DEFAULT_AGENT_OPTIONS)
        return await self._async_step_agent(user_input)

    async def async_step_reconfigure(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Change an agent."""
        if not self._options:
            self._options = dict(self._get_reconfigure_subentry().data)
            # An agent made before the choice existed keeps the settings it has.
            self._options.setdefault(CONF_RECOMMENDED, False)
        return await self._async_step_agent(user_input)

    @property
    def _is_new(self) -> bool:
        return self.source != SOURCE_RECONFIGURE

    async def _async_step_agent(self, user_input: dict[str, Any] | None) -> SubentryFlowResult:
        """Show and handle the first form (step ``user`` or ``reconfigure``)."""
        entry = self._get_entry()
        if entry.state is not ConfigEntryState.LOADED:
            return self.async_abort(reason="entry_not_loaded")
        if user_input is not None:
            given = _flattened(user_input)
            if not given.get(CONF_LLM_HASS_API):
                given.pop(CONF_LLM_HASS_API, None)
            self._store(given, FIRST_KEYS)
            if not given[CONF_RECOMMENDED]:
                return await self.async_step_advanced()
            for key in ADVANCED_KEYS:
                # Recommended: the defaults, as they are in this release.
                self._options.pop(key, None)
            return self._async_finish()
        client = entry.runtime_data.client
        try:
            models = await client.async_list_models(VALIDATION_TIMEOUT) if client else None
        except EndpointError:
            models = None
        schema = self._agent_schema(models)
        return self.async_show_form(
            step_id="user" if self._is_new else "reconfigure",
            data_schema=self.add_suggested_values_to_schema(schema, _nested(self._options, FIRST_SECTIONS)),
        )

    async def async_step_advanced(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Show and handle the settings the recommended ones stand for, in sections."""
        errors: dict[str, str] = {}
        suggested = self._options
        if user_input is not None:
            given = _flattened(user_input)
            if _url_parses(self.hass, given.get(CONF_FILTER_BASE_URL)):
                self._store(given, ADVANCED_KEYS)
                return self._async_finish()
            # Caught here, not when the agent starts with a small model it cannot reach.
            errors["base"] = "invalid_url"
            suggested = {**self._options, **given}
        return self.async_show_form(
            step_id="advanced",
            data_schema=self.add_suggested_values_to_schema(
                _advanced_schema(), _nested(suggested, ADVANCED_SECTIONS)
            ),
            errors=errors,
        )

    def _store(self, given: dict[str, Any], form_keys: tuple[str, ...]) -> None:
        """Keep a form's input; a setting of the form left empty is removed, not kept as it was."""
        for key in form_keys:
            if key not in given:
                self._options.pop(key, None)
        self._options.update(given)

    @callback
    def _async_finish(self) -> SubentryFlowResult:
        """Create the agent, or save the one reconfigured (its entry reloads with it)."""
        if self._is_new:
            return self.async_create_entry(title=self._options.pop(CONF_NAME), data=self._options)
        return self.async_update_and_abort(
            self._get_entry(), self._get_reconfigure_subentry(), data=self._options
        )

    def _agent_schema(self, models: list[str] | None) -> vol.Schema:
        """Return the first form."""
        apis = [SelectOptionDict(value=api.id, label=api.name) for api in llm.async_get_apis(self.hass)]
        fields: dict[Any, Any] = {}
        if self._is_new:
            fields[vol.Required(CONF_NAME, default=DEFAULT_AGENT_NAME)] = TextSelector()
        fields.update(
            {
                vol.Required(
                    CONF_MODEL, default=self._options.get(CONF_MODEL, DEFAULT_MODEL)
                ): _model_selector(models),
                vol.Optional(CONF_PROMPT): TemplateSelector(),
                vol.Optional(CONF_LLM_HASS_API): SelectSelector(
                    SelectSelectorConfig(options=apis, multiple=True)
                ),
                vol.Required(SECTION_TOOLS): section(
                    vol.Schema(
                        {
                            vol.Optional(CONF_NEWS_FEEDS): TextSelector(TextSelectorConfig(multiline=True)),
                            vol.Optional(CONF_WEATHER_ENTITY): EntitySelector(
                                EntitySelectorConfig(domain="weather")
                            ),
                            vol.Optional(CONF_ALARM_NOTIFY): TextSelector(),
                            vol.Optional(CONF_ALARM_SATELLITES): EntitySelector(
                                EntitySelectorConfig(domain="assist_satellite", multiple=True)
                            ),
                            vol.Optional(CONF_PERSONAS, default=DEFAULT_PERSONAS): TextSelector(
                                TextSelectorConfig(multiline=True)
                            ),
                        }
                    ),
                    {"collapsed": True},
                ),
                vol.Required(CONF_RECOMMENDED, default=True): BooleanSelector(),
            }
        )
        return vol.Schema(fields)


def _advanced_schema() -> vol.Schema:
    """Return the second form: what the recommended settings stand for, in sections."""
    return vol.Schema(
        {
            vol.Required(SECTION_MODEL): section(
                vol.Schema(
                    {
                        vol.Required(CONF_TEMPERATURE, default=DEFAULT_TEMPERATURE): NumberSelector(
                            NumberSelectorConfig(min=0, max=2, step=0.05, mode=NumberSelectorMode.SLIDER)
                        ),
                        vol.Required(CONF_MAX_TOKENS, default=DEFAULT_MAX_TOKENS): _number(
                            16, 32768, cast=int
                        ),
                        vol.Required(CONF_MAX_TOOL_ROUNDS, default=DEFAULT_MAX_TOOL_ROUNDS): _number(
                            MIN_TOOL_ROUNDS, MAX_TOOL_ROUNDS, cast=int
                        ),
                        vol.Required(CONF_TIMEOUT, default=DEFAULT_TIMEOUT): _number(1, 600, "s", cast=int),
                        vol.Required(CONF_STREAM, default=DEFAULT_STREAM): BooleanSelector(),
                        vol.Optional(CONF_FILTER_MODEL): TextSelector(),
                        vol.Optional(CONF_FILTER_BASE_URL): TextSelector(
                            TextSelectorConfig(type=TextSelectorType.URL)
                        ),
                        vol.Optional(CONF_FILTER_API_KEY): TextSelector(
                            TextSelectorConfig(type=TextSelectorType.PASSWORD)
                        ),
                    }
                )
            ),
            vol.Required(SECTION_DEVICE_CONTROL): section(
                vol.Schema(
                    {
                        vol.Required(CONF_FAST_PATH, default=DEFAULT_FAST_PATH): BooleanSelector(),
                        vol.Required(CONF_LOCAL_ACTION, default=DEFAULT_LOCAL_ACTION): BooleanSelector(),
                        vol.Required(CONF_TOP_K, default=DEFAULT_TOP_K): _number(3, 50, cast=int),
                        vol.Optional(CONF_RISKY, default=list(ALL_RISKS)): SelectSelector(
                            SelectSelectorConfig(
                                options=list(ALL_RISKS), multiple=True, translation_key=CONF_RISKY
                            )
                        ),
                    }
                )
            ),
            vol.Required(SECTION_DIALOGS): section(
                vol.Schema(
                    {
                        vol.Required(CONF_DIALOG_TIMEOUT, default=DEFAULT_DIALOG_TIMEOUT): _number(
                            30, 3600, "s", cast=int
                        ),
                        vol.Required(CONF_MIN_TEMPERATURE, default=DEFAULT_MIN_TEMPERATURE): _number(
                            -50, 100
                        ),
                        vol.Required(CONF_MAX_TEMPERATURE, default=DEFAULT_MAX_TEMPERATURE): _number(
                            -50, 100
                        ),
                        vol.Required(CONF_MIN_HUMIDITY, default=DEFAULT_MIN_HUMIDITY): _number(0, 100),
                        vol.Required(CONF_MAX_HUMIDITY, default=DEFAULT_MAX_HUMIDITY): _number(0, 100),
                        vol.Optional(CONF_PRESETS, default=DEFAULT_PRESETS): TextSelector(),
                    }
                ),
                {"collapsed": True},
            ),
        }
    )


# The sections of each form and the settings in them (stored flat in the agent's data).
SECTION_TOOLS, SECTION_MODEL, SECTION_DEVICE_CONTROL, SECTION_DIALOGS = (
    "tools",
    "model_settings",
    "device_control",
    "dialogs",
)
FIRST_SECTIONS: dict[str, tuple[str, ...]] = {
    SECTION_TOOLS: (
        CONF_NEWS_FEEDS,
        CONF_WEATHER_ENTITY,
        CONF_ALARM_NOTIFY,
        CONF_ALARM_SATELLITES,
        CONF_PERSONAS,
    ),
}
ADVANCED_SECTIONS: dict[str, tuple[str, ...]] = {
    SECTION_MODEL: (
        CONF_TEMPERATURE,
        CONF_MAX_TOKENS,
        CONF_MAX_TOOL_ROUNDS,
        CONF_TIMEOUT,
        CONF_STREAM,
        CONF_FILTER_MODEL,
        CONF_FILTER_BASE_URL,
        CONF_FILTER_API_KEY,
    ),
    SECTION_DEVICE_CONTROL: (CONF_FAST_PATH, CONF_LOCAL_ACTION, CONF_TOP_K, CONF_RISKY),
    SECTION_DIALOGS: (
        CONF_DIALOG_TIMEOUT,
        CONF_MIN_TEMPERATURE,
        CONF_MAX_TEMPERATURE,
        CONF_MIN_HUMIDITY,
        CONF_MAX_HUMIDITY,
        CONF_PRESETS,
    ),
}
ADVANCED_KEYS = tuple(key for keys in ADVANCED_SECTIONS.values() for key in keys)
FIRST_KEYS = (CONF_PROMPT, CONF_LLM_HASS_API, *(key for keys in FIRST_SECTIONS.values() for key in keys))


def _flattened(user_input: Mapping[str, Any]) -> dict[str, Any]:
    """Return a form's input with its sections' settings lifted to the top."""
    flat: dict[str, Any] = {}
    for key, value in user_input.items():
        if key in FIRST_SECTIONS or key in ADVANCED_SECTIONS:
            flat.update(value)
        else:
            flat[key] = value
    return flat


def _nested(options: Mapping[str, Any], sections: Mapping[str, tuple[str, ...]]) -> dict[str, Any]:
    """Return stored settings as a form with these sections suggests them."""
    inside = {key for keys in sections.values() for key in keys}
    nested: dict[str, Any] = {key: value for key, value in options.items() if key not in inside}
    for name, keys in sections.items():
        nested[name] = {key: options[key] for key in keys if key in options}
    return nested
