"""Tests of the config flow: endpoint, first agent, reauth, reconfigure, subentries."""

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.const import (
    CONF_ALARM_NOTIFY,
    CONF_BASE_URL,
    CONF_FILTER_BASE_URL,
    CONF_FILTER_MODEL,
    CONF_MAX_TOOL_ROUNDS,
    CONF_MODEL,
    CONF_NEWS_FEEDS,
    CONF_PROMPT,
    CONF_RECOMMENDED,
    CONF_TEMPERATURE,
    CONF_TIMEOUT,
    CONF_TOP_K,
    DEFAULT_MODEL,
    DOMAIN,
    LLM_API_ID,
    SUBENTRY_CONVERSATION,
)
from homeassistant import config_entries
from homeassistant.const import CONF_API_KEY, CONF_LLM_HASS_API, CONF_NAME
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData
from homeassistant.setup import async_setup_component

from .fake_openai import FakeOpenAI, failure, text


@pytest.fixture(autouse=True)
async def setup_core(hass: HomeAssistant) -> None:
    """Start HA's core integration, which conversation needs."""
    assert await async_setup_component(hass, "homeassistant", {})


async def start_flow(hass: HomeAssistant) -> str:
    """Open the user step and return the flow id."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": config_entries.SOURCE_USER})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    return result["flow_id"]


async def test_full_flow_with_model_list(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A listed model creates the entry and its first agent without a probe."""
    flow_id = await start_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_BASE_URL: fake_openai.base_url + "/", CONF_API_KEY: "sk-good"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "model"

    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_MODEL: "qwen2.5:7b"})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"] == {CONF_BASE_URL: fake_openai.base_url, CONF_API_KEY: "sk-good"}
    entry = result["result"]
    [subentry] = entry.subentries.values()
    assert subentry.subentry_type == SUBENTRY_CONVERSATION
    assert subentry.data[CONF_MODEL] == "qwen2.5:7b"
    assert subentry.data[CONF_RECOMMENDED] is True
    assert CONF_MAX_TOOL_ROUNDS not in subentry.data  # read with its default
    assert subentry.data[CONF_LLM_HASS_API] == [LLM_API_ID]
    assert fake_openai.chat_requests == []
    assert hass.states.get("conversation.layered_assist") is not None


async def test_flow_without_model_list_probes(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Where /models is missing, the chosen model is checked with a 1-token request."""
    fake_openai.models = None
    flow_id = await start_flow(hass)
    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_BASE_URL: fake_openai.base_url})
    assert result["step_id"] == "model"

    fake_openai.add(failure(404, "model not found"))
    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_MODEL: "missing-model"})
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "model_not_found"}

    fake_openai.add(text("p"))
    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_MODEL: "llama3"})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"][CONF_API_KEY] is None
    probe = fake_openai.chat_requests[-1]
    assert probe["model"] == "llama3"
    assert probe["max_tokens"] == 1


@pytest.mark.parametrize(
    ("models_status", "error"),
    [(401, "invalid_auth"), (403, "invalid_auth"), (500, "cannot_connect"), (400, "unknown")],
)
async def test_flow_endpoint_errors(
    hass: HomeAssistant, fake_openai: FakeOpenAI, models_status: int, error: str
) -> None:
    """The endpoint's failures show as form errors, and the user can retry."""
    flow_id = await start_flow(hass)
    fake_openai.models_status = models_status
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_BASE_URL: fake_openai.base_url, CONF_API_KEY: "sk-bad"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": error}

    fake_openai.models_status = 200
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_BASE_URL: fake_openai.base_url, CONF_API_KEY: "sk-good"}
    )
    assert result["step_id"] == "model"


async def test_flow_cannot_connect(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """An endpoint that refuses connections is reported."""
    await fake_openai.stop()
    flow_id = await start_flow(hass)
    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_BASE_URL: fake_openai.base_url})
    assert result["errors"] == {"base": "cannot_connect"}


async def test_flow_already_configured(
    hass: HomeAssistant, fake_openai: FakeOpenAI, mock_config_entry: MockConfigEntry
) -> None:
    """The same endpoint and key cannot be added twice."""
    flow_id = await start_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_BASE_URL: fake_openai.base_url, CONF_API_KEY: "sk-test"}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"


async def test_reauth(
    hass: HomeAssistant, fake_openai: FakeOpenAI, init_integration: MockConfigEntry
) -> None:
    """A new key is checked, stored, and the entry reloads."""
    result = await init_integration.start_reauth_flow(hass)
    assert result["step_id"] == "reauth_confirm"

    fake_openai.models_status = 401
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_API_KEY: "sk-wrong"})
    assert result["errors"] == {"base": "invalid_auth"}

    fake_openai.models_status = 200
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_API_KEY: "sk-new"})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reauth_successful"
    assert init_integration.data[CONF_API_KEY] == "sk-new"
    assert fake_openai.headers[-1]["Authorization"] == "Bearer sk-new"


