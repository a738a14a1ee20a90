"""Write the sound table the integration reads instead of depending on pypinyin at run time.

``custom_components/layered_assist/language/data/sounds.txt`` holds, one sound per line,
the Chinese characters whose most common reading is that toneless pinyin, as pypinyin
(MIT) reads a single character. Run ``scripts/make-sounds`` after upgrading pypinyin; a
test checks that the table still agrees with it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import re

from pypinyin import Style, lazy_pinyin
from pypinyin.pinyin_dict import pinyin_dict

LANGUAGE = Path(__file__).resolve().parent.parent / "custom_components" / "layered_assist" / "language"
TABLE = LANGUAGE / "data" / "sounds.txt"
# The characters the integration reads as Chinese (language/tokens.py).
_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
HEADER = """\
# Each Chinese character's toneless pinyin (its most common reading), one sound per line:
#     sound: characters
# Written by scripts/make-sounds from pypinyin's single-character readings (MIT licence,
# https://github.com/mozillazg/python-pinyin); tests/language/test_sounds.py checks it.
"""


def readings() -> dict[str, str]:
    """Return each character's sound, as pypinyin reads the character alone."""
    found = {}
    for code in sorted(pinyin_dict):
        char = chr(code)
        if not _HAN.match(char):
            continue
        sound = lazy_pinyin(char, style=Style.NORMAL, errors="default")[0]
        if sound != char and sound.isascii() and sound.isalpha():
            found[char] = sound
    return found


def table_text() -> str:
    """Return the table file's text."""
    by_sound: dict[str, list[str]] = {}
    for char, sound in readings().items():
        by_sound.setdefault(sound, []).append(char)
    lines = [f"{sound}: {''.join(chars)}" for sound, chars in sorted(by_sound.items())]
    return HEADER + "\n".join(lines) + "\n"


def main() -> None:
    """Write the table (or to another path)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=TABLE)
    out: Path = parser.parse_args().out
    text = table_text()
    out.write_text(text, encoding="utf-8")
    print(f"{out}: {text.count(chr(10)) - HEADER.count(chr(10))} sounds, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
