"""Every agent and every entry its own: settings, storage and permissions follow who is talking."""

from collections.abc import AsyncGenerator
from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.layered_assist.alarms import EVENT_ALARM, STORAGE_KIND as ALARMS
from custom_components.layered_assist.const import (
    CONF_BASE_URL,
    CONF_FAST_PATH,
    CONF_LOCAL_ACTION,
    CONF_MIN_TEMPERATURE,
    CONF_MODEL,
    CONF_PERSONAS,
    CONF_RISKY,
    CONF_TIMEOUT,
    DOMAIN,
    LLM_API_ID,
    SUBENTRY_CONVERSATION,
)
from custom_components.layered_assist.entry_storage import PER_ENTRY_MINOR_VERSION, entry_store_key
from custom_components.layered_assist.intents import INTENT_CLIMATE
from custom_components.layered_assist.memos import STORAGE_KIND as MEMOS
from custom_components.layered_assist.state import STORAGE_KIND as CONVERSATIONS
from homeassistant.components import conversation
from homeassistant.const import CONF_API_KEY, CONF_LLM_HASS_API, Platform
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er, intent
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

from .conftest import async_setup_demo
from .fake_openai import FakeOpenAI, call, text

TEACHER, PIRATE = "老师=Speak like a patient teacher.", "海盗=Talk like a pirate."


def _agent(title: str, **options: Any) -> dict[str, Any]:
    return {
        "subentry_type": SUBENTRY_CONVERSATION,
        "title": title,
        "unique_id": None,
        "data": {CONF_LLM_HASS_API: [LLM_API_ID], CONF_TIMEOUT: 2, **options},
    }


def _entry(server: FakeOpenAI, *agents: dict[str, Any], title: str = "127.0.0.1") -> MockConfigEntry:
    return MockConfigEntry(
        domain=DOMAIN,
        minor_version=PER_ENTRY_MINOR_VERSION,
        title=title,
        data={CONF_BASE_URL: server.base_url, CONF_API_KEY: "sk-test"},
        subentries_data=list(agents),
    )


def agent_ids(hass: HomeAssistant, entry: MockConfigEntry) -> dict[str, str]:
    """Return each agent's entity id by its title."""
    registry = er.async_get(hass)
    return {
        subentry.title: registry.async_get_entity_id("conversation", DOMAIN, subentry.subentry_id) or ""
        for subentry in entry.subentries.values()
    }


async def say(
    hass: HomeAssistant, agent_id: str, sentence: str, conversation_id: str, user_id: str | None = None
) -> str:
    """Send one sentence to an agent and return the reply."""
    result = await conversation.async_converse(
        hass, sentence, conversation_id, Context(user_id=user_id), "en", agent_id=agent_id
    )
    return str(result.response.speech["plain"]["speech"])


async def service(hass: HomeAssistant, name: str, data: dict[str, Any]) -> dict[str, Any]:
    """Call one of our services and return its response."""
    response = await hass.services.async_call(DOMAIN, name, data, blocking=True, return_response=True)
    assert response is not None
    return dict(response)


