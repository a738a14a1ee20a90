"""Requests for later: validated now, stored, run when due, also after a restart; cancelled by voice."""

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from bench.home import LoadedHome
from custom_components.layered_assist.const import DOMAIN
from custom_components.layered_assist.language.reading import read
from homeassistant.core import HomeAssistant

from ..fake_openai import FakeOpenAI, text
from .talk import converse


@pytest.fixture
async def setup(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, home: LoadedHome, init_integration: MockConfigEntry
) -> LoadedHome:
    """The Chinese test home at 15:00 in Shanghai."""
    await hass.config.async_set_time_zone("Asia/Shanghai")
    freezer.move_to("2026-11-22T07:00:00+00:00")
    return home


async def pass_time(hass: HomeAssistant, freezer: FrozenDateTimeFactory, minutes: int) -> None:
    """Move the clock on and let due timers run."""
    freezer.tick(timedelta(minutes=minutes))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()


@pytest.mark.parametrize(
    ("sentence", "command"),
    [
        ("十分钟后关掉客厅主灯", "关掉客厅主灯"),
        ("晚上十点把主卧窗帘关上", "把主卧窗帘关上"),
        ("turn off the garage light in 10 minutes", "turn off the garage light"),
        ("at 8 pm turn on the porch light", "turn on the porch light"),
    ],
)
def test_without_time(sentence: str, command: str) -> None:
    """The time is read apart from the words of the command."""
    assert read(sentence, "en" if sentence.isascii() else "zh-Hans").words == command


@pytest.mark.parametrize("sentence", ["等一下再把客厅主灯关掉", "等下再关客厅主灯", "一会儿再关客厅主灯"])
async def test_wait_then_is_not_now(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, sentence: str
) -> None:
    """ "等一下再…" asks for later with no time: nothing is done now ("等一下，…" may be "hold on")."""
    fake_openai.add(text("要多久以后关？"))
    await converse(hass, sentence)
    assert setup.calls == []
    assert read(sentence, "zh-Hans").mood.value == "later"


async def test_runs_when_due_not_now(
    hass: HomeAssistant, setup: LoadedHome, freezer: FrozenDateTimeFactory, fake_openai: FakeOpenAI
) -> None:
    """Confirmed in speech, nothing now, the call when due; no model."""
    assert await converse(hass, "十分钟后关掉客厅主灯") == "好的，10分钟后关掉客厅主灯。"
    assert setup.calls == []
    await pass_time(hass, freezer, 9)
    assert setup.calls == []
    await pass_time(hass, freezer, 2)
    [call] = setup.calls
    assert (call.domain, call.service, call.data["entity_id"]) == ("light", "turn_off", "light.living_main")
    assert fake_openai.chat_requests == []


async def test_clock_time_and_english(
    hass: HomeAssistant, setup: LoadedHome, freezer: FrozenDateTimeFactory
) -> None:
    """A clock time is said back as one; English replies in English."""
    assert await converse(hass, "晚上十点把主卧窗帘关上") == "好的，22:00把主卧窗帘关上。"
    assert await converse(hass, "明早七点打开主卧窗帘") == "好的，明天07:00打开主卧窗帘。"
    await pass_time(hass, freezer, 7 * 60 + 1)
    [call] = setup.calls
    assert (call.service, call.data["entity_id"]) == ("close_cover", "cover.master_curtain")


async def test_english(hass: HomeAssistant, freezer: FrozenDateTimeFactory, setup_en: LoadedHome) -> None:
    """An English request for later in the English home."""
    home = setup_en
    freezer.move_to("2026-11-22T07:00:00+00:00")
    assert await converse(hass, "turn off the hallway light in 10 minutes", "en") == (
        "OK, in 10 minutes: turn off the hallway light."
    )
    assert home.calls == []
    await pass_time(hass, freezer, 11)
    [call] = home.calls
    assert (call.service, call.data["entity_id"]) == ("turn_off", "light.hallway")


async def test_a_bare_hour_after_a_switch_is_a_time(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, setup_en: LoadedHome
) -> None:
    """ "turn off the hallway light at ten" waits for ten o'clock: it is no brightness of 10 %."""
    home = setup_en
    await hass.config.async_set_time_zone("UTC")
    freezer.move_to("2026-11-22T21:00:00+00:00")
    assert await converse(hass, "turn off the hallway light at ten", "en") == (
        "OK, at 22:00: turn off the hallway light."
    )
    assert home.calls == []
    await pass_time(hass, freezer, 30)
    assert home.calls == []
    await pass_time(hass, freezer, 31)
    [call] = home.calls
    assert (call.service, call.data["entity_id"]) == ("turn_off", "light.hallway")


async def test_survives_a_restart_and_fires_late_once(
    hass: HomeAssistant, setup: LoadedHome, freezer: FrozenDateTimeFactory, init_integration: MockConfigEntry
) -> None:
    """Stored with the alarms: reloaded after a restart, run once when HA comes back late."""
    await converse(hass, "十分钟后关掉客厅主灯")
    assert await hass.config_entries.async_unload(init_integration.entry_id)
    await hass.async_block_till_done()
    freezer.tick(timedelta(minutes=30))
    assert await hass.config_entries.async_setup(init_integration.entry_id)
    await hass.async_block_till_done()
    [call] = setup.calls
    assert call.data["entity_id"] == "light.living_main"
    await pass_time(hass, freezer, 60)
    assert len(setup.calls) == 1


async def test_cancelled_by_voice(
    hass: HomeAssistant, setup: LoadedHome, freezer: FrozenDateTimeFactory
) -> None:
    """取消刚才的定时 drops the last one; nothing runs."""
    await converse(hass, "十分钟后关掉客厅主灯")
    assert await converse(hass, "取消刚才的定时") == "已取消：关掉客厅主灯。"
    assert await converse(hass, "取消刚才的定时") == "现在没有定时的操作。"
    await pass_time(hass, freezer, 15)
    assert setup.calls == []
    runtime = hass.config_entries.async_loaded_entries(DOMAIN)[0].runtime_data
    assert runtime.alarms.alarms == []


async def test_unlocking_is_never_scheduled(
    hass: HomeAssistant, setup: LoadedHome, freezer: FrozenDateTimeFactory, fake_openai: FakeOpenAI
) -> None:
    """A command that needs consent is not stored to run unattended; the model is asked.

    Its words promise nothing that was done, yet they are no question either: asked once
    more, it calls nothing, and the user hears plainly that nothing was changed.
    """
    fake_openai.add(text("这个需要你当时确认。"), text("这个需要你当时确认。"))
    assert await converse(hass, "十分钟后打开入户门锁") == "抱歉，这个没能完成，什么都没有改变。"
    assert fake_openai.chat_requests[1]["tool_choice"] == "required"
    await pass_time(hass, freezer, 15)
    assert setup.calls == []
