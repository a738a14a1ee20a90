"""The one rule that lets the local layers act: the sentence is a command for now, understood whole.

A wrong action is worse than none. So a sentence is carried out locally only when
it asks for something to be done now (not a question, a negation, a request for
later or under a condition, or a question about the past), and each command segment
is explained word by word by its targets, its action, its values and a few words of
politeness. Anything left over (a mode, a colour, an adverb the rules do not know)
hands the turn on: to the model, or in local-only mode to an answer saying so.
"""

from collections.abc import Iterable
from enum import StrEnum
import re

from ..language.text import is_cjk, units
from ..language.times import LATER
from .actions import ActionKind
from .catalog import CatalogEntry
from .vocabulary import DOMAIN_WORDS, HERE, PRONOUN, THAT_ROOM, domain_words


class Mood(StrEnum):
    """What a sentence does with its verb."""

    COMMAND = "command"
    QUESTION = "question"
    NEGATION = "negation"
    LATER = "later"
    CONDITION = "condition"
    PAST = "past"


_NEGATION = re.compile(
    r"不要|不用|别|先别|甭|不想|不需要|无需|不必|用不着|千万别|"
    r"\bdon'?t\b|\bdo not\b|\bnever\b|\bno need\b|\bnot\b"
)
_CONDITION = re.compile(
    r"如果|要是|假如|假设|万一|的话|一旦|等到|每当|每天|每晚|每周|每次|"
    r"\bif\b|\bunless\b|\bwhen(?:ever)?\b|\bin case\b|"
    r"\bevery (?:day|night|morning|evening|week|hour|time)\b"
)
# Questions about what happened: nothing to do, and the present state is no answer.
_PAST = re.compile(r"谁|刚才|刚刚|昨天|之前|^(?:did|had|who)\b|\bwho\b")
_QUESTION = re.compile(
    r"[吗嘛么呢][？?]?$|[？?]$|是不是|有没有|了没有?|没有$|没$|是否|几度|多少|什么|哪个|哪些|哪里|"
    r"怎么样|如何|为什么|"
    r"^(?:is|are|was|were|does|has|have|what|what's|whats|how|which|whose|why|where)\b"
)


def sentence_mood(text: str) -> Mood:
    """Return what a prepared sentence (normalized, Arabic numerals) asks for."""
    text = text.strip()
    if _NEGATION.search(text):
        return Mood.NEGATION
    if _CONDITION.search(text):
        return Mood.CONDITION
    if LATER.search(text):
        return Mood.LATER
    if _PAST.search(text):
        return Mood.PAST
    if _QUESTION.search(text):
        return Mood.QUESTION
    return Mood.COMMAND


# Words that add nothing to a command: politeness, particles, articles, object markers,
# verbs of setting, and nouns of the device kinds and of the values the action sets.
_FILLER = re.compile(
    r"请|麻烦|帮我|帮忙|给我|替我|我想|我要|想要|把|将|给|的|了|吧|啊|呀|哦|一下子?|下|一点儿?|点儿|"
    r"可以|能|一些|些|都|全部|所有|全|两个|两台|两盏|几个|现在|马上|立刻|再|也|还是|让|家里|起来|上来|下来|来|"
    r"卫生间|洗手间|浴室|厕所|房间|音乐|歌曲|\bmusic\b|"
    r"调到|调至|调成|调|设为|设置为|设置成|设置|设定|设成|设到|定在|定为|改成|改为|变成|切换到|切到|到|为|至|"
    r"空调|冷气|暖气|地暖|电灯|灯|照明|窗帘|纱帘|帘|百叶|卷帘|车库门|风扇|电扇|吊扇|换气扇|排气扇|"
    r"音箱|音响|电视机|电视|投影仪?|门锁|锁|开关|插座|阀门|阀|热水器|扫地机器人|扫地机|加湿器|除湿器|除湿机|"
    r"\b(?:please|the|a|an|my|our|for me|can you|could you|would you|will you|kindly|now|right now|"
    r"all|both|every|in|of|to|at|on|and|it|its|their|up|down|back|set|turn|switch|make|put|stick|get|send|change|adjust|tell|"
    r"a bit|a little|bit|little|slightly|degrees?|house|home|everywhere|"
    r"lights?|lamps?|thermostats?|ac|"
    r"air conditioner|blinds?|curtains?|shades?|shutters?|garage door|humidifier|dehumidifier|"
    r"vacuum|hoover|fans?|speakers?|tvs?|televisions?|telly|locks?|plugs?|outlets?|sockets?|switch(?:es)?|"
    r"valves?|"
    r"water heater|boiler|radiators?|heating)\b"
)
_PUNCTUATION = re.compile(r"[\s，,。.！!？?、；;：:~～\"'“”‘’()（）]+")


