"""What differs between the supported releases, checked on whichever one runs the tests."""

import logging

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.compat import device_brand
from custom_components.layered_assist.const import DOMAIN, LLM_API_ID
from custom_components.layered_assist.intents import INTENT_CALCULATE, INTENT_TRAITS
from custom_components.layered_assist.tools import BUILTIN_TOOLS
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import device_registry as dr, llm

from .conftest import AGENT_ID
from .fake_openai import FakeOpenAI, call, text
from .llm_tools import call_tool, llm_context, result_data

# How HA reports a deprecated use by a custom integration (helpers/frame.py).
DEPRECATION_MARKS = ("custom integration 'layered_assist'", "custom_components/layered_assist")


def traits_of(tool: llm.Tool) -> tuple[bool, bool, bool, bool]:
    """Return a tool's annotations as a tuple."""
    annotations = tool.annotations  # type: ignore[attr-defined]
    return annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world


async def test_tools_carry_integration_and_annotations(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Every tool names our integration; where HA has annotations they are the tool's traits."""
    api = await llm.async_get_api(hass, LLM_API_ID, llm_context())
    specs = {spec.name: spec for spec in BUILTIN_TOOLS}
    assert {tool.name for tool in api.tools} >= set(specs) | {"control_devices"}
    for tool in api.tools:
        assert getattr(tool, "integration", None) == DOMAIN
        if hasattr(llm, "ToolAnnotations"):
            expected = specs[tool.name].traits if tool.name in specs else None
            if expected is not None:
                assert traits_of(tool) == (
                    expected.read_only,
                    expected.destructive,
                    expected.idempotent,
                    expected.open_world,
                )
    if hasattr(llm, "ToolAnnotations"):
        by_name = {tool.name: tool for tool in api.tools}
        assert traits_of(by_name["get_datetime"])[0] is True
        assert traits_of(by_name["control_devices"])[1] is True
        assert traits_of(by_name["search_wikipedia"])[3] is True


async def test_assist_api_offers_our_intents(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """HA's Assist API offers our intents to HA's own agents, on every release."""
    api = await llm.async_get_api(hass, llm.LLM_API_ASSIST, llm_context("en"))
    ours = {tool.name.rsplit("__", 1)[-1]: tool for tool in api.tools if "LayeredAssist" in tool.name}
    assert set(ours) == set(INTENT_TRAITS)
    calculate = ours[INTENT_CALCULATE]
    if hasattr(llm, "ToolAnnotations"):
        # From our llm.py platform: prefixed, tagged and annotated.
        assert calculate.name == f"{DOMAIN}__{INTENT_CALCULATE}"
        assert getattr(calculate, "integration", None) == DOMAIN
        assert traits_of(calculate)[0] is True


async def test_no_deprecation_reported(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A turn with tools, a service, an intent and both LLM APIs log no deprecation of ours."""
    caplog.set_level(logging.WARNING)
    fake_openai.add(call("calculate", {"expression": "2+3"}), text("It is 5."))
    result = await conversation.async_converse(
        hass, "help me with my homework please", None, Context(), language="en", agent_id=AGENT_ID
    )
    assert result.response.speech["plain"]["speech"] == "It is 5."
    response = await hass.services.async_call(
        DOMAIN, "calculate", {"expression": "6*7"}, blocking=True, return_response=True
    )
    assert response == {"expression": "6*7", "result": 42}
    by_default_agent = await conversation.async_converse(
        hass, "三加四等于多少", None, Context(), language="zh-Hans"
    )
    assert by_default_agent.response.speech["plain"]["speech"] == "3 + 4 等于 7。"
    assert (await call_tool(hass, "get_datetime", {}))["weekday"]
    assist = await llm.async_get_api(hass, llm.LLM_API_ASSIST, llm_context("en"))
    (name,) = [tool.name for tool in assist.tools if tool.name.endswith(INTENT_CALCULATE)]
    answer = await assist.async_call_tool(llm.ToolInput(tool_name=name, tool_args={"la_expr": "1+1"}))
    assert result_data(answer)["speech"]["plain"]["speech"] == "1+1 is 2."
    reported = [r.getMessage() for r in caplog.records if any(m in r.getMessage() for m in DEPRECATION_MARKS)]
    assert reported == []


async def test_brand_of_a_device_and_of_its_part(
    hass: HomeAssistant, caplog: pytest.LogCaptureFixture
) -> None:
    """A device is known by its maker and model; a part of it (a child device, 2026.10+) by its parent's."""
    entry = MockConfigEntry(domain="test")
    entry.add_to_hass(hass)
    registry = dr.async_get(hass)
    parent = registry.async_get_or_create(
        config_entry_id=entry.entry_id,
        identifiers={("test", "vacuum")},
        name="Roborock S7",
        manufacturer="Roborock",
        model="S7 MaxV",
    )
    assert device_brand(hass, parent) == ["Roborock", "S7 MaxV"]
    create_child = getattr(registry, "async_get_or_create_child", None)
    if create_child is None:
        return
    with caplog.at_level(logging.WARNING):
        child = create_child(
            config_entry_id=entry.entry_id,
            identifiers={("test", "dock")},
            name="Dock",
            parent_device_id=parent.id,
        )
        assert device_brand(hass, child) == ["Roborock", "S7 MaxV"]
    messages = [record.getMessage() for record in caplog.records]
    assert not [message for message in messages if any(mark in message for mark in DEPRECATION_MARKS)]
