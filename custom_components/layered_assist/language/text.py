"""Text normalization for reading, and Traditional characters for replies.

Reading: width, case, Traditional to Simplified, dialect words to Mandarin. A text's
units and their sounds are in tokens.py.
"""

import re
import unicodedata

from opencc_purepy import OpenCC

from .dialects import fold_dialects

_T2S = OpenCC("t2s")
# Traditional characters by translation file: Taiwan's forms and phrases (影片, 資訊),
# else the standard ones our Traditional and Cantonese replies are written in.
_TO_TRADITIONAL = {"zh-TW": OpenCC("s2twp")}
_S2T = OpenCC("s2t")
_CJK = re.compile(r"[\u3400-\u9fff]")


def normalize(text: str) -> str:
    """Return NFKC, lowercased, Simplified-Chinese text, Cantonese and Taiwan words in Mandarin."""
    folded = unicodedata.normalize("NFKC", text).lower()
    return fold_dialects(_T2S.convert(folded)) if _CJK.search(folded) else folded


def to_traditional(text: str, variant: str = "zh-Hant") -> str:
    """Return text in the Traditional characters of a variant (zh-HK, zh-TW, zh-Hant)."""
    if not _CJK.search(text):
        return text
    return _TO_TRADITIONAL.get(variant, _S2T).convert(text)
