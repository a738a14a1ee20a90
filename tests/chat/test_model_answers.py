"""Device turns with the model's answers as small models really give them, over real HTTP.

Calls written as text run like native ones and are never spoken; a reply that claims
what was not done is not spoken; an endpoint with structured output is asked for the
commands as schema-held JSON first, and one without it is remembered.
"""

import json
import re
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from custom_components.layered_assist.compat import registry_aliases
from custom_components.layered_assist.const import CONF_FAST_PATH, CONF_LOCAL_ACTION, CONF_STREAM
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er

from ..conftest import AGENT_ID, update_state
from ..fake_openai import FakeOpenAI, call, text

MODEL_ONLY = {CONF_FAST_PATH: False, CONF_LOCAL_ACTION: False}
NOTHING_CHANGED = "抱歉，这个没能完成，什么都没有改变。"
KIDS_ON = '{"commands": [{"entity_id": "light.kids_light", "command": "turn_on"}]}'
TURN_ON_KIDS = '{"name": "control_devices", "arguments": ' + KIDS_ON + "}"


@pytest.fixture
def agent_options(agent_options: dict[str, Any], request: pytest.FixtureRequest) -> dict[str, Any]:
    """The test agent with its local layers off, so every device sentence reaches the model."""
    return {**agent_options, **MODEL_ONLY, **getattr(request, "param", {})}


async def converse(hass: HomeAssistant, sentence: str, conversation_id: str | None = None) -> str:
    """Send a sentence to our agent; return what it says."""
    result = await conversation.async_converse(
        hass, sentence, conversation_id, Context(), language="zh-Hans", agent_id=AGENT_ID
    )
    return result.response.speech["plain"]["speech"]


@pytest.mark.parametrize(
    "content",
    [
        TURN_ON_KIDS,
        f"好的，我来打开。\n```json\n{TURN_ON_KIDS}\n```",
        f"<tool_call>{TURN_ON_KIDS}</tool_call>",
        f"<tools>\n{TURN_ON_KIDS}\n</tools>",
        "{" + TURN_ON_KIDS + "}",
        '{"name": "turn_on", "arguments": {"entity_id": "light.kids_light"}}',
        '{"name": "light.turn_on", "arguments": {"entity_id": "light.kids_light"}}',
    ],
    ids=["bare", "fenced", "tool_call", "tools", "doubled-braces", "command-name", "service-name"],
)
async def test_a_call_written_as_text_is_carried_out(
    hass: HomeAssistant,
    home: LoadedHome,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    content: str,
) -> None:
    """The light goes on, the reply is ours, and no markup reaches the user."""
    fake_openai.add(text(content))
    reply = await converse(hass, "打开儿童房灯")
    assert hass.states.get("light.kids_light").state == "on"
    assert home.acted_on() == {"light.kids_light"}
    assert reply == "已打开儿童房灯。"
    assert len(fake_openai.chat_requests) == 1


