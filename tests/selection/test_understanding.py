"""The local layers act only on a command for now that they understood whole."""

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from bench.home import LoadedHome, read_home
from custom_components.layered_assist.compat import registry_aliases
from custom_components.layered_assist.language.reading import Mood, read
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er

from ..conftest import update_state
from ..fake_openai import FakeOpenAI, text
from .conftest import EN_HOME
from .talk import converse, converse_in_turns


async def asked_back(
    hass: HomeAssistant, fake_openai: FakeOpenAI, sentence: str, language: str = "zh-Hans"
) -> None:
    """Say a sentence the local layers must hand on: the model's question is the reply."""
    fake_openai.add(text("Which one?"))
    assert await converse(hass, sentence, language) == "Which one?"


@pytest.mark.parametrize(
    ("sentence", "mood"),
    [
        ("客厅吊灯关着吗", Mood.QUESTION),
        ("卧室空调开了没有", Mood.QUESTION),
        ("露台灯有没有开", Mood.QUESTION),
        ("卧室空调设的多少度", Mood.QUESTION),
        ("刚才是谁关了厨房灯", Mood.PAST),
        ("不要开客厅主灯", Mood.NEGATION),
        ("别开轨道灯", Mood.NEGATION),
        ("十分钟后关掉客厅主灯", Mood.LATER),
        ("晚上十点把卧室窗帘关上", Mood.LATER),
        ("如果下雨就把阳台晾衣架收起来", Mood.CONDITION),
        ("把客厅灯关了", Mood.COMMAND),
        ("客厅窗帘关一点", Mood.COMMAND),
        ("空调调高一点", Mood.COMMAND),
        ("Is the TV on?", Mood.QUESTION),
        ("Did the vacuum finish?", Mood.PAST),
        ("Don't turn on the bedroom lamp", Mood.NEGATION),
        ("Please never unlock the side door", Mood.NEGATION),
        ("Turn off the garage light in 10 minutes", Mood.LATER),
        ("Turn off the kitchen cabinets tonight at 11", Mood.LATER),
        ("Lock the front door tomorrow morning", Mood.LATER),
        ("If it rains close the windows", Mood.CONDITION),
        ("After dinner, start the Roborock", Mood.CONDITION),
        ("吃完饭把扫地机打开", Mood.CONDITION),
        ("Do it again", Mood.COMMAND),
        ("Turn every light in the house on", Mood.COMMAND),
    ],
)
def test_sentence_mood(sentence: str, mood: Mood) -> None:
    """Questions, negations, later and conditional requests are told from commands."""
    assert read(sentence, "en" if sentence.isascii() else "zh-Hans").mood is mood


@pytest.fixture
async def setup(hass: HomeAssistant, home: LoadedHome, init_integration: MockConfigEntry) -> LoadedHome:
    """Load the Chinese test home, then the integration."""
    return home


@pytest.mark.parametrize(
    ("sentence", "reply"),
    [
        ("客厅主灯开着吗", "客厅主灯开着，亮度50%。"),
        ("客厅主灯关了吗", "客厅主灯开着，亮度50%。"),
        ("车库门关了吗", "车库门关着。"),
        ("主卧空调开了没有", "主卧空调关着。"),
        ("入户门锁上了吗", "入户门锁锁着。"),
        ("客厅的灯都关了吗", "客厅主灯开着，亮度50%；客厅灯带关着。"),
        ("不要开客厅主灯", "好的，客厅主灯保持不变。"),
        ("别关客厅主灯", "好的，客厅主灯保持不变。"),
    ],
)
async def test_questions_and_negations_are_answered_locally(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, sentence: str, reply: str
) -> None:
    """A question is answered from the state and a "don't" acknowledged: no call, no model."""
    assert await converse(hass, sentence) == reply
    assert setup.calls == []
    assert fake_openai.chat_requests == []


