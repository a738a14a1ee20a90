"""A sentence cut into pieces: names of this home, words of the language data, numbers, times.

Every way to read the tokens is weighed and the cheapest wins: a name or a word costs
one, a part of a name more (a place and a kind word win over a part that cuts across
them), a sound-only match a little more, a time little, and a token nothing explains
most of all. So the 关 of 玄关 in 打开玄关吊灯 is part of a name, never the verb.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .lexicon import Category, Lexicon, Sense
from .names import NameIndex, NameMatch
from .times import later_spans
from .tokens import Token

# What each reading of a stretch costs.
_WORD, _NAME, _PART, _SOUND, _UNKNOWN, _TIME = 1.0, 1.0, 2.1, 0.4, 10.0, 0.5
# Marks that end a clause.
BOUNDARIES = frozenset("，,。.！!？?；;、…~～")


class Role(StrEnum):
    """What a piece is."""

    NAME = "name"
    WORD = "word"
    NUMBER = "number"
    TIME = "time"
    PUNCT = "punct"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Piece:
    """A stretch of the sentence read as one thing (token indexes ``start``..``end``)."""

    text: str
    start: int
    end: int
    role: Role
    # The sense its clause gave it (for words, and for names that are also words).
    sense: Sense | None = None
    # Every sense the word has, and the names the stretch may be.
    senses: tuple[Sense, ...] = ()
    names: tuple[NameMatch, ...] = ()
    number: float | None = None

    @property
    def category(self) -> Category | None:
        """Return the category of the chosen sense."""
        return self.sense.category if self.sense is not None else None

    @property
    def concept(self) -> str:
        """Return the concept of the chosen sense ("" when none)."""
        return self.sense.concept if self.sense is not None else ""

    def has(self, category: Category, concept: str | None = None) -> bool:
        """Tell whether the piece was read as this category (and concept)."""
        sense = self.sense
        return (
            sense is not None and sense.category is category and (concept is None or sense.concept == concept)
        )

    def could_be(self, category: Category, *concepts: str) -> bool:
        """Tell whether any sense of the piece is this category (and one of the concepts)."""
        return any(s.category is category and (not concepts or s.concept in concepts) for s in self.senses)

    def chosen(self, role: Role, sense: Sense | None) -> "Piece":
        """Return the piece as its clause reads it."""
        return Piece(self.text, self.start, self.end, role, sense, self.senses, self.names, self.number)


@dataclass(slots=True)
class _Option:
    end: int
    cost: float
    piece: Piece


def _words_and_names(
    tokens: Sequence[Token],
    start: int,
    lexicon: Lexicon,
    names: dict[tuple[int, int], tuple[NameMatch, ...]],
    text: str,
) -> list[_Option]:
    """Return the readings of stretches starting at ``start`` as words, names, or both."""
    senses_by_end: dict[int, list[Sense]] = {}
    for end, senses in lexicon.matches(tokens, start):
        senses_by_end.setdefault(end, []).extend(senses)
    name_ends = {end for (begin, end) in names if begin == start}
    options = []
    for end in sorted(set(senses_by_end) | name_ends):
        matches = names.get((start, end), ())
        senses = tuple(senses_by_end.get(end, ()))
        cost = _WORD if senses else _UNKNOWN
        if matches:
            cost = min(cost, *((_NAME if m.full else _PART) + (0 if m.exact else _SOUND) for m in matches))
        piece_text = text[tokens[start].start : tokens[end - 1].end]
        role = Role.NAME if matches else Role.WORD
        options.append(_Option(end, cost, Piece(piece_text, start, end, role, None, senses, matches)))
    return options


def _options(
    tokens: Sequence[Token],
    start: int,
    lexicon: Lexicon,
    names: dict[tuple[int, int], tuple[NameMatch, ...]],
    times: set[tuple[int, int]],
    text: str,
) -> list[_Option]:
    """Return every way to read a piece starting at ``start``."""
    token = tokens[start]
    options = _words_and_names(tokens, start, lexicon, names, text)
    for begin, end in times:
        if begin == start:
            piece = Piece(text[token.start : tokens[end - 1].end], start, end, Role.TIME)
            options.append(_Option(end, _TIME, piece))
    one = start + 1
    if token.text[0].isdigit():
        options.append(
            _Option(one, _WORD, Piece(token.text, start, one, Role.NUMBER, number=float(token.text)))
        )
    elif not token.text[0].isalnum() and (token.text in BOUNDARIES or not options):
        cost = 0.0 if token.text in BOUNDARIES else _WORD
        options.append(_Option(one, cost, Piece(token.text, start, one, Role.PUNCT)))
    if not options:
        options.append(_Option(one, _UNKNOWN, Piece(token.text, start, one, Role.UNKNOWN)))
    return options


def _token_spans(tokens: Sequence[Token], spans: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Return character spans as token spans (the tokens that lie inside each)."""
    found = set()
    for begin, end in spans:
        inside = [i for i, t in enumerate(tokens) if t.start >= begin and t.end <= end]
        if inside:
            found.add((inside[0], inside[-1] + 1))
    return found


def cut(tokens: Sequence[Token], lexicon: Lexicon, index: NameIndex | None, text: str) -> list[Piece]:
    """Return the pieces of the cheapest reading of a sentence's tokens (fewest pieces on a tie)."""
    count = len(tokens)
    names = index.spans(tokens) if index is not None else {}
    times = _token_spans(tokens, later_spans(text))
    best: list[tuple[float, int, Piece | None]] = [(0.0, 0, None)] * (count + 1)
    for start in range(count - 1, -1, -1):
        choice: tuple[float, int, Piece | None] | None = None
        for option in _options(tokens, start, lexicon, names, times, text):
            total, pieces = option.cost + best[option.end][0], 1 + best[option.end][1]
            if choice is None or (total, pieces) < (choice[0], choice[1]):
                choice = (total, pieces, option.piece)
        assert choice is not None
        best[start] = choice
    cut_pieces: list[Piece] = []
    position = 0
    while position < count:
        piece = best[position][2]
        assert piece is not None
        cut_pieces.append(piece)
        position = piece.end
    return cut_pieces
