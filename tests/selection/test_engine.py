"""The selection engine through the agent: the speaker's room, replays, local-only reasons, refusals."""

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from custom_components.layered_assist.const import CONF_BASE_URL, DOMAIN
from homeassistant import config_entries
from homeassistant.components import conversation
from homeassistant.components.conversation.const import DATA_COMPONENT
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import device_registry as dr, entity_registry as er

from ..conftest import AGENT_ID
from ..fake_openai import FakeOpenAI, text
from .talk import converse, converse_in_turns


def agent(hass: HomeAssistant) -> Any:
    """Return our agent entity."""
    return hass.data[DATA_COMPONENT].get_entity(AGENT_ID)


async def converse_from(
    hass: HomeAssistant, sentence: str, *, device_id: str | None = None, satellite_id: str | None = None
) -> str:
    """Say a Chinese sentence through a device or a satellite; return the reply."""
    result = await conversation.async_converse(
        hass,
        sentence,
        None,
        Context(),
        language="zh-Hans",
        agent_id=AGENT_ID,
        device_id=device_id,
        satellite_id=satellite_id,
    )
    speech: str = result.response.speech["plain"]["speech"]
    return speech


def satellite_device(hass: HomeAssistant, name: str) -> dr.DeviceEntry:
    """Register a voice satellite's device (no area yet)."""
    entry = MockConfigEntry(domain="satellite_test")
    entry.add_to_hass(hass)
    return dr.async_get(hass).async_get_or_create(
        config_entry_id=entry.entry_id, identifiers={("satellite_test", name)}, name=name
    )


