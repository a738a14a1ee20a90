"""Layer 2: the optional small model narrows uncertain candidates."""

import json
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from custom_components.layered_assist.const import CONF_FAST_PATH, CONF_FILTER_MODEL, CONF_LOCAL_ACTION
from custom_components.layered_assist.narrowing import InvalidChoice, parse_choice
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant

from .conftest import AGENT_ID
from .fake_openai import FakeOpenAI, text


@pytest.fixture
def agent_options(agent_options: dict[str, Any]) -> dict[str, Any]:
    """An agent with a small model on the same endpoint; local layers off."""
    return {**agent_options, CONF_FILTER_MODEL: "tiny", CONF_FAST_PATH: False, CONF_LOCAL_ACTION: False}


@pytest.fixture
async def setup(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the home, then the integration."""
    return home


def device_ids(request: dict[str, Any]) -> list[str]:
    """Return the entity ids the main model may control."""
    [control] = [t for t in request["tools"] if t["function"]["name"] == "control_devices"]
    return control["function"]["parameters"]["properties"]["commands"]["items"]["properties"]["entity_id"][
        "enum"
    ]


async def ask(hass: HomeAssistant, sentence: str) -> None:
    """Send a sentence to the agent."""
    await conversation.async_converse(hass, sentence, None, Context(), language="zh-Hans", agent_id=AGENT_ID)


@pytest.mark.usefixtures("setup")
async def test_small_model_narrows(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """The main model sees only what the small model chose."""
    fake_openai.add(text("placeholder"), text("开哪一盏？"))
    fake_openai.replies[0] = text(json.dumps({"targets": [1]}))
    await ask(hass, "开灯")
    small, main = fake_openai.chat_requests
    assert small["model"] == "tiny"
    assert small["stream"] is False
    listed = [line for line in small["messages"][1]["content"].splitlines() if line[:1].isdigit()]
    assert len(listed) > 3
    first = listed[0].split()[1]
    assert device_ids(main) == [first]


@pytest.mark.usefixtures("setup")
async def test_invalid_answer_retried_then_skipped(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Two bad answers: the layer steps aside and the main model gets every candidate."""
    fake_openai.add(text("the first one"), text('{"targets": [99]}'), text("开哪一盏？"))
    await ask(hass, "开灯")
    _, retry, main = fake_openai.chat_requests
    assert "Invalid" in retry["messages"][-1]["content"]
    assert len(device_ids(main)) > 3


@pytest.mark.usefixtures("setup")
async def test_skipped_when_recall_is_sure(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """A confident Layer 1 needs no small model."""
    fake_openai.add(text("要调到几度？"))
    await ask(hass, "主卧空调调到二十六度")
    [main] = fake_openai.chat_requests
    assert main["model"] == "gpt-test"


@pytest.mark.parametrize(
    ("answer", "count", "expected"),
    [
        ('{"targets": [2, 1, 2]}', 3, [2, 1]),
        ('```json\n{"targets": []}\n```', 3, []),
        ('{"targets":[3]}', 3, [3]),
    ],
)
def test_parse_choice(answer: str, count: int, expected: list[int]) -> None:
    """Valid answers are read strictly."""
    assert parse_choice(answer, count) == expected


@pytest.mark.parametrize(
    "answer", ["2", '{"target": [1]}', '{"targets": [0]}', '{"targets": ["1"]}', '{"targets": [true]}']
)
def test_parse_choice_rejects(answer: str) -> None:
    """Anything else is rejected."""
    with pytest.raises(InvalidChoice):
        parse_choice(answer, 3)
