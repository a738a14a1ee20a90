"""Names of things in a home, found as spans of a sentence: whole, in part, or by sound.

Every stretch of a name (客厅落地灯: 客厅, 落地灯, 落地 …) is indexed by its sounds, so a
sentence's spans are looked up directly: "打开玄关吊灯" finds 玄关吊灯 whole, "the Arc"
finds part of "Sonos Arc", 客厅等 finds 客厅灯 by sound, 智能插座三 finds 智能插座3.
Owners are opaque keys (an entity id, "area:kitchen"): the catalog decides what they are.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from .lexicon import Category, names_lexicon
from .numbers import chinese_numeral
from .tokens import Token, prepare, stem, tokenize

# The longest stretch of a name looked for, in tokens.
MAX_SPAN = 16


@dataclass(frozen=True, slots=True)
class NameMatch:
    """A span of a sentence that is (part of) one owner's name."""

    owner: str
    # The whole name, normalized.
    name: str
    # The span is the whole name, not a part of it.
    full: bool
    # Every token matched by its text, not only by its sound.
    exact: bool
    # How many tokens the name has.
    size: int
    # Where in the name the span begins (0: at its start), and the name's text before it.
    start: int = 0
    before: str = ""


@dataclass(frozen=True, slots=True)
class _Stretch:
    owner: str
    name: str
    texts: tuple[str, ...]
    full: bool
    size: int
    # The name itself says a plural ("Garden Lights").
    plural: bool = False
    start: int = 0
    before: str = ""
    # Indexed from the name said in other words (厅 of 客厅), not as the home has it.
    other_words: bool = False


def name_tokens(name: str) -> tuple[Token, ...]:
    """Return a name's tokens without symbols ("lumi.switch.b2" is lumi switch b 2)."""
    return tuple(t for t in tokenize(prepare(name)) if t.text[0].isalnum())


def name_key(name: str) -> str:
    """Return a name as the index keeps it (the ``name`` of its matches)."""
    return joined(name_tokens(name))


def joined(tokens: Sequence[Token]) -> str:
    """Return a name's tokens as one text: Chinese run together, words apart, a code as written (h1)."""
    text = ""
    for index, token in enumerate(tokens):
        before = tokens[index - 1] if index else None
        together = (
            before is None
            or (before.is_cjk and token.is_cjk)
            or (not before.is_cjk and not token.is_cjk and before.end == token.start)
        )
        text += token.text if together else f" {token.text}"
    return text


_CHINESE_DIGITS = "零一二三四五六七八九"
_CHINESE_NUMBER_CHARACTERS = frozenset(f"{_CHINESE_DIGITS}十百两")


def _said_digit_by_digit(token: Token) -> bool:
    """Tell whether a number in a name is said one digit at a time (352 is 三五二)."""
    return token.text.isdigit() and len(token.text) >= 3


def _said_in_chinese(token: Token) -> bool:
    """Tell whether a number in a Chinese name is said in Chinese numerals too (二号, 十二楼)."""
    return token.text.isdigit() and 0 < int(token.text) < 100


def _model_codes(tokens: tuple[Token, ...]) -> set[int]:
    """Return the positions of the tokens of model codes in a name (H1, X86C, 550S, S8).

    A code is letters and digits written together: one word of a name, split into runs.
    """
    codes: set[int] = set()
    index = 0
    while index < len(tokens):
        end = index + 1
        while (
            end < len(tokens)
            and tokens[end].start == tokens[end - 1].end
            and tokens[end].text.isascii()
            and tokens[end - 1].text.isascii()
        ):
            end += 1
        run = tokens[index:end]
        if any(t.text.isdigit() for t in run) and any(t.text.isalpha() for t in run):
            codes.update(range(index, end))
        index = end
    return codes


