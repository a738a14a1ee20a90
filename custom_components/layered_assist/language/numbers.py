"""Numbers in Chinese and Arabic numerals: 二十六, 二十二点五, 零下五, 两, 百分之六十, 六成."""

import re

_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_NUMERAL_CHARS = "".join(_DIGITS) + "".join(_UNITS) + "点"
_CHINESE_NUMBER = re.compile(f"[{_NUMERAL_CHARS}]+")


def chinese_to_number(text: str) -> float | None:
    """Return the value of a Chinese numeral (up to thousands, with 点 decimals)."""
    if not text:
        return None
    integer_part, _, decimal_part = text.partition("点")
    value = _integer(integer_part) if integer_part else 0
    if value is None:
        return None
    if decimal_part:
        digits = [_DIGITS.get(char) for char in decimal_part]
        if any(digit is None for digit in digits):
            return None
        return float(f"{value}.{''.join(str(d) for d in digits)}")
    return value


def chinese_numerals_to_arabic(text: str) -> str:
    """Replace every Chinese numeral in the text with digits (三加四点五 → 3加4.5)."""

    def replace(match: re.Match[str]) -> str:
        value = chinese_to_number(match.group()) if match.group() != "点" else None
        return match.group() if value is None else f"{value:g}"

    return _CHINESE_NUMBER.sub(replace, text)


def _integer(text: str) -> int | None:
    """Return the value of an integer numeral such as 二十六, 一百零五 or 二六."""
    if all(char in _DIGITS for char in text):
        # Digit by digit, as in 二六 (26) or a single digit.
        return int("".join(str(_DIGITS[char]) for char in text))
    total = 0
    current: int | None = None
    for char in text:
        if char in _DIGITS:
            current = _DIGITS[char]
        elif char in _UNITS:
            total += (current if current is not None else 1) * _UNITS[char]
            current = None
        else:
            return None
    return total + (current or 0)


_N = _NUMERAL_CHARS
_PERCENT = re.compile(rf"百分之([{_N}\d.]+)")
# 两成半 is a quarter: tenths and a half more.
_TENTHS = re.compile(rf"([{_N}]+)成(半)?(?![功员为])")
_BELOW_ZERO = re.compile(r"(?:零下|负)\s*(\d+(?:\.\d+)?)")
_UNITS_AFTER = r"度|℃|°|档|级|格|摄氏|华氏|%|％|percent|趴|巴仙|个点|分钟|小时|秒|天|周|个月|月|日|号|年"
_BEFORE_UNIT = re.compile(rf"([{_N}]+)(?=\s*(?:{_UNITS_AFTER}))")
# 半度 alone is half a degree ("再低半度"); 25度半 is 25.5 and is read elsewhere.
_HALF_A_DEGREE = re.compile(r"(?<![\d个点])半(?=\s*(?:度|℃))")
_AFTER_VERB = re.compile(rf"(?<=[到为成至是去做设调校较])([{_N}]+)(?![半下点些会调校较个])")
# An ordinal is a number: 第三段 is the third speed.
_ORDINAL = re.compile(rf"(?<=第)([{_N}]+)")
# After a quantity's name, or "set at" (定在二十六; not 在一楼, where 一楼 is a name).
_AFTER_QUANTITY = re.compile(rf"(?<=温度|湿度|音量|亮度|定在|设在|调在)([{_N}]+)(?![半下点些会])")


def _arabic(numeral: str) -> str:
    """Return a Chinese numeral in Arabic digits, or itself when it is not one."""
    value = chinese_to_number(numeral)
    return numeral if value is None else f"{value:g}"


_TENS_SAID_SHORT = re.compile(r"[廿卄卅]")
_TENS_SHORT = {"廿": "二十", "卄": "二十", "卅": "三十"}
_CHINESE_DIGITS = "零一二三四五六七八九"


def chinese_numeral(value: int) -> str:
    """Return a whole number below 100 in Chinese numerals (12 → 十二, 20 → 二十)."""
    tens, units = divmod(value, 10)
    if not tens:
        return _CHINESE_DIGITS[units]
    return ("" if tens == 1 else _CHINESE_DIGITS[tens]) + "十" + (_CHINESE_DIGITS[units] if units else "")


def is_chinese_number(text: str) -> bool:
    """Tell whether a text is a Chinese numeral and nothing else (二十五)."""
    return _CHINESE_NUMBER.fullmatch(text) is not None