@pytest.mark.parametrize("agent_options", [{CONF_STREAM: False}], indirect=True)
async def test_recovered_without_streaming(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """The same from a whole (non-streamed) completion."""
    fake_openai.add(text(f"```json\n{TURN_ON_KIDS}\n```"))
    assert await converse(hass, "打开儿童房灯") == "已打开儿童房灯。"
    assert fake_openai.chat_requests[0]["stream"] is False


async def test_a_recovered_call_of_another_tool_answers(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Outside device turns a written call of any offered tool runs; only the final words are spoken."""
    fake_openai.add(
        text('Let me check. {"name": "calculate", "arguments": {"expression": "6*7"}}'),
        text("It is 42."),
    )
    result = await conversation.async_converse(
        hass, "what is six times seven", None, Context(), language="en", agent_id=AGENT_ID
    )
    assert result.response.speech["plain"]["speech"] in ("6 * 7 is 42.", "It is 42.")
    assert "{" not in result.response.speech["plain"]["speech"]


async def test_a_false_claim_is_never_spoken(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """The model says it turned the light on and called nothing: asked once more, then plainly nothing."""
    fake_openai.add(text("好的，我已经打开了儿童房灯。"), text("已经打开了。"))
    assert await converse(hass, "打开儿童房灯") == NOTHING_CHANGED
    assert home.acted_on() == set()
    first, retry = fake_openai.chat_requests
    assert "tool_choice" not in first
    assert retry["tool_choice"] == "required"


async def test_the_retry_can_do_it(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Asked once more, a model that only talked makes the call."""
    fake_openai.add(
        text("好的，我已经打开了儿童房灯。"),
        call("control_devices", {"commands": [{"entity_id": "light.kids_light", "command": "turn_on"}]}),
    )
    assert await converse(hass, "打开儿童房灯") == "已打开儿童房灯。"
    assert home.acted_on() == {"light.kids_light"}


async def test_a_question_back_is_spoken(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Asking is always fair: the model's question reaches the user, with one request."""
    fake_openai.add(text("要打开哪一盏灯？"))
    assert await converse(hass, "打开儿童房灯") == "要打开哪一盏灯？"
    assert len(fake_openai.chat_requests) == 1


async def test_the_opposite_of_what_was_asked_is_refused(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Asked to switch on, a model that switches off is refused and nothing changes."""
    fake_openai.add(
        call("control_devices", {"commands": [{"entity_id": "light.kids_light", "command": "turn_off"}]}),
        text("已关闭儿童房灯。"),
    )
    update_state(hass, "light.kids_light", "on")
    assert await converse(hass, "打开儿童房灯") == NOTHING_CHANGED
    assert home.calls == []
    refused = [m for m in fake_openai.chat_requests[1]["messages"] if m["role"] == "tool"]
    assert "not what the user asked for" in refused[0]["content"]


def answer_in_json(hass: HomeAssistant, fake_openai: FakeOpenAI, *commands: dict[str, Any]) -> None:
    """Make the endpoint one with structured output, whose next answer lists these commands.

    The commands name entity ids; the answer names each device as the request listed it
    (its handle, "d3"), or by the id itself when the request did not list it.
    """

    def answer(request: dict[str, Any]) -> dict[str, Any]:
        listing = request["messages"][0]["content"]
        answered = []
        for command in commands:
            entity_id = command["entity_id"]
            state = hass.states.get(entity_id)
            name = json.dumps(state.name if state else entity_id, ensure_ascii=False)
            found = re.search(rf"^(d\d+) {re.escape(name)}", listing, re.MULTILINE)
            device = found.group(1) if found else entity_id
            answered.append({"device": device, **{k: v for k, v in command.items() if k != "entity_id"}})
        return {"commands": answered}

    fake_openai.structured = True
    fake_openai.structured_replies.append(answer)


def structured_schema(request: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON schema a structured request asked for."""
    return request["response_format"]["json_schema"]["schema"]


async def test_structured_commands_first(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """With structured output the commands come as JSON held to the candidates' schema: no tool round."""
    answer_in_json(hass, fake_openai, {"entity_id": "light.kids_light", "command": "turn_on"})
    assert await converse(hass, "打开儿童房灯") == "已打开儿童房灯。"
    assert home.acted_on() == {"light.kids_light"}
    assert fake_openai.chat_requests == []
    [request] = fake_openai.structured_requests
    assert request["stream"] is False
    assert "tools" not in request
    schema = json.dumps(structured_schema(request), ensure_ascii=False)
    assert '"儿童房灯"' in request["messages"][0]["content"]
    assert "light.secret_light" not in schema + request["messages"][0]["content"]
    # "打开" only switches on: the schema offers no way to switch off.
    variants = structured_schema(request)["properties"]["commands"]["items"]["anyOf"]
    assert {v["properties"]["command"]["const"] for v in variants} <= {
        "turn_on",
        "open_cover",
        "unlock",
        "start",
    }
    assert len(request["messages"][0]["content"]) < 3000


async def test_structured_answer_with_an_unknown_device_goes_on_with_tools(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """A hallucinated or hidden entity is refused; the model hears why and may ask."""
    answer_in_json(hass, fake_openai, {"entity_id": "light.secret_light", "command": "turn_on"})
    fake_openai.add(text("你说的是哪盏灯？"))
    assert await converse(hass, "打开儿童房灯") == "你说的是哪盏灯？"
    assert home.calls == []
    [follow_up] = fake_openai.chat_requests
    assert "must be one of" in json.dumps(follow_up["messages"], ensure_ascii=False)


async def test_no_structured_command_then_the_tools(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """An empty command list hands on to the tool loop, which is not asked to insist again."""
    answer_in_json(hass, fake_openai)
    fake_openai.add(text("我已经打开了。"))
    assert await converse(hass, "打开儿童房灯") == NOTHING_CHANGED
    assert len(fake_openai.chat_requests) == 1
    assert home.calls == []


async def test_structured_output_not_supported_is_remembered(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """An endpoint that rejects response_format is asked once; later device turns go straight to tools."""
    fake_openai.add(
        call("control_devices", {"commands": [{"entity_id": "light.kids_light", "command": "turn_on"}]}),
        call("control_devices", {"commands": [{"entity_id": "light.kids_light", "command": "turn_off"}]}),
    )
    assert await converse(hass, "打开儿童房灯") == "已打开儿童房灯。"
    assert await converse(hass, "关掉儿童房灯") == "已关闭儿童房灯。"
    assert len(fake_openai.structured_requests) == 1
    assert len(fake_openai.chat_requests) == 2
    assert init_integration.runtime_data.client.structured_output is False


async def test_a_structured_answer_that_is_no_json_turns_it_off(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """A server that ignores response_format and talks is not asked for JSON again."""
    fake_openai.structured = True
    fake_openai.structured_replies.append("Sure, turning it on!")
    fake_openai.add(
        call("control_devices", {"commands": [{"entity_id": "light.kids_light", "command": "turn_on"}]})
    )
    assert await converse(hass, "打开儿童房灯") == "已打开儿童房灯。"
    assert init_integration.runtime_data.client.structured_output is False


@pytest.mark.parametrize(
    ("sentence", "asked", "other", "command", "reply_start"),
    [
        # Small models add devices beside the one named: those are not touched, and the user hears so.
        ("电水壶关一下，我要倒水", "switch.kettle", "fan.kitchen_hood", "turn_off", "已关闭电水壶。"),
        # The air conditioner is named, but not for anything to be done.
        (
            "客厅空调别开，打开儿童房灯",
            "light.kids_light",
            "climate.living_ac",
            "turn_on",
            "已打开儿童房灯。",
        ),
    ],
    ids=["beside", "in-a-dont"],
)
async def test_a_device_not_asked_for_is_left_alone(
    hass: HomeAssistant,
    home: LoadedHome,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    sentence: str,
    asked: str,
    other: str,
    command: str,
    reply_start: str,
) -> None:
    """Of the model's commands only those on devices the sentence asks for run; the reply says so."""
    answer_in_json(
        hass, fake_openai, {"entity_id": asked, "command": command}, {"entity_id": other, "command": command}
    )
    unchanged = "on" if command == "turn_off" else "off"
    for device in (asked, other):
        update_state(hass, device, unchanged)
    reply = await converse(hass, sentence)
    assert home.acted_on() == {asked}
    assert hass.states.get(other).state == unchanged
    assert reply.startswith(reply_start)
    assert "没有动" in reply


async def test_a_command_the_sentence_cannot_mean_is_refused(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Asked to mute, a model that turns the volume up is refused: only volume_mute can mean it."""
    fake_openai.add(
        call(
            "control_devices", {"commands": [{"entity_id": "media_player.living_tv", "command": "volume_up"}]}
        ),
        text("已静音。"),
    )
    assert await converse(hass, "客厅电视静音") == NOTHING_CHANGED
    assert home.calls == []
    tools = [t["function"]["name"] for t in fake_openai.chat_requests[0]["tools"]]
    assert tools == ["control_devices"]
    refused = [m for m in fake_openai.chat_requests[1]["messages"] if m["role"] == "tool"]
    assert "not what the user asked for" in refused[0]["content"]


async def test_what_is_not_wanted_is_no_request(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Of "don't turn it off, just mute it" only muting is meant: a model's pause is refused."""
    fake_openai.add(
        call(
            "control_devices",
            {"commands": [{"entity_id": "media_player.living_tv", "command": "media_pause"}]},
        ),
        text("已暂停。"),
    )
    assert await converse(hass, "客厅电视别关，静音就行") == NOTHING_CHANGED
    assert home.calls == []


async def test_the_value_said_is_the_users(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Of "a degree warmer" the model picks the device; the degree is the user's (26 + 1, not 30)."""
    answer_in_json(
        hass,
        fake_openai,
        {"entity_id": "climate.living_ac", "command": "set_temperature", "params": {"temperature": 30}},
    )
    await converse(hass, "客厅空调调高一度")
    [set_temperature] = home.calls
    assert set_temperature.service == "set_temperature"
    assert set_temperature.data["temperature"] == 27


async def test_a_repeated_command_runs_once(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """Small models write a command twice: the device hears it once, the user once."""
    kids_on = {"entity_id": "light.kids_light", "command": "turn_on"}
    answer_in_json(hass, fake_openai, kids_on, kids_on)
    assert await converse(hass, "打开儿童房灯") == "已打开儿童房灯。"
    assert len(home.calls) == 1


async def test_a_device_named_only_by_its_maker_is_left_alone(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """ "开Dyson": the fan aliased Dyson is named; the Night-mode switch of that make is not."""
    devices, entities = dr.async_get(hass), er.async_get(hass)
    fan = entities.async_get("fan.living_fan")
    assert fan is not None
    assert fan.config_entry_id is not None
    device = devices.async_get_or_create(
        config_entry_id=fan.config_entry_id,
        identifiers={("test", "dyson")},
        manufacturer="Dyson",
        name="Pure Cool",
    )
    entities.async_update_entity("fan.living_fan", device_id=device.id, aliases=registry_aliases(["Dyson"]))
    night = entities.async_get_or_create(
        "switch", "test", "dyson_night", device_id=device.id, original_name="Pure Cool Night mode"
    )
    hass.states.async_set(night.entity_id, "off", {"friendly_name": "Pure Cool Night mode"})
    async_expose_entity(hass, "conversation", night.entity_id, True)
    await hass.async_block_till_done()
    answer_in_json(
        hass,
        fake_openai,
        {"entity_id": "fan.living_fan", "command": "turn_on"},
        {"entity_id": night.entity_id, "command": "turn_on"},
    )
    await converse(hass, "开Dyson")
    assert home.acted_on() == {"fan.living_fan"}
    assert hass.states.get(night.entity_id).state == "off"


async def test_it_after_a_dont_is_what_the_dont_named(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """ "电视别关，静音就行": what is muted is the TV; a model that mutes the speaker too is refused."""
    mute = {"command": "volume_mute", "params": {"is_volume_muted": True}}
    answer_in_json(
        hass,
        fake_openai,
        {"entity_id": "media_player.master_speaker", **mute},
        {"entity_id": "media_player.living_tv", **mute},
    )
    await converse(hass, "电视别关，静音就行")
    assert home.acted_on() == {"media_player.living_tv"}


async def test_a_room_to_clean_is_not_the_whole_home(
    hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry, fake_openai: FakeOpenAI
) -> None:
    """ "扫一下厨房": the model's vacuum.start would clean everywhere; it is refused, and told why."""
    start = call("control_devices", {"commands": [{"entity_id": "vacuum.robot", "command": "start"}]})
    fake_openai.add(start, text("已经开始打扫厨房了。"), text("好的。"))

    reply = await converse(hass, "让扫地机器人扫一下厨房")

    assert home.acted_on() == set()
    assert hass.states.get("vacuum.robot").state == "docked"
    assert reply == NOTHING_CHANGED
    told = json.dumps(fake_openai.chat_requests[1]["messages"], ensure_ascii=False)
    assert "cannot clean only the room asked for" in told


@pytest.mark.parametrize(
    "sentence",
    [
        # The room said is the vacuum's own.
        "让客厅的扫地机器人开始扫地",
        # The room said is the light's, in the clause before.
        "把主卧吸顶灯关了，然后让扫地机器人开始扫地",
    ],
)
async def test_the_vacuum_may_start_where_no_other_room_is_asked(
    hass: HomeAssistant,
    home: LoadedHome,
    init_integration: MockConfigEntry,
    fake_openai: FakeOpenAI,
    sentence: str,
) -> None:
    """No room other than its own is asked of the vacuum: the model's start is carried out."""
    fake_openai.add(
        call("control_devices", {"commands": [{"entity_id": "vacuum.robot", "command": "start"}]})
    )

    await converse(hass, sentence)

    assert "vacuum.robot" in home.acted_on()
