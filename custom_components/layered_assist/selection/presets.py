"""The entity option a spoken preset picks ("睡眠模式", "laundry mode").

Integrations name presets in English keys (HA's ``sleep``, ``eco``, ``boost``) or in their
own words; a spoken preset picks an entity's option only when that option is one of the
keys the preset is known to mean (``language/concepts.py``). Anything else is not guessed.
"""

import re

from ..language.concepts import PRESET_KEYS
from ..language.lexicon import Category, concept_words
from ..language.tokens import normalize


def _key(text: str) -> str:
    return re.sub(r"[\s_-]+", "_", text.strip().lower())


_MODE_WORDS = re.compile(r"模式$|\s*mode$")


def pick_preset(preset: str, options: tuple[str, ...] | list[str]) -> str | None:
    """Return the entity's option a spoken preset names, or None.

    The option may be a key ("sleep") or the device's own word for it ("睡眠", "Natural Wind").
    """
    by_key = {_key(str(option)): str(option) for option in options}
    by_word = {_MODE_WORDS.sub("", normalize(str(option))): str(option) for option in options}
    for key in (preset, *PRESET_KEYS.get(preset, ())):
        if (option := by_key.get(_key(key))) is not None:
            return option
    for word in concept_words(Category.OPTION, f"preset.{preset}"):
        if (option := by_word.get(_MODE_WORDS.sub("", word))) is not None:
            return option
    return None
