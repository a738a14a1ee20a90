"""The one reading of a sentence: names first, then the words around them, from the language data."""

import json
from pathlib import Path
import shutil

import pytest

from custom_components.layered_assist.language.actions import ActionKind
from custom_components.layered_assist.language.lexicon import (
    DATA,
    Category,
    Lexicon,
    dialect_chain,
    names_lexicon,
    place_variants,
)
from custom_components.layered_assist.language.names import NameIndex
from custom_components.layered_assist.language.numbers import english_to_arabic
from custom_components.layered_assist.language.pieces import Role
from custom_components.layered_assist.language.reading import Mood, Reading, read
from custom_components.layered_assist.language.tokens import normalize

ROOT = Path(__file__).parents[2]
HOMES = sorted(
    [*ROOT.glob("bench/fixtures/*.home.json"), *ROOT.glob("bench/blind/*/*.home.json")],
    key=lambda path: path.name,
)
# How each language asks to switch something on, before its name.
TURN_ON = {"en": "turn on the {}", "zh-HK": "開{}", "zh-TW": "打開{}", "zh-Hans": "打开{}"}


def home_index(home: dict) -> NameIndex:
    """Index the names of a benchmark home as the catalog does (exposed entities, device names, places)."""
    index = NameIndex()
    devices = {d["id"]: d for d in home.get("devices", [])}
    for entity in home["entities"]:
        if not entity.get("exposed", True):
            continue
        names = [entity.get("name"), *(entity.get("aliases") or [])]
        if (device := devices.get(entity.get("device"))) is not None:
            names.append(device.get("name"))
        texts = [n for n in names if n]
        index.set_names(entity["entity_id"], [*texts, *(v for t in texts for v in place_variants(t))])
    for kind, places in (("area", home["areas"]), ("floor", home.get("floors", []))):
        for place in places:
            names = [place["name"], *(place.get("aliases") or [])]
            index.set_names(f"{kind}:{place['id']}", [*names, *(v for n in names for v in place_variants(n))])
    return index


def home_language(home: dict) -> str:
    """Return the conversation language a home is spoken to in."""
    language = home.get("language", "en")
    return {"zh-Hant": "zh-TW"}.get(language, language)


@pytest.mark.parametrize("path", HOMES, ids=lambda path: path.stem)
def test_no_name_is_read_as_a_verb(path: Path) -> None:
    """ "Turn on <name>" never turns anything off, and no character of a name is a verb (玄关, 开关)."""
    home = json.loads(path.read_text(encoding="utf-8"))
    language = home_language(home)
    index = home_index(home)
    said = TURN_ON["en" if language == "en" else language]
    names = {
        name
        for entity in home["entities"]
        if entity.get("exposed", True)
        for name in [entity.get("name"), *(entity.get("aliases") or [])]
        if name
    }
    assert names
    for name in sorted(names):
        reading = read(said.format(name), language, index)
        kinds = {action.kind for clause in reading.clauses for action in clause.actions}
        assert ActionKind.TURN_OFF not in kinds, (name, kinds)
        verbs = [p for p in reading.pieces if p.has(Category.VERB) and p.concept not in ("set", "adjust")]
        # The one verb is the one said before the name.
        assert len(verbs) <= 1 or all(p.start < verbs[0].end for p in verbs), (name, [p.text for p in verbs])


def _actions(reading: Reading) -> list[list[ActionKind]]:
    return [[action.kind for action in clause.actions] for clause in reading.clauses]


@pytest.fixture(scope="module")
def index() -> NameIndex:
    """A few names with verbs, places and numbers inside."""
    index = NameIndex()
    for owner, names in {
        "light.entrance_pendant": ["玄关吊灯"],
        "area:entrance": ["玄关"],
        "switch.living_switch": ["客厅开关"],
        "switch.plug_3": ["智能插座3"],
        "switch.rice_cooker": ["电饭煲插座"],
        "media_player.tv": ["客厅电视"],
        "climate.study": ["书房空调"],
        "area:study": ["书房"],
        "light.hall": ["走廊灯"],
        "light.stairs": ["楼梯灯"],
        "media_player.arc": ["Sonos Arc"],
        "light.desk": ["Desk Lamp"],
        "fan.bedroom": ["卧室风扇 2", "米家风扇 1X 6032"],
        "switch.smart_plug_4": ["Smart Plug 4"],
        "light.brother_desk": ["哥哥书桌灯"],
        "light.study_main": ["书房灯"],
        "scene.bye": ["拜拜"],
        "script.all_off": ["全屋关灯"],
        "switch.kettle": ["开水壶"],
        "scene.movie": ["Movie night"],
        "scene.sleep": ["睡眠模式"],
        "light.back_deck": ["Back Deck Light"],
        "light.night": ["夜燈", "夜灯"],
        "fan.purifier_352": ["352空气净化器 X86C"],
        "switch.aqara_right": ["Aqara 墙壁开关 H1 右键"],
        "media_player.arc_owner": ["Nora's Room Speaker"],
    }.items():
        index.set_names(owner, names)
    return index


