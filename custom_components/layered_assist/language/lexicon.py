"""The words of each language, loaded from ``language/data`` into one index per language.

A data file is one category (its name); each line is one concept and its words::

    off: 关, 关掉, 关闭, turn off

Chinese variants are overlays: a conversation in Cantonese (zh-HK) reads the Mandarin
base and the Cantonese words; English words are read in every language, because people
mix them in ("把bedroom的灯关了"). Words are normalized and split into tokens exactly as
sentences are, so a Traditional spelling in a file matches a Simplified sentence.
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from pathlib import Path

from .tokens import Token, normalize, sounds, tokenize

DATA = Path(__file__).parent / "data"
BASE_CHINESE, CANTONESE, TAIWANESE, ENGLISH = "zh-Hans", "zh-HK", "zh-TW", "en"


class Category(StrEnum):
    """What a word is, by the data file it comes from."""

    VERB = "verbs"
    DIRECTION = "directions"
    AMOUNT = "amounts"
    UNIT = "units"
    ATTRIBUTE = "attributes"
    OPTION = "options"
    EXTREME = "extremes"
    KIND = "kinds"
    FEELING = "feelings"
    MOOD = "moods"
    FILLER = "fillers"
    STATE = "states"
    GROUP = "groups"
    REFERENCE = "references"
    JOINER = "joiners"
    PLACE = "places"
    RESTATING = "restating"
    # Answers to what the assistant asked, and goodbyes: read only when something was asked.
    ANSWER = "answers"


@dataclass(frozen=True, slots=True)
class Sense:
    """One meaning of a word: its category and concept ("verbs", "off")."""

    category: Category
    concept: str


@dataclass(slots=True)
class _Node:
    children: dict[str, "_Node"] = field(default_factory=dict)
    senses: list[Sense] = field(default_factory=list)


def dialect_chain(language: str) -> tuple[str, ...]:
    """Return the data folders a conversation language reads, base first."""
    code = (language or "").lower()
    if code.startswith("en"):
        return (ENGLISH, BASE_CHINESE)
    if code in ("zh-hk", "zh-mo", "yue") or code.startswith("yue"):
        return (BASE_CHINESE, CANTONESE, ENGLISH)
    if code == "zh-tw":
        return (BASE_CHINESE, TAIWANESE, ENGLISH)
    if code.startswith("zh-hant"):
        # Traditional Chinese with no region (HA's own language setting): Hong Kong and Taiwan
        # speakers alike talk to it, so both overlays are read (they share almost no word).
        return (BASE_CHINESE, CANTONESE, TAIWANESE, ENGLISH)
    return (BASE_CHINESE, ENGLISH)


def read_entries(path: Path) -> Iterator[tuple[str, list[str]]]:
    """Yield (concept, words) of a data file, one line each."""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        concept, _, words = line.partition(":")
        yield concept.strip(), [w.strip() for w in words.split(",") if w.strip()]


def _key(token: Token) -> str:
    """Return how a token is looked up: English words by their singular ("lights" is "light")."""
    return token.sound if token.text.isascii() and token.text[0].isalpha() else token.text


class Lexicon:
    """Every word of a set of languages, as a trie over tokens."""

    def __init__(self, folders: Sequence[str], root: Path = DATA) -> None:
        """Load the categories of the folders in order."""
        self.folders = tuple(folders)
        self._root = _Node()
        self._words: dict[Sense, list[str]] = {}
        self.longest = 1
        for folder in folders:
            for category in Category:
                path = root / folder / f"{category.value}.txt"
                if path.exists():
                    for concept, words in read_entries(path):
                        for word in words:
                            self.add(word, Sense(category, concept))

    def add(self, word: str, sense: Sense) -> None:
        """Add one word with one sense."""
        tokens = tokenize(normalize(word))
        if not tokens:
            return
        self._words.setdefault(sense, []).append(normalize(word))
        node = self._root
        for token in tokens:
            node = node.children.setdefault(_key(token), _Node())
        if sense not in node.senses:
            node.senses.append(sense)
        self.longest = max(self.longest, len(tokens))

    def matches(self, tokens: Sequence[Token], start: int) -> Iterator[tuple[int, tuple[Sense, ...]]]:
        """Yield (end, senses) of every word starting at ``start``."""
        node = self._root
        for index in range(start, len(tokens)):
            node_next = node.children.get(_key(tokens[index]))
            if node_next is None:
                return
            node = node_next
            if node.senses:
                yield index + 1, tuple(node.senses)

    def words(self, category: Category, concept: str) -> tuple[str, ...]:
        """Return the (normalized) words of one concept."""
        return tuple(self._words.get(Sense(category, concept), ()))

    def kinds_in(self, text: str, places: frozenset[str] = frozenset()) -> dict[str, str]:
        """Return the kind words of a (normalized) name and their kinds (浴室抽风机: 抽风机, exhaust_fan).

        ``places``: the home's place names, read first: 露台灯 is the 露台's light, not a 台灯.
        """
        tokens = tokenize(text)
        place_tokens = _tokenized(places)
        found: dict[str, str] = {}
        start = 0
        # Longest words first, left to right: "Apple TV" is a media box, not a TV.
        while start < len(tokens):
            kinds = [
                (end, sense.concept)
                for end, senses in self.matches(tokens, start)
                for sense in senses
                if sense.category is Category.KIND
            ]
            texts = tuple(t.text for t in tokens[start:])
            place_end = max((start + len(p) for p in place_tokens if p and texts[: len(p)] == p), default=0)
            if place_end > max((end for end, _ in kinds), default=start):
                start = place_end
                continue
            if not kinds:
                start += 1
                continue
            # The longest word; of its kinds, the first in the data (浴室寶: a bath heater before
            # a water heater).
            end = max(end for end, _ in kinds)
            concept = next(concept for stop, concept in kinds if stop == end)
            found[
                " ".join("".join(t.text if t.is_cjk else f" {t.text} " for t in tokens[start:end]).split())
            ] = concept
            start = end
        return found

    def senses_of(self, word: str) -> tuple[Sense, ...]:
        """Return the senses of one whole word (for tests and data checks)."""
        tokens = tokenize(normalize(word))
        return next((senses for end, senses in self.matches(tokens, 0) if end == len(tokens)), ())


@lru_cache(maxsize=4)
def _tokenized(words: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Return words as token texts (the places of a home, for every name read)."""
    return tuple(tuple(t.text for t in tokenize(word)) for word in words)