async def test_reconfigure_endpoint(
    hass: HomeAssistant, fake_openai: FakeOpenAI, init_integration: MockConfigEntry
) -> None:
    """The URL can change; a bad one is refused and the entry keeps the old one."""
    result = await init_integration.start_reconfigure_flow(hass)
    assert result["step_id"] == "reconfigure"

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_BASE_URL: "http://127.0.0.1:9/v1", CONF_API_KEY: "sk-test"}
    )
    assert result["errors"] == {"base": "cannot_connect"}
    assert init_integration.data[CONF_BASE_URL] == fake_openai.base_url

    other = FakeOpenAI()
    await other.start()
    try:
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_BASE_URL: other.base_url, CONF_API_KEY: "sk-test"}
        )
        await hass.async_block_till_done()
        assert result["reason"] == "reconfigure_successful"
        assert init_integration.data[CONF_BASE_URL] == other.base_url
        assert init_integration.runtime_data.client.base_url == other.base_url
    finally:
        await hass.config_entries.async_unload(init_integration.entry_id)
        await other.stop()


async def test_subentry_create(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """Without the recommended settings, a second form in sections asks for the rest; a second
    agent is created from both and gets its own entity."""
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION), context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    assert {str(key) for key in result["data_schema"].schema} == {
        CONF_NAME,
        CONF_MODEL,
        CONF_PROMPT,
        CONF_LLM_HASS_API,
        "tools",
        CONF_RECOMMENDED,
    }
    first = {
        CONF_NAME: "Kitchen helper",
        CONF_MODEL: "qwen2.5:7b",
        CONF_LLM_HASS_API: ["assist", LLM_API_ID],
        "tools": {CONF_NEWS_FEEDS: "https://example.org/feed.xml"},
        CONF_RECOMMENDED: False,
    }
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], first)
    assert result["step_id"] == "advanced"
    sections = {str(key): value for key, value in result["data_schema"].schema.items()}
    assert set(sections) == {"model_settings", "device_control", "dialogs"}
    assert sections["dialogs"].options["collapsed"] is True
    advanced = {
        "model_settings": {
            CONF_TEMPERATURE: 0.2,
            "max_tokens": 512,
            CONF_MAX_TOOL_ROUNDS: 5,
            CONF_TIMEOUT: 20,
        },
        "device_control": {CONF_TOP_K: 12},
        "dialogs": {},
    }
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], advanced)
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    [helper] = [s for s in init_integration.subentries.values() if s.title == "Kitchen helper"]
    assert helper.data[CONF_MAX_TOOL_ROUNDS] == 5
    assert helper.data[CONF_TOP_K] == 12
    assert helper.data[CONF_NEWS_FEEDS] == "https://example.org/feed.xml"
    assert helper.data[CONF_RECOMMENDED] is False
    assert "tools" not in helper.data
    assert "dialogs" not in helper.data
    assert hass.states.get("conversation.kitchen_helper") is not None


async def test_subentry_rejects_out_of_range_rounds(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Max tool rounds must stay within 1–10."""
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION), context={"source": config_entries.SOURCE_USER}
    )
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_NAME: "x", CONF_MODEL: "gpt-test", "tools": {}, CONF_RECOMMENDED: False}
    )
    with pytest.raises(InvalidData):
        await hass.config_entries.subentries.async_configure(
            result["flow_id"],
            {"model_settings": {CONF_MAX_TOOL_ROUNDS: 11}, "device_control": {}, "dialogs": {}},
        )


async def test_subentry_reconfigure(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """An agent's settings change and the entry reloads with them; the forms suggest what it has."""
    subentry = next(iter(init_integration.subentries.values()))
    result = await init_integration.start_subentry_reconfigure_flow(hass, subentry.subentry_id)
    assert result["step_id"] == "reconfigure"
    assert CONF_NAME not in {str(key) for key in result["data_schema"].schema}

    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_MODEL: "qwen2.5:7b", "tools": {}, CONF_RECOMMENDED: False}
    )
    assert result["step_id"] == "advanced"
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"],
        {"model_settings": {CONF_MAX_TOOL_ROUNDS: 7}, "device_control": {}, "dialogs": {}},
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    data = init_integration.subentries[subentry.subentry_id].data
    assert data[CONF_MAX_TOOL_ROUNDS] == 7
    assert data[CONF_MODEL] == "qwen2.5:7b"
    assert hass.states.get("conversation.layered_assist") is not None