@pytest.fixture
async def two_agents(hass: HomeAssistant, fake_openai: FakeOpenAI) -> MockConfigEntry:
    """One entry, two agents with different personas, dialog ranges, risky lists and selection."""
    assert await async_setup_component(hass, "homeassistant", {})
    await async_setup_demo(hass, Platform.LIGHT, Platform.LOCK, Platform.CLIMATE)
    entry = _entry(
        fake_openai,
        _agent("careful", **{CONF_MODEL: "gpt-a", CONF_PERSONAS: TEACHER, CONF_MIN_TEMPERATURE: 16}),
        _agent(
            "trusting",
            **{
                CONF_MODEL: "gpt-b",
                CONF_PERSONAS: PIRATE,
                CONF_MIN_TEMPERATURE: 20,
                CONF_RISKY: [],
                CONF_LOCAL_ACTION: False,
                CONF_FAST_PATH: False,
            },
        ),
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


@pytest.fixture
async def second_server(socket_enabled: None) -> AsyncGenerator[FakeOpenAI]:
    """A second endpoint, for a second entry."""
    server = FakeOpenAI()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def two_entries(
    hass: HomeAssistant, fake_openai: FakeOpenAI, second_server: FakeOpenAI
) -> tuple[MockConfigEntry, MockConfigEntry]:
    """Two entries on two endpoints, one agent each."""
    assert await async_setup_component(hass, "homeassistant", {})
    await async_setup_demo(hass, Platform.LIGHT)
    first = _entry(fake_openai, _agent("first", **{CONF_MODEL: "gpt-test"}), title="first")
    second = _entry(second_server, _agent("second", **{CONF_MODEL: "gpt-test"}), title="second")
    for entry in (first, second):
        entry.add_to_hass(hass)
        assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return first, second


async def test_selection_options_follow_the_agent(
    hass: HomeAssistant, two_agents: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """The agent with local action acts with no model; the one without asks its model."""
    agents = agent_ids(hass, two_agents)
    await say(hass, agents["careful"], "turn on the bed light", "a")
    assert hass.states.get("light.bed_light").state == "on"
    assert fake_openai.chat_requests == []
    fake_openai.add(text("Which one, the bed light?"))
    assert await say(hass, agents["trusting"], "turn off the bed light", "b") == "Which one, the bed light?"
    assert [r["model"] for r in fake_openai.chat_requests] == ["gpt-b"]
    assert hass.states.get("light.bed_light").state == "on"


async def test_risky_lists_follow_the_agent(
    hass: HomeAssistant, two_agents: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """The careful agent asks before unlocking; the one with no risky list unlocks."""
    agents = agent_ids(hass, two_agents)
    reply = await say(hass, agents["careful"], "unlock the front door", "a")
    assert "?" in reply
    assert hass.states.get("lock.front_door").state == "locked"
    fake_openai.add(
        call("control_devices", {"commands": [{"entity_id": "lock.front_door", "command": "unlock"}]})
    )
    await say(hass, agents["trusting"], "unlock the front door", "b")
    assert hass.states.get("lock.front_door").state == "unlocked"


async def test_personas_follow_the_agent(
    hass: HomeAssistant, two_agents: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Each agent knows its own personas only, and plays the one chosen in its conversation."""
    agents = agent_ids(hass, two_agents)
    fake_openai.add(call("change_role", {"role": "海盗"}), text("No such role."))
    await say(hass, agents["careful"], "be a pirate", "a")
    assert "unknown_role" in str(fake_openai.chat_requests[-1]["messages"][-1])
    fake_openai.add(call("change_role", {"role": "海盗"}), text("Arr."))
    await say(hass, agents["trusting"], "be a pirate", "b")
    assert await say(hass, agents["trusting"], "hello", "b") == "Arr."
    assert "Talk like a pirate." in str(fake_openai.chat_requests[-1]["messages"])


async def _climate(hass: HomeAssistant, **data: Any) -> dict[str, Any]:
    return await service(hass, "climate_confirm", {"language": "en", "target": "climate.hvac", **data})


async def test_dialog_ranges_follow_the_agent_named_in_the_service(
    hass: HomeAssistant, two_agents: MockConfigEntry
) -> None:
    """18 °C is in the careful agent's range and below the other's; naming no agent is an error."""
    agents = agent_ids(hass, two_agents)
    accepted = await _climate(hass, conversation_id="a", agent=agents["careful"], temperature=18)
    assert accepted["dialog"]["temperature"] == 18
    refused = await _climate(hass, conversation_id="b", agent=agents["trusting"], temperature=18)
    assert refused["dialog"]["temperature"] is None
    assert "20" in refused["speech"]
    with pytest.raises(ServiceValidationError) as err:
        await _climate(hass, conversation_id="c", temperature=18)
    assert err.value.translation_key == "ambiguous_agent"
    with pytest.raises(ServiceValidationError) as err:
        await _climate(hass, conversation_id="c", agent="conversation.home_assistant", temperature=18)
    assert err.value.translation_key == "unknown_agent"


async def test_intents_use_the_agent_that_heard_them(
    hass: HomeAssistant, two_agents: MockConfigEntry
) -> None:
    """An intent from one of our agents uses its settings; from another agent, with two, it says why not."""
    agents = agent_ids(hass, two_agents)

    async def climate(agent_id: str, sentence: str) -> str:
        response = await intent.async_handle(
            hass,
            "test",
            INTENT_CLIMATE,
            {},
            text_input=sentence,
            language="en",
            conversation_agent_id=agent_id,
            device_id=f"panel-{agent_id}",
        )
        return str(response.speech["plain"]["speech"])

    for agent in agents.values():
        assert await climate(agent, "set the temperature and humidity") == "What temperature would you like?"
    assert "humidity" in await climate(agents["careful"], "18 degrees")
    assert "between 20℃" in await climate(agents["trusting"], "18 degrees")
    other = await intent.async_handle(
        hass,
        "test",
        INTENT_CLIMATE,
        {},
        text_input="set the temperature and humidity",
        language="en",
        conversation_agent_id=conversation.HOME_ASSISTANT_AGENT,
    )
    assert other.response_type is intent.IntentResponseType.ERROR
    assert "several Layered Assist agents" in other.speech["plain"]["speech"]


async def test_each_entry_uses_its_own_endpoint_and_stores(
    hass: HomeAssistant,
    two_entries: tuple[MockConfigEntry, MockConfigEntry],
    fake_openai: FakeOpenAI,
    second_server: FakeOpenAI,
    hass_storage: dict[str, Any],
) -> None:
    """Turns go to their entry's endpoint; memos are kept per entry; naming none is an error."""
    first, second = two_entries
    ids = {**agent_ids(hass, first), **agent_ids(hass, second)}
    second_server.add(text("From the second endpoint."))
    assert await say(hass, ids["second"], "tell me a joke", "x") == "From the second endpoint."
    assert fake_openai.chat_requests == []
    await service(hass, "add_memo", {"text": "buy milk", "config_entry": first.entry_id})
    listed = await service(hass, "list_memos", {"agent": ids["second"]})
    assert listed["memos"] == []
    with pytest.raises(ServiceValidationError) as err:
        await service(hass, "list_memos", {})
    assert err.value.translation_key == "ambiguous_entry"
    await hass.async_block_till_done()
    for entry in (first, second):
        await entry.runtime_data.memos.async_flush()
    assert hass_storage[entry_store_key(MEMOS, first.entry_id)]["data"]["memos"][0]["summary"] == "buy milk"
    assert hass_storage[entry_store_key(MEMOS, second.entry_id)]["data"]["memos"] == []


async def test_an_alarm_fires_once_with_two_entries(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    two_entries: tuple[MockConfigEntry, MockConfigEntry],
) -> None:
    """An alarm set through one entry is stored and fired by that entry only."""
    first, second = two_entries
    events = async_capture_events(hass, EVENT_ALARM)
    await service(
        hass,
        "set_alarm",
        {"time": "in 10 minutes", "message": "tea", "config_entry": second.entry_id, "language": "en"},
    )
    assert [len(e.runtime_data.alarms.alarms) for e in (first, second)] == [0, 1]
    freezer.tick(timedelta(minutes=11))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert [e.data["message"] for e in events] == ["tea"]


async def test_removing_an_entry_leaves_the_other_and_deletes_its_data(
    hass: HomeAssistant,
    two_entries: tuple[MockConfigEntry, MockConfigEntry],
    fake_openai: FakeOpenAI,
    hass_storage: dict[str, Any],
) -> None:
    """The removed entry's stores are gone; the other entry's agent still answers."""
    first, second = two_entries
    ids = agent_ids(hass, first)
    await service(hass, "add_memo", {"text": "gone", "config_entry": second.entry_id})
    await second.runtime_data.memos.async_flush()
    assert entry_store_key(MEMOS, second.entry_id) in hass_storage
    assert await hass.config_entries.async_remove(second.entry_id)
    await hass.async_block_till_done()
    assert not [key for key in hass_storage if second.entry_id in key]
    fake_openai.add(text("Still here."))
    assert await say(hass, ids["first"], "tell me a joke", "y") == "Still here."
    # With one entry left, calls naming none are its own again.
    listed = await service(hass, "list_memos", {})
    assert listed["memos"] == []


async def test_removing_an_agent_leaves_the_other(
    hass: HomeAssistant, two_agents: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """An agent removed on its own takes its entity with it; the other keeps working."""
    agents = agent_ids(hass, two_agents)
    careful = next(s for s in two_agents.subentries.values() if s.title == "careful")
    assert hass.config_entries.async_remove_subentry(two_agents, careful.subentry_id)
    await hass.async_block_till_done()
    assert hass.states.get(agents["careful"]) is None
    assert er.async_get(hass).async_get(agents["careful"]) is None
    fake_openai.add(text("Aye."))
    assert await say(hass, agents["trusting"], "hello", "z") == "Aye."
    assert conversation.async_get_agent_info(hass, agents["trusting"]) is not None


async def test_upgrade_keeps_alarms_memos_and_conversations(
    hass: HomeAssistant, fake_openai: FakeOpenAI, hass_storage: dict[str, Any], freezer: FrozenDateTimeFactory
) -> None:
    """An entry of 1.1 takes the data of the shared stores over; the old keys are gone."""
    freezer.move_to("2026-11-22 15:00:00+00:00")
    an_hour_ago = dt_util.utcnow().timestamp() - 3600
    legacy = {
        CONVERSATIONS: {
            "conversations": {
                "kitchen": {"recent_devices": ["light.kitchen_lights"], "updated_at": an_hour_ago}
            }
        },
        MEMOS: {"memos": [{"summary": "call mum", "uid": "m1", "done": False, "created": 1.0}]},
        ALARMS: {"alarms": [{"id": "a1", "due": "2026-11-23T07:00:00+00:00", "message": "wake"}]},
    }
    for kind, data in legacy.items():
        hass_storage[f"{DOMAIN}.{kind}"] = {
            "version": 1,
            "minor_version": 1,
            "key": f"{DOMAIN}.{kind}",
            "data": data,
        }
    assert await async_setup_component(hass, "homeassistant", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        version=1,
        minor_version=1,
        data={CONF_BASE_URL: fake_openai.base_url, CONF_API_KEY: None},
        subentries_data=[_agent("old", **{CONF_MODEL: "gpt-test"})],
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.minor_version == PER_ENTRY_MINOR_VERSION
    runtime = entry.runtime_data
    assert [m.summary for m in runtime.memos.memos] == ["call mum"]
    assert [a.message for a in runtime.alarms.alarms] == ["wake"]
    assert runtime.states.get("kitchen").recent_devices == ["light.kitchen_lights"]
    assert not [key for key in hass_storage if key in {f"{DOMAIN}.{kind}" for kind in legacy}]
    assert entry_store_key(MEMOS, entry.entry_id) in hass_storage
