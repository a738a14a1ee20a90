"""The same climate dialog as a service, an intent of HA's default agent, and a model tool."""

import json

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.const import DOMAIN
from homeassistant.components import conversation
from homeassistant.const import Platform
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er

from ..conftest import AGENT_ID, async_setup_demo
from ..fake_openai import FakeOpenAI, call, text


async def test_service_returns_state_then_result(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """The service advances the dialog and returns the confirmed result in the exact shape."""
    step = await hass.services.async_call(
        DOMAIN,
        "climate_confirm",
        {"conversation_id": "panel", "temperature": "22度", "humidity": "60%"},
        blocking=True,
        return_response=True,
    )
    assert step["stage"] == "confirming"
    result = await hass.services.async_call(
        DOMAIN,
        "climate_confirm",
        {"conversation_id": "panel", "confirm": True},
        blocking=True,
        return_response=True,
    )
    assert result["result"] == {"temperature": "22℃", "humidity": "60%", "confirm": True}


@pytest.mark.parametrize(
    ("data", "key", "placeholder"),
    [
        ({"temperature": "very warm"}, "not_a_temperature", "very warm"),
        ({"humidity": "damp"}, "not_a_humidity", "damp"),
        ({"target": "climate.nowhere", "temperature": "22"}, "climate_target_unknown", "climate.nowhere"),
    ],
)
async def test_service_input_it_cannot_use(
    hass: HomeAssistant, init_integration: MockConfigEntry, data: dict, key: str, placeholder: str
) -> None:
    """Values or a target the dialog cannot use raise a translated validation error."""
    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(
            DOMAIN,
            "climate_confirm",
            {"conversation_id": "panel", **data},
            blocking=True,
            return_response=True,
        )
    assert err.value.translation_domain == DOMAIN
    assert err.value.translation_key == key
    assert placeholder in err.value.translation_placeholders.values()


async def test_intent_through_default_agent(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """HA's own agent drives the dialog through LayeredAssistClimate."""
    first = await conversation.async_converse(
        hass, "设置温度22度，湿度60%", None, Context(), language="zh-Hans"
    )
    assert first.response.speech["plain"]["speech"] == "您想设置温度为22℃，湿度为60%，请确认是否正确？"
    done = await conversation.async_converse(
        hass, "确认温湿度", first.conversation_id, Context(), language="zh-Hans"
    )
    assert done.response.speech["plain"]["speech"].startswith("已确认")


@pytest.mark.usefixtures("home")
async def test_model_tool(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Intermediate steps go back to the model; the confirmation answers directly."""
    fake_openai.add(
        call("climate_confirm", {"temperature": "22", "humidity": "60"}),
        text("要设置22度、60%吗？"),
        call("climate_confirm", {"confirm": True}),
    )
    first = await conversation.async_converse(
        hass, "帮我把家里弄舒服点", None, Context(), language="zh-Hans", agent_id=AGENT_ID
    )
    assert first.response.speech["plain"]["speech"] == "要设置22度、60%吗？"
    step = next(m for m in fake_openai.chat_requests[1]["messages"] if m["role"] == "tool")
    assert json.loads(step["content"])["stage"] == "confirming"
    done = await conversation.async_converse(
        hass, "嗯嗯就这么办吧谢谢", first.conversation_id, Context(), language="zh-Hans", agent_id=AGENT_ID
    )
    assert done.response.speech["plain"]["speech"].startswith("已确认")
    assert len(fake_openai.chat_requests) == 3


async def test_apply_to_real_demo_entities(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """On confirmation a real climate entity (with humidity control) and a real humidifier change."""
    await async_setup_demo(hass, Platform.CLIMATE, Platform.HUMIDIFIER)
    er.async_get(hass).async_update_entity("climate.hvac", name="客厅空调")
    await hass.async_block_till_done()

    async def step(conversation_id: str, **data: object) -> dict:
        return await hass.services.async_call(
            DOMAIN,
            "climate_confirm",
            {"conversation_id": conversation_id, **data},
            blocking=True,
            return_response=True,
        )

    # A climate that controls humidity takes both values.
    await step("a", temperature=23, humidity=55, target="客厅空调")
    await step("a", confirm=True)
    hvac = hass.states.get("climate.hvac")
    assert hvac.attributes["temperature"] == 23
    assert hvac.attributes["humidity"] == 55
    # A humidifier takes the humidity; with no climate in its room the answer says so.
    await step("b", temperature=21, humidity=45, target="humidifier.humidifier", language="zh-Hans")
    result = await step("b", confirm=True, language="zh-Hans")
    assert result["result"] == {"temperature": "21℃", "humidity": "45%", "confirm": True}
    assert hass.states.get("humidifier.humidifier").attributes["humidity"] == 45
    assert "温度无法设置" in result["speech"]