_SETTINGS = (ActionKind.SET_VALUE, ActionKind.INCREASE, ActionKind.DECREASE)
# The value a word names, explained only by an action that sets that value
# ("风速调低" is no temperature change).
_ATTRIBUTES: dict[re.Pattern[str], frozenset[ActionKind]] = {
    re.compile(r"温度|\btemperature\b|\bheat\b"): frozenset(
        {ActionKind.SET_TEMPERATURE, ActionKind.ADJUST_TEMPERATURE, *_SETTINGS}
    ),
    re.compile(r"湿度|\bhumidity\b"): frozenset({ActionKind.SET_HUMIDITY, *_SETTINGS}),
    re.compile(r"亮度|\bbrightness\b"): frozenset(
        {ActionKind.SET_BRIGHTNESS, ActionKind.ADJUST_BRIGHTNESS, ActionKind.SET_POSITION, *_SETTINGS}
    ),
    re.compile(r"音量|声音|\bvolume\b"): frozenset(
        {ActionKind.SET_VOLUME, ActionKind.ADJUST_VOLUME, ActionKind.SET_POSITION, *_SETTINGS}
    ),
    re.compile(r"风速|风量|\bspeed\b"): frozenset(
        {ActionKind.SET_SPEED, ActionKind.SET_SPEED_LEVEL, ActionKind.SET_POSITION, *_SETTINGS}
    ),
    re.compile(r"位置|开度|\bposition\b"): frozenset({ActionKind.SET_POSITION, ActionKind.SET_VALUE}),
}


# What a question about a device's state may say besides the device and its place
# ("客厅空调现在几度", "is the front door still locked?").
QUESTION_WORDS = re.compile(
    r"[吗嘛么呢]|是不是|有没有|了没有?|没有|没|是否|几度|多少|什么|哪个|哪些|怎么样|如何|"
    r"开着|关着|亮着|锁着|开了|关了|锁了|锁上|锁好|关好|关掉|合上|打开|关闭|关上|开|关|亮|锁|还|在|是|有|几|度|"
    r"现在|目前|状态|情况|"
    r"温度|湿度|亮度|音量|模式|风速|位置|"
    r"\b(?:is|are|was|were|does|do|has|have|what|what's|whats|how|which|status|state|"
    r"on|off|open|opened|closed|shut|locked|unlocked|running|playing|still|currently|right now|"
    r"temperature|humidity|brightness|volume|mode|speed|position|level|set|they|them|this|that)\b"
)


def _blank(text: str, spans: Iterable[str]) -> str:
    """Blank every occurrence of the spans, all found in the original text (they may overlap)."""
    keep = [True] * len(text)
    for span in {s for s in spans if s}:
        # An English name also explains its plural ("the living room lights").
        pattern = re.escape(span)
        # Word edges by ASCII only: "打开40%" has no \b between 开 and 4.
        if span.isascii() and span[-1].isalnum():
            pattern = rf"{pattern}(?:e?s)?(?![a-z0-9])"
        if span.isascii() and span[0].isalnum():
            pattern = rf"(?<![a-z0-9]){pattern}"
        for match in re.finditer(pattern, text):
            keep[match.start() : match.end()] = [False] * (match.end() - match.start())
    return "".join(char if kept else " " for char, kept in zip(text, keep, strict=True))


def leftover(
    text: str, spans: Iterable[str], targets: Iterable[CatalogEntry], action: ActionKind | None = None
) -> str:
    """Return what a command segment says beyond its targets, action, values and places.

    ``spans`` are the words already explained (the action's words, the place words).
    A target's name explains its own characters, or characters that sound the same
    (speech recognition writes 主窝 for 主卧).
    """
    entries = list(targets)
    names = [n.text for e in entries for n in e.names]
    # Words of the targets' kind ("浇花" of a valve, "sprinkler") explain themselves.
    domains = {e.domain for e in entries}
    own_kind = [word for word in domain_words(text) if domains & set(DOMAIN_WORDS[word])]
    # Read on the whole text: a name inside "电视机" must not leave its 机 unexplained.
    fillers = [match.group(0) for match in _FILLER.finditer(text)]
    text = _blank(text, [*spans, *names, *own_kind, *fillers])
    for pattern in (HERE, THAT_ROOM, PRONOUN, _FILLER):
        text = pattern.sub(" ", text)
    for pattern, kinds in _ATTRIBUTES.items():
        if action in kinds:
            text = pattern.sub(" ", text)
    sounds = {unit.sound for e in entries for n in e.names for unit in n.units}
    words = {unit.text for e in entries for n in e.names for unit in n.units if not is_cjk(unit.text)}
    rest = [unit.text for unit in units(_PUNCTUATION.sub(" ", text)) if unit.sound not in sounds]
    return " ".join(word for word in rest if word not in words).strip()
