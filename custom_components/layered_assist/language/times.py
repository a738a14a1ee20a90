"""Times said in Chinese or English: the one vocabulary of times, and the alarm-time parser.

7点半, 明早七点, 下午3点, 二十分钟后, 一个半小时后, in 20 minutes, tomorrow 6:30, 7 pm,
每天7点, 工作日7点, every weekday at 7, 每周一8点. ``LATER`` tells a request for later
from one for now, ``without_time`` leaves the command of a request for later, and
``parse_alarm_time`` says when it is due.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
import re

from .numbers import chinese_to_number, english_to_arabic, to_arabic
from .text import normalize

DAILY, WEEKDAYS = "daily", "weekdays"
_DAYS = r"今天|明天|后天"
_PARTS_OF_DAY = r"早上|早晨|清晨|上午|中午|下午|傍晚|晚上|今晚|今天晚上|明早|明晚|凌晨|半夜|夜里"
_CN_NUMBER = r"(?:\d+|[二三四五六七八九十两][一二三四五六七八九十]*)"
# A request for later: a time, a part of a day, or a vague "in a while". 一点 after 调高 is
# "a bit", not one o'clock.
LATER = re.compile(
    rf"{_CN_NUMBER}\s*(?:个)?(?:分钟|小时|钟头|秒钟?|天)(?:以后|之后|后|以内)|"
    rf"(?:^|[^大小亮暗高低快慢多少强弱冷热近远一]){_CN_NUMBER}点(?:钟|半|{_CN_NUMBER}分?)?|"
    r"\d{1,2}[:：]\d{2}|"
    rf"{_PARTS_OF_DAY}|明天|后天|"
    r"睡前|睡觉前|一会儿?|待会儿?|等会儿?|稍后|过会儿?|回头|等一?下(?=\s*再)|等一等(?=\s*再)|"
    r"\bin (?:\d+|an?|half an?) (?:seconds?|minutes?|mins?|hours?|days?)\b|"
    r"\btonight\b|\btomorrow\b|\blater\b|\bafter\b|\bsoon\b|"
    r"\bthis (?:morning|afternoon|evening)\b|\bat \d{1,2}(?::\d{2})?\s*(?:am|pm|o'?clock)?\b|"
    r"\bat (?:noon|midnight)\b"
)
# The words of a time in a request for later (prepared text: Arabic numerals).
_TIME_PHRASE = re.compile(
    r"(?:\d+|[一二两三四五六七八九十半]+)\s*个?半?\s*(?:分钟|分|小时|钟头|秒钟?)\s*(?:以后|之后|后)|"
    rf"(?:{_DAYS})?(?:{_PARTS_OF_DAY})?\s*"
    r"(?:\d{1,2}|[一二两三四五六七八九十]+)\s*(?:点|:|：)\s*(?:半|一刻|三刻|\d{1,2}\s*分?|[一二三四五六七八九十]+分?)?(?:钟)?|"
    rf"{_DAYS}|{_PARTS_OF_DAY}|"
    r"\bin\s*(?:\d+(?:\.\d+)?|half an?)\s*(?:minutes?|mins?|hours?|hrs?)\b|"
    r"\b(?:at\s*)?\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\bat\s*\d{1,2}(?::\d{2})?\b|"
    r"\btonight\b|\btomorrow\b"
)
_WEEKDAY_ZH = "一二三四五六日天"
_WEEKDAY_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Numerals before 点/时/个 are clock hours or counts here (in devices they may mean "a bit").
_CLOCK_NUMERALS = re.compile(r"([零一二两三四五六七八九十]+)(?=\s*(?:点|时|个))")
_UNIT = r"(分钟|分|小时|钟头|minutes?|mins?|hours?|hrs?)"
# A relative time says "后/later" after it or "in" before it: 30分 alone is a clock minute.
_RELATIVE = re.compile(
    rf"(\d+(?:\.\d+)?)\s*(?:个)?(半)?\s*{_UNIT}\s*(?:后|以后|之后|later)|\bin\s*(\d+(?:\.\d+)?)\s*()\s*{_UNIT}"
)
_HALF_HOUR = re.compile(r"半(?:个)?小时(?:后|以后|之后)|in half an hour")
_ZH_CLOCK = re.compile(r"(\d{1,2})\s*(?:点|:|：|时)\s*(?:(\d{1,2})\s*分?|(半)|(一刻)|(三刻))?")
_EN_CLOCK = re.compile(r"(?:\bat\s*)?\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?=\s|$|,)")
_PM = re.compile(r"下午|傍晚|晚上|今晚|明晚|夜里|\bpm\b|p\.m\.|evening|tonight|afternoon")
_AM = re.compile(r"早上|早晨|清晨|上午|明早|凌晨|\bam\b|a\.m\.|morning")
_NOON = re.compile(r"中午|noon")
_WEEKLY_ZH = re.compile(rf"每(?:周|星期|个星期)([{_WEEKDAY_ZH}])")
_WEEKLY_EN = re.compile(r"every\s+(" + "|".join(_WEEKDAY_EN) + r")")


# A time said in a request for later, as a span of the prepared sentence: a relative time
# (十分钟后, in 10 minutes), a clock time with its day and part of day (明晚8点, at 7 pm), or
# a day, part of a day or vague "later" (今晚, 待会儿, tonight). "at 22" is no time: "set it at 22".
_LATER_SPAN = re.compile(
    r"(?:\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*个?半?\s*(?:分钟|分|小时|钟头|钟|秒钟?|天)\s*(?:以后|之后|后|以内)|"
    r"半个?(?:小时|钟)\s*(?:以后|之后|后)|一?阵间|"
    rf"(?:{_DAYS})?(?:{_PARTS_OF_DAY})?\s*"
    r"(?<![大小亮暗高低快慢多少强弱冷热近远一])(?:\d{1,2}|[两三四五六七八九十]+)\s*(?:点|:|：)\s*"
    r"(?:半|一刻|三刻|\d{1,2}\s*分?|[一二三四五六七八九十]+分?)?(?:钟)?|"
    rf"(?:{_DAYS})(?:{_PARTS_OF_DAY})?|{_PARTS_OF_DAY}|睡前|睡觉前|一会儿?|待会儿?|等会儿?|稍后|过会儿?|回头|晚点|"
    # "Wait a moment, then" (等一下再关): later; 等一下 alone may be "hold on".
    r"等一?下(?=\s*再)|等一等(?=\s*再)|"
    r"\bin\s*(?:\d+(?:\.\d+)?|an?|half an?)\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)\b|"
    r"\b(?:at\s*)?\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock)|\bat\s*\d{1,2}:\d{2}\b|"
    r"\bat (?:noon|midnight)\b|\b(?:tonight|tomorrow(?: (?:morning|afternoon|evening|night))?|later(?: on)?|"
    r"this (?:morning|afternoon|evening)|before bed(?:time)?|in a (?:bit|while|minute|moment|sec)|soon)\b"
)


# The word before a clock hour said bare ("turn the porch light off at ten"); after a verb of
# setting it says a value instead ("keep it at 20").
CLOCK_AT = frozenset({"at"})
# Verbs whose "at N" is a clock time: switching, locking, starting; and those whose "at N" is
# a value: setting.
CLOCK_VERBS = frozenset(
    {"on", "off", "lock", "unlock", "pause", "play", "stop", "dock", "clean", "water", "boil"}
)
SETTING_VERBS = frozenset({"set", "adjust", "keep", "still"})


def later_spans(prepared: str) -> list[tuple[int, int]]:
    """Return where a prepared sentence says a time for later, as character spans."""
    return [match.span() for match in _LATER_SPAN.finditer(prepared) if match.group(0).strip()]


def without_time(text: str) -> str:
    """Return what a request for later asks to do, without its time ("关掉客厅主灯")."""
    return re.sub(r"\s+", " ", _TIME_PHRASE.sub(" ", text)).strip(" ,，")


class AlarmTimeError(ValueError):
    """The text says no time we understand."""


@dataclass(frozen=True, slots=True)
class AlarmTime:
    """When an alarm is due, and how it repeats (None, daily, weekdays or weekly:N)."""

    due: datetime
    repeat: str | None = None


def next_occurrence(after: datetime, hour: int, minute: int, repeat: str | None) -> datetime:
    """Return the next time at hour:minute after ``after`` that the repeat allows."""
    candidate = after.replace(hour=hour, minute=minute, second=0, microsecond=0)
    for _ in range(8):
        if candidate > after and _allowed(candidate, repeat):
            return candidate
        candidate += timedelta(days=1)
    return candidate


def _allowed(day: datetime, repeat: str | None) -> bool:
    if repeat == WEEKDAYS:
        return day.weekday() < 5
    if repeat and repeat.startswith("weekly:"):
        return day.weekday() == int(repeat.split(":", 1)[1])
    return True


def parse_alarm_time(text: str, now: datetime) -> AlarmTime:
    """Return when an alarm said in ``text`` is due, relative to ``now`` (aware, local)."""
    phrase = _CLOCK_NUMERALS.sub(
        lambda m: f"{chinese_to_number(m.group(1)) or m.group(1)}",
        to_arabic(english_to_arabic(normalize(text))),
    )
    if match := _RELATIVE.search(phrase):
        number, half, unit = (
            (match.group(1), match.group(2), match.group(3))
            if match.group(1)
            else (
                match.group(4),
                None,
                match.group(6),
            )
        )
        amount = float(number) + (0.5 if half else 0)
        minutes = amount if unit.startswith(("分", "min")) else amount * 60
        return AlarmTime((now + timedelta(minutes=minutes)).replace(microsecond=0))
    if _HALF_HOUR.search(phrase):
        return AlarmTime((now + timedelta(minutes=30)).replace(microsecond=0))

    repeat = _repeat(phrase)
    hour, minute = _clock(phrase)
    if _NOON.search(phrase) and hour < 12:
        hour = 12 if hour == 0 else hour
    elif _PM.search(phrase) and hour < 12:
        hour += 12
    elif _AM.search(phrase) and hour == 12:
        hour = 0
    explicit_period = bool(_PM.search(phrase) or _AM.search(phrase) or _NOON.search(phrase)) or hour > 12

    days = 2 if "后天" in phrase else 1 if re.search(r"明|tomorrow", phrase) else 0
    if days:
        base = (now + timedelta(days=days)).replace(hour=0, minute=0, second=0, microsecond=0)
        return AlarmTime(base.replace(hour=hour, minute=minute), repeat)
    due = next_occurrence(now, hour, minute, repeat)
    if not explicit_period and repeat is None and hour < 12:
        # "7点" at 15:00 means 19:00 today rather than 07:00 tomorrow.
        evening = next_occurrence(now, hour + 12, minute, None)
        due = min(due, evening)
    return AlarmTime(due, repeat)


def _repeat(phrase: str) -> str | None:
    if match := _WEEKLY_ZH.search(phrase):
        day = match.group(1)
        return f"weekly:{6 if day in '日天' else _WEEKDAY_ZH.index(day)}"
    if match := _WEEKLY_EN.search(phrase):
        return f"weekly:{_WEEKDAY_EN.index(match.group(1))}"
    if re.search(r"工作日|weekdays?", phrase):
        return WEEKDAYS
    if re.search(r"每天|每日|every day|everyday|daily", phrase):
        return DAILY
    return None


def _clock(phrase: str) -> tuple[int, int]:
    """Return hour and minute said in the phrase."""
    if match := _ZH_CLOCK.search(phrase):
        hour = int(match.group(1))
        minute = (
            int(match.group(2))
            if match.group(2)
            else 30
            if match.group(3)
            else 15
            if match.group(4)
            else 45
            if match.group(5)
            else 0
        )
    elif match := _EN_CLOCK.search(phrase):
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        suffix = match.group(3) or ""
        if suffix.startswith("p") and hour < 12:
            hour += 12
        elif suffix.startswith("a") and hour == 12:
            hour = 0
    else:
        raise AlarmTimeError(f"no time in {phrase!r}")
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise AlarmTimeError(f"not a time of day: {hour}:{minute:02d}")
    return hour, minute
