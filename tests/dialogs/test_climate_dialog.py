"""The climate dialog through the agent: four scenarios, ranges, expiry, restart, no model."""

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant

from ..conftest import AGENT_ID
from ..fake_openai import FakeOpenAI, text


@pytest.fixture
async def setup(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the home, then the integration."""
    return home


class Chat:
    """One conversation with the agent."""

    def __init__(self, hass: HomeAssistant, language: str) -> None:
        self.hass = hass
        self.language = language
        self.conversation_id: str | None = None

    async def say(self, sentence: str) -> str:
        result = await conversation.async_converse(
            self.hass, sentence, self.conversation_id, Context(), language=self.language, agent_id=AGENT_ID
        )
        self.conversation_id = result.conversation_id
        return result.response.speech["plain"]["speech"]


@pytest.mark.usefixtures("setup")
async def test_all_at_once_zh(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """设置温度22度，湿度60% → summary question → 确认 → done; no model request."""
    chat = Chat(hass, "zh-Hans")
    assert await chat.say("设置温度22度，湿度60%") == "您想设置温度为22℃，湿度为60%，请确认是否正确？"
    assert (await chat.say("确认")).startswith("已确认：温度22℃，湿度60%")
    assert fake_openai.chat_requests == []


@pytest.mark.usefixtures("setup")
async def test_step_by_step_en(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Set temperature and humidity → asks one value at a time, then confirms."""
    chat = Chat(hass, "en")
    assert (await chat.say("set the temperature and humidity")).endswith("?")
    assert "humidity" in await chat.say("twenty two degrees")
    reply = await chat.say("60")
    assert reply == "You want the temperature at 22℃ and the humidity at 60%. Is that right?"
    assert (await chat.say("yes")).startswith("Confirmed")
    assert fake_openai.chat_requests == []


@pytest.mark.usefixtures("setup")
async def test_step_by_step_zh_and_modify(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """设置温湿度 → 22度 → 百分之六十 → 温度改成25度 → updated summary → 好的."""
    chat = Chat(hass, "zh-Hans")
    assert await chat.say("设置温湿度") == "请问温度要设置为多少度？"
    assert await chat.say("二十二度") == "请问湿度要设置为多少？"
    assert "22℃" in await chat.say("百分之六十")
    assert await chat.say("温度改成25度") == "您想设置温度为25℃，湿度为60%，请确认是否正确？"
    assert "25℃" in await chat.say("好的")
    assert fake_openai.chat_requests == []


@pytest.mark.usefixtures("setup")
@pytest.mark.parametrize(
    ("language", "opening", "cancel", "cancelled"),
    [
        ("zh-Hans", "设置温湿度", "算了", "已取消温湿度设置。"),
        ("en", "set the temperature and humidity", "cancel", "Temperature and humidity setting cancelled."),
    ],
)
async def test_cancel_at_any_stage(
    hass: HomeAssistant, fake_openai: FakeOpenAI, language: str, opening: str, cancel: str, cancelled: str
) -> None:
    """Cancelling clears the dialog; a later value is not taken as part of it."""
    chat = Chat(hass, language)
    await chat.say(opening)
    assert await chat.say(cancel) == cancelled
    fake_openai.add(text("?"))
    await chat.say("22")
    assert len(fake_openai.chat_requests) == 1


@pytest.mark.usefixtures("setup")
async def test_refuse_returns_to_collecting(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """不对 at the confirmation returns to collecting."""
    chat = Chat(hass, "zh-Hans")
    await chat.say("设置温度22度，湿度60%")
    assert (await chat.say("不对")).endswith("？")
    assert "26℃" in await chat.say("26度")


@pytest.mark.usefixtures("setup")
async def test_out_of_range_and_target_limits(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Values outside the options' or the target's range are refused with the range and stay unset."""
    chat = Chat(hass, "zh-Hans")
    reply = await chat.say("设置温度60度，湿度50%")
    assert "-10℃到50℃" in reply
    assert reply.endswith("请问温度要设置为多少度？")

    target = Chat(hass, "zh-Hans")
    reply = await target.say("把主卧空调温度设成35度，湿度设成50%")
    assert "16℃到30℃" in reply
    assert "28℃" in await target.say("28度")
    reply = await target.say("确认")
    assert reply.startswith("已将主卧空调设置为温度28℃，湿度50%")
    assert hass.states.get("climate.master_ac").attributes["temperature"] == 28
    # The climate has no humidity control; the humidifier in its room gets it.
    assert hass.states.get("humidifier.master_humidifier").attributes["humidity"] == 50
    assert fake_openai.chat_requests == []


@pytest.mark.usefixtures("setup")
async def test_unrelated_request_keeps_dialog(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """A device command in the middle is handled normally; the dialog stays open."""
    chat = Chat(hass, "zh-Hans")
    await chat.say("设置温湿度")
    assert "客厅主灯" in await chat.say("关掉客厅主灯")
    assert hass.states.get("light.living_main").state == "off"
    assert await chat.say("22度") == "请问湿度要设置为多少？"


@pytest.mark.usefixtures("setup")
async def test_expiry(hass: HomeAssistant, fake_openai: FakeOpenAI, freezer: FrozenDateTimeFactory) -> None:
    """After the timeout the dialog is gone."""
    chat = Chat(hass, "zh-Hans")
    await chat.say("设置温湿度")
    freezer.tick(timedelta(seconds=301))
    fake_openai.add(text("什么22度？"))
    assert await chat.say("22度") == "什么22度？"


async def test_restart_mid_dialog(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """The dialog is stored; after a reload (as after a restart) it goes on."""
    chat = Chat(hass, "zh-Hans")
    await chat.say("设置温度22度，湿度60%")
    assert await hass.config_entries.async_reload(init_integration.entry_id)
    await hass.async_block_till_done()
    assert (await chat.say("确认")).startswith("已确认")
    assert fake_openai.chat_requests == []


@pytest.mark.usefixtures("setup")
async def test_all_at_once_and_modify_en(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """English: both values at once, a correction, then confirmation."""
    chat = Chat(hass, "en")
    reply = await chat.say("set the temperature to 72 fahrenheit and humidity to 55%")
    assert reply == "You want the temperature at 22.2℃ and the humidity at 55%. Is that right?"
    assert "25℃" in await chat.say("change the temperature to 25 degrees")
    assert (await chat.say("ok")).startswith("Confirmed: temperature 25℃, humidity 55%")
    assert fake_openai.chat_requests == []


@pytest.mark.usefixtures("setup")
@pytest.mark.parametrize(
    ("language", "sentence", "expected"),
    [
        ("zh-Hans", "切换到睡眠模式", "您想设置温度为26℃，湿度为55%，请确认是否正确？"),
        ("en", "use the comfort preset", "22℃ and the humidity at 50%"),
    ],
)
async def test_presets(
    hass: HomeAssistant, fake_openai: FakeOpenAI, language: str, sentence: str, expected: str
) -> None:
    """A preset from the options fills both values."""
    chat = Chat(hass, language)
    assert expected in await chat.say(sentence)
    assert fake_openai.chat_requests == []
