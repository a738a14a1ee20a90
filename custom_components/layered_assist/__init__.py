"""The Layered Assist integration: a layered conversation agent for HA Assist."""

from functools import partial

from homeassistant.const import CONF_API_KEY, Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryAuthFailed, ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv

# Not `helpers.llm` as a name: the package's own llm.py platform would shadow it.
from homeassistant.helpers.llm import async_register_api
from homeassistant.helpers.typing import ConfigType
from homeassistant.util.hass_dict import HassKey

from .alarms import STORAGE_KIND as ALARMS, AlarmManager, Announcers
from .chat.client import EndpointClient
from .chat.errors import AuthenticationFailed, EndpointError
from .compat import ENTRY_SETUP_DONE
from .const import (
    CONF_ALARM_NOTIFY,
    CONF_ALARM_SATELLITES,
    CONF_BASE_URL,
    DOMAIN,
    SUBENTRY_CONVERSATION,
    VALIDATION_TIMEOUT,
)
from .dialogs.hub import DialogHub
from .endpoint_issues import async_endpoint_reachable, async_forget_endpoint, async_report_endpoint_error
from .entry_storage import (
    PER_ENTRY_MINOR_VERSION,
    async_adopt_legacy_stores,
    async_remove_entry_stores,
    entry_store_key,
)
from .intents import async_setup_intents
from .language.lexicon import load_all
from .llm_api import LayeredAssistAPI
from .memos import STORAGE_KIND as MEMOS, MemoStore
from .models import AgentRuntime, LayeredAssistConfigEntry, LayeredAssistRuntimeData
from .selection.catalog import DeviceCatalog
from .selection.later import async_run_scheduled
from .services import async_setup_services
from .state import STORAGE_KIND as CONVERSATIONS, ConversationStateStore
from .tools import ToolRegistry

PLATFORMS = (Platform.CONVERSATION, Platform.SENSOR, Platform.TODO)
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)

DATA_TOOLS: HassKey[ToolRegistry] = HassKey(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register our tools as an LLM API, available to every agent."""
    registry = ToolRegistry()
    hass.data[DATA_TOOLS] = registry
    async_register_api(hass, LayeredAssistAPI(hass, registry))
    async_setup_services(hass, registry)
    async_setup_intents(hass, registry)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> bool:
    """Connect to the endpoint and set up one agent per subentry."""
    client = None
    if base_url := entry.data.get(CONF_BASE_URL):
        client = EndpointClient(hass, base_url, entry.data.get(CONF_API_KEY))
        await client.async_prepare(hass)
        try:
            await client.async_list_models(VALIDATION_TIMEOUT)
        except AuthenticationFailed as err:
            raise ConfigEntryAuthFailed(
                translation_domain=DOMAIN,
                translation_key=err.key,
                translation_placeholders=err.translation_placeholders,
            ) from err
        except EndpointError as err:
            async_report_endpoint_error(hass, entry, err)
            raise ConfigEntryNotReady(
                translation_domain=DOMAIN,
                translation_key=err.key,
                translation_placeholders=err.translation_placeholders,
            ) from err
        async_endpoint_reachable(hass, entry)
    states = ConversationStateStore(hass, entry_store_key(CONVERSATIONS, entry.entry_id))
    await states.async_load()
    # The language data is read from files once, away from the event loop.
    await hass.async_add_executor_job(load_all)
    catalog = DeviceCatalog(hass)
    catalog.async_start()
    entry.async_on_unload(catalog.async_stop)
    memos = MemoStore(hass, entry_store_key(MEMOS, entry.entry_id))
    await memos.async_load()
    alarms = AlarmManager(hass, entry_store_key(ALARMS, entry.entry_id), partial(_announcers, entry))
    alarms.command_runner = partial(async_run_scheduled, hass)
    agents = {
        subentry.subentry_id: AgentRuntime.from_subentry(
            subentry, DialogHub(hass, catalog, states, subentry.data)
        )
        for subentry in entry.subentries.values()
        if subentry.subentry_type == SUBENTRY_CONVERSATION
    }
    entry.runtime_data = LayeredAssistRuntimeData(
        client=client, catalog=catalog, states=states, memos=memos, alarms=alarms, agents=agents
    )
    # Late alarms fire at start, with their agent's announcers: after runtime_data is set.
    await alarms.async_start()
    entry.async_on_unload(alarms.async_stop)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    # Agents added, changed or removed: set the entry up again with them.
    entry.async_on_unload(entry.add_update_listener(_async_reload))
    return ENTRY_SETUP_DONE  # type: ignore[no-any-return]


async def async_unload_entry(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> bool:
    """Unload the agents and write the conversation state."""
    unloaded = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unloaded:
        await entry.runtime_data.states.async_flush()
        await entry.runtime_data.memos.async_flush()
        await entry.runtime_data.alarms.async_flush()
    return unloaded


async def _async_reload(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> None:
    await hass.config_entries.async_reload(entry.entry_id)


async def async_remove_entry(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> None:
    """Delete the removed entry's conversations, memos and alarms, and its repair."""
    async_forget_endpoint(hass, entry)
    await async_remove_entry_stores(hass, entry.entry_id)


async def async_migrate_entry(hass: HomeAssistant, entry: LayeredAssistConfigEntry) -> bool:
    """Move data of the shared stores of 1.1 to the entry's own (1.2)."""
    if entry.version > 1:
        return False
    if entry.minor_version < PER_ENTRY_MINOR_VERSION:
        await async_adopt_legacy_stores(hass, entry.entry_id)
        hass.config_entries.async_update_entry(entry, minor_version=PER_ENTRY_MINOR_VERSION)
    return True


def _announcers(entry: LayeredAssistConfigEntry, agent: str | None) -> Announcers:
    """Return where the agent that set an alarm announces it (the entry's only agent if unknown)."""
    agents = entry.runtime_data.agents
    runtime = agents.get(agent) if agent else None
    if runtime is None and len(agents) == 1:
        runtime = next(iter(agents.values()))
    if runtime is None:
        return Announcers()
    options = runtime.options
    return Announcers(options.get(CONF_ALARM_NOTIFY) or None, tuple(options.get(CONF_ALARM_SATELLITES) or ()))