@pytest.mark.parametrize(
    ("sentence", "language", "owners"),
    [
        ("打开玄关吊灯", "zh-Hans", {"light.entrance_pendant"}),
        ("唔該開玄關燈", "zh-HK", {"area:entrance"}),
        ("把客厅开关关了", "zh-Hans", {"switch.living_switch"}),
        ("把智能插座三关了", "zh-Hans", {"switch.plug_3"}),
        ("把电饭煲关了", "zh-Hans", {"switch.rice_cooker"}),
        ("turn the arc off", "en", {"media_player.arc"}),
        # A small number is said in Chinese; a model number never is (and never breaks the name).
        ("卧室风扇二关了", "zh-Hans", {"fan.bedroom"}),
        ("米家风扇6032关了", "zh-Hans", {"fan.bedroom"}),
        ("Smart plug 四熄咗佢", "zh-HK", {"switch.smart_plug_4"}),
        # A 的 after a person, inside a name that has none.
        ("哥哥的书桌灯打开", "zh-Hans", {"light.brother_desk"}),
        # A long number said digit by digit; a model code left out; an owner without "'s".
        ("三五二净化器关了", "zh-Hans", {"fan.purifier_352"}),
        ("把Aqara墙壁开关的右键打开", "zh-Hans", {"switch.aqara_right"}),
        ("turn off the speaker in Nora room", "en", {"media_player.arc_owner"}),
    ],
)
def test_names_are_found_whole_in_part_and_with_numbers_said(
    index: NameIndex, sentence: str, language: str, owners: set[str]
) -> None:
    """A name said whole, in part or with its number said in Chinese is a name, not words."""
    reading = read(sentence, language, index)
    named = {m.owner for clause in reading.clauses for m in clause.named}
    assert owners <= named
    assert not [p.text for p in reading.pieces if p.role is Role.UNKNOWN]