def to_arabic(text: str) -> str:
    """Replace Chinese numerals that are quantities with Arabic ones.

    Only numerals before a unit (二十六度, 三档) or after a verb of setting
    (调到二十六) are converted, so 一下 and 亮一点 ("a little") keep their meaning.
    百分之六十 and 六成 become 60% (两成半 25%), 零下五度 becomes -5度, 廿三 (as said in Hong Kong) 二十三.
    """
    text = _TENS_SAID_SHORT.sub(lambda m: _TENS_SHORT[m.group(0)], text)
    text = _PERCENT.sub(lambda m: f"{_arabic(m.group(1))}%", text)
    text = _TENTHS.sub(
        lambda m: f"{float(_arabic(m.group(1))) * 10 + (5 if m.group(2) else 0):g}%"
        if _arabic(m.group(1)).replace(".", "").isdigit()
        else m.group(0),
        text,
    )
    text = _HALF_A_DEGREE.sub("0.5", text)
    text = _BEFORE_UNIT.sub(lambda m: _arabic(m.group(1)), text)
    text = _AFTER_VERB.sub(lambda m: _arabic(m.group(1)), text)
    text = _AFTER_QUANTITY.sub(lambda m: _arabic(m.group(1)), text)
    text = _ORDINAL.sub(lambda m: _arabic(m.group(1)), text)
    return _BELOW_ZERO.sub(lambda m: f"-{m.group(1)}", text)


_ENGLISH_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_ENGLISH_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_ENGLISH_NUMBER = re.compile(
    # "this one", "the next one" name a thing, not a number.
    r"(?<!\bthis )(?<!\bthat )(?<!\bthe )(?<!\bnext )(?<!\bwhich )(?<!\bother )(?<!\blast )"
    r"(?<!\bany )(?<!\bno )(?<!\bsame )(?<!\bright )(?<!\bleft )(?<!\bfirst )"
    r"\b(?:((?:a|one) hundred)|("
    + "|".join(_ENGLISH_TENS)
    + r")(?:[-\s]("
    + "|".join(list(_ENGLISH_UNITS)[1:10])
    + r"))?"
    r"|(" + "|".join(_ENGLISH_UNITS) + r"))\b"
)


# "one" is a number only before a unit ("one degree", "in one hour"): else "the lounge one".
_ONE_COUNTS = re.compile(
    r"\s*(?:degrees?|percent|%|notch(?:es)?|levels?|steps?|settings?|hours?|minutes?|mins?|seconds?)\b"
)


# Numbers said in parts once their words are digits: "at seven thirty" (7:30), "one twenty-five"
# (125 of a water heater), "two hundred and fifty".
_CLOCK_SAID = re.compile(r"\bat (one|1[0-2]|[1-9]) ([0-5]\d)\b")
_HUNDREDS_SAID = re.compile(r"\b(?:(one|[1-9]) hundred|(100))(?: and)? ([1-9]\d?)\b|\b([1-9]) hundred\b")
_ONE_AND_TENS = re.compile(r"\bone ([1-9]\d)\b")


def english_to_arabic(text: str) -> str:
    """Replace English number words (twenty-two, fifty, a hundred) with digits."""

    def replace(match: re.Match[str]) -> str:
        hundred, tens, unit, single = match.groups()
        if single == "one" and not _ONE_COUNTS.match(text, match.end()):
            return single
        if hundred:
            return "100"
        if tens:
            return str(_ENGLISH_TENS[tens] + (_ENGLISH_UNITS[unit] if unit else 0))
        return str(_ENGLISH_UNITS[single])

    digits = _ENGLISH_NUMBER.sub(replace, text)
    digits = _CLOCK_SAID.sub(lambda m: f"at {1 if m[1] == 'one' else m[1]}:{m[2]}", digits)
    digits = _HUNDREDS_SAID.sub(_hundreds, digits)
    return _ONE_AND_TENS.sub(lambda m: str(100 + int(m[1])), digits)


def _hundreds(match: re.Match[str]) -> str:
    """Return "two hundred and fifty" (already "2 hundred and 50") as 250."""
    counted, hundred, rest, alone = match.groups()
    if alone is not None:
        return str(int(alone) * 100)
    base = 100 if hundred or counted == "one" else int(counted) * 100
    return str(base + int(rest))
