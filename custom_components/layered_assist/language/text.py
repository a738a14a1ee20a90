"""Text normalization for matching: width, case, Traditional→Simplified, pinyin units.

A text becomes a list of units. A CJK character is one unit; a run of ASCII letters
or digits is one unit. Each unit carries a "sound" key (toneless pinyin for CJK, the
lowercased word otherwise) so that homophones from speech recognition (客厅等 for
客厅灯) still match.
"""

from dataclasses import dataclass
import re
import unicodedata

from opencc_purepy import OpenCC

from .dialects import fold_dialects
from .tokens import sound_of, stem

_T2S = OpenCC("t2s")
# Traditional characters by translation file: Taiwan's forms and phrases (影片, 資訊),
# else the standard ones our Traditional and Cantonese replies are written in.
_TO_TRADITIONAL = {"zh-TW": OpenCC("s2twp")}
_S2T = OpenCC("s2t")
_TOKEN = re.compile(r"[\u3400-\u9fff]|[a-z]+|\d+(?:\.\d+)?")
_CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True, slots=True)
class Unit:
    """One matchable unit of text."""

    text: str
    sound: str


def normalize(text: str) -> str:
    """Return NFKC, lowercased, Simplified-Chinese text, Cantonese and Taiwan words in Mandarin."""
    folded = unicodedata.normalize("NFKC", text).lower()
    return fold_dialects(_T2S.convert(folded)) if _CJK.search(folded) else folded


def units(text: str) -> tuple[Unit, ...]:
    """Return the units of an already normalized text."""
    result = []
    for token in _TOKEN.findall(text):
        if _CJK.match(token):
            result.append(Unit(token, sound_of(token)))
        elif token[0].isdigit():
            result.append(Unit(token, token))
        else:
            word = stem(token)
            result.append(Unit(word, word))
    return tuple(result)


def to_traditional(text: str, variant: str = "zh-Hant") -> str:
    """Return text in the Traditional characters of a variant (zh-HK, zh-TW, zh-Hant)."""
    if not _CJK.search(text):
        return text
    return _TO_TRADITIONAL.get(variant, _S2T).convert(text)


def is_cjk(text: str) -> bool:
    """Tell whether a text contains Chinese characters."""
    return bool(_CJK.search(text))
