"""Local-only mode: no model endpoint, the local layers and dialogs still work."""

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed, get_system_health_info
from pytest_homeassistant_custom_component.components.diagnostics import get_diagnostics_for_config_entry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from bench.home import LoadedHome
from custom_components.layered_assist.const import CONF_BASE_URL, DOMAIN
from homeassistant import config_entries
from homeassistant.components import conversation
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import CONF_API_KEY
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import intent
from homeassistant.setup import async_setup_component

from .conftest import AGENT_ID


async def converse(hass: HomeAssistant, sentence: str, language: str) -> conversation.ConversationResult:
    """Send one sentence to our agent."""
    return await conversation.async_converse(
        hass, sentence, None, Context(), language=language, agent_id=AGENT_ID
    )


def speech(result: conversation.ConversationResult) -> str:
    """Return the plain speech of a result."""
    return result.response.speech["plain"]["speech"]


@pytest.fixture
async def local_entry(hass: HomeAssistant, home: LoadedHome) -> ConfigEntry:
    """Create a local-only entry through the config flow, leaving the URL empty."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": config_entries.SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_BASE_URL: "  "})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"] == {CONF_BASE_URL: None, CONF_API_KEY: None}
    return result["result"]


async def test_device_command_without_model(
    hass: HomeAssistant, home: LoadedHome, local_entry: ConfigEntry
) -> None:
    """A device sentence is recalled and executed with no endpoint at all."""
    assert local_entry.title == "Local only"
    assert local_entry.runtime_data.client is None
    result = await converse(hass, "主窝空调调到二十六度", "zh-Hans")
    assert hass.states.get("climate.master_ac").attributes["temperature"] == 26
    assert speech(result) == "主卧空调已设为26℃。"


async def test_question_and_later_request_without_model(
    hass: HomeAssistant, home: LoadedHome, local_entry: ConfigEntry, freezer: FrozenDateTimeFactory
) -> None:
    """A question is answered from the state and a request for later scheduled, with no endpoint."""
    freezer.move_to("2026-11-22T07:00:00+00:00")
    assert speech(await converse(hass, "客厅主灯开着吗", "zh-Hans")) == "客厅主灯开着，亮度50%。"
    assert speech(await converse(hass, "十分钟后关掉客厅主灯", "zh-Hans")) == "好的，10分钟后关掉客厅主灯。"
    assert hass.states.get("light.living_main").state == "on"
    freezer.tick(timedelta(minutes=11))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert [(c.service, c.data["entity_id"]) for c in home.calls] == [("turn_off", "light.living_main")]


@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [
        ("现在几点", "zh-Hans", "点"),
        ("what time is it", "en", "M"),
        ("三加四等于多少", "zh-Hans", "3 + 4 等于 7。"),
        ("what is 6 times 7", "en", "6 * 7 is 42."),
        ("月相是什么", "zh-Hans", "月相是"),
        ("记一下买牛奶", "zh-Hans", "已记下：买牛奶。"),
        ("明天早上七点叫我起床", "zh-Hans", "07:00的闹钟"),
    ],
)
async def test_local_tools_without_model(
    hass: HomeAssistant, local_entry: ConfigEntry, sentence: str, language: str, expected: str
) -> None:
    """Time, calculator, moon phase, memos and alarms answer through HA's matcher, no model."""
    result = await converse(hass, sentence, language)
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert expected in speech(result)
    assert "model" not in speech(result)


@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [
        ("tell me a joke", "en", "no model service configured"),
        ("给我讲个笑话", "zh-Hans", "没有配置模型服务"),
    ],
)
async def test_model_sentence_explains(
    hass: HomeAssistant, local_entry: ConfigEntry, sentence: str, language: str, expected: str
) -> None:
    """What needs a model gets a clear answer in the user's language, not an error."""
    result = await converse(hass, sentence, language)
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert expected in speech(result)


@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [
        ("客厅主灯调成彩虹效果", "zh-Hans", "没有执行：我在本地没听懂“彩虹效果”，也没有配置模型服务。"),
        ("把灯打开", "zh-Hans", "没有执行：我不确定是哪个设备，请说出设备的名称。"),
        ("如果下雨就把阳台浇水阀关上", "zh-Hans", "没有执行：带条件的请求需要模型服务，目前没有配置。"),
        ("刚才是谁关了客厅主灯", "zh-Hans", "没有模型服务，无法回答之前发生的事。"),
        (
            "turn on 厨房灯 gently",
            "en",
            'Nothing done: I couldn\'t understand "gently" locally, and no model service is configured.',
        ),
    ],
)
async def test_what_was_not_done_locally_is_said(
    hass: HomeAssistant,
    home: LoadedHome,
    local_entry: ConfigEntry,
    sentence: str,
    language: str,
    expected: str,
) -> None:
    """A device sentence the local layers did not carry out says why, and nothing is called."""
    assert speech(await converse(hass, sentence, language)) == expected
    assert home.calls == []


async def test_second_local_entry_aborts(hass: HomeAssistant, local_entry: ConfigEntry) -> None:
    """There is one local-only entry at most."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": config_entries.SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"


async def test_diagnostics_and_health(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, local_entry: ConfigEntry
) -> None:
    """Diagnostics and system health report the mode instead of failing."""
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, local_entry)
    assert diagnostics["endpoint"] is None
    assert diagnostics["catalog"]["entities"] > 0
    assert await async_setup_component(hass, "system_health", {})
    await hass.async_block_till_done()
    info = await get_system_health_info(hass, DOMAIN)
    assert info["endpoint_reachable"] == "local only"
