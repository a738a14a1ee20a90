"""Words that carry meaning beyond names: domains, groups, references, repetition.

All words are in normalized form (Simplified Chinese, lower case).
"""

import re

# Words that imply a domain, longest first where they overlap (亮度 before 度).
DOMAIN_WORDS: dict[str, tuple[str, ...]] = {
    "亮度": ("light",),
    "湿度": ("humidifier", "climate"),
    "温度": ("climate", "water_heater"),
    "热水器": ("water_heater",),
    "热水": ("water_heater",),
    "空调": ("climate",),
    "冷气": ("climate",),
    "暖气": ("climate",),
    "地暖": ("climate",),
    "制冷": ("climate",),
    "制热": ("climate",),
    "度": ("climate", "water_heater"),
    "冷": ("climate",),
    "热": ("climate",),
    "灯": ("light", "switch"),
    "照明": ("light", "switch"),
    "亮": ("light",),
    "暗": ("light",),
    "窗帘": ("cover",),
    "纱帘": ("cover",),
    "帘": ("cover",),
    "百叶": ("cover",),
    "卷帘": ("cover",),
    "遮阳": ("cover",),
    "车库门": ("cover",),
    "加湿": ("humidifier",),
    "除湿": ("humidifier",),
    "潮": ("humidifier",),
    "干燥": ("humidifier",),
    "干": ("humidifier",),
    "dry": ("humidifier",),
    "扫地": ("vacuum",),
    "扫拖": ("vacuum",),
    "拖地": ("vacuum",),
    "打扫": ("vacuum",),
    "清扫": ("vacuum",),
    "吸尘": ("vacuum",),
    "风扇": ("fan",),
    "电扇": ("fan",),
    "吊扇": ("fan",),
    "换气扇": ("fan",),
    "排气扇": ("fan",),
    # Air purifiers are fans in HA (speed, presets), a few integrations make them humidifiers.
    "净化器": ("fan", "humidifier"),
    "风速": ("fan", "climate"),
    "档": ("fan",),
    "音箱": ("media_player",),
    "音响": ("media_player",),
    "电视": ("media_player",),
    "投影": ("media_player",),
    "音乐": ("media_player",),
    "音量": ("media_player",),
    "声音": ("media_player",),
    "下一首": ("media_player",),
    "上一首": ("media_player",),
    "歌": ("media_player",),
    "锁": ("lock",),
    "开关": ("switch", "light"),
    "插座": ("switch",),
    "阀": ("valve",),
    "浇水": ("valve",),
    "浇花": ("valve",),
    "喷淋": ("valve",),
    "场景": ("scene",),
    "模式": ("scene",),
    "吵": ("media_player",),
    "晒": ("cover",),
    "刺眼": ("cover",),
    "闷": ("fan", "climate"),
    "freezing": ("climate",),
    "chilly": ("climate",),
    "cold": ("climate",),
    "hot": ("climate",),
    "warm": ("climate",),
    "dark": ("light",),
    "gloomy": ("light",),
    "damp": ("humidifier",),
    "humid": ("humidifier",),
    "muggy": ("humidifier",),
    "noisy": ("media_player",),
    "loud": ("media_player",),
    "telly": ("media_player",),
    "radiator": ("climate",),
    "light": ("light", "switch"),
    "lighting": ("light",),
    "todo list": ("todo",),
    "to-do list": ("todo",),
    "shopping list": ("todo",),
    "待办": ("todo",),
    "清单": ("todo",),
    "lamp": ("light",),
    "brightness": ("light",),
    "bright": ("light",),
    "dim": ("light",),
    "thermostat": ("climate",),
    "temperature": ("climate", "water_heater"),
    "degree": ("climate", "water_heater"),
    "heating": ("climate",),
    "ac": ("climate",),
    "air conditioner": ("climate",),
    "air conditioning": ("climate",),
    "blind": ("cover",),
    "curtain": ("cover",),
    "shade": ("cover",),
    "shutter": ("cover",),
    "garage door": ("cover",),
    "awning": ("cover",),
    "humidifier": ("humidifier",),
    "dehumidifier": ("humidifier",),
    "humidity": ("humidifier", "climate"),
    "vacuum": ("vacuum",),
    "fan": ("fan",),
    "purifier": ("fan", "humidifier"),
    "speaker": ("media_player",),
    "tv": ("media_player",),
    "television": ("media_player",),
    "music": ("media_player",),
    "volume": ("media_player",),
    "song": ("media_player",),
    "track": ("media_player",),
    "lock": ("lock",),
    "locked": ("lock",),
    "unlocked": ("lock",),
    "锁着": ("lock",),
    "plug": ("switch",),
    "outlet": ("switch",),
    "socket": ("switch",),
    "switch": ("switch", "light"),
    "valve": ("valve",),
    "sprinkler": ("valve",),
    "scene": ("scene",),
    "water heater": ("water_heater",),
    "boiler": ("water_heater",),
}

