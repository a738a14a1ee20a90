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
    return pick_option(options, FAN_MODE_KEYS.get(level, (level,)), (f"level.{level}", f"hvac.{level}"))
