"""Many conversations at once on two agents: each turn's record is its own, locks are let go."""

import asyncio

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.const import CONF_MODEL
from homeassistant.components import conversation
from homeassistant.components.conversation.const import DATA_COMPONENT
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .conftest import async_setup_demo
from .fake_openai import FakeOpenAI
from .test_ownership import _agent, _entry, agent_ids, say

# What HA answers itself to a message while its conversation is busy (2026.11 on).
BUSY = str(conversation.ConversationBusyError("")) if hasattr(conversation, "ConversationBusyError") else None

LIGHTS = {
    "light.bed_light": "bed light",
    "light.ceiling_lights": "ceiling lights",
    "light.kitchen_lights": "kitchen lights",
}
CONVERSATIONS = 50


async def test_fifty_conversations_on_two_agents(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Three turns per conversation, two of them at once: records match their turns, locks return to 0."""
    assert await async_setup_component(hass, "homeassistant", {})
    await async_setup_demo(hass, Platform.LIGHT)
    entry: MockConfigEntry = _entry(
        fake_openai, _agent("one", **{CONF_MODEL: "gpt-test"}), _agent("two", **{CONF_MODEL: "gpt-test"})
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    ids = sorted(agent_ids(hass, entry).values())
    lights = sorted(LIGHTS)
    wanted: dict[str, tuple[str, str]] = {}
    refused: list[str] = []

    async def talk(number: int) -> None:
        agent, light = ids[number % 2], lights[number % len(lights)]
        conversation_id = f"conversation-{number}"
        wanted[conversation_id] = (agent, light)
        command = say(hass, agent, f"turn on the {LIGHTS[light]}", conversation_id)
        question = say(hass, agent, f"is the {LIGHTS[light]} on?", conversation_id)
        replies = await asyncio.gather(command, question)
        # From 2026.11 HA itself refuses a message while its conversation is busy.
        refused.extend(reply for reply in replies if reply == BUSY)
        await say(hass, agent, "what time is it", conversation_id)

    await asyncio.gather(*(talk(n) for n in range(CONVERSATIONS)))

    component = hass.data[DATA_COMPONENT]
    records = {
        agent_id: list(entity.turns)
        for agent_id in ids
        if (entity := component.get_entity(agent_id)) is not None
    }
    assert sum(len(turns) for turns in records.values()) == 3 * CONVERSATIONS - len(refused)
    seen: dict[str, list[str]] = {}
    for agent_id, turns in records.items():
        for record in turns:
            owner, light = wanted[record.conversation_id]
            assert owner == agent_id
            seen.setdefault(record.conversation_id, []).append(record.layer)
            if record.layer == "local_action":
                assert record.acted_on == [light]
                assert not record.asked_ha
            elif record.layer == "fast_path":
                # Only the time question went to HA's matcher.
                assert record.asked_ha
                assert record.acted_on == []
            else:
                assert record.layer == "local_answer"
                assert not record.asked_ha
    # Where HA refused the question, the command (sent first) was carried out.
    assert {tuple(sorted(layers)) for layers in seen.values()} <= {
        ("fast_path", "local_action", "local_answer"),
        ("fast_path", "local_action"),
    }
    if BUSY is None:
        assert not refused
    assert len(seen) == CONVERSATIONS
    assert all(hass.states.get(light).state == "on" for light in LIGHTS)
    assert entry.runtime_data.states.held_locks == 0
    assert fake_openai.chat_requests == []
