"""Endpoint failures become a clear answer in the user's language."""

import logging
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.const import CONF_TIMEOUT
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import intent, issue_registry as ir

from .conftest import AGENT_ID
from .fake_openai import FakeOpenAI, Reply, failure, text


async def converse(hass: HomeAssistant, language: str = "en") -> conversation.ConversationResult:
    """Ask our agent something."""
    return await conversation.async_converse(
        hass, "tell me a joke", None, Context(), language=language, agent_id=AGENT_ID
    )


def speech(result: conversation.ConversationResult) -> str:
    """Return the plain speech of a result."""
    return result.response.speech["plain"]["speech"]


@pytest.fixture
def agent_options(agent_options: dict[str, Any]) -> dict[str, Any]:
    """Give up quickly on a hanging server."""
    return {**agent_options, CONF_TIMEOUT: 1}


@pytest.mark.usefixtures("init_integration")
@pytest.mark.parametrize(
    ("reply", "english", "chinese"),
    [
        (failure(401, "Incorrect API key"), "rejected the API key", "拒绝了 API 密钥"),
        (
            failure(404, "The model `gpt-test` does not exist"),
            "does not know the configured model",
            "没有配置的模型",
        ),
        (failure(429, "Slow down", headers={"Retry-After": "30"}), "try again in 30 seconds", "30 秒后再试"),
        (failure(500, "boom"), "(HTTP 500)", "（HTTP 500）"),
        (failure(503, "overloaded"), "(HTTP 503)", "（HTTP 503）"),
        (Reply(hang=True), "did not answer in time", "响应超时"),
        (Reply(text="This will be cut off halfway", cut_after_chunks=3), "was cut off", "回答中断"),
        (Reply(text="broken", malformed_sse=True), "was cut off", "回答中断"),
    ],
    ids=["401", "404", "429", "500", "503", "timeout", "cut-stream", "malformed-sse"],
)
async def test_endpoint_error_answers(
    hass: HomeAssistant, fake_openai: FakeOpenAI, reply: Reply, english: str, chinese: str
) -> None:
    """Each failure gives an error response that says what went wrong, in en and zh."""
    fake_openai.add(reply)
    result = await converse(hass)
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert english in speech(result)

    fake_openai.add(reply)
    result = await converse(hass, "zh-Hans")
    assert chinese in speech(result)


@pytest.mark.usefixtures("init_integration")
async def test_connection_refused(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A server that went away is reported as unreachable."""
    await fake_openai.stop()
    result = await converse(hass)
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert "cannot reach the model service" in speech(result)
    assert "無法連線模型服務" in speech(await converse(hass, "zh-TW"))
    [issue] = [i for i in ir.async_get(hass).issues.values() if i.domain == "layered_assist"]
    assert issue.translation_key == "endpoint_unreachable"
    assert issue.translation_placeholders["base_url"] == fake_openai.base_url


@pytest.mark.usefixtures("init_integration")
async def test_unreachable_repair_clears(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A timeout raises the repair; the next answered request clears it; a 500 does not raise it."""
    issues = ir.async_get(hass)
    fake_openai.add(Reply(hang=True))
    await converse(hass)
    assert any(i.translation_key == "endpoint_unreachable" for i in issues.issues.values())
    fake_openai.add(text("Back again."))
    assert speech(await converse(hass)) == "Back again."
    assert not any(i.translation_key == "endpoint_unreachable" for i in issues.issues.values())
    fake_openai.add(failure(500, "boom"))
    await converse(hass)
    assert not any(i.translation_key == "endpoint_unreachable" for i in issues.issues.values())


@pytest.mark.usefixtures("init_integration")
async def test_unavailable_logged_once_each_way(
    hass: HomeAssistant, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    """Three failed turns log one line, at info; the endpoint's return logs one more."""
    caplog.set_level(logging.INFO, logger="custom_components.layered_assist")
    fake_openai.add(Reply(hang=True), failure(500, "boom"), Reply(hang=True), text("Back again."))
    for _ in range(3):
        await converse(hass)
    ours = [r for r in caplog.records if r.name.startswith("custom_components.layered_assist")]
    assert [r.levelno for r in ours if r.levelno >= logging.INFO] == [logging.INFO]
    assert "is unavailable" in ours[-1].getMessage()
    assert speech(await converse(hass)) == "Back again."
    lines = [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.INFO and "model endpoint" in r.getMessage()
    ]
    assert len(lines) == 2
    assert lines[1].endswith("is available again")
    assert fake_openai.base_url in lines[1]


@pytest.mark.usefixtures("init_integration")
async def test_short_rate_limit_is_retried(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A 429 asking for a short wait is retried once and the user gets the answer."""
    fake_openai.add(failure(429, "Slow down", headers={"Retry-After": "0"}), text("Fine now."))
    result = await converse(hass)
    assert speech(result) == "Fine now."
    assert len(fake_openai.chat_requests) == 2


async def test_auth_failure_in_conversation_starts_reauth(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """A key rejected mid-use asks the user for a new one."""
    fake_openai.add(failure(401, "Incorrect API key"))
    await converse(hass)
    await hass.async_block_till_done()
    flows = hass.config_entries.flow.async_progress()
    assert [flow["context"]["source"] for flow in flows] == ["reauth"]
