"""Which sense a word takes from the words around it, as the reading of a sentence shows."""

import pytest

from custom_components.layered_assist.language.lexicon import Category
from custom_components.layered_assist.language.names import NameIndex
from custom_components.layered_assist.language.pieces import Piece, Role
from custom_components.layered_assist.language.reading import Reading, read


def piece(reading: Reading, text: str) -> Piece:
    """Return the one piece of a reading said as ``text``."""
    [found] = [p for p in reading.pieces if p.text == text]
    return found


def sense(text: str, word: str, language: str = "zh-Hans", names: NameIndex | None = None) -> tuple[str, str]:
    """Read a sentence; return the category and concept its word took."""
    chosen = piece(read(text, language, names), word)
    return (chosen.category.value if chosen.category else chosen.role.value, chosen.concept)


@pytest.mark.parametrize(
    ("text", "language", "word", "expected"),
    [
        # 光 after a value is the brightness (开三成光), else brighter.
        ("開三成光", "zh-HK", "光", ("attributes", "brightness")),
        ("開到三成光", "zh-HK", "光", ("attributes", "brightness")),
        # 亮 after a verb asks for a change; after 太 it complains.
        ("开亮一点", "zh-Hans", "亮", ("directions", "up.brightness")),
        ("灯太亮?", "zh-Hans", "亮", ("feelings", "bright")),
        # "dry" after a verb of adjusting is the mode; after a device, how it feels.
        ("adjust dry", "en", "dry", ("options", "hvac.dry")),
        ("adjust the heater dry", "en", "dry", ("feelings", "dry")),
        # 那个 alone is "that one"; before a kind, a hesitation.
        ("把那个关了", "zh-Hans", "那个", ("references", "it")),
        ("把那个灯关了", "zh-Hans", "那个", ("fillers", "hesitation")),
        # 幾 before an adjective: how (a question) alone, "quite" after a verb.
        ("幾大聲", "zh-HK", "几", ("moods", "question")),
        ("調幾大聲", "zh-HK", "几", ("moods", "feeling")),
        # "by" counts only before a number.
        ("lower it by two", "en", "by", ("amounts", "by")),
        ("lower the volume by", "en", "by", ("fillers", "particle")),
        ("dim the lights by?", "en", "by", ("fillers", "particle")),
        # "on" before a place is a preposition, before a level a "to".
        ("turn the light on the kitchen", "en", "on", ("fillers", "article")),
        ("turn the fan on low", "en", "on", ("verbs", "set")),
        # A wake word said apart is no device.
        ("小爱，把灯关了", "zh-Hans", "小爱", ("fillers", "wake")),
        ("小爱", "zh-Hans", "小爱", ("fillers", "wake")),
    ],
)
def test_sense_from_neighbours(text: str, language: str, word: str, expected: tuple[str, str]) -> None:
    """A word of several senses takes the one its neighbours call for."""
    assert sense(text, word, language) == expected


def test_a_joining_word_between_requests() -> None:
    """ "then" between two requests splits them; at the end it is only a filler."""
    reading = read("turn on the light, then turn off the fan", "en")
    assert [[a.kind.value for a in c.actions] for c in reading.clauses] == [["turn_on"], ["turn_off"]]
    assert piece(read("turn on the light then", "en"), "then").has(Category.FILLER)


def test_a_question_mark_ends_the_neighbours() -> None:
    """A word before a question mark has no neighbour after it: "is it warm?" asks about warmth."""
    reading = read("is it warm?", "en")
    assert piece(reading, "warm").has(Category.FEELING, "hot")
    assert piece(reading, "?").role is Role.PUNCT


def test_a_mode_for_the_device_said_is_not_the_scene() -> None:
    """睡眠模式 after 调到 with a device named is the device's mode, though a scene has that name."""
    names = NameIndex()
    names.set_names("scene.sleep", ["睡眠模式"])
    names.set_names("humidifier.master", ["主卧加湿器"])

    mode = piece(read("把主卧加湿器调到睡眠模式", "zh-Hans", names), "睡眠模式")
    assert mode.role is Role.WORD
    assert mode.has(Category.OPTION, "preset.sleep")
    # A later clause with no verb only adds a value to the request before it.
    later = piece(read("加湿器打开，睡眠模式", "zh-Hans", names), "睡眠模式")
    assert later.role is Role.WORD
    # Said with a verb alone, it is the scene.
    scene = piece(read("打开睡眠模式", "zh-Hans", names), "睡眠模式")
    assert scene.role is Role.NAME


@pytest.mark.parametrize(
    ("text", "language", "word"),
    [("小艺打开主灯", "zh-Hans", "小艺"), ("hey siri turn on the lights", "en", "hey siri")],
)
def test_a_wake_word_run_into_the_request(text: str, language: str, word: str) -> None:
    """The assistant's name said right before a request is no unknown word: the request is read whole."""
    reading = read(text, language)
    assert piece(reading, word).has(Category.FILLER, "wake")
    assert not any(c.unexplained for c in reading.clauses)
