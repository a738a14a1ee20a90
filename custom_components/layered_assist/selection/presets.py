"""The entity option a spoken preset or level picks ("睡眠模式", "laundry mode", "风速调成自动").

Integrations name presets, fan modes and suction levels in English keys (HA's ``sleep``,
``eco``, ``boost``) or in their own words; a spoken choice picks an entity's option only when
that option is one of the keys the choice is known to mean (``language/concepts.py``) or one
of the language data's words for it. Anything else is not guessed.
"""

from collections.abc import Iterable
import re

from ..language.concepts import FAN_MODE_KEYS, PRESET_KEYS
from ..language.lexicon import Category, concept_words
from ..language.numbers import chinese_numeral
from ..language.tokens import normalize


def _key(text: str) -> str:
    return re.sub(r"[\s_-]+", "_", text.strip().lower())


_MODE_WORDS = re.compile(r"模式$|\s*mode$")


def pick_option(options: Iterable[object], keys: Iterable[str], concepts: Iterable[str]) -> str | None:
    """Return the entity's option named by one of the keys or said in one of the concepts' words.

    The option may be a key ("sleep", "Cloth Dry") or the device's own word for it ("睡眠",
    "自動" of a fan-mode list written in Chinese).
    """
    by_key = {_key(str(option)): str(option) for option in options}
    by_word = {_MODE_WORDS.sub("", normalize(str(option))): str(option) for option in by_key.values()}
    for key in keys:
        if (option := by_key.get(_key(key))) is not None:
            return option
    for concept in concepts:
        for word in concept_words(Category.OPTION, concept):
            if (option := by_word.get(_MODE_WORDS.sub("", word))) is not None:
                return option
    return None


def pick_preset(preset: str, options: Iterable[object]) -> str | None:
    """Return the entity's option a spoken preset names, or None."""
    # ("调成自动" of a purifier: its "自动" preset, said as the climate's auto mode is.)
    return pick_option(
        options, (preset, *PRESET_KEYS.get(preset, ())), (f"preset.{preset}", f"hvac.{preset}")
    )


def pick_fan_mode(level: str, options: Iterable[object]) -> str | None:
    """Return the option a spoken fan level names ("风速调成自动", "fan on high"), or None.

    Of a climate's fan modes, a fan's presets or a vacuum's suction levels.
    """
    options = tuple(options)
    named = pick_option(options, FAN_MODE_KEYS.get(level, (level,)), (f"level.{level}", f"hvac.{level}"))
    return named if named is not None else _numbered_level(level, options)


def fan_mode_step(current: object, options: Iterable[object], *, up: bool) -> str | None:
    """Return the fan mode a step up or down ("风速调低"): the next number, or the end of a named scale.

    Of numbered levels only a numbered current one has a next ("Auto" has none).
    """
    options = tuple(options)
    numbered = _numbered(options)
    if not numbered:
        return pick_fan_mode("high" if up else "low", options)
    if str(current) not in numbered:
        return None
    index = numbered.index(str(current)) + (1 if up else -1)
    return numbered[max(0, min(len(numbered) - 1, index))]


def numbered_fan_mode(level: float, options: Iterable[object]) -> str | None:
    """Return the fan mode that is this number ("风速较去三" of Daikin's "1"…"5"), if there is one."""
    wanted = str(int(level)) if level == int(level) else None
    return wanted if wanted is not None and wanted in _numbered(tuple(options)) else None


def level_mode(level: float, options: Iterable[object]) -> str | None:
    """Return the mode that is this level ("开到三档" of a humidifier's 一档…三档, "Level 3"), if one is."""
    if level != int(level) or not 0 < level < 100:
        return None
    numbers = {str(int(level)), chinese_numeral(int(level))}
    wanted = {f"{n}档" for n in numbers} | {f"{n}级" for n in numbers} | {f"level{n}" for n in numbers}
    found = [str(o) for o in options if re.sub(r"[\s_-]+", "", normalize(str(o))) in wanted]
    return found[0] if len(found) == 1 else None


def percent_fan_mode(percentage: float, options: Iterable[object]) -> str | None:
    """Return the fan mode written as this percentage ("风速调到60%" of "20%"…"100%"), if there is one."""
    wanted = f"{int(percentage)}%" if percentage == int(percentage) else None
    return wanted if wanted is not None and wanted in _numbered(tuple(options)) else None


def _level_number(option: str) -> int | None:
    """Return the number a level is written as: "3", or "60%" (a Panasonic's fan modes)."""
    digits = option.removesuffix("%")
    return int(digits) if digits.isdigit() else None


def _numbered(options: tuple[object, ...]) -> list[str]:
    """Return the numbered levels among a device's options, lowest first (none unless two or more).

    Levels are numbers ("1"…"5") or percentages ("20%"…"100%"), not both.
    """
    for percent in (False, True):
        numbered = [
            str(option)
            for option in options
            if str(option).endswith("%") is percent and _level_number(str(option)) is not None
        ]
        if len(numbered) >= 2:
            return sorted(numbered, key=lambda option: _level_number(option) or 0)
    return []


def _numbered_level(level: str, options: tuple[object, ...]) -> str | None:
    """Return the highest, lowest or middle of numbered levels (Daikin's "Auto", "Silence", "1"…"5")."""
    numbered = _numbered(options)
    if not numbered:
        return None
    if level == "high":
        return numbered[-1]
    if level == "low":
        return numbered[0]
    # A middle is only sure of an odd count ("3" of 1…5).
    return numbered[len(numbered) // 2] if level == "medium" and len(numbered) % 2 else None
