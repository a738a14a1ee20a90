"""Which sense a word has in its clause, when the language data gives it several.

Each rule settles one kind of ambiguity by the words around it: 高 after 调到 is a fan
level, after 调 a direction; 冷气 after 调成 is the cooling mode, else the air
conditioner; "on" before "the kitchen" is a preposition, at the end the verb; "open" in a
question is the state asked about. A rule returns the sense, the senses still possible,
or nothing (not its case); what no rule settles goes by the order of ``_PREFERRED``.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .lexicon import Category, Sense
from .pieces import Piece, Role

_VALUES = (Category.OPTION, Category.EXTREME, Category.DIRECTION)
_ARTICLES = ("the", "my", "our", "your")
_OBJECTS = (*_ARTICLES, "it", "them", "that", "this", "all", "everything")


@dataclass(frozen=True, slots=True)
class _Around:
    """A piece of a clause and what is around it."""

    pieces: Sequence[Piece]
    index: int
    # The clause has a word that can only be a verb, and one that names a device.
    has_verb: bool
    has_target: bool

    @property
    def piece(self) -> Piece:
        return self.pieces[self.index]

    @property
    def previous(self) -> Piece | None:
        return self.pieces[self.index - 1] if self.index > 0 else None

    @property
    def following(self) -> Piece | None:
        return self.pieces[self.index + 1] if self.index + 1 < len(self.pieces) else None

    @property
    def before(self) -> Piece | None:
        """Return the nearest piece before that is more than a filler."""
        return _neighbour(self.pieces, self.index, -1)

    @property
    def after(self) -> Piece | None:
        """Return the nearest piece after that is more than a filler."""
        return _neighbour(self.pieces, self.index, 1)

    @property
    def after_setting(self) -> bool:
        """Tell whether a verb of setting ("调到", "to", "on") comes just before."""
        before = self.before
        return before is not None and (
            before.could_be(Category.VERB, "set", "on_to") or before.text in ("on", "at", "to")
        )


def _neighbour(pieces: Sequence[Piece], index: int, step: int) -> Piece | None:
    """Return the nearest piece before (step -1) or after (+1) that is not only a filler."""
    position = index + step
    while 0 <= position < len(pieces):
        piece = pieces[position]
        if piece.role is Role.PUNCT:
            return None
        if piece.role is not Role.WORD or not all(s.category is Category.FILLER for s in piece.senses):
            return piece
        position += step
    return None


type _Senses = tuple[Sense, ...]
type _Rule = Callable[[_Around, _Senses], Sense | _Senses | None]


def _of(senses: _Senses, category: Category) -> Sense | None:
    return next((s for s in senses if s.category is category), None)


def _without(senses: _Senses, category: Category) -> _Senses:
    return tuple(s for s in senses if s.category is not category)


def _categories(senses: _Senses) -> set[Category]:
    return {s.category for s in senses}


def _wake(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "小爱，把灯关了": the assistant's name said apart is no device."""
    if not any(s.concept == "wake" for s in senses):
        return None
    alone = all(
        p is around.piece or p.role is Role.PUNCT or p.could_be(Category.FILLER) for p in around.pieces
    )
    others = tuple(s for s in senses if s.concept != "wake")
    # Run into the request ("小艺关掉客厅主灯"), a name that is nothing else is still the
    # assistant's; one that is also a device's ("小爱音量调小") is the device.
    if alone or not others:
        return Sense(Category.FILLER, "wake")
    return others