def _variants(tokens: tuple[Token, ...], *, own: bool = True) -> list[tuple[Token, ...]]:
    """Return a name's tokens and the ways people say them.

    A small number is said in Chinese too; of a device's own name, a model code is left out
    ("Aqara 墙壁开关右键" of "Aqara 墙壁开关 H1 右键"; not "Hue White" of the model "Hue White E27").
    """
    variants = [tokens]
    if any(t.text.endswith("'s") for t in tokens):
        # "Nora room light", "Caleb's": an owner said without its "'s" as well.
        variants.append(tuple(_owner(t) for t in tokens))
    codes = _model_codes(tokens) if own else set()
    rest = tuple(t for index, t in enumerate(tokens) if index not in codes)
    if codes and len(rest) >= 2 and not all(t.text.isdigit() for t in rest):
        variants.append(rest)
    if any(t.text == "1" for t in tokens) and all(t.text.isascii() for t in tokens):
        # "Hue colour lamp one": English says the number of a name in words.
        variants.append(tuple(Token("one", "one", t.start, t.end) if t.text == "1" else t for t in tokens))
    if len(tokens) == 2 and all(t.text.isascii() and t.text.isalpha() for t in tokens):
        # English says "the right curtain" of "Curtain Right".
        variants.append((tokens[1], tokens[0]))
    if any(_said_digit_by_digit(t) for t in tokens) and any(t.is_cjk for t in tokens):
        # "352空气净化器" is 三五二净化器: a long number is said digit by digit.
        spoken = " ".join(
            "".join(_CHINESE_DIGITS[int(d)] for d in t.text) if _said_digit_by_digit(t) else t.text
            for t in tokens
        )
        variants.append(tuple(t for t in tokenize(spoken) if t.text[0].isalnum()))
    if any(_said_in_chinese(t) for t in tokens):
        # "Smart Plug 4" is 智能插座四 and "Smart plug 四" too; a model number (6032) stays in
        # digits: nobody says it in Chinese numerals.
        spoken = " ".join(chinese_numeral(int(t.text)) if _said_in_chinese(t) else t.text for t in tokens)
        variants.append(tuple(t for t in tokenize(spoken) if t.text[0].isalnum()))
    return variants


def _key_text(token: Token) -> str:
    return token.sound if not token.is_cjk else token.text


# Said between the parts of a name without changing it (哥哥的书桌灯, 阿公的电扇).
POSSESSIVES = frozenset({"的", "嘅", "之"})

# The most runs of sounds whose matches are kept between sentences.
_MATCHES_KEPT = 20000

# Said after the first character of an activity's name without changing it (餵一下麻糬 of 餵麻糬).
_ASPECTS_INSIDE = (("一", "下"), ("吓",))

# Words too common to name anything by themselves ("and" of "Door and Window Sensor").
_COMMON_WORDS = frozenset(
    {
        "and",
        "or",
        "the",
        "a",
        "an",
        "of",
        "to",
        "in",
        "on",
        "off",
        "for",
        "with",
        "by",
        "at",
        "my",
        "our",
        "s",
    }
)


def _worth_a_part(tokens: Sequence[Token]) -> bool:
    """Tell whether a stretch of a name may name it alone (not one Chinese character, not a number)."""
    if all(t.text.isdigit() for t in tokens) or (
        all(t.text in _CHINESE_NUMBER_CHARACTERS for t in tokens) and any(t.text in "十百两" for t in tokens)
    ):
        # (Not "四十" of 小米电视 A Pro 43 said as 四十三: a quantity said is a value; 三五二 of
        # 352 said digit by digit is the model.)
        return False
    if len(tokens) == 1:
        token = tokens[0]
        return not token.is_cjk and len(token.text) > 1 and token.text not in _COMMON_WORDS
    return True


# A run of sounds, what was said, and how (shortened, plural, as written).
_MatchKey = tuple[tuple[str, ...], tuple[str, ...], bool, bool, bool]


