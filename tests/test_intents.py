"""Our intents through HA's default agent when they cannot do what was asked."""

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import intent


async def converse(hass: HomeAssistant, sentence: str, language: str) -> intent.IntentResponse:
    """Say a sentence to HA's own agent and return its response."""
    result = await conversation.async_converse(hass, sentence, None, Context(), language=language)
    return result.response


def speech(response: intent.IntentResponse) -> str:
    """Return the plain speech of a response."""
    return str(response.speech["plain"]["speech"])


@pytest.mark.usefixtures("init_integration")
@pytest.mark.parametrize(
    ("sentence", "language", "answer"),
    [
        ("温度改成25度", "zh-Hans", "当前没有进行中的温湿度设置。"),
        (
            "change the humidity to 40 percent",
            "en",
            "There is no temperature and humidity setting in progress.",
        ),
    ],
)
async def test_a_change_with_no_dialog_says_there_is_none(
    hass: HomeAssistant, sentence: str, language: str, answer: str
) -> None:
    """Changing a value when no climate dialog is open says so, and sets nothing."""
    response = await converse(hass, sentence, language)
    assert response.response_type is intent.IntentResponseType.ACTION_DONE
    assert speech(response) == answer
    assert response.speech_slots == {}


@pytest.mark.usefixtures("init_integration")
@pytest.mark.parametrize(
    ("sentence", "language", "asks"),
    [
        ("取消温湿度设置", "zh-Hans", "请问温度要设置为多少度？"),
        ("cancel the temperature and humidity", "en", "What temperature would you like?"),
    ],
)
async def test_cancelling_with_no_dialog_opens_none(
    hass: HomeAssistant, sentence: str, language: str, asks: str
) -> None:
    """Cancelling when no climate dialog is open does not start one."""
    response = await converse(hass, sentence, language)
    assert speech(response) != asks


@pytest.mark.usefixtures("init_integration")
async def test_a_calculation_that_is_no_expression_fails(hass: HomeAssistant) -> None:
    """calculate with words that are no arithmetic is a failed intent, not an invented result."""
    response = await converse(hass, "calculate the meaning of life", "en")
    assert response.response_type is intent.IntentResponseType.ERROR
    assert response.error_code is intent.IntentResponseErrorCode.FAILED_TO_HANDLE
    assert " is " not in speech(response)


@pytest.mark.usefixtures("init_integration")
async def test_a_calculation_is_answered(hass: HomeAssistant) -> None:
    """A spoken calculation is answered with its result in the speech slots."""
    response = await converse(hass, "三加四等于多少", "zh-Hans")
    assert response.response_type is intent.IntentResponseType.ACTION_DONE
    assert speech(response) == "3 + 4 等于 7。"
    assert response.speech_slots == {"expression": "3 + 4", "result": "7"}


async def test_an_alarm_time_that_cannot_be_read_fails(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """An alarm at a time that is no time fails with the reason, and no alarm is set."""
    freezer.move_to("2026-11-22T07:00:00+00:00")
    response = await converse(hass, "set an alarm for whenever", "en")
    assert response.response_type is intent.IntentResponseType.ERROR
    assert response.error_code is intent.IntentResponseErrorCode.FAILED_TO_HANDLE
    assert speech(response)
    assert init_integration.runtime_data.alarms.alarms == []


async def test_alarms_asked_for_after_the_entry_is_unloaded(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """With the entry unloaded, asking for the alarms says that Layered Assist is not set up."""
    assert await hass.config_entries.async_unload(init_integration.entry_id)
    await hass.async_block_till_done()
    response = await converse(hass, "list my alarms", "en")
    assert response.response_type is intent.IntentResponseType.ERROR
    assert speech(response) == "Layered Assist is not set up yet."
