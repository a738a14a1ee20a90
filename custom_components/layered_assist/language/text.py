"""Text normalization for matching: width, case, Traditional→Simplified, pinyin units.

A text becomes a list of units. A CJK character is one unit; a run of ASCII letters
or digits is one unit. Each unit carries a "sound" key (toneless pinyin for CJK, the
lowercased word otherwise) so that homophones from speech recognition (客厅等 for
客厅灯) still match.
"""

from dataclasses import dataclass
from functools import lru_cache
import re
import unicodedata

from opencc_purepy import OpenCC
from pypinyin import Style, lazy_pinyin

from .dialects import fold_dialects

_T2S = OpenCC("t2s")
# Traditional characters by translation file: Taiwan's forms and phrases (影片, 資訊),
# else the standard ones our Traditional and Cantonese replies are written in.
_TO_TRADITIONAL = {"zh-TW": OpenCC("s2twp")}
_S2T = OpenCC("s2t")
_TOKEN = re.compile(r"[\u3400-\u9fff]|[a-z]+|\d+(?:\.\d+)?")
_CJK = re.compile(r"[\u3400-\u9fff]")

# Pinyin finals and initials that speech recognizers (and speakers) confuse.
_FUZZY_SOUNDS = (("zh", "z"), ("ch", "c"), ("sh", "s"), ("ing", "in"), ("eng", "en"), ("ang", "an"))


@dataclass(frozen=True, slots=True)
class Unit:
    """One matchable unit of text."""

    text: str
    sound: str


def normalize(text: str) -> str:
    """Return NFKC, lowercased, Simplified-Chinese text, Cantonese and Taiwan words in Mandarin."""
    folded = unicodedata.normalize("NFKC", text).lower()
    return fold_dialects(_T2S.convert(folded)) if _CJK.search(folded) else folded


@lru_cache(maxsize=8192)
def _sound(char: str) -> str:
    """Return a character's toneless pinyin, with confusable sounds merged."""
    sound = lazy_pinyin(char, style=Style.NORMAL, errors="default")[0]
    for long, short in _FUZZY_SOUNDS:
        if sound.startswith(long) or sound.endswith(long):
            sound = sound.replace(long, short)
    return sound


def _stem(word: str) -> str:
    """Return an English word without a plural ending."""
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def units(text: str) -> tuple[Unit, ...]:
    """Return the units of an already normalized text."""
    result = []
    for token in _TOKEN.findall(text):
        if _CJK.match(token):
            result.append(Unit(token, _sound(token)))
        elif token[0].isdigit():
            result.append(Unit(token, token))
        else:
            stem = _stem(token)
            result.append(Unit(stem, stem))
    return tuple(result)


def to_traditional(text: str, variant: str = "zh-Hant") -> str:
    """Return text in the Traditional characters of a variant (zh-HK, zh-TW, zh-Hant)."""
    if not _CJK.search(text):
        return text
    return _TO_TRADITIONAL.get(variant, _S2T).convert(text)


def is_cjk(text: str) -> bool:
    """Tell whether a text contains Chinese characters."""
    return bool(_CJK.search(text))