class NameIndex:
    """The names of a home's entities, areas and floors, by the sounds of their stretches."""

    def __init__(self) -> None:
        """Start empty."""
        self._stretches: dict[tuple[str, ...], list[_Stretch]] = {}
        self._keys_of: dict[str, list[tuple[str, ...]]] = {}
        self._literal: dict[str, set[str]] = {}
        self.longest = 1
        # How many indexed stretches begin with each run of sounds: a run no stretch begins
        # with ends the search for longer ones.
        self._prefixes: dict[tuple[str, ...], int] = {}
        # The matches of a run of sounds said so, kept until the index changes.
        self._matches: dict[_MatchKey, tuple[NameMatch, ...]] = {}

    def set_names(
        self, owner: str, names: Iterable[str], brands: Iterable[str] = (), other_words: Iterable[str] = ()
    ) -> None:
        """Index an owner's names, its maker's and model's names and its names in other words.

        Replaces any it had. A name in other words (大厅主灯 of 客厅主灯) yields to a name the
        home has as it was said (a lobby's 大厅主灯).
        """
        self.remove(owner)
        keys: list[tuple[str, ...]] = []
        for name, own, said_otherwise in [
            *((n, True, False) for n in names),
            *((n, False, False) for n in brands),
            *((n, True, True) for n in other_words),
        ]:
            tokens = name_tokens(name)
            if not tokens or all(t.text.isdigit() for t in tokens):
                # (A model called "One" is the number 1: no name.)
                continue
            normalized = joined(tokens)
            self._literal.setdefault(normalized, set()).add(owner)
            for variant in _variants(tokens, own=own):
                size = len(variant)
                # Said without its model code, a name is only named in part ("小米电视" of 小米电视 EA43).
                whole = len(variant) >= len(tokens)
                for start in range(size):
                    for end in range(start + 1, min(size, start + MAX_SPAN) + 1):
                        stretch = variant[start:end]
                        full = start == 0 and end == size and whole
                        if not full and not _worth_a_part(stretch):
                            continue
                        key = tuple(t.sound for t in stretch)
                        plural = any(t.text != t.sound and t.text.isascii() for t in stretch)
                        before = "".join(t.text for t in variant[:start])
                        self._stretches.setdefault(key, []).append(
                            _Stretch(
                                owner,
                                normalized,
                                tuple(_key_text(t) for t in stretch),
                                full,
                                size,
                                plural,
                                start,
                                before,
                                said_otherwise,
                            )
                        )
                        keys.append(key)
                        for length in range(1, len(key) + 1):
                            self._prefixes[key[:length]] = self._prefixes.get(key[:length], 0) + 1
                self.longest = max(self.longest, min(size, MAX_SPAN))
        self._keys_of[owner] = keys
        self._matches.clear()

    def remove(self, owner: str) -> None:
        """Forget an owner's names."""
        self._matches.clear()
        for key in self._keys_of.pop(owner, []):
            for length in range(1, len(key) + 1):
                left = self._prefixes.get(key[:length], 0) - 1
                if left > 0:
                    self._prefixes[key[:length]] = left
                else:
                    self._prefixes.pop(key[:length], None)
            stretches = self._stretches.get(key)
            if stretches:
                self._stretches[key] = [s for s in stretches if s.owner != owner]
                if not self._stretches[key]:
                    del self._stretches[key]
        for owners in self._literal.values():
            owners.discard(owner)

    def owners_named(self, name: str) -> set[str]:
        """Return the owners that have exactly this (normalized) name."""
        return set(self._literal.get(name, ()))

    def _possessive_inside(self, tokens: Sequence[Token]) -> bool:
        """Tell whether a 的 inside a stretch follows a person, not a place ("书房的灯" is a place's)."""
        for index in range(1, len(tokens) - 1):
            if tokens[index].text in POSSESSIVES:
                before = self._stretches.get(tuple(t.sound for t in tokens[:index]), ())
                return not any(s.full and ":" in s.owner for s in before)
        return False

    def _without_measure_word(self, tokens: Sequence[Token]) -> list[Token] | None:
        """Return a stretch without a measure word said after a place or a person inside it, if one is.

        "Ethan 房盞燈" of Ethan 房燈 (Ethan 房 is a room); not "大門個鎖", where 大門 is a lock.
        """
        inner = [i for i in range(1, len(tokens) - 1) if tokens[i].text in _measure_words()]
        if len(inner) != 1:
            return None
        before = self._stretches.get(tuple(t.sound for t in tokens[: inner[0]]), ())
        person = "".join(t.text for t in tokens[: inner[0]]) in _people()
        if not person and not any(s.full and ":" in s.owner for s in before):
            # (After a person it is theirs: "老婆個床頭燈" of 老婆床頭燈.)
            return None
        return [*tokens[: inner[0]], *tokens[inner[0] + 1 :]]

    def spans(self, tokens: Sequence[Token]) -> dict[tuple[int, int], tuple[NameMatch, ...]]:
        """Return, by (start, end) token span, the names each span of a sentence may be."""
        found: dict[tuple[int, int], tuple[NameMatch, ...]] = {}
        count = len(tokens)
        for start in range(count):
            if not tokens[start].text[0].isalnum():
                continue
            removable = False
            for end in range(start + 1, min(count, start + self.longest) + 1):
                if not tokens[end - 1].text[0].isalnum():
                    break
                inside = tokens[start:end]
                key = tuple(t.sound for t in inside)
                removable = removable or (end - 1 > start and tokens[end - 1].text in _removable_inside())
                if key not in self._prefixes and not removable and not tokens[end - 1].text.endswith("'s"):
                    # No name goes on from here, nor does one with a word said inside it.
                    break
                stretches = self._stretches.get(key)
                # A word left out is taken only where the rest is a whole name word for word:
                # 爸爸媽媽房部抽濕機 is no 嫲嫲房抽濕機 by sound, 開大門個鎖 no "開大" of 門鎖,
                # "這裡的燈" no 立燈.
                shortened = False
                # (A 的 left out takes the name as written, by its characters, not its sounds.)
                as_written = False
                if not stretches and self._possessive_inside(inside):
                    # "哥哥的书桌灯" of 哥哥书桌灯: a 的 said inside a name that has none.
                    inside = [inside[0], *(t for t in inside[1:-1] if t.text not in POSSESSIVES), inside[-1]]
                    key = tuple(t.sound for t in inside)
                    stretches = self._stretches.get(key)
                    as_written = True
                if not stretches and (shorter := self._without_measure_word(inside)) is not None:
                    # "Ethan 房盞燈" of Ethan 房燈: a measure word said inside a name.
                    inside, shortened = shorter, True
                    key = tuple(t.sound for t in inside)
                    stretches = self._stretches.get(key)
                if not stretches and (shorter := _without_aspect(inside)) is not None:
                    inside, shortened = shorter, True
                    key = tuple(t.sound for t in inside)
                    stretches = self._stretches.get(key)
                if not stretches and (owned := _without_possessive(inside)) is not None:
                    # "the Arc's volume", "My ecobee's fan": a name said as the owner of a part.
                    inside = owned
                    key = tuple(t.sound for t in inside)
                    stretches = self._stretches.get(key)
                if not stretches:
                    continue
                said = tuple(_key_text(t) for t in inside)
                # "the living room lights" is no name "Living Room Light": a plural said of a
                # singular name reads as a part of it, so the room and the plural win.
                plural = any(t.text != t.sound and t.text.isascii() and t.text[:1].isalpha() for t in inside)
                memo = (key, said, shortened, plural, as_written)
                if (known := self._matches.get(memo)) is not None:
                    if known:
                        found[(start, end)] = known
                    continue
                if len(self._matches) > _MATCHES_KEPT:
                    self._matches.clear()
                matched = self._matches[memo] = _matches(
                    stretches, said, len(inside), shortened=shortened, plural=plural, as_written=as_written
                )
                if matched:
                    found[(start, end)] = matched
        return found


