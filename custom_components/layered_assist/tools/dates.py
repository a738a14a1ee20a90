"""Dates said in Chinese or English: 今天, 明天, 昨天, 后天, 2026-11-22, 11月22日, next Friday, 下周五."""

from datetime import date, timedelta
import re

from ..language.numbers import to_arabic
from ..language.text import normalize

_RELATIVE = {
    "今天": 0,
    "今日": 0,
    "today": 0,
    "明天": 1,
    "明日": 1,
    "tomorrow": 1,
    "后天": 2,
    "昨天": -1,
    "yesterday": -1,
    "前天": -2,
}
_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAYS_ZH = "一二三四五六日"
_ISO = re.compile(r"(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?")
_MONTH_DAY = re.compile(r"(\d{1,2})月(\d{1,2})[日号]")
_ZH_WEEKDAY = re.compile(r"(下下|下|这|本|上)?(?:周|星期|礼拜)([一二三四五六日天])")
_EN_WEEKDAY = re.compile(r"(next|this|last)?\s*(" + "|".join(_WEEKDAYS_EN) + r")")


class DateError(ValueError):
    """The text names no date we understand."""


def parse_date(text: str | None, today: date) -> date:
    """Return the date a phrase names, relative to ``today``; no phrase means today."""
    if not text or not text.strip():
        return today
    phrase = to_arabic(normalize(text))
    if match := _ISO.search(phrase):
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    if match := _MONTH_DAY.search(phrase):
        return date(today.year, int(match.group(1)), int(match.group(2)))
    for word, offset in _RELATIVE.items():
        if word in phrase:
            return today + timedelta(days=offset)
    if match := _ZH_WEEKDAY.search(phrase):
        weekday = 6 if match.group(2) in "日天" else _WEEKDAYS_ZH.index(match.group(2))
        return _weekday(today, weekday, {"下": 1, "下下": 2, "上": -1}.get(match.group(1) or "", 0))
    if match := _EN_WEEKDAY.search(phrase):
        weekday = _WEEKDAYS_EN.index(match.group(2))
        return _weekday(today, weekday, {"next": 1, "last": -1}.get(match.group(1) or "", 0))
    raise DateError(f"no date in {text!r}")


def _weekday(today: date, weekday: int, weeks: int) -> date:
    """Return the weekday of this week (the coming one when it has passed), shifted by weeks."""
    start = today - timedelta(days=today.weekday())
    day = start + timedelta(days=weekday, weeks=weeks)
    if weeks == 0 and day < today:
        day += timedelta(weeks=1)
    return day