# Domains whose plural noun in English makes "the kitchen lights" a group.
PLURAL_GROUP_NOUNS: dict[str, tuple[str, ...]] = {
    "lights": ("light",),
    "lamps": ("light",),
    "lighting": ("light",),
    "heating": ("climate",),
    "radiators": ("climate",),
    "heaters": ("climate",),
    "thermostats": ("climate",),
    "tvs": ("media_player",),
    "locks": ("lock",),
    "locked": ("lock",),
    "unlocked": ("lock",),
    "valves": ("valve",),
    "blinds": ("cover",),
    "curtains": ("cover",),
    "shades": ("cover",),
    "shutters": ("cover",),
    "fans": ("fan",),
    "speakers": ("media_player",),
    "plugs": ("switch",),
    "switches": ("switch",),
}

# Explicit group words: "all lights", 所有灯. Weak ones (都, 全) need a place too.
STRONG_GROUP = re.compile(r"所有|全部|全屋|一切|两个|两台|几个|\ball\b|\bevery\b|\beverything\b|\bboth\b")
WEAK_GROUP = re.compile(r"都|全")

PRONOUN = re.compile(r"它|牠|那个|这个|那台|这台|那盏|这盏|\bit\b|\bthat\b|\bthis one\b|\bthem\b")
# Floors (and the rooms under the roof or the ground) every home might have: said and not
# in this home, they select nothing rather than the whole home.
FLOOR_WORDS = re.compile(
    r"楼上|楼下|阁楼|地下室|顶楼|地库|[一二两三四五六七八九十\d]+[楼层]|"
    r"\b(?:upstairs|downstairs|attic|loft|basement|cellar|"
    r"(?:ground|first|second|third|fourth|top|1st|2nd|3rd|4th) floor)\b"
)
# Floors said relative to the speaker: in a home with several floors they name one, only
# not which (the model, or the user, says); in a one-storey home they name nothing.
RELATIVE_FLOORS = re.compile(r"楼上|楼下|\b(?:upstairs|downstairs)\b")
HERE = re.compile(r"这里|这儿|这边|这个房间|这屋|本房间|\bhere\b|\bthis room\b|\bin here\b")
THAT_ROOM = re.compile(r"那里|那儿|那边|那个房间|那屋|\bthere\b|\bthat room\b")
AGAIN = re.compile(
    r"再来一[次下遍]|再来|重复一?[次下遍]?|同样|照旧|\bagain\b|\brepeat\b|\bonce more\b|\bone more time\b"
)

# Segment boundaries: punctuation and conjunctions joining two commands.
SEGMENT_SPLIT = re.compile(
    r"[，,；;。！!？?、]|以及|并且|然后|还有|同时|和|跟|与|\band then\b|\band\b|\bthen\b"
)
# Conjunctions after which a segment without its own verb shares the next one's.
SHARED_VERB_JOINERS = ("和", "跟", "与", "以及", "、", "and")

# English words in a Chinese sentence, read as their Chinese equivalents.
MIXED_GLOSSARY: dict[str, str] = {
    "living room": "客厅",
    "livingroom": "客厅",
    "bedroom": "卧室",
    "master bedroom": "主卧",
    "kitchen": "厨房",
    "bathroom": "卫生间",
    "toilet": "卫生间",
    "study": "书房",
    "balcony": "阳台",
    "terrace": "露台",
    "garage": "车库",
    "dining room": "餐厅",
    "closet": "衣帽间",
    "kids room": "儿童房",
    "garden": "花园",
    "hallway": "走廊",
    "upstairs": "楼上",
    "downstairs": "楼下",
    "light": "灯",
    "lights": "灯",
    "lamp": "灯",
    "curtain": "窗帘",
    "curtains": "窗帘",
    "blind": "百叶窗",
    "projector": "投影仪",
    "tv": "电视",
    "television": "电视",
    "speaker": "音箱",
    "fan": "风扇",
    "air conditioner": "空调",
    "ac": "空调",
    "aircon": "空调",
    "humidifier": "加湿器",
    "dehumidifier": "除湿器",
    "vacuum": "扫地机器人",
    "robot": "扫地机器人",
    "lock": "锁",
    "heater": "暖气",
    "water heater": "热水器",
    "switch": "开关",
    "plug": "插座",
    "sprinkler": "喷淋",
}
_GLOSSARY = re.compile(
    r"(?<![a-z])(" + "|".join(sorted(map(re.escape, MIXED_GLOSSARY), key=len, reverse=True)) + r")(?![a-z])"
)


