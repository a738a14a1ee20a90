"""Local rules that read the action of a command segment (Chinese and English).

The text is normalized (Simplified Chinese, lower case) and its Chinese numerals
are already Arabic. A rule that is not sure returns nothing: the model decides.
"""

from dataclasses import dataclass
from enum import StrEnum
import re

from .presets import CHINESE_PRESETS, ENGLISH_PRESETS


class ActionKind(StrEnum):
    """What the user wants done, before it is mapped onto an entity's services."""

    TURN_ON = "turn_on"
    TURN_OFF = "turn_off"
    STOP = "stop"
    LOCK = "lock"
    UNLOCK = "unlock"
    SET_TEMPERATURE = "set_temperature"
    ADJUST_TEMPERATURE = "adjust_temperature"
    SET_BRIGHTNESS = "set_brightness"
    ADJUST_BRIGHTNESS = "adjust_brightness"
    SET_POSITION = "set_position"
    SET_VOLUME = "set_volume"
    ADJUST_VOLUME = "adjust_volume"
    SET_SPEED = "set_speed"
    SET_SPEED_LEVEL = "set_speed_level"
    SET_HUMIDITY = "set_humidity"
    SET_VALUE = "set_value"
    INCREASE = "increase"
    DECREASE = "decrease"
    PAUSE = "pause"
    PLAY = "play"
    NEXT = "next"
    PREVIOUS = "previous"
    START = "start"
    RETURN_HOME = "return_home"
    SET_HVAC_MODE = "set_hvac_mode"
    SET_FAN_MODE = "set_fan_mode"
    SET_PRESET = "set_preset"
    SET_MAX = "set_max"
    SET_MIN = "set_min"
    SET_COLOR = "set_color"
    SET_COLOR_TEMP = "set_color_temp"


@dataclass(frozen=True, slots=True)
class Action:
    """A parsed action; ``value`` is absolute or a delta depending on the kind."""

    kind: ActionKind
    value: float | None = None
    fahrenheit: bool = False
    # The named choice of a mode, a colour or a colour temperature ("cool", "purple", "warm").
    option: str | None = None


_NUM = r"(-?\d+(?:\.\d+)?)"
# A step of temperature: a number, or "half a" (degree).
_STEP = r"(\d+(?:\.\d+)?|half an?)"
_SET = r"(?:调到|调至|调成|设为|设置为|设置成|设成|设到|定在|定为|开到|改成|改为|变成|到|为|至|to)"


def _number(match: re.Match[str], group: int = 1) -> float:
    return float(match.group(group))


type _Rule = tuple[re.Pattern[str], ActionKind, float | None]

# Words that name a choice, by the option they choose.
_OPTIONS: dict[str, str] = {
    "制冷": "cool",
    "冷气": "cool",
    "cool": "cool",
    "cooling": "cool",
    "制热": "heat",
    "暖气": "heat",
    "heat": "heat",
    "heating": "heat",
    "除湿": "dry",
    "抽湿": "dry",
    "dry": "dry",
    "送风": "fan_only",
    "通风": "fan_only",
    "fan only": "fan_only",
    "自动": "auto",
    "auto": "auto",
    "automatic": "auto",
    "高": "high",
    "中": "medium",
    "低": "low",
    "high": "high",
    "medium": "medium",
    "low": "low",
    "红": "red",
    "橙": "orange",
    "黄": "yellow",
    "绿": "green",
    "青": "cyan",
    "蓝": "blue",
    "紫": "purple",
    "粉": "pink",
    "粉红": "pink",
    "red": "red",
    "orange": "orange",
    "yellow": "yellow",
    "green": "green",
    "cyan": "cyan",
    "blue": "blue",
    "purple": "purple",
    "violet": "violet",
    "pink": "pink",
    "magenta": "magenta",
    "暖光": "warm",
    "暖色": "warm",
    "暖白": "warm",
    "暖白光": "warm",
    "暖黄": "warm",
    "warm white": "warm",
    "warm light": "warm",
    "中性光": "neutral",
    "自然光": "neutral",
    "neutral white": "neutral",
    "冷光": "cool",
    "冷白": "cool",
    "冷白光": "cool",
    "冷色": "cool",
    "白光": "cool",
    "正白": "cool",
    "cool white": "cool",
    "cool light": "cool",
    "cold white": "cool",
    "daylight": "cool",
}
_CHINESE_PRESET_WORDS = "|".join(sorted(CHINESE_PRESETS, key=len, reverse=True))
_SET_TO = r"(?:调成|调到|调至|换成|换到|切换到|切换成|切到|改成|改为|设为|设成|开成|转成|变成|成)"