@pytest.mark.parametrize(
    ("sentence", "language", "mood", "actions"),
    [
        # A value question is a question, never "louder".
        ("电视音量多大", "zh-Hans", Mood.QUESTION, [[]]),
        ("how loud is the TV", "en", Mood.QUESTION, [[]]),
        # Every value is used: switched on, heat mode, 24 degrees.
        (
            "把书房空调打开，调到制热二十四度",
            "zh-Hans",
            Mood.COMMAND,
            [[ActionKind.TURN_ON], [ActionKind.SET_HVAC_MODE, ActionKind.SET_TEMPERATURE]],
        ),
        # Polite questions that are requests.
        ("可不可以帮我把客厅电视打开", "zh-Hans", Mood.COMMAND, [[ActionKind.TURN_ON]]),
        ("could you switch the desk lamp off?", "en", Mood.COMMAND, [[ActionKind.TURN_OFF]]),
        # Hesitations are nothing; a pause after "the" does not cut the request in two.
        ("嗯…那个，把书房空调打开吧", "zh-Hans", Mood.COMMAND, [[], [ActionKind.TURN_ON]]),
        # A trailing off before the thing is a pause too.
        ("呃，可以把那個…主臥的除濕機打開嗎", "zh-TW", Mood.COMMAND, [[], [ActionKind.TURN_ON]]),
        ("uh, can you turn off the, um, desk lamp", "en", Mood.COMMAND, [[], [ActionKind.TURN_OFF]]),
        # "up in" a room says where: with "off" it is not sure; beside a complaint it is no request.
        ("Turn off the desk lamp up in Marek's room", "en", Mood.COMMAND, [[ActionKind.TURN_OFF]]),
        ("It's a bit stuffy up in the loft", "en", Mood.FEELING, [[]]),
        # A complaint asks for its relief, said in the same breath or not.
        ("太暗了调亮一点", "zh-Hans", Mood.COMMAND, [[ActionKind.ADJUST_BRIGHTNESS]]),
        # 仲好光 ("still bright") is why the lamp stays off.
        ("唔使開天台燈，仲好光", "zh-HK", Mood.NEGATION, [[ActionKind.TURN_ON], []]),
        # Later, conditions and the past.
        ("十分钟后关掉走廊灯", "zh-Hans", Mood.LATER, [[ActionKind.TURN_OFF]]),
        ("如果下雨就把书房空调关了", "zh-Hans", Mood.CONDITION, [[ActionKind.TURN_OFF]]),
        ("did the vacuum finish?", "en", Mood.PAST, [[]]),
        # Telling of what someone left on is no request to switch it on.
        ("Ugh, Mateo left all the lights on again", "en", Mood.PAST, [[], [ActionKind.TURN_ON]]),
        # "Once she is asleep, …": what follows waits for something we cannot see.
        ("樂樂瞓著咗之後熄夜燈", "zh-HK", Mood.CONDITION, [[], [ActionKind.TURN_OFF]]),
        ("孩子睡着以后把夜灯关了", "zh-Hans", Mood.CONDITION, [[], [ActionKind.TURN_OFF]]),
        # A complaint is no command.
        ("好冷啊", "zh-Hans", Mood.FEELING, [[]]),
        # Setting "at" a value, and "becoming" a colour.
        ("除濕機濕度設定在五十五", "zh-TW", Mood.COMMAND, [[ActionKind.SET_HUMIDITY]]),
        ("燈條變紅色", "zh-TW", Mood.COMMAND, [[ActionKind.SET_COLOR]]),
        # 锁 alone is the verb after a door; 只要把 is "just", not "as long as".
        ("大门锁一下", "zh-Hans", Mood.COMMAND, [[ActionKind.LOCK]]),
        (
            "走廊灯不要关，只要把楼梯灯关掉",
            "zh-Hans",
            Mood.COMMAND,
            [[ActionKind.TURN_OFF], [ActionKind.TURN_OFF]],
        ),
        ("只要下雨就把书房空调关了", "zh-Hans", Mood.CONDITION, [[ActionKind.TURN_OFF]]),
        # "any chance you could…" asks; "knock it down" lowers.
        ("Any chance you could switch the desk lamp off?", "en", Mood.COMMAND, [[ActionKind.TURN_OFF]]),
        ("Knock the heating down a degree", "en", Mood.COMMAND, [[ActionKind.DECREASE]]),
        # "the heat" is the heating.
        ("turn off the heat upstairs", "en", Mood.COMMAND, [[ActionKind.TURN_OFF]]),
        # Boiling is switching the kettle on.
        ("开水壶烧上", "zh-Hans", Mood.COMMAND, [[ActionKind.TURN_ON]]),
        # Directions and steps.
        ("lower it by two", "en", Mood.COMMAND, [[ActionKind.ADJUST_VALUE]]),
        ("客厅电视声音关掉", "zh-Hans", Mood.COMMAND, [[ActionKind.MUTE]]),
        # "at ten" after a switch is a time, never a brightness of 10 %; after a setting, a value.
        ("turn off the desk lamp at ten", "en", Mood.LATER, [[ActionKind.TURN_OFF]]),
        ("turn on the desk lamp at seven thirty", "en", Mood.LATER, [[ActionKind.TURN_ON]]),
        ("lock the front door at one thirty", "en", Mood.LATER, [[ActionKind.LOCK]]),
        ("set the desk fan at 3", "en", Mood.COMMAND, [[ActionKind.SET_VALUE]]),
        ("keep it at 20", "en", Mood.COMMAND, [[ActionKind.SET_VALUE]]),
        # Half a degree said alone; "a bit more" said with 多.
        ("再低半度", "zh-HK", Mood.COMMAND, [[ActionKind.ADJUST_TEMPERATURE]]),
        ("再關多一點", "zh-TW", Mood.COMMAND, [[ActionKind.TURN_OFF]]),
        # Numbers said in parts are one number.
        ("set the water heater to one twenty-five", "en", Mood.COMMAND, [[ActionKind.SET_VALUE]]),
    ],
)
def test_moods_and_actions(
    index: NameIndex, sentence: str, language: str, mood: Mood, actions: list[list[ActionKind]]
) -> None:
    """The mood of a sentence and the actions of each clause, read from its structure."""
    reading = read(sentence, language, index)
    assert reading.mood is mood
    assert _actions(reading) == actions


@pytest.mark.parametrize(
    ("sentence", "language", "kind"),
    [
        ("亮度調到一半", "zh-TW", ActionKind.SET_BRIGHTNESS),
        ("音量调到一半", "zh-Hans", ActionKind.SET_VOLUME),
        ("窗帘开一半", "zh-Hans", ActionKind.SET_POSITION),
    ],
)
def test_half_is_half_of_the_setting(
    index: NameIndex, sentence: str, language: str, kind: ActionKind
) -> None:
    """一半 of a brightness or a volume is 50 %, as of a curtain's way (not the least of it)."""
    (clause,) = read(sentence, language, index).clauses
    assert [(a.kind, a.value) for a in clause.actions] == [(kind, 50.0)]