def _matches(
    stretches: Sequence["_Stretch"],
    said: tuple[str, ...],
    size: int,
    *,
    shortened: bool,
    plural: bool,
    as_written: bool = False,
) -> tuple[NameMatch, ...]:
    """Return the owners a run of a sentence names, each by its best stretch."""
    best: dict[str, NameMatch] = {}
    # The owners whose best match is a name of theirs said in other words.
    otherwise: set[str] = set()
    misses_of: dict[tuple[str, ...], int] = {}
    for stretch in stretches:
        if (misses := misses_of.get(stretch.texts, -1)) < 0:
            misses = misses_of[stretch.texts] = sum(a != b for a, b in zip(said, stretch.texts, strict=True))
        if (shortened and (misses or not stretch.full)) or (as_written and misses):
            continue
        # Homophones: at most half of a whole name of three or more, by sound only (浴缸 is
        # a word of its own, no 魚缸); a part of a name only when long ("加四" is no part of 加湿器).
        if misses and (size < 3 or misses * 2 > size or (not stretch.full and size < 4)):
            continue
        whole = stretch.full and not (plural and not stretch.plural)
        match = NameMatch(
            stretch.owner,
            stretch.name,
            whole,
            not misses,
            stretch.size,
            stretch.start,
            stretch.before,
        )
        old = best.get(stretch.owner)
        rank = (match.full, match.exact, not stretch.other_words)
        if old is None or rank > (old.full, old.exact, stretch.owner not in otherwise):
            best[stretch.owner] = match
            if stretch.other_words:
                otherwise.add(stretch.owner)
            else:
                otherwise.discard(stretch.owner)
    # The home has the name as said: no other thing of its sort (a device, a place) is named so
    # in other words (a lobby's 大廳主燈, not 客廳主燈; a climate named Living Room leaves the
    # area 客廳 its English name).
    literal = {":" in m.owner for m in best.values() if m.full and m.exact and m.owner not in otherwise}
    return tuple(
        m for m in best.values() if not (m.full and m.owner in otherwise and (":" in m.owner) in literal)
    )


