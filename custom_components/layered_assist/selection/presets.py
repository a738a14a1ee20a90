"""Spoken names of presets and modes ("睡眠模式", "laundry mode") and the entity option they pick.

Integrations name presets in English keys (HA's ``sleep``, ``eco``, ``boost``) or in
their own words; a spoken word picks an entity's option only when it is that option
or one of the few keys the word is known to mean. Anything else is not guessed.
"""

import re

# Chinese words said before 模式, by the preset keys they may mean (first match wins).
CHINESE_PRESETS: dict[str, tuple[str, ...]] = {
    "睡眠": ("sleep", "night", "sleeping"),
    "夜间": ("night", "sleep"),
    "节能": ("eco", "energy_saving", "economy"),
    "经济": ("eco", "economy"),
    "智能": ("smart", "auto"),
    "强力": ("boost", "turbo", "strong"),
    "强劲": ("boost", "turbo", "strong"),
    "极速": ("turbo", "boost"),
    "舒适": ("comfort",),
    "离家": ("away",),
    "外出": ("away",),
    "在家": ("home",),
    "婴儿": ("baby",),
    "静音": ("quiet", "silent"),
    "安静": ("quiet", "silent"),
    "自然风": ("nature", "natural", "breeze"),
    "洗衣": ("laundry",),
    "干衣": ("laundry",),
    "标准": ("normal", "standard"),
    "正常": ("normal",),
    "手动": ("manual",),
    "宠物": ("pet",),
    "度假": ("vacation", "holiday"),
}
# English preset words said before "mode", by the keys they may also mean.
ENGLISH_PRESETS: dict[str, tuple[str, ...]] = {
    "sleep": ("sleep", "night"),
    "night": ("night", "sleep"),
    "eco": ("eco",),
    "economy": ("eco", "economy"),
    "smart": ("smart",),
    "boost": ("boost", "turbo"),
    "turbo": ("turbo", "boost"),
    "comfort": ("comfort",),
    "away": ("away",),
    "home": ("home",),
    "baby": ("baby",),
    "quiet": ("quiet", "silent"),
    "silent": ("silent", "quiet"),
    "nature": ("nature", "natural"),
    "natural": ("natural", "nature"),
    "laundry": ("laundry",),
    "normal": ("normal",),
    "manual": ("manual",),
    "pet": ("pet",),
    "vacation": ("vacation", "holiday"),
}


def _key(text: str) -> str:
    return re.sub(r"[\s_-]+", "_", text.strip().lower())


def pick_preset(word: str, options: tuple[str, ...] | list[str]) -> str | None:
    """Return the entity's option a spoken preset word names, or None."""
    by_key = {_key(str(option)): str(option) for option in options}
    for key in (word, *CHINESE_PRESETS.get(word, ()), *ENGLISH_PRESETS.get(word, ())):
        if (option := by_key.get(_key(key))) is not None:
            return option
    return None