@pytest.mark.parametrize(
    ("sentence", "action"), [("turn it back off", "turn_off"), ("put it back on", "turn_on")]
)
def test_back_is_of_the_verb_not_of_a_name(index: NameIndex, sentence: str, action: str) -> None:
    """ "turn it back off" names no Back Deck Light: "back off" is the verb."""
    [clause] = read(sentence, "en", index).clauses
    assert [a.kind.value for a in clause.actions] == [action]
    assert not clause.named
    assert clause.references


def test_dont_then_do(index: NameIndex) -> None:
    """ "走廊灯别关，把楼梯灯关了就行": keep the first, act on the second."""
    first, second = read("走廊灯别关，把楼梯灯关了就行", "zh-Hans", index).clauses
    assert first.mood is Mood.NEGATION
    assert {m.owner for m in first.named} == {"light.hall"}
    assert second.mood is Mood.COMMAND
    assert {m.owner for m in second.named} == {"light.stairs"}
    assert not second.unexplained


def test_words_nobody_knows_are_kept(index: NameIndex) -> None:
    """A word the data does not have is reported, so nothing is done on a guess."""
    [clause] = read("把走廊灯调成彩虹效果", "zh-Hans", index).clauses
    assert "".join(clause.unexplained) in ("调成彩虹效果", "彩虹效果")


def test_a_word_added_to_the_data_is_understood(tmp_path: Path) -> None:
    """Adding a word is one line in a language's data: a copy with 掌灯 reads it as "on"."""
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    before = read("掌灯", "zh-Hans")
    assert _actions(before) == [[]]
    with (copy / "zh-Hans" / "verbs.txt").open("a", encoding="utf-8") as data:
        data.write("on: 掌\n")
    after = read("掌灯", "zh-Hans", lexicon=Lexicon(dialect_chain("zh-Hans"), copy))
    assert _actions(after) == [[ActionKind.TURN_ON]]
    assert after.clauses[0].kinds == ("light",)


def test_dialect_words_only_in_their_language() -> None:
    """Cantonese 閂 is "off" in a Cantonese conversation; Mandarin does not read it so."""
    assert _actions(read("閂燈", "zh-HK")) == [[ActionKind.TURN_OFF]]
    assert _actions(read("闩灯", "zh-Hans")) == [[]]


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("打开电暖器", "heater"),
        ("打开浴霸", "bath_heater"),
        ("地暖打开", "floor_heating"),
        ("turn on the heat lamp", "bath_heater"),
    ],
)
def test_heaters_of_a_room_a_bathroom_and_a_floor_are_apart(sentence: str, kind: str) -> None:
    """电暖器 is no 浴霸: asked for a room heater, the bathroom's is not switched on."""
    language = "en" if sentence.isascii() else "zh-Hans"
    assert read(sentence, language).clauses[0].kinds == (kind,)


@pytest.mark.parametrize("sentence", ["热水器水温调到六十度", "小爱音箱小点声", "净化器调到睡眠模式"])
def test_every_word_of_a_setting_is_explained(sentence: str) -> None:
    """水温 is a temperature, 声 a volume, and 睡眠模式 after a kind and 调到 its mode."""
    [clause] = read(sentence, "zh-Hans").clauses
    assert clause.actions
    assert clause.unexplained == ()


def test_a_bit_more_is_again_of_a_step_only() -> None:
    """ "A bit more" asks for the last step again; it says nothing of its own."""
    [clause] = read("a bit more", "en").clauses
    assert clause.again
    assert clause.more
    assert not clause.unexplained


def test_a_word_of_two_kinds_names_the_first() -> None:
    """浴室寶 (Hong Kong) is a bath heater before a water heater, as its data lists it."""
    assert names_lexicon().kinds_in(normalize("Panasonic 浴室寶")) == {"浴室宝": "bath_heater"}


def test_traditional_chinese_with_no_region_reads_both() -> None:
    """HA's own language setting zh-Hant is spoken to from Hong Kong and Taiwan alike."""
    assert _actions(read("唔該幫我閂咗廚房燈", "zh-Hant")) == [[ActionKind.TURN_OFF]]
    assert _actions(read("廚房電燈關掉", "zh-Hant")) == [[ActionKind.TURN_OFF]]


