"""The Layered Assist integration: a layered conversation agent for HA Assist."""

from homeassistant.const import CONF_API_KEY, Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryAuthFailed, ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv, llm
from homeassistant.helpers.typing import ConfigType
from homeassistant.util.hass_dict import HassKey

from .chat.client import EndpointClient
from .chat.errors import AuthenticationFailed, EndpointError
from .const import CONF_BASE_URL, DOMAIN, VALIDATION_TIMEOUT
from .intents import async_setup_intents
from .llm_api import LayeredAssistAPI
from .memos import MemoStore
from .models import LayeredAssistConfigEntry, LayeredAssistRuntimeData
from .selection.catalog import DeviceCatalog
from .services import async_setup_services
from .state import ConversationStateStore
from .tools import ToolRegistry

PLATFORMS = (Platform.CONVERSATION, Platform.TODO)
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)

DATA_TOOLS: HassKey[ToolRegistry] = HassKey(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register our tools as an LLM API, available to every agent."""
    registry = ToolRegistry()
    hass.data[DATA_TOOLS] = registry
    llm.async_register_api(hass, LayeredAssistAPI(hass, registry))
    async_setup_services(hass, registry)
    async_setup_intents(hass, registry)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> bool:
    """Connect to the endpoint and set up one agent per subentry."""
    client = EndpointClient(hass, entry.data[CONF_BASE_URL], entry.data.get(CONF_API_KEY))
    await client.async_prepare(hass)
    try:
        await client.async_list_models(VALIDATION_TIMEOUT)
    except AuthenticationFailed as err:
        raise ConfigEntryAuthFailed(err.detail) from err
    except EndpointError as err:
        raise ConfigEntryNotReady(err.detail) from err
    states = ConversationStateStore(hass)
    await states.async_load()
    catalog = DeviceCatalog(hass)
    catalog.async_start()
    entry.async_on_unload(catalog.async_stop)
    memos = MemoStore(hass)
    await memos.async_load()
    entry.runtime_data = LayeredAssistRuntimeData(client=client, catalog=catalog, states=states, memos=memos)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> bool:
    """Unload the agents and write the conversation state."""
    unloaded = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unloaded:
        await entry.runtime_data.states.async_flush()
        await entry.runtime_data.memos.async_flush()
    return unloaded