# Rules with numbers or levels come first: "开大点" must not read as "开".
# Rules whose kind takes an option name it in their first group.
_RULES: list[_Rule] = [
    # Modes of climates, the fan mode of climates, colours and colour temperatures of lights.
    (
        re.compile(r"风速\s*(?:调到|调成|调至|开到|设为|设成|改成|调)?\s*(高|中|低|自动)(?!一?点)(?:档|速)?"),
        ActionKind.SET_FAN_MODE,
        None,
    ),
    (
        re.compile(r"\bfan (?:speed |mode )?(?:to |on )?(low|medium|high|auto)\b"),
        ActionKind.SET_FAN_MODE,
        None,
    ),
    (
        re.compile(
            rf"{_SET_TO}\s*(制冷|制热|除湿|抽湿|送风|自动|冷气|暖气)(?:模式)?|开\s*(制冷|制热|送风)(?:模式)?|"
            r"(制冷|制热|除湿|抽湿|送风|自动)模式|\b(cool|cooling|heat|heating|dry|fan only|auto) mode\b"
        ),
        ActionKind.SET_HVAC_MODE,
        None,
    ),
    (
        re.compile(
            rf"(?:{_SET_TO}|开启?|打开|进入|切到|用)?\s*({_CHINESE_PRESET_WORDS})模式|"
            rf"\b({'|'.join(ENGLISH_PRESETS)}) mode\b"
        ),
        ActionKind.SET_PRESET,
        None,
    ),
    (
        re.compile(
            rf"{_SET_TO}?\s*(暖白光|暖光|暖色|暖白|暖黄|中性光|自然光|冷白光|冷光|冷白|冷色|白光|正白)|"
            r"\b(warm white|warm light|neutral white|cool white|cool light|cold white|daylight)\b"
        ),
        ActionKind.SET_COLOR_TEMP,
        None,
    ),
    (
        re.compile(
            rf"{_SET_TO}?\s*(粉红|红|橙|黄|绿|青|蓝|紫|粉)色|"
            r"\b(red|orange|yellow|green|cyan|blue|purple|violet|pink|magenta)\b"
        ),
        ActionKind.SET_COLOR,
        None,
    ),
    # Temperature.
    (
        re.compile(rf"(?:华氏\s*{_NUM}\s*度|{_NUM}\s*(?:°f|℉|fahrenheit|华氏度))"),
        ActionKind.SET_TEMPERATURE,
        None,
    ),
    (
        re.compile(
            rf"(?:调高|升高|提高|增加|加|高|升|warmer by|raise.*by|increase.*by|\bup(?: by)?)"
            rf"\s*{_STEP}\s*(?:度|℃|°|degrees?)|{_STEP}\s*degrees? (?:warmer|higher|up)\b"
        ),
        ActionKind.ADJUST_TEMPERATURE,
        1.0,
    ),
    (
        re.compile(
            rf"(?:调低|降低|减少|减|低|降|cooler by|lower.*by|decrease.*by|\bdown(?: by)?)"
            rf"\s*{_STEP}\s*(?:度|℃|°|degrees?)|{_STEP}\s*degrees? (?:cooler|lower|down)\b"
        ),
        ActionKind.ADJUST_TEMPERATURE,
        -1.0,
    ),
    # "25度半" is 25.5 degrees.
    (re.compile(rf"{_NUM}\s*度半"), ActionKind.SET_TEMPERATURE, 0.5),
    (
        re.compile(rf"{_NUM}\s*(?:度|℃|°c?|摄氏度|degrees?(?: celsius)?|celsius)"),
        ActionKind.SET_TEMPERATURE,
        None,
    ),
    (
        re.compile(r"(?:调高|升高|高一点|高点|热一点|暖和一点|warmer|turn up the heat)"),
        ActionKind.ADJUST_TEMPERATURE,
        1.0,
    ),
    (
        re.compile(r"(?:调低|降低|低一点|低点|凉快一点|凉一点|冷一点|冷点|cooler)"),
        ActionKind.ADJUST_TEMPERATURE,
        -1.0,
    ),
    # Humidity.
    (re.compile(rf"湿度\s*{_SET}?\s*{_NUM}\s*%?|humidity\s*{_SET}?\s*{_NUM}"), ActionKind.SET_HUMIDITY, None),
    # Volume.
    (re.compile(rf"(?:音量|声音|volume)\s*{_SET}?\s*{_NUM}"), ActionKind.SET_VOLUME, None),
    (
        re.compile(r"(?:音量|声音)\S*(?:大|高|加)|大声|调大音量|volume up|louder|turn it up"),
        ActionKind.ADJUST_VOLUME,
        1.0,
    ),
    (
        re.compile(r"(?:音量|声音)\S*(?:小|低|减)|小声|调小音量|volume down|quieter|turn it down"),
        ActionKind.ADJUST_VOLUME,
        -1.0,
    ),
    # Fan speed.
    (re.compile(r"最大档|最高档|最大风|最强档|full speed|max(?:imum)? speed"), ActionKind.SET_SPEED, 100.0),
    (re.compile(r"最小档|最低档|最小风|lowest speed|min(?:imum)? speed"), ActionKind.SET_SPEED_LEVEL, 1.0),
    # One step of speed ("调快一档"), not the first speed.
    (re.compile(r"(?:调快|加快|调高|提高|快|加|升)\s*1\s*档"), ActionKind.INCREASE, None),
    (re.compile(r"(?:调慢|减慢|调低|降低|慢|减|降)\s*1\s*档"), ActionKind.DECREASE, None),
    (re.compile(rf"{_NUM}\s*档|speed\s*{_NUM}"), ActionKind.SET_SPEED_LEVEL, None),
    # The far end of whatever the device sets ("开到最大", "all the way up").
    (
        re.compile(
            r"(?:开到|调到|调至|开|调)?\s*(?:最大|最高|最强)|all the way up|\bmax(?:imum)?\b|\bfull\b"
        ),
        ActionKind.SET_MAX,
        None,
    ),
    (
        re.compile(r"(?:开到|调到|调至|开|调)?\s*(?:最小|最低|最弱)|all the way down|\bmin(?:imum)?\b"),
        ActionKind.SET_MIN,
        None,
    ),
    # Brightness.
    (re.compile(rf"(?:亮度|brightness)\s*{_SET}?\s*{_NUM}\s*%?"), ActionKind.SET_BRIGHTNESS, None),
    (
        re.compile(
            r"最亮|full brightness|brightest|as bright as possible|(?:highest|maximum|max) brightness"
        ),
        ActionKind.SET_BRIGHTNESS,
        100.0,
    ),
    (
        re.compile(r"最暗|dimmest|as dim as possible|(?:lowest|minimum|min) brightness"),
        ActionKind.SET_BRIGHTNESS,
        1.0,
    ),
    (re.compile(r"调亮|亮一点|亮点|亮一些|太暗|brighter|brighten"), ActionKind.ADJUST_BRIGHTNESS, 1.0),
    (re.compile(r"调暗|暗一点|暗点|暗一些|太亮|dimmer|\bdim\b"), ActionKind.ADJUST_BRIGHTNESS, -1.0),
    # Position (covers, valves) and bare percentages.
    (re.compile(r"一半|半开|halfway|half way"), ActionKind.SET_POSITION, 50.0),
    (re.compile(rf"{_SET}?\s*{_NUM}\s*(?:%|percent)"), ActionKind.SET_POSITION, None),
    # A bare number after a verb of setting: its meaning depends on the device.
    (
        re.compile(
            rf"(?:调到|调至|调成|设为|设置为|设置成|设成|设到|开到|set (?:it )?to|turn (?:it )?to)"
            rf"\s*{_NUM}(?!\s*[点:：])"
        ),
        ActionKind.SET_VALUE,
        None,
    ),
    (re.compile(rf"\bto\s*{_NUM}\s*$"), ActionKind.SET_VALUE, None),
    # Generic more/less ("电扇开大点", "调小一点").
    (re.compile(r"(?:开|调|风|再)?大一?点|调大|加大|开大|increase|faster|\bup\b"), ActionKind.INCREASE, None),
    (
        re.compile(r"(?:开|调|风|再)?小一?点|调小|减小|开小|decrease|slower|\bdown\b"),
        ActionKind.DECREASE,
        None,
    ),
    # Media.
    (re.compile(r"下一首|下一曲|切歌|下一集|next (?:song|track)|skip|\bnext\b"), ActionKind.NEXT, None),
    (re.compile(r"上一首|上一曲|上一集|previous (?:song|track)|\bprevious\b"), ActionKind.PREVIOUS, None),
    (re.compile(r"暂停|pause"), ActionKind.PAUSE, None),
    (re.compile(r"继续播放|继续|恢复播放|接着放|resume|unpause|\bplay\b|播放"), ActionKind.PLAY, None),
    # Vacuums.
    (
        re.compile(
            r"回充|回去充电|回基站|回座|返回充电|return to (?:base|dock)|go home|\bdock\b|"
            r"\bsend\b.*\b(?:home|back to (?:the )?(?:base|dock))\b"
        ),
        ActionKind.RETURN_HOME,
        None,
    ),
    (
        re.compile(r"开始(?:扫地|打扫|清扫|拖地|扫拖)|扫一下地|start cleaning|start vacuuming"),
        ActionKind.START,
        None,
    ),
    # Locks (unlocking is sensitive; it is parsed, and policy decides).
    (re.compile(r"开锁|解锁|unlock"), ActionKind.UNLOCK, None),
    (re.compile(r"锁上|上锁|锁门|反锁|锁好|\block\b"), ActionKind.LOCK, None),
    # Stop.
    (re.compile(r"停止|停下|别动|\bstop\b"), ActionKind.STOP, None),
    # On / off (open / close for covers and valves).
    (
        re.compile(
            r"关闭|关掉|关上|关了|关一下|关下|拉上|合上|放下|降下|拉下|"
            r"turn off|switch off|shut|close|\boff\b|\blower\b|关"
        ),
        ActionKind.TURN_OFF,
        None,
    ),
    (
        re.compile(
            r"打开|开启|开一下|开下|启动|拉开|拉起|升起|收起|卷起|"
            r"turn on|switch on|\bopen\b|\bon\b|\braise\b|\bactivate\b|开"
        ),
        ActionKind.TURN_ON,
        None,
    ),
]