async def test_a_thermostat_set_to_a_range_is_answered_with_it(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """In heat_cool a climate has no single setting: its range and the room are said, the mode by name."""
    update_state(
        hass, "climate.living_ac", "heat_cool", temperature=None, target_temp_low=21, target_temp_high=24
    )
    assert await converse(hass, "客厅空调现在几度") == "客厅空调开着，自动冷暖，设定21–24℃，室内22℃。"
    assert fake_openai.chat_requests == []


async def test_a_question_makes_its_device_the_subject(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """After 客厅主灯开着吗, 把它关掉 acts on that light."""
    await converse_in_turns(hass, "客厅主灯开着吗", "把它关掉")
    [call] = setup.calls
    assert (call.service, call.data["entity_id"]) == ("turn_off", "light.living_main")


@pytest.mark.parametrize(
    ("sentence", "reply", "requests"),
    [
        # A question about the past: the model's answer is spoken as it is.
        ("刚才是谁关了客厅主灯", "好的", 1),
        # A condition: an "OK" would promise what nothing will do; asked once more, then plainly.
        ("如果下雨就把阳台浇水阀关上", "抱歉，这个没能完成，什么都没有改变。", 2),
    ],
)
async def test_not_a_plain_command_is_handed_on(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, sentence: str, reply: str, requests: int
) -> None:
    """Nothing is done, locally or by HA's matcher: the model is asked."""
    fake_openai.add(text("好的"), text("好的"))
    assert await converse(hass, sentence) == reply
    assert setup.calls == []
    assert len(fake_openai.chat_requests) == requests


@pytest.mark.parametrize(
    ("sentence", "service", "data", "reply"),
    [
        ("客厅空调开制冷模式", "set_hvac_mode", {"hvac_mode": "cool"}, "客厅空调已切换到制冷模式。"),
        ("主卧空调风速调到低", "set_fan_mode", {"fan_mode": "low"}, "主卧空调风速已设为低。"),
        ("落地扇开到最大", "set_percentage", {"percentage": 100}, "落地扇风速已调到100%。"),
        ("把客厅灯带调成蓝色", "turn_on", {"rgb_color": [0, 0, 255]}, "已把客厅灯带调成蓝色。"),
        ("客厅灯带调成暖光", "turn_on", {"color_temp_kelvin": 2700}, "已把客厅灯带调成暖光。"),
        ("客厅灯带调成冷白光", "turn_on", {"color_temp_kelvin": 6500}, "已把客厅灯带调成冷光。"),
        ("客厅主灯调到最暗", "turn_on", {"brightness_pct": 1}, "客厅主灯亮度已调到1%。"),
    ],
)
async def test_modifiers_are_carried_out_exactly(
    hass: HomeAssistant,
    setup: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    service: str,
    data: dict,
    reply: str,
) -> None:
    """Modes, fan modes, superlatives, colours and whites: the one call asked for, said as done."""
    assert await converse(hass, sentence) == reply
    [call] = setup.calls
    assert call.service == service
    assert {key: call.data[key] for key in data} == data
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("sentence", "language", "reply"),
    [
        ("客厅主灯调成红色", "zh-Hans", "客厅主灯不支持彩色。"),
        ("客厅空调切换到送风模式", "zh-Hans", "客厅空调不支持这个模式。"),
    ],
)
async def test_unsupported_modifier_is_a_clear_answer(
    hass: HomeAssistant,
    setup: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    language: str,
    reply: str | None,
) -> None:
    """A sure device that cannot take the mode or colour is named, with no call and no model."""
    if reply is None:
        return
    assert await converse(hass, sentence, language) == reply
    assert setup.calls == []
    assert fake_openai.chat_requests == []


async def test_half_degrees_are_read(hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI) -> None:
    """25度半 is 25.5 degrees, not 25."""
    await converse(hass, "主卧空调调到25度半")
    [call] = setup.calls
    assert (call.service, call.data["temperature"]) == ("set_temperature", 25.5)
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("sentence", "reply"),
    [
        ("Is the floor lamp on?", "Floor Lamp is on at 47% brightness."),
        ("Is the front door lock locked?", "Front Door Lock is unlocked."),
        ("Is the front door locked?", "Front Door Lock is unlocked."),
        ("Is the front door open?", "Front Door is closed."),
        ("Is the living room TV playing?", "Living Room TV is playing, volume 18%."),
        ("Don't turn on the desk lamp", "OK, I'll leave Desk Lamp as it is."),
        # The floor lamp has white only, the desk fan no presets.
        ("Make the floor lamp red", "Floor Lamp can't do colours."),
        ("Put the desk fan on sleep mode", "Desk Fan can't do that mode."),
    ],
)
async def test_english_local_answers(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI, sentence: str, reply: str
) -> None:
    """The same in English: questions, a "don't", and modifiers a sure device cannot take."""
    assert await converse(hass, sentence, "en") == reply
    assert setup_en.calls == []
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("sentence", "reply"),
    [
        ("Did the vacuum finish?", "OK"),
        ("Lock the front door tomorrow morning", "Sorry, I could not do that, so nothing was changed."),
        ("If it gets dark turn on the floor lamp", "Sorry, I could not do that, so nothing was changed."),
    ],
)
async def test_not_a_plain_command_is_handed_on_in_english(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI, sentence: str, reply: str
) -> None:
    """The same in English."""
    fake_openai.add(text("OK"), text("OK"))
    assert await converse(hass, sentence, "en") == reply
    assert setup_en.calls == []


