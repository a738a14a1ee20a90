"""The conversation agent entity: wires the layers together for each turn."""

from typing import Literal

from homeassistant.components import conversation
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import CONF_LLM_HASS_API, MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, intent
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .chat.errors import AuthenticationFailed, EndpointError
from .chat.loop import LoopOptions, ToolCallingLoop
from .const import CONF_MODEL, CONF_PROMPT, DOMAIN, LOGGER, SUBENTRY_CONVERSATION
from .localize import async_error_text
from .models import LayeredAssistConfigEntry

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: LayeredAssistConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add one agent per conversation subentry."""
    for subentry in entry.subentries.values():
        if subentry.subentry_type != SUBENTRY_CONVERSATION:
            continue
        async_add_entities(
            [LayeredAssistAgent(hass, entry, subentry)], config_subentry_id=subentry.subentry_id
        )


class LayeredAssistAgent(conversation.ConversationEntity, AbstractConversationAgent):
    """A Layered Assist conversation agent."""

    _attr_has_entity_name = True
    _attr_name = None
    _attr_supports_streaming = True

    def __init__(
        self, hass: HomeAssistant, entry: LayeredAssistConfigEntry, subentry: ConfigSubentry
    ) -> None:
        """Set up the agent from its subentry."""
        self.entry = entry
        self.subentry = subentry
        self._attr_unique_id = subentry.subentry_id
        self._attr_device_info = dr.DeviceInfo(
            identifiers={(DOMAIN, subentry.subentry_id)},
            name=subentry.title,
            manufacturer="Layered Assist",
            model=subentry.data.get(CONF_MODEL),
            entry_type=dr.DeviceEntryType.SERVICE,
        )
        if subentry.data.get(CONF_LLM_HASS_API):
            self._attr_supported_features = conversation.ConversationEntityFeature.CONTROL
        self._loop = ToolCallingLoop(
            hass,
            entry.runtime_data.client,
            LoopOptions.from_subentry(subentry.data),
            subentry.subentry_id,
        )

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Return every language: the model and our layers handle zh and en."""
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        """Register as an agent."""
        await super().async_added_to_hass()
        conversation.async_set_agent(self.hass, self.entry, self)

    async def async_will_remove_from_hass(self) -> None:
        """Unregister as an agent."""
        conversation.async_unset_agent(self.hass, self.entry)
        await super().async_will_remove_from_hass()

    async def _async_handle_message(
        self, user_input: conversation.ConversationInput, chat_log: conversation.ChatLog
    ) -> conversation.ConversationResult:
        """Answer one user message."""
        options = self.subentry.data
        try:
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context(DOMAIN),
                options.get(CONF_LLM_HASS_API),
                options.get(CONF_PROMPT),
                user_input.extra_system_prompt,
            )
        except conversation.ConverseError as err:
            return err.as_conversation_result()

        try:
            await self._loop.async_run(chat_log, self.entity_id, user_input.language)
        except EndpointError as err:
            return await self._async_error_result(user_input, chat_log, err)
        return conversation.async_get_result_from_chat_log(user_input, chat_log)

    async def _async_error_result(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
        err: EndpointError,
    ) -> conversation.ConversationResult:
        """Tell the user, in their language, what went wrong with the endpoint."""
        LOGGER.error("Request to %s failed: %s", self.entry.data.get("base_url"), err.detail)
        if isinstance(err, AuthenticationFailed):
            self.entry.async_start_reauth(self.hass)
        speech = await async_error_text(self.hass, user_input.language, err.key, err.translation_placeholders)
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_error(intent.IntentResponseErrorCode.UNKNOWN, speech)
        return conversation.ConversationResult(response=response, conversation_id=chat_log.conversation_id)