def _owner(token: Token) -> Token:
    """Return a word said with "'s" as the word alone ("arc's": arc); any other token as it is."""
    if not token.text.endswith("'s") or len(token.text) < 4:
        return token
    word = token.text[:-2]
    return Token(word, stem(word), token.start, token.end)


def _without_possessive(tokens: Sequence[Token]) -> list[Token] | None:
    """Return a stretch whose last word is said with "'s" as that word, if it is ("arc's": arc)."""
    owner = _owner(tokens[-1])
    return None if owner is tokens[-1] else [*tokens[:-1], owner]


def _without_aspect(tokens: Sequence[Token]) -> list[Token] | None:
    """Return a stretch without the aspect said after its first character, if one is."""
    for aspect in _ASPECTS_INSIDE:
        after = 1 + len(aspect)
        if len(tokens) > after + 1 and tuple(t.text for t in tokens[1:after]) == aspect:
            return [tokens[0], *tokens[after:]]
    return None


@cache
def _people() -> frozenset[str]:
    """Return the words for people of every language (老婆, 哥哥), as normalized."""
    return frozenset(names_lexicon().words(Category.FILLER, "people"))


@cache
def _removable_inside() -> frozenset[str]:
    """Return the words a name may be said with inside it and still be found (的, 盞, 一下)."""
    return POSSESSIVES | _measure_words() | {word for aspect in _ASPECTS_INSIDE for word in aspect}


@cache
def _measure_words() -> frozenset[str]:
    """Return the measure words of every language (盞, 部, 個)."""
    return frozenset(names_lexicon().words(Category.FILLER, "measure"))
