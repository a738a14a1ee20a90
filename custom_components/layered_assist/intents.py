"""Our intents (climate dialog, calculator, tools), with sentences for HA's default agent."""

import voluptuous as vol

from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import config_validation as cv, intent

from .compat import add_default_agent_sentences
from .dialogs.access import async_climate_utterance, conversation_key
from .llm_api import RegistryTool, local_llm_context
from .localize import async_error_text, async_reply
from .owners import Owner, OwnerHint, resolve_owner
from .tools import ToolRegistry
from .tools.base import ADDS, CONTROLS, LOOKUP
from .tools.calculator import CalculationError, calculate_spoken

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
INTENT_MOON = "LayeredAssistMoonPhase"
_MOON_SENTENCES = [
    "[{la_date}]月相[是什么|怎么样|如何]",
    "[{la_date}]的月相[是什么|怎么样|如何]",
    "[{la_date}]是什么月相",
    "[{la_date}]月亮是什么样[的|子]",
    "what is the moon phase [{la_date}]",
    "what's the moon phase [{la_date}]",
    "moon phase [{la_date}]",
]
INTENT_ADD_MEMO = "LayeredAssistAddMemo"
INTENT_LIST_MEMOS = "LayeredAssistListMemos"
_ADD_MEMO_SENTENCES = [
    "[帮我]记一下{la_text}",
    "[帮我]记住{la_text}",
    "备忘[一下]{la_text}",
    "添加备忘{la_text}",
    "[幫我]記一下{la_text}",
    "remember to {la_text}",
    "make a note [to|that] {la_text}",
    "add {la_text} to my memos",
]
_LIST_MEMOS_SENTENCES = [
    "[我的]备忘[录][里][有什么|有哪些]",
    "查看[我的]备忘[录]",
    "[我的]備忘[錄][有什麼|有哪些]",
    "what are my memos",
    "list my memos",
    "read my memos",
]
INTENT_SET_ALARM = "LayeredAssistSetAlarm"
INTENT_LIST_ALARMS = "LayeredAssistListAlarms"
_SET_ALARM_SENTENCES = [
    "[帮我][设|定]一?个{la_time}的闹钟",
    "{la_time}叫我[起床]",
    "{la_time}提醒我{la_text}",
    "[幫我][設|定]一?個{la_time}的鬧鐘",
    "set an alarm (for|at) {la_time}",
    "wake me up (at|in) {la_time}",
    "remind me (at|in) {la_time} to {la_text}",
]
_LIST_ALARMS_SENTENCES = [
    "[我][设了|有]哪些闹钟",
    "[我的]闹钟[有哪些|有什么]",
    "查看闹钟",
    "[我的]鬧鐘[有哪些|有什麼]",
    "what alarms do I have",
    "list my alarms",
]
INTENT_WEATHER = "LayeredAssistWeather"
_WEATHER_SENTENCES = [
    "[今天|明天|现在|外面]天气[怎么样|如何|好吗]",
    "[今天|明天]会下雨吗",
    "天气预报",
    "[今天|明天|現在|外面]天氣[怎麼樣|如何]",
    "天氣預報",
    "what's the weather [like] tomorrow",
    "weather forecast",
]
INTENT_CALCULATE = "LayeredAssistCalculate"
_CALCULATE_SENTENCES = [
    "{la_expr}(等于|等於|是)(多少|几|幾)",
    "(计算|計算|算一下){la_expr}",
    "calculate {la_expr}",
    "how much is {la_expr}",
    "what is {la_expr} (plus|minus|times|multiplied by|divided by|over) {la_text}",
]
# How each intent behaves, for HA's Assist API (see llm.py).
INTENT_TRAITS = {
    INTENT_CALCULATE: LOOKUP,
    INTENT_WEATHER: LOOKUP,
    INTENT_MOON: LOOKUP,
    INTENT_LIST_ALARMS: LOOKUP,
    INTENT_LIST_MEMOS: LOOKUP,
    INTENT_SET_ALARM: ADDS,
    INTENT_ADD_MEMO: ADDS,
    INTENT_CLIMATE: CONTROLS,
}
# Each data block declares its wildcard lists (local lists work on every release).
_WILDCARDS = {name: {"wildcard": True} for name in ("la_expr", "la_text", "la_date", "la_time")}
SENTENCES = {
    intent_type: {"data": [{"sentences": sentences, "lists": _WILDCARDS}]}
    for intent_type, sentences in (
        (INTENT_CALCULATE, _CALCULATE_SENTENCES),
        (INTENT_WEATHER, _WEATHER_SENTENCES),
        (INTENT_SET_ALARM, _SET_ALARM_SENTENCES),
        (INTENT_LIST_ALARMS, _LIST_ALARMS_SENTENCES),
        (INTENT_ADD_MEMO, _ADD_MEMO_SENTENCES),
        (INTENT_LIST_MEMOS, _LIST_MEMOS_SENTENCES),
        (INTENT_CLIMATE, _SENTENCES),
        (INTENT_MOON, _MOON_SENTENCES),
    )
}