def translate_mixed(text: str) -> str:
    """Replace known English words of a mixed Chinese sentence by Chinese ones."""
    return _GLOSSARY.sub(lambda m: MIXED_GLOSSARY[m.group(1)], text)


_DOMAIN_PATTERN = re.compile(
    "|".join(
        (re.escape(word) if not word.isascii() else rf"\b{re.escape(word)}s?\b")
        for word in sorted(DOMAIN_WORDS, key=len, reverse=True)
    )
)


def domain_words(text: str) -> list[str]:
    """Return the domain words of a text, longest first where they overlap (热水器, not 热)."""
    words = []
    for match in _DOMAIN_PATTERN.finditer(text):
        word = match.group(0)
        words.append(word if word in DOMAIN_WORDS else word[:-1])
    return words


# States only one kind of device has: asking about them names that kind.
_STATE_WORDS = re.compile(r"\b(?:un)?locked\b|锁着|锁好了|锁上了|锁了")


def state_domains(text: str) -> set[str]:
    """Return the kinds a sentence's state words belong to ("is the front door locked")."""
    return {"lock"} if _STATE_WORDS.search(text) else set()


def domain_hints(text: str) -> set[str]:
    """Return every domain a text's words imply."""
    return {domain for word in domain_words(text) for domain in DOMAIN_WORDS[word]}


def primary_domains(text: str) -> set[str]:
    """Return the main domain of each domain word (灯 → light, not switch)."""
    return {DOMAIN_WORDS[word][0] for word in domain_words(text)}


# Words that name a kind of device within a domain, as HA device classes.
SUBTYPE_DEVICE_CLASSES: dict[str, frozenset[str]] = {
    "窗帘": frozenset({"curtain"}),
    "纱帘": frozenset({"curtain"}),
    "curtain": frozenset({"curtain"}),
    "百叶": frozenset({"blind", "shutter"}),
    "卷帘": frozenset({"blind", "shade", "shutter"}),
    "blind": frozenset({"blind", "shutter"}),
    "shade": frozenset({"shade", "blind"}),
    "shutter": frozenset({"shutter"}),
    "车库门": frozenset({"garage"}),
    "garage door": frozenset({"garage"}),
    "遮阳": frozenset({"awning"}),
    "awning": frozenset({"awning"}),
    "加湿": frozenset({"humidifier"}),
    "humidifier": frozenset({"humidifier"}),
    "除湿": frozenset({"dehumidifier"}),
    "dehumidifier": frozenset({"dehumidifier"}),
    "音箱": frozenset({"speaker"}),
    "音响": frozenset({"speaker"}),
    "speaker": frozenset({"speaker"}),
    "电视": frozenset({"tv"}),
    "tv": frozenset({"tv"}),
    "television": frozenset({"tv"}),
    "telly": frozenset({"tv"}),
    "插座": frozenset({"outlet"}),
    "plug": frozenset({"outlet"}),
    "outlet": frozenset({"outlet"}),
}

# Words too general to narrow a group ("所有灯" is every light, named 灯 or not).
GENERIC_WORDS = re.compile(
    r"所有的?|全部|全屋|一切|两个|两台|几个|都|全|[把将给请帮我的了吧啊呀一下点]|\b(?:all|every|the|both|please|"
    r"turn|switch|on|off|open|close|set|to|in|of|and|upstairs|downstairs|"
    # Nouns that mean the whole domain.
    r"lights?|lighting|heating|lamps?|water heaters?|boilers?|locks?|vacuums?|robots?|fans?|"
    r"switch(?:es)?|valves?|scenes?)\b|"
    r"灯|照明|热水器|热水|门锁|锁|扫地机器人|扫地机|扫地|风扇|电扇|开关|阀门|阀|场景|模式"
)


def residual_words(text: str, spans: list[str]) -> str:
    """Return what a segment says beyond places, actions and general words."""
    for span in sorted(spans, key=len, reverse=True):
        if span:
            text = text.replace(span, " ")
    for pattern in (HERE, THAT_ROOM, PRONOUN, GENERIC_WORDS):
        text = pattern.sub(" ", text)
    return text.strip()


def plural_group_domains(text: str) -> set[str]:
    """Return the domains of English plural nouns ("the kitchen lights")."""
    found: set[str] = set()
    for noun, domains in PLURAL_GROUP_NOUNS.items():
        if re.search(rf"\b{noun}\b", text):
            found.update(domains)
    return found
