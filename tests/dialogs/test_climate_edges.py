"""The climate dialog at its edges: all in one call, cancel, targets gone or partial, °F, presets."""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from custom_components.layered_assist.const import DOMAIN
from custom_components.layered_assist.dialogs.climate import (
    STAGE_COLLECTING,
    STAGE_CONFIRMING,
    ClimateDialogEngine,
    ClimateOptions,
)
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM

from ..fake_openai import FakeOpenAI
from .test_climate_dialog import Chat


@pytest.fixture
async def setup(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the home, then the integration."""
    return home


async def step(hass: HomeAssistant, conversation_id: str, **data: Any) -> dict[str, Any]:
    """Advance a conversation's climate dialog through the climate_confirm service."""
    response = await hass.services.async_call(
        DOMAIN,
        "climate_confirm",
        {"conversation_id": conversation_id, "language": "zh-Hans", **data},
        blocking=True,
        return_response=True,
    )
    assert response is not None
    return dict(response)


async def test_everything_in_one_call_applies_and_says_what_is_missing(
    hass: HomeAssistant, setup: LoadedHome
) -> None:
    """Values, target and confirm at once apply at once; a room with no humidifier is said so."""
    result = await step(hass, "panel", target="客厅空调", temperature=24, humidity=50, confirm=True)
    assert result["result"] == {"temperature": "24℃", "humidity": "50%", "confirm": True}
    assert result["speech"] == (
        "已将客厅空调设置为温度24℃，湿度50%。客厅空调无法设置湿度，同一房间也没有加湿器。"
    )
    assert [(c.domain, c.service, c.data["entity_id"]) for c in setup.calls] == [
        ("climate", "set_temperature", "climate.living_ac")
    ]
    assert hass.states.get("climate.living_ac").attributes["temperature"] == 24
    # The dialog is over: a bare confirmation starts nothing.
    assert (await step(hass, "panel", confirm=True))["stage"] == STAGE_COLLECTING


async def test_cancel_by_service_closes_the_dialog(hass: HomeAssistant, setup: LoadedHome) -> None:
    """cancel ends a dialog waiting for confirmation; nothing is applied afterwards."""
    assert (await step(hass, "panel", target="主卧空调", temperature=22, humidity=50))[
        "stage"
    ] == STAGE_CONFIRMING
    cancelled = await step(hass, "panel", cancel=True)
    assert cancelled == {"speech": "已取消温湿度设置。", "stage": "closed"}
    after = await step(hass, "panel", confirm=True)
    assert after["speech"] == "请问温度要设置为多少度？"
    assert setup.calls == []


async def test_a_call_with_nothing_new_repeats_the_question(hass: HomeAssistant, setup: LoadedHome) -> None:
    """At the confirmation, a call without values or confirm asks the same question again."""
    first = await step(hass, "panel", temperature=22, humidity=50)
    again = await step(hass, "panel")
    assert again["speech"] == first["speech"] == "您想设置温度为22℃，湿度为50%，请确认是否正确？"
    assert again["stage"] == STAGE_CONFIRMING
    assert setup.calls == []


async def test_humidity_outside_the_targets_range(hass: HomeAssistant, setup: LoadedHome) -> None:
    """A humidity the humidifier cannot reach is refused with its own range and asked again."""
    reply = await step(hass, "panel", target="humidifier.master_humidifier", temperature=22, humidity=95)
    assert reply["speech"] == "湿度需要在30%到80%之间。请问湿度要设置为多少？"
    assert reply["dialog"]["humidity"] is None
    assert reply["dialog"]["temperature"] == 22


async def test_a_target_gone_before_the_confirmation(hass: HomeAssistant, setup: LoadedHome) -> None:
    """A target removed mid-dialog raises a translated error naming it, and nothing is called."""
    await step(hass, "panel", target="儿童房空调", temperature=22, humidity=50)
    hass.states.async_remove("climate.kids_ac")
    with pytest.raises(HomeAssistantError) as err:
        await step(hass, "panel", confirm=True)
    assert err.value.translation_key == "climate_target_unavailable"
    assert err.value.translation_placeholders == {"target": "climate.kids_ac"}
    assert setup.calls == []


async def test_fahrenheit_ranges(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """In a °F home the allowed range is the options' range in °F, and a value in °F is taken."""
    hass.config.units = US_CUSTOMARY_SYSTEM
    reply = await step(hass, "panel", temperature="200°F", humidity=40, language="en")
    assert reply["speech"] == (
        "The temperature must be between 14℉ and 122℉. What temperature would you like?"
    )
    done = await step(hass, "panel", temperature="72°F", confirm=True, language="en")
    assert done["result"] == {"temperature": "72℉", "humidity": "40%", "confirm": True}


async def test_a_bare_number_in_a_fahrenheit_home_is_fahrenheit(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """temperature: 70 in a US-customary home means 70℉, as HA's own climate services read it."""
    hass.config.units = US_CUSTOMARY_SYSTEM
    reply = await step(hass, "panel", temperature=70, humidity=40, language="en")
    assert reply["speech"] == "You want the temperature at 70℉ and the humidity at 40%. Is that right?"


@pytest.mark.usefixtures("setup")
async def test_a_preset_named_mid_dialog_fills_both_values(
    hass: HomeAssistant, fake_openai: FakeOpenAI
) -> None:
    """睡眠模式 said while the dialog asks for a temperature takes the preset's values."""
    chat = Chat(hass, "zh-Hans")
    assert await chat.say("设置温湿度") == "请问温度要设置为多少度？"
    assert await chat.say("用睡眠模式") == "您想设置温度为26℃，湿度为55%，请确认是否正确？"
    assert fake_openai.chat_requests == []


@pytest.mark.usefixtures("setup")
async def test_a_yes_while_collecting_asks_again(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """好的 before any value is no value: the dialog asks for the temperature again."""
    chat = Chat(hass, "zh-Hans")
    await chat.say("设置温湿度")
    assert await chat.say("好的") == "请问温度要设置为多少度？"
    assert await chat.say("22度") == "请问湿度要设置为多少？"
    assert fake_openai.chat_requests == []


async def test_without_a_catalog_there_is_no_target(hass: HomeAssistant, home: LoadedHome) -> None:
    """With no device catalog a named device is no target, and a preset word still opens the dialog."""
    engine = ClimateDialogEngine(hass, None, ClimateOptions(presets={"睡眠模式": (26.0, 55.0)}))
    said = engine.recall_of("把主卧空调设成22度，湿度50%")
    reply = await engine.async_utterance(None, said, "zh-Hans", Context())
    assert reply is not None
    assert reply.dialog is not None
    assert reply.dialog.target is None
    assert reply.speech == "您想设置温度为22℃，湿度为50%，请确认是否正确？"
    assert engine.find_target("主卧空调") is None
    preset = await engine.async_utterance(None, engine.recall_of("睡眠模式"), "zh-Hans", Context())
    assert preset is not None
    assert preset.speech == "您想设置温度为26℃，湿度为55%，请确认是否正确？"