def _state(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "is the front door open?": in a question, "open" is what the door is, not what to do."""
    if Category.STATE not in _categories(senses) or len(_categories(senses)) == 1:
        return None
    asking = any(
        p.could_be(Category.MOOD, "question", "question_start", "question_end") for p in around.pieces
    )
    return _of(senses, Category.STATE) if asking else _without(senses, Category.STATE)


def _unit(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Read a unit after a number ("26度"); elsewhere the word's other sense (Cantonese 度 of 鎖咗度門)."""
    if Category.UNIT not in _categories(senses):
        return None
    previous = around.previous
    after_number = previous is not None and (previous.role is Role.NUMBER or previous.could_be(Category.UNIT))
    if after_number or around.piece.text.startswith("half") or around.piece.text in ("%", "°", "℃", "℉"):
        return _of(senses, Category.UNIT)
    return _without(senses, Category.UNIT) or Sense(Category.FILLER, "measure")


def _option(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Read a named choice after a verb of setting or before 模式 ("调成冷气"), else its other sense."""
    categories = _categories(senses)
    if Category.OPTION not in categories or len(categories) == 1:
        return None
    previous = around.previous
    if Category.KIND in categories and previous is not None and previous.could_be(Category.FILLER, "measure"):
        # "set 個冷氣去 24 度": a thing counted is the device, not its mode.
        return _without(senses, Category.OPTION)
    before = around.before
    speed_before = before is not None and before.could_be(Category.ATTRIBUTE, "speed")
    mode_after = around.after is not None and around.after.could_be(Category.ATTRIBUTE, "mode")
    if around.after_setting or mode_after or (Category.KIND not in categories and speed_before):
        return _of(senses, Category.OPTION)
    if before is None and around.after is None and Category.VERB not in categories:
        # Said alone between pauses ("turn on the mini split, heat, 70 degrees"): the choice
        # (but "静音就行" is a verb: mute).
        return _of(senses, Category.OPTION)
    adjusted = before is not None and before.could_be(Category.VERB, "adjust")
    speed_said = any(p.could_be(Category.ATTRIBUTE, "speed") for p in around.pieces[: around.index])
    if (adjusted or around.after_setting) and speed_said and Category.KIND not in categories:
        # "风速转静音": the fan speed's quiet level, not muting.
        return _of(senses, Category.OPTION)
    if Category.FEELING in categories and Category.DIRECTION not in categories and adjusted:
        return _of(senses, Category.OPTION)
    return _without(senses, Category.OPTION)


def _attribute_or_kind(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "the office AC fan": after another device, "fan" is its fan speed."""
    if not {Category.ATTRIBUTE, Category.KIND} <= _categories(senses):
        return None
    device_before = any(
        p.could_be(Category.KIND) or (p.role is Role.NAME and any(":" not in m.owner for m in p.names))
        for p in around.pieces[: around.index]
    )
    return _of(senses, Category.ATTRIBUTE if device_before else Category.KIND)


def _attribute_or_direction(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "开三成光": after a value, 光 is the brightness; "较光啲" a direction."""
    if not {Category.ATTRIBUTE, Category.DIRECTION} <= _categories(senses):
        return None
    previous = around.previous
    after_value = previous is not None and (previous.role is Role.NUMBER or previous.could_be(Category.UNIT))
    return _of(senses, Category.ATTRIBUTE if after_value else Category.DIRECTION)


def _direction_or_feeling(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "亮一点", "调冷一点" ask for a change; "好冷", "太亮了" complain."""
    if not {Category.DIRECTION, Category.FEELING} <= _categories(senses):
        return None
    before, after = around.before, around.after
    intensified = before is not None and before.could_be(Category.MOOD, "feeling")
    stepped = (
        (after is not None and (after.could_be(Category.AMOUNT) or after.role is Role.NUMBER))
        or (before is not None and before.could_be(Category.AMOUNT))
        or (before is not None and before.could_be(Category.VERB, "adjust", "set"))
    )
    if stepped or (around.has_verb and not intensified):
        return _of(senses, Category.DIRECTION)
    return _of(senses, Category.FEELING)


def _verb_or_kind(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "lock the door" / "the door lock", "switch the lamp off" / "the switch"."""
    if not {Category.VERB, Category.KIND} <= _categories(senses) or around.has_verb:
        return None
    verb = _of(senses, Category.VERB)
    assert verb is not None
    previous = around.previous
    if previous is not None and previous.text in _ARTICLES:
        # "the vacuum", "my lock": after an article, a thing.
        return _of(senses, Category.KIND)
    if verb.concept in ("set", "adjust"):
        following = around.following
        acts_on = following is not None and (following.text in _OBJECTS or following.role is Role.NAME)
        return verb if acts_on else _of(senses, Category.KIND)
    # "Lock the entry lock": a verb first, the same word later its kind.
    others = [
        p
        for i, p in enumerate(around.pieces)
        if i != around.index
        and p.could_be(Category.VERB)
        and not p.could_be(Category.VERB, "set", "adjust", "keep", "again")
        and (not p.could_be(Category.KIND) or i < around.index)
    ]
    return _of(senses, Category.KIND) if others else verb


def _verb_or_filler(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Read English "to"/"on"/"off" and Chinese 到/为: verbs only where they set or switch."""
    if not {Category.VERB, Category.FILLER} <= _categories(senses):
        return None
    verb = _of(senses, Category.VERB)
    assert verb is not None
    after, following = around.after, around.following
    if verb.concept == "set":
        value_next = after is not None and (
            after.role is Role.NUMBER or any(after.could_be(c) for c in _VALUES)
        )
        return verb if value_next else _of(senses, Category.FILLER)
    if verb.concept in ("on", "off") and around.piece.text in ("on", "off") and following is not None:
        # "on" before "the kitchen" is a preposition, before "low" or "20" a "to".
        if (
            following.text in _ARTICLES
            or following.role is Role.NAME
            or following.could_be(Category.KIND)
            or following.could_be(Category.PLACE)
        ):
            return _of(senses, Category.FILLER)
        if (
            following.role is Role.NUMBER
            or following.could_be(Category.OPTION)
            or following.could_be(Category.EXTREME)
            or following.could_be(Category.UNIT, "half")
        ):
            return Sense(Category.VERB, "set")
    return verb


def _reference(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "把那个关了" ("that one"); "把那个灯关了" (a determiner: the lamp says which)."""
    if Category.REFERENCE not in _categories(senses):
        return None
    other = _of(senses, Category.FILLER) or _of(senses, Category.MOOD)
    if around.has_target and other is not None:
        return other
    return _of(senses, Category.REFERENCE)


def _mood(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "did" asks about the past; 好/太/幾 before an adjective intensify it (幾大聲: how loud)."""
    if Category.MOOD not in _categories(senses):
        return None
    past = next((s for s in senses if s.concept in ("past", "past_question")), None)
    if past is not None:
        return past
    if not any(s.concept == "feeling" for s in senses) or len(senses) == 1:
        return _of(senses, Category.MOOD)
    after = around.after
    leads = after is not None and (after.could_be(Category.DIRECTION) or after.could_be(Category.FEELING))
    question = next((s for s in senses if s.concept == "question"), None)
    if leads and question is not None and (not around.has_verb or _asks_about_done(around)):
        return question
    if leads:
        return Sense(Category.MOOD, "feeling")
    return next(s for s in senses if s.concept != "feeling")


def _asks_about_done(around: _Around) -> bool:
    """Tell whether 幾 follows a verb said done (開咗幾大) or ends in a question mark: it asks."""
    previous = around.previous
    if previous is not None and previous.could_be(Category.FILLER, "done"):
        return True
    return any(p.role is Role.PUNCT and p.text in "?？" for p in around.pieces[around.index :])


def _joiner(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "and" between two requests joins them; "too" at the end is only "too"."""
    if not {Category.JOINER, Category.FILLER} <= _categories(senses):
        return None
    following = around.following
    ends = following is None or following.role is Role.PUNCT
    return _of(senses, Category.FILLER if ends else Category.JOINER)


def _amount(around: _Around, senses: _Senses) -> Sense | _Senses | None:
    """Settle "by" counts only before a number ("lower it by two"), and 啲 before a kind is a plural."""
    amount = _of(senses, Category.AMOUNT)
    plural = next((s for s in senses if s.category is Category.FILLER and s.concept == "plural"), None)
    if plural is not None and around.after is not None and around.after.could_be(Category.KIND):
        # "主人房啲燈": 啲 before a kind is "the" of several, not "a bit".
        return plural
    if amount is None or amount.concept != "by":
        return None
    after = around.after
    if after is not None and after.role is Role.NUMBER:
        return amount
    return _of(senses, Category.FILLER) or Sense(Category.FILLER, "particle")


_RULES: tuple[_Rule, ...] = (
    _wake,
    _state,
    _unit,
    _option,
    _attribute_or_kind,
    _attribute_or_direction,
    _direction_or_feeling,
    _verb_or_kind,
    _verb_or_filler,
    _reference,
    _mood,
    _joiner,
    _amount,
)
# What a word is when nothing around it says.
_PREFERRED = (
    Category.KIND,
    Category.VERB,
    Category.DIRECTION,
    Category.EXTREME,
    Category.OPTION,
    Category.ATTRIBUTE,
    Category.AMOUNT,
    Category.GROUP,
    Category.PLACE,
    Category.FEELING,
    Category.JOINER,
    Category.FILLER,
)


def _pick(around: _Around) -> Sense | None:
    """Return the sense of one piece."""
    senses = around.piece.senses
    for rule in _RULES:
        if not senses:
            return None
        found = rule(around, senses)
        if isinstance(found, Sense):
            return found
        if found is not None:
            senses = found
    if not senses:
        return None
    return next((s for category in _PREFERRED for s in senses if s.category is category), senses[0])


def _names_what_a_filler_would_not(
    pieces: Sequence[Piece], index: int, sense: Sense, has_target: bool, *, first: bool
) -> bool:
    """Tell whether a filler word that is part of a name is the name: nothing else says which device.

    Not when a pause follows it ("right, turn it off"), when it is all the clause that opens
    the sentence says, or when the clause refers to a device already.
    """
    if sense.category is not Category.FILLER or has_target:
        return False
    if index + 1 < len(pieces) and pieces[index + 1].role is Role.PUNCT:
        return False
    if first and all(p is pieces[index] or p.role is Role.PUNCT for p in pieces):
        # ("Right, set it going then": said alone before a pause, it is the pause's; "開 Hue
        # Play left 同 right" ends with the right one.)
        return False
    return not any(p.could_be(Category.REFERENCE, "it", "they", "one") for p in pieces)


def _for_a_device(pieces: Sequence[Piece], index: int) -> bool:
    """Tell whether an option said after a verb of setting is for another device of the clause.

    One it names, or whose kind it says ("净化器调到睡眠模式" beside a scene named 睡眠模式).
    """
    before = _neighbour(pieces, index, -1)
    named = any(
        i != index
        and (
            (p.role is Role.NAME and any(m.full and ":" not in m.owner for m in p.names))
            or p.could_be(Category.KIND)
        )
        for i, p in enumerate(pieces)
    )
    return named and before is not None and before.could_be(Category.VERB, "set", "adjust")


def choose(pieces: Sequence[Piece], *, first: bool = True) -> list[Piece]:
    """Give every piece of a clause the sense its neighbours call for.

    ``first``: the clause begins the sentence (a later one without a verb may only add a value
    to the request before it: "冷气开咗佢，27度，瞓觉模式").
    """
    verbless = not any(p.could_be(Category.VERB) for p in pieces)
    has_verb = any(
        p.senses and all(s.category is Category.VERB for s in p.senses) and not p.names for p in pieces
    )
    has_target = any((p.names and any(m.full for m in p.names)) or p.could_be(Category.KIND) for p in pieces)
    chosen = []
    for index, piece in enumerate(pieces):
        if piece.role not in (Role.WORD, Role.NAME):
            chosen.append(piece)
            continue
        sense = _pick(_Around(pieces, index, has_verb, has_target))
        role = piece.role
        if role is Role.NAME and sense is not None:
            whole = [m for m in piece.names if m.full]
            if _names_what_a_filler_would_not(pieces, index, sense, has_target, first=first):
                # "right 都開埋" after Hue Play left: the right one, not a "right," of hesitation.
                sense = None
            elif not whole or (sense.category is not Category.KIND and not any(m.exact for m in whole)):
                # A word of the language wins over part of a name ("play" of "Hue Play") and over a
                # name it only sounds like (開返 is no scene 开饭); a kind keeps the names it is
                # part of as a hint ("台灯" of 书房台灯).
                role = Role.WORD
            elif sense.category is Category.OPTION and (
                _for_a_device(pieces, index) or (verbless and not first)
            ):
                # "把主卧加湿器调到睡眠模式", "…，瞓觉模式": the device's own mode, not the scene named so.
                role = Role.WORD
            elif sense.category is not Category.KIND:
                sense = None
        if role is Role.WORD and sense is None and not piece.names:
            role = Role.UNKNOWN
        chosen.append(piece.chosen(role, sense))
    return chosen
