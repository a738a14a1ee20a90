"""Conversation control: roles kept per conversation, and ending a conversation."""

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.models import parse_personas
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant

from .conftest import AGENT_ID
from .fake_openai import FakeOpenAI, call, text


async def say(
    hass: HomeAssistant, sentence: str, conversation_id: str | None = None
) -> conversation.ConversationResult:
    """Send a sentence to our agent."""
    return await conversation.async_converse(
        hass, sentence, conversation_id, Context(), language="zh-Hans", agent_id=AGENT_ID
    )


def test_parse_personas() -> None:
    """One role per line."""
    assert parse_personas("英语老师=Teach English.\n\nbad line\n儿童故事=Tell stories.") == {
        "英语老师": "Teach English.",
        "儿童故事": "Tell stories.",
    }


async def test_change_role_persists_in_prompt(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """After change_role, the conversation's next requests carry the role's instructions."""
    fake_openai.add(call("change_role", {"role": "英语老师"}))
    first = await say(hass, "你当我的英语老师吧")
    assert first.response.speech["plain"]["speech"] == "好的，现在我是你的英语老师。"
    assert len(fake_openai.chat_requests) == 1
    fake_openai.add(text("Hello! Let's practise."))
    await say(hass, "我们开始吧", first.conversation_id)
    assert "patient English teacher" in fake_openai.chat_requests[-1]["messages"][0]["content"]
    fake_openai.add(text("hi"))
    await say(hass, "我们开始吧")
    assert "patient English teacher" not in fake_openai.chat_requests[-1]["messages"][0]["content"]


async def test_farewell_ends_locally(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """再见 clears the conversation's state and answers without a question."""
    fake_openai.add(call("change_role", {"role": "儿童故事"}))
    first = await say(hass, "讲故事模式")
    bye = await say(hass, "再见", first.conversation_id)
    assert bye.response.speech["plain"]["speech"] == "再见！"
    assert not bye.continue_conversation
    assert init_integration.runtime_data.states.get(first.conversation_id).persona is None
    assert len(fake_openai.chat_requests) == 1


async def test_end_conversation_tool(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """The model may end the conversation too; it answers directly."""
    fake_openai.add(call("end_conversation"))
    result = await say(hass, "今天就聊到这里")
    assert result.response.speech["plain"]["speech"] == "再见！"
    assert len(fake_openai.chat_requests) == 1
