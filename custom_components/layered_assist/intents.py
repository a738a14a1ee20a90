"""The ``LayeredAssistClimate`` intent, with sentences for HA's default agent."""

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import intent

from .compat import add_default_agent_sentences
from .dialogs.access import async_climate_utterance, conversation_key, loaded_hub
from .localize import async_text

INTENT_CLIMATE = "LayeredAssistClimate"
_SENTENCES = [
    "设置温湿度",
    "设定温湿度",
    "设置温湿度为{la_text}",
    "设置温度{la_text}",
    "设定温度{la_text}",
    "温湿度设置为{la_text}",
    "设置溫濕度",
    "設定溫濕度",
    "設定溫度{la_text}",
    "设置溫度{la_text}",
    "温度改成{la_text}",
    "湿度改成{la_text}",
    "溫度改成{la_text}",
    "濕度改成{la_text}",
    "确认温湿度[设置]",
    "確認溫濕度[設定]",
    "取消温湿度[设置]",
    "取消溫濕度[設定]",
    "set [the] temperature and humidity",
    "set [the] temperature and humidity to {la_text}",
    "set [the] temperature to {la_text}",
    "change [the] (temperature|humidity) to {la_text}",
    "confirm [the] temperature and humidity",
    "cancel [the] temperature and humidity",
]
SENTENCES = {
    "intents": {INTENT_CLIMATE: {"data": [{"sentences": _SENTENCES}]}},
    "lists": {"la_text": {"wildcard": True}},
}


class ClimateIntentHandler(intent.IntentHandler):
    """Drives the climate dialog from HA's default agent."""

    intent_type = INTENT_CLIMATE
    description = "Set temperature and humidity with confirmation"

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        """Advance the dialog with the whole sentence the user said."""
        hass = intent_obj.hass
        language = intent_obj.language
        response = intent_obj.create_response()
        hub = loaded_hub(hass)
        text = intent_obj.text_input or ""
        step = None
        if hub is not None:
            key = conversation_key(None, f"device:{intent_obj.device_id or 'none'}")
            # "确认温湿度" and "取消温湿度" carry the dialog words themselves.
            words = (
                text.replace("温湿度", "").replace("溫濕度", "").replace("设置", "").replace("設定", "")
                or text
            )
            step = await async_climate_utterance(hub, key, text, language)
            if step is None and words != text:
                step = await async_climate_utterance(hub, key, words, language)
        if step is None:
            response.async_set_speech(await async_text(hass, language, "replies", "dialog_no_dialog"))
            return response
        response.async_set_speech(step.reply.speech)
        if step.reply.result is not None:
            response.async_set_speech_slots(step.reply.result)
        return response


@callback
def async_setup_intents(hass: HomeAssistant) -> None:
    """Register the intent and its sentences."""
    intent.async_register(hass, ClimateIntentHandler())
    add_default_agent_sentences(hass, SENTENCES)