_OPTION_KINDS = {
    ActionKind.SET_HVAC_MODE,
    ActionKind.SET_FAN_MODE,
    ActionKind.SET_COLOR,
    ActionKind.SET_COLOR_TEMP,
    ActionKind.SET_PRESET,
}


def parse_action(text: str) -> Action | None:
    """Return the action a normalized segment asks for, or None."""
    for pattern, kind, default in _RULES:
        match = pattern.search(text)
        if match is None:
            continue
        if kind in _OPTION_KINDS:
            word = next(g for g in match.groups() if g is not None)
            return Action(kind, option=_OPTIONS.get(word, word))
        numbers = [g for g in match.groups() if g is not None]
        if kind is ActionKind.SET_TEMPERATURE and any(
            marker in match.group(0) for marker in ("°f", "℉", "fahrenheit", "华氏")
        ):
            return Action(kind, float(numbers[0]), fahrenheit=True)
        if kind is ActionKind.ADJUST_TEMPERATURE and numbers:
            step = 0.5 if numbers[0].startswith("half") else float(numbers[0])
            return Action(kind, (default or 1.0) * step)
        if kind is ActionKind.SET_TEMPERATURE and default is not None and numbers:
            return Action(kind, float(numbers[0]) + default)
        if numbers:
            return Action(kind, float(numbers[0]))
        return Action(kind, default)
    return None


def action_words(text: str) -> list[str]:
    """Return every stretch of a text that any action rule reads (verbs, values, units)."""
    return [match.group(0) for pattern, _, _ in _RULES for match in pattern.finditer(text)]


def strip_action(text: str) -> str:
    """Return the text without the words of its action ("把卧室灯关掉" → "把卧室灯")."""
    for pattern, _, _ in _RULES:
        if match := pattern.search(text):
            return text[: match.start()] + " " + text[match.end() :]
    return text