# Unbounded: the keys are the few dialect chains, and a lexicon dropped from the cache would
# be read again from disk inside the event loop.
@cache
def _lexicon_of(folders: tuple[str, ...]) -> "Lexicon":
    return Lexicon(folders)


ALL_FOLDERS = (BASE_CHINESE, CANTONESE, TAIWANESE, ENGLISH)


def load_all() -> None:
    """Read every language's data (in an executor: files are read once, not in the event loop)."""
    sounds()
    for language in ALL_FOLDERS:
        lexicon_for(language)
        _lexicon_of((language,))
    names_lexicon()
    place_synonyms()
    maker_kinds()
    side_words()


def names_lexicon() -> "Lexicon":
    """Return the words of every language at once.

    Names are read in all of them: "阳台捲门" is a Taiwan roller door whatever the language of
    the conversation.
    """
    return _lexicon_of(ALL_FOLDERS)


@lru_cache(maxsize=1)
def place_synonyms() -> dict[str, tuple[str, ...]]:
    """Return other words for places, of every language: a room named 主卧 is also 主人房."""
    found: dict[str, list[str]] = {}
    for folder in (BASE_CHINESE, CANTONESE, TAIWANESE, ENGLISH):
        path = DATA / folder / "synonyms.txt"
        if path.exists():
            for canonical, words in read_entries(path):
                found.setdefault(normalize(canonical), []).extend(normalize(w) for w in words)
    return {key: tuple(dict.fromkeys(words)) for key, words in found.items()}


@cache
def side_words() -> dict[str, str]:
    """Return the words that tell a pair apart in names, with their side (``data/sides.txt``)."""
    return {normalize(word): side for side, words in read_entries(DATA / "sides.txt") for word in words}


@cache
def maker_kinds() -> tuple[tuple[str, str], ...]:
    """Return (maker word, kind) of the makers that make one kind of device (``data/makers.txt``)."""
    return tuple(
        (normalize(word), kind) for kind, words in read_entries(DATA / "makers.txt") for word in words
    )


def place_variants(name: str) -> list[str]:
    """Return a place's name with each known synonym in place of the word it stands for."""
    normalized = normalize(name)
    variants: list[str] = []
    for canonical, words in place_synonyms().items():
        if canonical in normalized:
            variants.extend(
                normalized.replace(canonical, word)
                for word in words
                # "阿公的" is 阿公房间, but a room named 房间 is not "的": a filler names nothing.
                if canonical != normalized or not _is_filler(word)
            )
    return variants


def _is_filler(word: str) -> bool:
    """Tell whether a whole word is only a filler of some language (的, a particle)."""
    senses = names_lexicon().senses_of(word)
    return bool(senses) and all(sense.category is Category.FILLER for sense in senses)


@lru_cache(maxsize=64)
def concept_words(category: Category, concept: str) -> tuple[str, ...]:
    """Return the words of a concept in every language (to match a device's own option names)."""
    words: list[str] = []
    for folder in (BASE_CHINESE, CANTONESE, TAIWANESE, ENGLISH):
        words.extend(_lexicon_of((folder,)).words(category, concept))
    return tuple(dict.fromkeys(words))


def lexicon_for(language: str) -> Lexicon:
    """Return the lexicon of a conversation language (loaded once per set of folders)."""
    return _lexicon_of(dialect_chain(language))