@pytest.mark.parametrize(
    ("sentence", "service", "data", "reply"),
    [
        (
            "Make the floor lamp warm white",
            "turn_on",
            {"color_temp_kelvin": 2700},
            "Set Floor Lamp to warm white.",
        ),
        (
            "Turn the desk fan all the way up",
            "set_percentage",
            {"percentage": 100},
            "Set Desk Fan to 100% speed.",
        ),
        ("Set the office air conditioner to cool mode", "set_hvac_mode", {"hvac_mode": "cool"}, None),
    ],
)
async def test_english_modifiers_are_carried_out_exactly(
    hass: HomeAssistant,
    setup_en: LoadedHome,
    fake_openai: FakeOpenAI,
    sentence: str,
    service: str,
    data: dict,
    reply: str | None,
) -> None:
    """The same in English."""
    said = await converse(hass, sentence, "en")
    [call] = setup_en.calls
    assert call.service == service
    assert {key: call.data[key] for key in data} == data
    assert reply is None or said == reply
    assert fake_openai.chat_requests == []


async def test_plain_english_command_still_acts(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """A command understood whole is carried out with no model."""
    await converse(hass, "turn off the living room lights", "en")
    assert {call.data["entity_id"] for call in setup_en.calls} >= {"light.living_room_ceiling"}
    assert all(call.service == "turn_off" for call in setup_en.calls)
    assert fake_openai.chat_requests == []


@pytest.mark.parametrize(
    ("sentence", "service"),
    [
        ("暂停", "media_pause"),
        ("下一首", "media_next_track"),
        ("把音乐暂停", "media_pause"),
        ("louder", "volume_up"),
    ],
)
async def test_bare_media_verbs_go_to_what_is_playing(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, sentence: str, service: str
) -> None:
    """With nothing named, a media verb is for the one player that is playing."""
    await converse(hass, sentence, "en" if sentence.isascii() else "zh-Hans")
    [call] = setup.calls
    assert (call.service, call.data["entity_id"]) == (service, "media_player.living_tv")
    assert fake_openai.chat_requests == []


async def test_media_verb_for_a_named_or_referred_player_is_not_rerouted(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """它 and a named player win over "whatever is playing"."""
    await converse_in_turns(hass, "小爱音箱开着吗", "把它暂停")
    await converse(hass, "小爱音箱暂停")
    assert [call.data["entity_id"] for call in setup.calls] == ["media_player.master_speaker"] * 2


@pytest.mark.parametrize(
    ("tv_state", "sentence"),
    [
        ("playing", "暂停"),
        # A TV that is on sounds too: "louder" could be for either.
        ("on", "声音调大点"),
    ],
)
async def test_bare_media_verb_with_two_players_sounding_is_handed_on(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, tv_state: str, sentence: str
) -> None:
    """Two players playing and no room to prefer: the model is asked, nothing is done."""
    tv = hass.states.get("media_player.living_tv")
    assert tv is not None
    hass.states.async_set(tv.entity_id, tv_state, tv.attributes)
    hass.states.async_set("media_player.master_speaker", "playing", {"supported_features": 21949})
    fake_openai.add(text("哪一个？"))
    assert await converse(hass, sentence) == "哪一个？"
    assert setup.calls == []


async def test_the_one_of_a_room_is_the_kind_said_before(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """'The dining room one' is the radiator there, though "dining room" starts the lights' names."""
    await converse_in_turns(
        hass, "turn off the hallway radiator", "and turn the dining room one off", language="en"
    )
    assert [(c.service, c.data["entity_id"]) for c in setup_en.calls] == [
        ("turn_off", "climate.hallway_radiator"),
        ("turn_off", "climate.dining_room_radiator"),
    ]
    assert fake_openai.chat_requests == []


async def test_a_dont_spares_only_what_it_forbids(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "电视不用关，把声音关掉就行": the TV stays on and is muted."""
    await converse(hass, "客厅电视不用关，把声音关掉就行", "zh-Hans")
    assert [(c.service, c.data["entity_id"], c.data.get("is_volume_muted")) for c in setup.calls] == [
        ("volume_mute", "media_player.living_tv", True)
    ]
    assert fake_openai.chat_requests == []
    # Told not to switch it off and to switch it off: nothing is done on a guess.
    fake_openai.add(text("OK"))
    await converse(hass, "客厅电视别关，把它关了", "zh-Hans")
    assert len(setup.calls) == 1


async def test_an_option_said_with_a_number_word(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Said "over to HDMI one", the source HDMI1 is chosen with no model."""
    hass.states.async_set(
        "media_player.living_room_tv",
        "on",
        {
            **hass.states.get("media_player.living_room_tv").attributes,
            "source_list": ["TV", "HDMI1", "HDMI2"],
        },
    )
    await converse(hass, "switch the living room TV over to HDMI one", "en")
    assert [(c.service, c.data.get("source")) for c in setup_en.calls] == [("select_source", "HDMI1")]
    assert fake_openai.chat_requests == []


async def test_a_lights_settings_are_one_call(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Warm white and 40% for one light are one light.turn_on: the light changes once."""
    await converse(hass, "把客厅灯带调成暖白光，亮度调到四成")
    [call] = setup.calls
    assert (call.service, call.data["entity_id"]) == ("turn_on", "light.living_strip")
    assert call.data["brightness_pct"] == 40
    assert "color_temp_kelvin" in call.data
    assert fake_openai.chat_requests == []


async def test_a_kind_word_that_a_plug_is_called_is_still_the_kind(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """A plug aliased 电扇 and a fan called 电风扇: "电扇" alone is not the plug for sure."""
    er.async_get(hass).async_update_entity("switch.kettle", aliases=registry_aliases(["电扇"]))
    await hass.async_block_till_done()
    await asked_back(hass, fake_openai, "电扇打开")
    assert setup.calls == []
    # Said with the room, it is the fan there.
    await converse(hass, "客厅电扇打开")
    assert [(c.service, c.data["entity_id"]) for c in setup.calls] == [("turn_on", "fan.living_fan")]


async def test_a_model_name_that_is_a_kind_word_is_no_name_among_others(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """A Nest whose model is "Thermostat" and an ecobee called "upstairs thermostat": which one?"""
    registry = er.async_get(hass)
    entry = registry.async_get("climate.living_room_radiator")
    assert entry is not None
    assert entry.device_id is not None
    dr.async_get(hass).async_update_device(entry.device_id, model="Thermostat")
    registry.async_update_entity(
        "climate.hallway_radiator", aliases=registry_aliases(["upstairs thermostat"])
    )
    await hass.async_block_till_done()
    await asked_back(hass, fake_openai, "Set the thermostat to 21", "en")
    assert setup_en.calls == []


async def test_a_place_said_last_is_the_place_of_each_request(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "the lights and the TV in the living room": the lights there too, not every light."""
    await converse(hass, "Turn off the lights and the TV in the living room", "en")
    assert {c.data["entity_id"] for c in setup_en.calls if c.service == "turn_off"} == {
        "light.floor_lamp",
        "light.living_room_ceiling",
        "light.living_room_table_lamp",
        "light.tv_backlight",
        "media_player.living_room_tv",
    }
    assert fake_openai.chat_requests == []


async def test_a_tv_named_so_is_not_the_only_tv(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """客厅电视 and a Sony Bravia (a TV by its class): "电视关掉" could be either."""
    hass.states.async_set(
        "media_player.sony_bravia", "on", {"friendly_name": "Sony Bravia XR", "device_class": "tv"}
    )
    await hass.async_block_till_done()
    await asked_back(hass, fake_openai, "电视关掉")
    assert setup.calls == []


async def test_a_shared_name_of_two_kinds_of_light_is_not_a_group(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Hue Play left and right, and a Hue Play gradient lightstrip: "the Hue Play lights" is asked."""
    attributes = {"supported_color_modes": ["hs"], "color_mode": "hs"}
    for entity_id, name in (
        ("light.hue_play_left", "Hue Play left"),
        ("light.hue_play_right", "Hue Play right"),
        ("light.hue_play_gradient", "Hue Play gradient lightstrip"),
    ):
        hass.states.async_set(entity_id, "on", {**attributes, "friendly_name": name})
    await hass.async_block_till_done()
    await asked_back(hass, fake_openai, "Make the Hue Play lights purple", "en")
    assert setup_en.calls == []


async def test_a_hesitation_between_the_device_and_the_verb(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "帮我把客厅窗帘，嗯，打开一下": the curtain is opened, the 嗯 between is nothing."""
    await converse(hass, "那个……帮我把客厅窗帘，嗯，打开一下")
    assert [(c.service, c.data["entity_id"]) for c in setup.calls] == [("open_cover", "cover.living_curtain")]
    assert fake_openai.chat_requests == []


async def test_a_room_said_with_a_kind_word_another_device_is_named(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """The kids' AC is named just 空调; "主卧空调关掉" is the master bedroom's, named by its model."""
    registry = er.async_get(hass)
    registry.async_update_entity("climate.kids_ac", name="空调")
    registry.async_update_entity("climate.master_ac", name="格力 KFR-35GW", aliases=registry_aliases([]))
    await hass.async_block_till_done()
    await converse(hass, "主卧空调关掉")
    assert [(c.service, c.data["entity_id"]) for c in setup.calls] == [("turn_off", "climate.master_ac")]
    assert fake_openai.chat_requests == []


async def test_lowering_a_blind_closes_it_and_a_bit_is_a_step(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Lower the office blind" closes it; "raise it a bit" moves it 20 points from where it is.

    A blind that does not report its position is not moved "a bit" on a guess.
    """
    await converse(hass, "Lower the office blind", "en")
    state = hass.states.get("cover.office_blind")
    assert state is not None
    hass.states.async_set("cover.office_blind", "open", {**state.attributes, "current_position": 30})
    await converse(hass, "Raise the office blind a bit", "en")
    assert [(c.service, c.data.get("position")) for c in setup_en.calls] == [
        ("close_cover", None),
        ("set_cover_position", 50),
    ]
    attributes = {k: v for k, v in state.attributes.items() if k != "current_position"}
    hass.states.async_set("cover.office_blind", "open", attributes)
    await asked_back(hass, fake_openai, "Raise the office blind a bit", "en")
    assert len(setup_en.calls) == 2


async def test_an_opening_said_with_a_position_is_the_position(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Open the office blind a little, about twenty percent": one move, to 20 %."""
    await converse(hass, "Open the office blind a little, about twenty percent", "en")
    assert [(c.service, c.data.get("position")) for c in setup_en.calls] == [("set_cover_position", 20)]
    assert fake_openai.chat_requests == []


async def test_a_bare_number_for_a_room_name_is_its_thermostat(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """A light and a thermostat both called "Snug": "set the snug to 19" is 19 degrees.

    "And the garage as well" after it is no light's 19 % (the garage has no thermostat).
    """
    hass.states.async_set(
        "climate.snug",
        "heat",
        {
            "friendly_name": "Snug",
            "hvac_modes": ["off", "heat"],
            "temperature": 17,
            "min_temp": 5,
            "max_temp": 30,
            "supported_features": 1,
        },
    )
    hass.states.async_set(
        "light.snug", "on", {"friendly_name": "Snug", "supported_color_modes": ["brightness"]}
    )
    await hass.async_block_till_done()
    fake_openai.add(text("Which one?"))
    await converse_in_turns(hass, "Set the snug to 19", "And the garage light as well", language="en")
    assert [(c.service, c.data["entity_id"], c.data.get("temperature")) for c in setup_en.calls] == [
        ("set_temperature", "climate.snug", 19)
    ]


async def test_a_remark_after_a_request_is_only_its_reason(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "…晚上太亮了", "…晚上又不会有人": a complaint or what people won't do, not a request for later."""
    await converse(hass, "卫生间灯关一下哈，晚上太亮了")
    await converse(hass, "客厅空调关掉吧，晚上又不会有人")
    assert [(c.service, c.data["entity_id"]) for c in setup.calls] == [
        ("turn_off", "light.bath1_light"),
        ("turn_off", "climate.living_ac"),
    ]
    assert fake_openai.chat_requests == []


async def test_it_is_going_to_rain_is_no_request(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "It's going to rain anyway" beside a request switches nothing on."""
    await converse(hass, "Close the office blind, it's going to rain anyway", "en")
    assert [(c.service, c.data["entity_id"]) for c in setup_en.calls] == [
        ("close_cover", "cover.office_blind")
    ]
    assert fake_openai.chat_requests == []


async def test_a_request_that_opens_politely_is_carried_out(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "可以把…降到一半吗" asks for it; "…可以关吗" (and "我可以…吗") only ask leave."""
    await converse(hass, "不好意思，可以把主卧窗帘开到一半吗")
    assert [(c.service, c.data.get("position")) for c in setup.calls] == [("set_cover_position", 50)]
    await converse(hass, "主卧窗帘可以关吗")
    await converse(hass, "我可以把主卧窗帘关掉吗")
    assert len(setup.calls) == 1
    assert fake_openai.chat_requests == []


async def test_the_same_in_another_room(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """After 客厅主灯, "主卧的也关了" is 主卧's main light, not its bedside lamp; the same for curtains."""
    await converse_in_turns(hass, "关掉客厅主灯", "主卧的也关了")
    await converse_in_turns(hass, "客厅窗帘关上", "主卧的也拉上")
    assert [(c.service, c.data["entity_id"]) for c in setup.calls] == [
        ("turn_off", "light.living_main"),
        ("turn_off", "light.master_ceiling"),
        ("close_cover", "cover.living_curtain"),
        ("close_cover", "cover.master_curtain"),
    ]
    assert fake_openai.chat_requests == []


async def test_a_fan_mode_in_the_devices_own_language(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """A climate whose fan modes are written in Chinese ("自動", "20%"…): "风速调成自动" picks "自動"."""
    update_state(hass, "climate.kids_ac", fan_modes=["自動", "20%", "60%", "100%"], supported_features=9)
    await hass.async_block_till_done()
    await converse(hass, "儿童房空调风速调成自动")
    assert [(c.service, c.data.get("fan_mode")) for c in setup.calls] == [("set_fan_mode", "自動")]
    assert fake_openai.chat_requests == []


def _add_entity(
    hass: HomeAssistant, entity_id: str, name: str, area: str, aliases: list[str] | None = None
) -> None:
    """Register an entity in an area under a name (and aliases)."""
    domain, object_id = entity_id.split(".", 1)
    registry = er.async_get(hass)
    entry = registry.async_get_or_create(domain, "test", object_id, suggested_object_id=object_id)
    assert entry.entity_id == entity_id
    registry.async_update_entity(entity_id, name=name, area_id=area, aliases=registry_aliases(aliases or []))


async def test_a_kind_word_in_a_devices_name_is_that_device_where_it_is(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Turn the fan on in the utility room": its "Extractor fan" switch, the one device there called so."""
    _add_entity(hass, "switch.extractor_fan", "Extractor fan", "utility_room")
    hass.states.async_set("switch.extractor_fan", "off", {"friendly_name": "Extractor fan"})
    await hass.async_block_till_done()
    await converse(hass, "Turn the fan on in the utility room", "en")
    assert [(c.service, c.data["entity_id"]) for c in setup_en.calls] == [("turn_on", "switch.extractor_fan")]
    assert fake_openai.chat_requests == []


async def test_a_vacuums_suction_is_set_by_its_own_levels(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Set the Roomba to turbo": its fan speed "Turbo", as its integration names it."""
    state = hass.states.get("vacuum.roomba")
    assert state is not None
    hass.states.async_set(
        "vacuum.roomba",
        state.state,
        {
            **state.attributes,
            "fan_speed_list": ["Quiet", "Balanced", "Turbo", "Max"],
            "fan_speed": "Balanced",
            "supported_features": 8192 | 32 | 16,
        },
    )
    hass.services.async_register("vacuum", "set_fan_speed", setup_en.calls.append)
    await hass.async_block_till_done()
    await converse(hass, "Set the Roomba to turbo", "en")
    assert [(c.service, c.data.get("fan_speed")) for c in setup_en.calls] == [("set_fan_speed", "Turbo")]
    assert fake_openai.chat_requests == []


async def test_a_name_said_apart_is_that_device(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "The Sonos in the den" is "den Sonos" (named "Den"), not the den's night-sound switch."""
    _add_entity(hass, "media_player.den", "Den", "office", ["den Sonos"])
    _add_entity(hass, "switch.den_night_sound", "Den Night sound", "office")
    hass.states.async_set(
        "media_player.den",
        "playing",
        {"friendly_name": "Den", "device_class": "speaker", "supported_features": 4},
    )
    hass.states.async_set("switch.den_night_sound", "off", {"friendly_name": "Den Night sound"})
    await hass.async_block_till_done()
    await converse(hass, "Set the Sonos in the office to 20 percent", "en")
    assert [(c.service, c.data["entity_id"]) for c in setup_en.calls] == [("volume_set", "media_player.den")]
    assert fake_openai.chat_requests == []


async def test_and_theirs_too_after_a_group(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """After "the lights in the office", "and Emma's too" is every light in Emma's room."""
    await converse_in_turns(hass, "Turn off the lights in the office", "And Emma's too", language="en")
    emma = {
        e["entity_id"]
        for e in read_home(EN_HOME)["entities"]
        if e.get("area") == "kids_room" and e["entity_id"].startswith("light.") and e.get("exposed", True)
    }
    off = [c.data["entity_id"] for c in setup_en.calls if c.service == "turn_off"]
    assert emma
    assert emma <= set(off)
    assert fake_openai.chat_requests == []


async def test_a_kind_in_the_room_of_the_device_before(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "客厅空调关掉，然后主灯调到百分之三十": the living room's main light, where the AC is."""
    await converse(hass, "客厅空调关掉，然后主灯调到百分之三十")
    assert [(c.service, c.data["entity_id"], c.data.get("brightness_pct")) for c in setup.calls] == [
        ("turn_off", "climate.living_ac", None),
        ("turn_on", "light.living_main", 30),
    ]
    assert fake_openai.chat_requests == []


async def test_cantonese_follow_ups_and_units(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "八十巴仙" is 80 %; "床头灯都係" after switching one light off switches it off too."""
    await converse(hass, "台灯光度校去八十巴仙", "zh-HK")
    await converse_in_turns(hass, "熄咗主卧吸顶灯", "床头灯都係", language="zh-HK")
    assert [(c.service, c.data["entity_id"], c.data.get("brightness_pct")) for c in setup.calls] == [
        ("turn_on", "light.study_desk", 80),
        ("turn_off", "light.master_ceiling", None),
        ("turn_off", "light.master_bedside", None),
    ]
    assert fake_openai.chat_requests == []


async def test_dont_then_a_device_alone_is_the_same_verb(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Don't turn off the porch light, just the garage light": the garage light goes off only."""
    await converse(hass, "Don't turn off the porch light, just the garage light", "en")
    assert [(c.service, c.data["entity_id"]) for c in setup_en.calls] == [("turn_off", "light.garage")]
    assert fake_openai.chat_requests == []


async def test_a_step_and_the_value_it_comes_to_is_the_value(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "客厅主灯调暗一点，大概三成" is 30 %, in one call."""
    await converse(hass, "客厅主灯调暗一点，大概三成")
    assert [
        (c.service, c.data.get("brightness_pct"), c.data.get("brightness_step_pct")) for c in setup.calls
    ] == [("turn_on", 30, None)]
    assert fake_openai.chat_requests == []


async def test_a_brand_two_devices_share_is_asked_about(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """Two Gree air conditioners, "格力主卧空调" and "格力 KFR-35GW": "格力空调关掉" is asked."""
    registry = er.async_get(hass)
    registry.async_update_entity("climate.kids_ac", name="格力 KFR-35GW")
    registry.async_update_entity("climate.master_ac", name="格力主卧空调", aliases=registry_aliases([]))
    await hass.async_block_till_done()
    await asked_back(hass, fake_openai, "格力空调关掉")
    assert setup.calls == []


async def test_more_of_a_dont_is_not_something_to_do_instead(
    hass: HomeAssistant, setup_en: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "Don't lock the front door, the back door either": nothing is locked."""
    await converse(hass, "Don't lock the front door, the back door either", "en")
    assert setup_en.calls == []


@pytest.mark.parametrize(
    "sentence",
    [
        # More of the "don't", not something to do instead.
        "不要关客厅主灯，还有主卧吸顶灯",
        # "Should we…?" is a question; "not at night" is a limit.
        "要开客厅空调吗？",
        "把客厅空调打开，晚上不要",
    ],
)
async def test_what_must_not_be_done_on_a_guess(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI, sentence: str
) -> None:
    """Sentences that look like the new local requests but ask for nothing sure: nothing is done."""
    fake_openai.add(text("OK"))
    await converse(hass, sentence)
    assert setup.calls == []


async def test_a_cantonese_di_before_the_verb_is_no_amount(
    hass: HomeAssistant, setup: LoadedHome, fake_openai: FakeOpenAI
) -> None:
    """ "主人房啲窗簾打開佢": the room's curtains, opened; "窗簾閂啲" after the verb is a step."""
    await converse(hass, "主卧啲窗帘打开佢", "zh-HK")
    assert [(c.service, c.data["entity_id"]) for c in setup.calls] == [("open_cover", "cover.master_curtain")]
    assert fake_openai.chat_requests == []