@pytest.fixture
async def setup(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the Chinese test home, then the integration."""
    return home


async def test_satellite_area_is_the_speakers_room(hass: HomeAssistant, setup: LoadedHome) -> None:
    """A satellite placed in a room makes "开灯" switch on that room's light, and only it."""
    device = satellite_device(hass, "儿童房音箱")
    satellite = er.async_get(hass).async_get_or_create(
        "assist_satellite", "satellite_test", "kids", device_id=device.id
    )
    # (From 2026.10 HA gives an area only to an entity with a name of its own.)
    er.async_get(hass).async_update_entity(
        satellite.entity_id, name="儿童房音箱", area_id=setup.area_ids["kids"]
    )

    await converse_from(hass, "开灯", satellite_id=satellite.entity_id)

    assert setup.acted_on() == {"light.kids_light"}
    assert hass.states.get("light.kids_light").state == "on"


async def test_lights_out_in_the_speakers_room(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "关灯" in a room of two lights turns both off; "开灯" there is not guessed (one is often meant)."""
    device = satellite_device(hass, "主卧音箱")
    dr.async_get(hass).async_update_device(device.id, area_id=setup.area_ids["master"])
    for light in ("light.master_ceiling", "light.master_bedside"):
        hass.states.async_set(light, "on", hass.states.get(light).attributes)

    await converse_from(hass, "关灯", device_id=device.id)

    assert setup.acted_on() == {"light.master_ceiling", "light.master_bedside"}
    assert fake_openai.chat_requests == []
    setup.calls.clear()
    fake_openai.add(text("开哪盏灯？"))
    assert await converse_from(hass, "开灯", device_id=device.id) == "开哪盏灯？"
    assert setup.calls == []


async def test_satellite_without_area_takes_its_devices_room(hass: HomeAssistant, setup: LoadedHome) -> None:
    """A satellite entity with no area of its own is in the room of its device."""
    device = satellite_device(hass, "书房音箱")
    dr.async_get(hass).async_update_device(device.id, area_id=setup.area_ids["study"])
    satellite = er.async_get(hass).async_get_or_create(
        "assist_satellite", "satellite_test", "study", device_id=device.id
    )

    await converse_from(hass, "开灯", satellite_id=satellite.entity_id)

    # The study's one exposed light (密室灯 there is not exposed).
    assert setup.acted_on() == {"light.study_desk"}


async def test_device_area_is_the_speakers_room(hass: HomeAssistant, setup: LoadedHome) -> None:
    """A sentence said through a device in the master bedroom turns on that room's air conditioner."""
    device = satellite_device(hass, "主卧面板")
    dr.async_get(hass).async_update_device(device.id, area_id=setup.area_ids["master"])

    await converse_from(hass, "打开空调", device_id=device.id)

    assert setup.acted_on() == {"climate.master_ac"}


async def test_unknown_satellite_is_no_room(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """A satellite id HA does not know gives no room: "打开空调" of three is asked back, none acted on."""
    fake_openai.add(text("哪个空调？"))

    reply = await converse_from(hass, "打开空调", satellite_id="assist_satellite.gone")

    assert reply == "哪个空调？"
    assert setup.calls == []


async def test_again_repeats_a_picked_option(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Do it again" after picking a TV's source picks the same source again, with no model."""
    replies = await converse_in_turns(
        hass, "switch the living room tv to netflix", "do it again", language="en"
    )

    assert replies == ["Switched Living Room TV to Netflix."] * 2
    assert [(c.service, c.data) for c in setup_en.calls] == [
        ("select_source", {"entity_id": "media_player.living_room_tv", "source": "Netflix"})
    ] * 2
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("first", "entity_id"),
    [
        ("switch the living room tv to netflix", "media_player.living_room_tv"),
        ("turn off the office light", "light.office"),
    ],
)
async def test_again_after_the_device_was_hidden(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI, first: str, entity_id: str
) -> None:
    """ "Do it again" is not replayed on a device no longer exposed to Assist: the model decides."""
    fake_openai.add(text("Which one?"))
    result = await conversation.async_converse(hass, first, None, Context(), language="en", agent_id=AGENT_ID)
    assert setup_en.acted_on() == {entity_id}
    async_expose_entity(hass, "conversation", entity_id, False)
    await hass.async_block_till_done()

    again = await conversation.async_converse(
        hass, "do it again", result.conversation_id, Context(), language="en", agent_id=AGENT_ID
    )

    assert again.response.speech["plain"]["speech"] == "Which one?"
    assert len(setup_en.calls) == 1
    assert len(fake_openai.chat_requests) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        # Part now, part later.
        "打开客厅主灯，十分钟后再关掉",
        # A question about the past beside the command.
        "打开客厅主灯，刚才是谁关的",
        # "A little" of a valve that has no position is no sure position.
        "把阳台浇水阀开一点",
        # Two media verbs, and a media verb with words nothing explains: not the TV surely.
        "暂停，下一首",
        "暂停一下那个咕噜",
        # Two requests for what the devices cannot take.
        "客厅主灯调成红色，客厅空调调成除湿模式",
    ],
)
async def test_not_acted_on_locally(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, sentence: str
) -> None:
    """Sentences the local rules are not sure of are handed to the model, and nothing is done first."""
    fake_openai.add(text("要我怎么做？"))

    assert await converse(hass, sentence) == "要我怎么做？"

    assert setup.calls == []
    assert len(fake_openai.chat_requests) == 1
    assert hass.states.get("media_player.living_tv").state == "playing"
    assert hass.states.get("valve.balcony_water").state == "closed"


async def test_a_bare_pause_is_for_the_one_playing(hass: HomeAssistant, setup: LoadedHome) -> None:
    """ "暂停" with only the living room TV playing pauses it, locally."""
    assert await converse(hass, "暂停") == "已暂停客厅电视。"
    assert [(c.service, c.data) for c in setup.calls] == [
        ("media_pause", {"entity_id": "media_player.living_tv"})
    ]
    assert agent(hass).last_turn.layer == "local_action"


@pytest.fixture
async def local_entry(hass: HomeAssistant, home: LoadedHome) -> ConfigEntry:
    """Create a local-only entry through the config flow (no model endpoint)."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": config_entries.SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_BASE_URL: ""})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    return result["result"]


@pytest.mark.parametrize(
    ("sentence", "reply"),
    [
        ("如果下雨就把阳台窗帘关上", "没有执行：带条件的请求需要模型服务，目前没有配置。"),
        ("刚才是谁关了厨房灯", "没有模型服务，无法回答之前发生的事。"),
        ("开灯", "没有执行：我不确定是哪个设备，请说出设备的名称。"),
        ("把客厅主灯打开咕噜", "没有执行：我在本地没听懂“咕噜”，也没有配置模型服务。"),
    ],
)
async def test_local_only_says_why_not(
    hass: HomeAssistant, home: LoadedHome, local_entry: ConfigEntry, sentence: str, reply: str
) -> None:
    """Without a model, a sentence not done locally gets the reason, and nothing is switched."""
    assert await converse(hass, sentence) == reply
    assert home.calls == []


async def test_local_only_no_reason_for_other_talk(
    hass: HomeAssistant, home: LoadedHome, local_entry: ConfigEntry
) -> None:
    """Without a model, small talk (no device command) gets the "no model" answer, not a device reason."""
    reply = await converse(hass, "给我讲个笑话")
    assert reply.startswith("Layered Assist 没有配置模型服务")
    assert "没有执行" not in reply
    assert home.calls == []


async def test_local_only_wake_word_said_apart(
    hass: HomeAssistant, home: LoadedHome, local_entry: ConfigEntry
) -> None:
    """Without a model, "小艺，关掉客厅主灯" ignores the assistant's name and switches the light off."""
    await converse(hass, "小艺，关掉客厅主灯")
    assert home.acted_on() == {"light.living_main"}
    assert hass.states.get("light.living_main").state == "off"


async def test_local_only_wake_word_run_in(
    hass: HomeAssistant, home: LoadedHome, local_entry: ConfigEntry
) -> None:
    """Without a model, "小艺关掉客厅主灯" (no pause after the name) switches the light off too."""
    reply = await converse(hass, "小艺关掉客厅主灯")
    assert hass.states.get("light.living_main").state == "off", reply
