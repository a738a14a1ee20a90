"""What people say after a device turn, and what they take back, on the Chinese test home."""

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome
from homeassistant.core import HomeAssistant

from ..conftest import update_state
from ..fake_openai import FakeOpenAI, text
from .talk import converse, converse_in_turns


@pytest.fixture
async def setup(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the Chinese test home, then the integration."""
    return home


def made(home: LoadedHome, since: int = 0) -> list[tuple[str, str, str]]:
    """Return the service calls made since a count, as (domain.service, entity, data)."""
    return [
        (
            f"{c.domain}.{c.service}",
            c.data["entity_id"],
            str({k: v for k, v in c.data.items() if k != "entity_id"}),
        )
        for c in home.calls[since:]
    ]


async def test_also_is_in_the_room_of_the_last_turn(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "主卧窗帘拉开" … "空调也打开": the bedroom's air conditioner, not one of the three."""
    await converse_in_turns(hass, "主卧窗帘拉开", "空调也打开")
    assert made(setup, 1) == [("climate.turn_on", "climate.master_ac", "{}")]
    assert fake_openai.chat_requests == []


async def test_without_also_the_room_is_not_guessed(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "空调打开" after the bedroom's curtain names no room: three air conditioners fit."""
    fake_openai.add(text("哪个空调？"))
    assert await converse_in_turns(hass, "主卧窗帘拉开", "空调打开") == ["已打开主卧窗帘。", "哪个空调？"]
    assert len(setup.calls) == 1


async def test_the_same_in_another_room(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "客厅空调调到二十五度" … "主卧的也一样": the bedroom's set to 25, the living room's left."""
    await converse_in_turns(hass, "客厅空调调到二十五度", "主卧的也一样")
    assert made(setup, 1) == [("climate.set_temperature", "climate.master_ac", "{'temperature': 25.0}")]


@pytest.mark.parametrize(
    ("first", "reply"),
    [
        # Where no climate is like the living room's: neither guessed nor that one set again.
        ("客厅空调调到二十五度", "阳台没有空调。"),
        # After a light set and a strip switched off: not both done to each light there.
        ("客厅主灯调到百分之三十，灯带关掉", "主卧的哪盏灯？"),
    ],
)
async def test_the_same_there_is_not_guessed(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, first: str, reply: str
) -> None:
    """ "…的也一样" where what is alike is not clear: nothing more is done."""
    fake_openai.add(text(reply))
    await converse(hass, first)
    done = len(setup.calls)
    await converse(hass, "阳台的也一样" if "空调" in first else "主卧的也一样")
    assert len(setup.calls) == done


async def test_louder_and_quieter_by_sound(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """声 is the volume: "小爱音箱大点声" … "小点声"."""
    update_state(hass, "media_player.master_speaker", "playing", volume_level=0.4)
    await converse_in_turns(hass, "小爱音箱大点声", "小点声")
    assert [m[:2] for m in made(setup)] == [
        ("media_player.volume_up", "media_player.master_speaker"),
        ("media_player.volume_down", "media_player.master_speaker"),
    ]


async def test_a_question_of_loudness_is_answered(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "小爱音箱现在多大声": its state with its volume, nothing changed."""
    update_state(hass, "media_player.master_speaker", "playing", volume_level=0.35)
    assert await converse(hass, "小爱音箱现在多大声") == "小爱音箱正在播放，音量35%。"
    assert setup.calls == []


async def test_a_humidifiers_levels_are_its_modes(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "开到高档" of a humidifier whose modes are Low, Medium and High: High."""
    modes = ["Auto", "Low", "Medium", "High"]
    update_state(hass, "humidifier.master_humidifier", "on", available_modes=modes, supported_features=1)
    await converse(hass, "主卧加湿器开到高档")
    assert ("humidifier.set_mode", "humidifier.master_humidifier", "{'mode': 'High'}") in made(setup)


async def test_what_is_taken_back_is_not_done(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "把客厅窗帘拉开……哦不对，是主卧窗帘": only the bedroom's, with the verb said first."""
    await converse(hass, "把客厅窗帘拉开……哦不对，是主卧窗帘")
    assert made(setup) == [("cover.open_cover", "cover.master_curtain", "{}")]


async def test_switching_on_the_heat_is_heating(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "把客厅的暖气打开": the living room's air conditioner on, in heat mode, whatever it was left in."""
    update_state(hass, "climate.living_ac", "off", hvac_mode="off")
    await converse(hass, "把客厅的暖气打开")
    assert ("climate.set_hvac_mode", "climate.living_ac", "{'hvac_mode': 'heat'}") in made(setup)
    assert {m[1] for m in made(setup)} == {"climate.living_ac"}


@pytest.mark.parametrize(
    "sentence",
    [
        "十分钟后把客厅窗帘拉开……哦不对，是主卧窗帘",
        "别关客厅主灯，哦不对，是主卧吸顶灯",
        "把客厅窗帘拉开，哦不对",
    ],
)
async def test_what_is_taken_back_from_a_later_or_a_dont_is_handed_on(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, sentence: str
) -> None:
    """Taken back from a request for later, a "don't", or with nothing said instead: nothing now."""
    fake_openai.add(text("你是想让我做什么？"))
    await converse(hass, sentence)
    assert setup.calls == []


async def test_again_of_one_of_two_is_that_one(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "主卧的再来一次" after two rooms' lights: only the bedroom's again."""
    await converse_in_turns(hass, "客厅主灯和主卧吸顶灯调亮一点", "主卧的再来一次")
    assert [m[1] for m in made(setup, 2)] == ["light.master_ceiling"]


async def test_a_cooling_word_shared_by_two_rooms_cools_both(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "客厅和主卧开冷气": both air conditioners in cool mode, the living room's too."""
    update_state(hass, "climate.living_ac", "heat")
    await converse(hass, "客厅和主卧开冷气")
    cooled = {m[1] for m in made(setup) if m[0] == "climate.set_hvac_mode" and "cool" in m[2]}
    assert cooled == {"climate.living_ac", "climate.master_ac"}