@pytest.mark.parametrize(
    "sentence",
    [
        # A remark beside a request: about people, naming a scene (run only with a verb), or a
        # question that asks nothing of a device.
        "客厅电视打开，奶奶要睡觉了",
        "走廊灯打开，阿公要拜拜了",
        "客厅电视关小声一点，阿公耳朵没那么差啦",
        # A kind said, then said again whole.
        "空调……书房的空调开一下",
    ],
)
def test_a_remark_beside_a_request_is_aside(index: NameIndex, sentence: str) -> None:
    """Only the request decides the mood; the remark is aside and asks for nothing."""
    reading = read(sentence, "zh-Hans", index)
    assert reading.mood is Mood.COMMAND
    request = [c for c in reading.clauses if not c.aside]
    assert len(request) == 1
    assert request[0].actions


@pytest.mark.parametrize(
    "sentence", ["把走廊灯打开，十分钟后", "客厅电视打开，书房的呢？", "把走廊灯打开，还有楼梯灯"]
)
def test_a_time_a_place_or_a_name_is_no_remark(index: NameIndex, sentence: str) -> None:
    """A time alone, a place asked about or a device named are part of the request."""
    reading = read(sentence, "zh-Hans", index)
    assert all(not c.aside for c in reading.clauses)


def test_a_place_inside_a_name_is_not_a_kind() -> None:
    """露台灯 is the balcony's light, not a 台灯; 书房台灯 is a desk lamp."""
    lexicon = names_lexicon()
    assert lexicon.kinds_in("露台灯", frozenset({"露台"})) == {"灯": "light"}
    assert lexicon.kinds_in("露台灯") == {"台灯": "desk_lamp"}
    assert lexicon.kinds_in("书房台灯", frozenset({"书房"})) == {"台灯": "desk_lamp"}


def test_a_place_with_de_is_a_place_not_a_name(index: NameIndex) -> None:
    """Said 书房的灯都打开, every light of the study is meant, not the one named 书房灯."""
    reading = read("书房的灯都打开", "zh-Hans", index)
    assert not [m for c in reading.clauses for m in c.entity_names if m.full]
    assert reading.clauses[0].areas == ("study",)


def test_a_persons_room_by_the_persons_name() -> None:
    """ "Mateo's fan": Mateo's room (or bedroom) is said by his name alone."""
    assert "mateo's" in place_variants("Mateo's room")
    assert "priya's" in place_variants("Priya's bedroom")


def test_em_is_them(index: NameIndex) -> None:
    """ "the desk lamp, turn 'em off": 'em is "them", every word used."""
    first, second = read("the desk lamp, turn 'em off", "en", index).clauses
    assert {m.owner for m in first.named} == {"light.desk"}
    assert [a.kind for a in second.actions] == [ActionKind.TURN_OFF]
    assert second.references
    assert not second.unexplained


@pytest.mark.parametrize(
    ("sentence", "runs"), [("全屋关灯", True), ("睡眠模式", True), ("拜拜", False), ("睡眠模式是什么", False)]
)
def test_a_scene_named_as_a_request(index: NameIndex, sentence: str, runs: bool) -> None:
    """Said alone, a scene or script whose name is a request (全屋关灯) is one; 拜拜 is a goodbye."""
    reading = read(sentence, "zh-Hans", index)
    assert any(c.name_commands for c in reading.clauses) is runs
    if runs:
        assert not any(c.aside for c in reading.clauses)


@pytest.mark.parametrize(
    ("sentence", "runs"), [("Movie night, please", True), ("Thanks, movie night", False)]
)
def test_a_scene_asked_for_by_name(index: NameIndex, sentence: str, runs: bool) -> None:
    """ "Movie night, please" asks for the scene; "thanks" beside its name does not."""
    assert any(c.name_commands for c in read(sentence, "en", index).clauses) is runs


@pytest.mark.parametrize(
    ("said", "digits"),
    [
        ("at seven thirty", "at 7:30"),
        ("at one thirty", "at 1:30"),
        ("to one twenty-five", "to 125"),
        ("one hundred twenty five", "125"),
        ("two hundred and fifty", "250"),
        ("the lounge one", "the lounge one"),
    ],
)
def test_numbers_said_in_parts(said: str, digits: str) -> None:
    """A clock time and a number of three figures said in parts are read whole."""
    assert english_to_arabic(said) == digits


@pytest.mark.parametrize(
    ("sentence", "language", "position"),
    [
        ("open the blinds halfway", "en", 50),
        ("open the shade a quarter of the way", "en", 25),
        ("窗帘开四分之三", "zh-Hans", 75),
    ],
)
def test_a_part_of_the_way_is_a_position(sentence: str, language: str, position: int) -> None:
    """Halfway, a quarter, three quarters: a position, not a step."""
    [clause] = read(sentence, language).clauses
    assert [(a.kind, a.value) for a in clause.actions] == [(ActionKind.SET_POSITION, position)]