async def test_back_to_the_recommended_settings(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Choosing the recommended settings again drops the tuned ones, and keeps the tools' own."""
    subentry = next(iter(init_integration.subentries.values()))
    hass.config_entries.async_update_subentry(
        init_integration, subentry, data={**subentry.data, CONF_MAX_TOOL_ROUNDS: 9, CONF_TOP_K: 30}
    )
    await hass.async_block_till_done()  # the entry reloads with its changed agent
    result = await init_integration.start_subentry_reconfigure_flow(hass, subentry.subentry_id)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"],
        {CONF_MODEL: "gpt-test", "tools": {CONF_ALARM_NOTIFY: "notify.phone"}, CONF_RECOMMENDED: True},
    )
    await hass.async_block_till_done()
    assert result["reason"] == "reconfigure_successful"
    data = init_integration.subentries[subentry.subentry_id].data
    assert CONF_MAX_TOOL_ROUNDS not in data
    assert CONF_TOP_K not in data
    assert data[CONF_ALARM_NOTIFY] == "notify.phone"
    assert data[CONF_RECOMMENDED] is True

    # A setting emptied on the form is removed, not kept as it was.
    result = await init_integration.start_subentry_reconfigure_flow(hass, subentry.subentry_id)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_MODEL: "gpt-test", "tools": {}, CONF_RECOMMENDED: True}
    )
    await hass.async_block_till_done()
    assert CONF_ALARM_NOTIFY not in init_integration.subentries[subentry.subentry_id].data


async def test_subentry_needs_loaded_entry(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> None:
    """Agents cannot be added while the endpoint is not loaded."""
    result = await hass.config_entries.subentries.async_init(
        (mock_config_entry.entry_id, SUBENTRY_CONVERSATION), context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "entry_not_loaded"


async def test_reconfigure_to_local_only(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """Clearing the URL turns the entry into local-only mode; it reloads without a client."""
    result = await init_integration.start_reconfigure_flow(hass)
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_BASE_URL: ""})
    await hass.async_block_till_done()
    assert result["reason"] == "reconfigure_successful"
    assert init_integration.data == {CONF_BASE_URL: None, CONF_API_KEY: None}
    assert init_integration.title == "Local only"
    assert init_integration.runtime_data.client is None
    assert hass.states.get("conversation.layered_assist") is not None


async def test_flow_prefers_the_default_model_when_listed(
    hass: HomeAssistant, fake_openai: FakeOpenAI
) -> None:
    """The model step suggests our default model when the endpoint has it, else its first."""
    fake_openai.models = ["llama3", DEFAULT_MODEL]
    flow_id = await start_flow(hass)
    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_BASE_URL: fake_openai.base_url})
    [model_key] = [key for key in result["data_schema"].schema if key == CONF_MODEL]
    assert model_key.default() == DEFAULT_MODEL


async def test_flow_unexpected_error_is_a_form_error(hass: HomeAssistant) -> None:
    """A URL the HTTP client cannot even parse is an 'unknown' error the user can correct."""
    flow_id = await start_flow(hass)
    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_BASE_URL: "http://[::1"})
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "unknown"}


async def test_subentry_form_without_model_list_and_no_api(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """A failing model list still shows the form (model as free text); no API is stored as none."""
    fake_openai.models_status = 500
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION), context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    fake_openai.models_status = 200
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"],
        {
            CONF_NAME: "Plain",
            CONF_MODEL: "my-own-model",
            CONF_LLM_HASS_API: [],
            "tools": {},
            CONF_RECOMMENDED: True,
        },
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    [plain] = [s for s in init_integration.subentries.values() if s.title == "Plain"]
    assert plain.data[CONF_MODEL] == "my-own-model"
    assert CONF_LLM_HASS_API not in plain.data


async def test_subentry_refuses_a_small_model_url_it_cannot_use(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A small-model URL the client cannot parse is a field error, not an agent that fails to start."""
    result = await hass.config_entries.subentries.async_init(
        (init_integration.entry_id, SUBENTRY_CONVERSATION), context={"source": config_entries.SOURCE_USER}
    )
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"],
        {CONF_NAME: "Filtered", CONF_MODEL: "gpt-test", "tools": {}, CONF_RECOMMENDED: False},
    )
    advanced = {
        "model_settings": {CONF_FILTER_MODEL: "small", CONF_FILTER_BASE_URL: "http://[::1"},
        "device_control": {},
        "dialogs": {},
    }
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], advanced)
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_url"}
    advanced["model_settings"][CONF_FILTER_BASE_URL] = "http://127.0.0.1:9/v1"
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], advanced)
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert hass.states.get("conversation.filtered") is not None