async def _async_owner(
    intent_obj: intent.Intent, response: intent.IntentResponse, *, need_agent: bool
) -> Owner | None:
    """Return the owner of the agent that heard the intent; else say why there is none."""
    hint = OwnerHint(agent_id=getattr(intent_obj, "conversation_agent_id", None))
    try:
        return resolve_owner(intent_obj.hass, hint, need_agent=need_agent)
    except ServiceValidationError as err:
        speech = await async_error_text(
            intent_obj.hass, intent_obj.language, err.translation_key or "", err.translation_placeholders
        )
        response.async_set_error(intent.IntentResponseErrorCode.FAILED_TO_HANDLE, speech)
        return None


class ClimateIntentHandler(intent.IntentHandler):
    """Drives the climate dialog from HA's default agent."""

    intent_type = INTENT_CLIMATE
    description = "Set temperature and humidity with confirmation"

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        """Advance the dialog with the whole sentence the user said."""
        hass = intent_obj.hass
        language = intent_obj.language
        response = intent_obj.create_response()
        if (owner := await _async_owner(intent_obj, response, need_agent=True)) is None:
            return response
        hub = owner.required_agent.dialogs
        text = intent_obj.text_input or ""
        key = conversation_key(None, f"device:{intent_obj.device_id or 'none'}")
        # "确认温湿度" and "取消温湿度" carry the dialog words themselves.
        words = (
            text.replace("温湿度", "").replace("溫濕度", "").replace("设置", "").replace("設定", "") or text
        )
        step = await async_climate_utterance(hub, key, text, language, intent_obj.context)
        if step is None and words != text:
            step = await async_climate_utterance(hub, key, words, language, intent_obj.context)
        if step is None:
            response.async_set_speech(await async_reply(hass, language, "dialog_no_dialog"))
            return response
        response.async_set_speech(step.reply.speech)
        if step.reply.result is not None:
            response.async_set_speech_slots(step.reply.result)
        return response


class CalculateIntentHandler(intent.IntentHandler):
    """Evaluates a spoken calculation (三加四等于多少) without a model."""

    intent_type = INTENT_CALCULATE
    description = "Evaluate an arithmetic expression, e.g. 3+4*2 or 三加四"
    # HA's Assist API offers intents to models as tools: they pass the expression here.
    slot_schema = {vol.Optional("la_expr"): cv.string}  # noqa: RUF012  (HA declares it per class)

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        """Answer with the result, or fail so that a model can try."""
        response = intent_obj.create_response()
        # A matched sentence is read whole (operators may sit outside the wildcard).
        texts = [intent_obj.text_input, intent_obj.slots.get("la_expr", {}).get("value")]
        error: CalculationError | None = None
        for text in filter(None, texts):
            try:
                expression, result = calculate_spoken(str(text))
                break
            except CalculationError as err:
                error = err
        else:
            response.async_set_error(
                intent.IntentResponseErrorCode.FAILED_TO_HANDLE, str(error or "no expression")
            )
            return response
        placeholders = {"expression": expression, "result": str(result)}
        response.async_set_speech(
            await async_reply(intent_obj.hass, intent_obj.language, "calculated", placeholders)
        )
        response.async_set_speech_slots(placeholders)
        return response


class ToolIntentHandler(intent.IntentHandler):
    """Runs one of our tools for an intent and speaks its ``speech``."""

    def __init__(self, intent_type: str, registry: ToolRegistry, tool: str, slots: dict[str, str]) -> None:
        """Map the intent's slots onto the tool's arguments."""
        self.intent_type = intent_type
        self.registry = registry
        self.tool = tool
        self.slot_args = slots

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        """Call the tool and answer with its speech."""
        spec = self.registry.get(self.tool)
        assert spec is not None
        args = {
            arg: str(intent_obj.slots[slot]["value"]).strip()
            for slot, arg in self.slot_args.items()
            if slot in intent_obj.slots and str(intent_obj.slots[slot]["value"]).strip()
        }
        response = intent_obj.create_response()
        hint = OwnerHint()
        if spec.owned_by is not None:
            if (
                owner := await _async_owner(intent_obj, response, need_agent=spec.owned_by == "agent")
            ) is None:
                return response
            hint = owner.hint()
        context = local_llm_context(intent_obj.context, intent_obj.language, intent_obj.device_id)
        result = await RegistryTool(spec, hint).async_run(intent_obj.hass, args, context)
        speech = result.get("speech")
        if isinstance(speech, str):
            response.async_set_speech(speech)
        else:
            response.async_set_error(
                intent.IntentResponseErrorCode.FAILED_TO_HANDLE, str(result.get("error_text", ""))
            )
        return response


@callback
def async_setup_intents(hass: HomeAssistant, registry: ToolRegistry) -> None:
    """Register the intents and their sentences."""
    intent.async_register(hass, ClimateIntentHandler())
    intent.async_register(hass, CalculateIntentHandler())
    for intent_type, tool, slots in (
        (INTENT_MOON, "get_moon_phase", {"la_date": "date"}),
        (INTENT_ADD_MEMO, "add_memo", {"la_text": "text"}),
        (INTENT_LIST_MEMOS, "list_memos", {}),
        (INTENT_SET_ALARM, "set_alarm", {"la_time": "time", "la_text": "message"}),
        (INTENT_LIST_ALARMS, "list_alarms", {}),
        (INTENT_WEATHER, "get_weather", {}),
    ):
        intent.async_register(hass, ToolIntentHandler(intent_type, registry, tool, slots))
    add_default_agent_sentences(hass, SENTENCES)
