"""Text as the local layers read it: normalized, with numerals in digits, split into tokens.

A token is a Chinese character, an English word (apostrophes kept: "don't"), a number or
one symbol (%, °, ？). Each carries a sound: toneless pinyin for Chinese, so that speech
recognition's homophones (客厅等 for 客厅灯) still match; the singular for English words.
Sentences, names and the words of the language data are all split the same way.
"""

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
import re
import unicodedata

from opencc_purepy import OpenCC

from .numbers import english_to_arabic, to_arabic

_T2S = OpenCC("t2s")
# CJK ideographs, with the supplementary planes (Cantonese 𠮶 is beyond the basic block).
_HAN = "\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_CJK = re.compile(f"[{_HAN}]")
_TOKEN = re.compile(f"[{_HAN}]" + r"|[a-z\u00c0-\u024f]+(?:'[a-z]+)*|\d+(?:\.\d+)?|[^\s\w]")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})

# Each character's toneless pinyin, one sound per line (written by scripts/make-sounds).
SOUND_TABLE = Path(__file__).parent / "data" / "sounds.txt"
# Pinyin finals and initials that speech recognizers (and speakers) confuse.
_FUZZY_SOUNDS = (("zh", "z"), ("ch", "c"), ("sh", "s"), ("ing", "in"), ("eng", "en"), ("ang", "an"))


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a normalized text, with its place in that text."""

    text: str
    sound: str
    start: int
    end: int

    @property
    def is_cjk(self) -> bool:
        """Tell whether the token is a Chinese character."""
        return bool(_CJK.match(self.text))

    @property
    def is_word(self) -> bool:
        """Tell whether the token is a letter word or a Chinese character (not a number or symbol)."""
        return self.text[0].isalpha()


# "the grandkids' fan" is the grandkids fan, as "Caleb's lamp" is found as "Caleb lamp".
# A hyphen inside a word joins two words of a name ("Off-Grid Shed"): read as a space, so no
# part of the name stands alone between punctuation ("off" is no verb there).
_WORD_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
_PLURAL_POSSESSIVE = re.compile(r"(?<=[a-z]s)'(?![a-z])")


def normalize(text: str) -> str:
    """Return NFKC, lower-case text in Simplified characters."""
    folded = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES).lower()
    folded = _WORD_HYPHEN.sub(" ", _PLURAL_POSSESSIVE.sub("", folded))
    return _T2S.convert(folded) if _CJK.search(folded) else folded


def prepare(text: str) -> str:
    """Return a sentence normalized, with Chinese and English numerals as digits."""
    return to_arabic(english_to_arabic(normalize(text)))


@lru_cache(maxsize=1)
def sounds() -> dict[str, str]:
    """Return each Chinese character's toneless pinyin, read once (in an executor, by load_all)."""
    table: dict[str, str] = {}
    for raw in SOUND_TABLE.read_text(encoding="utf-8").splitlines():
        if not raw or raw.startswith("#"):
            continue
        sound, _, chars = raw.partition(":")
        table.update(dict.fromkeys(chars.strip(), sound.strip()))
    return table


@lru_cache(maxsize=8192)
def sound_of(char: str) -> str:
    """Return a character's toneless pinyin, with confusable sounds merged; else the character."""
    sound = sounds().get(char, char)
    for long, short in _FUZZY_SOUNDS:
        if sound.startswith(long) or sound.endswith(long):
            sound = sound.replace(long, short)
    return sound


def stem(word: str) -> str:
    """Return an English word without a plural ending."""
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> tuple[Token, ...]:
    """Split a normalized text into tokens."""
    tokens = []
    for match in _TOKEN.finditer(text):
        piece = match.group(0)
        if _CJK.match(piece):
            sound = sound_of(piece)
        elif piece[0].isalpha():
            sound = stem(piece)
        else:
            sound = piece
        tokens.append(Token(piece, sound, match.start(), match.end()))
    return tuple(tokens)


def is_cjk(text: str) -> bool:
    """Tell whether a text contains Chinese characters."""
    return bool(_CJK.search(text))
