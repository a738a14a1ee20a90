"""One reading of a sentence, computed once per turn: names first, then the words around them.

1. The sentence is normalized (width, case, Simplified characters, numerals as digits)
   and split into tokens.
2. The tokens are cut into pieces at the least cost: names of this home (whole, in
   part, by sound), words of the language data, numbers and times; a token nothing
   explains costs most. So 玄关 in 打开玄关吊灯 is part of a name, never the verb 关.
3. Each piece with several senses takes the one its neighbours call for (高 after 调到
   is a fan level, after 调 a direction; 冷气 after 调成 is the cooling mode, else the air
   conditioner).
4. The pieces are split into clauses at punctuation and joining words ("A别关，把B关了":
   keep A, act on B), and each clause is read for its mood, its actions and values, its
   places, kinds, groups and references, and the words nothing explains.

The result is frozen: every layer reads it, none changes it.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import pairwise

from .actions import Action
from .composing import action_of_verb, compose, said_alone
from .concepts import ACTIVITIES, ACTIVITY_KINDS, FEELINGS, STATES
from .lexicon import Category, Lexicon, concept_words, lexicon_for
from .names import NameIndex, NameMatch, name_key
from .numbers import is_chinese_number
from .pieces import BOUNDARIES, Piece, Role, cut
from .senses import choose
from .times import CLOCK_AT, CLOCK_VERBS, SETTING_VERBS
from .tokens import Token, normalize, prepare, tokenize

_AREA, _FLOOR = "area:", "floor:"


class Mood(StrEnum):
    """What a clause or a sentence does with its verb."""

    COMMAND = "command"
    QUESTION = "question"
    NEGATION = "negation"
    LATER = "later"
    CONDITION = "condition"
    PAST = "past"
    # A complaint ("好冷啊", "it's dark in here"): it implies devices, it asks for nothing sure.
    FEELING = "feeling"


# Words that ask for a setting even without a verb ("制热", "大一点", "最高").
_SETTING = frozenset(
    {Category.VERB, Category.DIRECTION, Category.OPTION, Category.EXTREME, Category.ATTRIBUTE}
)
# Devices a name alone never works: said without a verb, a scene's name is a remark ("晚安").
_RUN_WITH_A_VERB = ("scene.", "script.", "button.")


@dataclass(frozen=True, slots=True)
class Clause:
    """One request (or question, or "don't") inside a sentence."""

    text: str
    pieces: tuple[Piece, ...]
    joiner: str | None
    mood: Mood
    actions: tuple[Action, ...]
    # Words nothing in the clause explains: with any, nothing is done locally.
    unexplained: tuple[str, ...]
    # Kinds of device named (language/concepts.py), and the kinds complaints or activities imply.
    kinds: tuple[str, ...] = ()
    implied_domains: tuple[str, ...] = ()
    # Kinds of device the states asked about belong to ("locked": a lock).
    stated_domains: tuple[str, ...] = ()
    # Names said: entity ids (whole or in part), area and floor ids.
    named: tuple[NameMatch, ...] = ()
    areas: tuple[str, ...] = ()
    floors: tuple[str, ...] = ()
    # The words of the places said, and place words said that may name nothing here.
    place_words: tuple[str, ...] = ()
    generic_places: tuple[tuple[str, str], ...] = ()
    # "all" (a group on its own), "each" (都: a group in a place), "home" (the whole home).
    group: str | None = None
    # "it", "here", "there".
    references: frozenset[str] = frozenset()
    again: bool = False
    # "A bit more": again, and only a step (ADJUST_…, INCREASE, DECREASE) may be repeated so.
    more: bool = False
    # "leave it as it is": nothing is to change.
    keep: bool = False
    polite: bool = False
    attributes: tuple[str, ...] = ()
    # Said again, whole, by the clause after ("空调……客厅的空调开一下"): nothing of its own.
    restarted: bool = False
    # Only the name of a scene or script that is itself a request (全屋熄燈, 睡觉模式, "Lights off").
    name_commands: bool = False

    @property
    def also(self) -> bool:
        """Tell whether the clause says "too", "either", 也, 都係 (more of what was said before).

        A turn that opens with "and" ("And the island lights", "还有书房的") is more of the last.
        """
        leading = next(
            (p for p in self.pieces if p.role is not Role.PUNCT and not p.has(Category.FILLER)), None
        )
        opens_with_and = (
            self.joiner is None
            and not self.actions
            and leading is not None
            and leading.role is Role.WORD
            and leading.has(Category.JOINER, "and")
        )
        return opens_with_and or any(p.has(Category.FILLER, "also") for p in self.pieces)

    @property
    def entity_names(self) -> tuple[NameMatch, ...]:
        """Return the names said that are entities' (not areas' or floors')."""
        return tuple(m for m in self.named if ":" not in m.owner)

    @property
    def only_a_number(self) -> bool:
        """Tell whether the clause says a number and nothing else ("68.", "24 please").

        It is the last device's setting, if that device takes one; no device is chosen by it.
        """
        return any(p.role is Role.NUMBER and said_alone(self.pieces, i) for i, p in enumerate(self.pieces))

    @property
    def only_a_place(self) -> bool:
        """Tell whether the clause says a place and nothing else ("客廳的", "小芸房那台", "the kitchen one").

        Said after a request whose device was unclear, it says which one is meant.
        """
        if self.actions or self.kinds or self.mood is not Mood.COMMAND or not (self.areas or self.floors):
            return False
        return all(
            piece.role is Role.PUNCT
            or piece.has(Category.FILLER)
            or piece.has(Category.REFERENCE)
            or (piece.role is Role.NAME and _names_a_place(piece))
            for piece in self.pieces
        )

    @property
    def about_devices(self) -> bool:
        """Tell whether the clause says anything about devices."""
        return bool(
            self.entity_names
            or self.kinds
            or self.areas
            or self.floors
            or self.generic_places
            or self.references - {"there", "here"}
            or (self.actions and not self.actions_shared)
            or self.implied_domains
        )

    @property
    def aside(self) -> bool:
        """Tell whether the clause only remarks beside a request ("我想冲凉", "阿公要拜拜了", "该睡觉了").

        It asks nothing of a device: no verb, setting, value, kind or "it", and no name said whole
        but a scene's or a script's (which a remark may name: they run only with a verb). A time
        is a remark only with what people will be doing; a condition never is, the past only
        when it names no device.
        """
        if self.restarted:
            return True
        if self.name_commands:
            return False
        said = "".join(p.text for p in self.pieces if p.role is Role.UNKNOWN)
        if said and is_chinese_number(said):
            # "调大声一点，二十五": a number not understood is a value left out, not a remark.
            return False
        # (A negation, only beside words of what people do: "晚上又不会喝", not "晚上不要".)
        situation = any(p.has(Category.FILLER, "situation") for p in self.pieces) or (
            any(p.has(Category.MOOD, "negation") for p in self.pieces)
            and any(p.role is Role.UNKNOWN for p in self.pieces)
        )
        if self.mood is Mood.PAST:
            # "Close the garage door, Declan left it open again": what was done to the device
            # acted on is why, not another request (one that names a device, or asks who did
            # it, is never a remark).
            # (Counted from the word that says the past, not a "could you" before the request.)
            first_past = next(
                (i for i, p in enumerate(self.pieces) if p.has(Category.MOOD, "past")), len(self.pieces)
            )
            return not (
                any(p.has(Category.MOOD, "past_question") for p in self.pieces)
                # "and switch on whatever was on last night", "刚才开的那个也关掉": a request.
                or self.joiner
                or self.also
                or any(p.has(Category.VERB) for p in self.pieces[:first_past])
                # "…, it was left on in the bathroom": where is not a remark.
                or self.areas
                or self.floors
                or self.generic_places
                or self.kinds
                or self.attributes
                or self.references - {"it", "they"}
                # (Its verb says what was done: "left it open".)
                or any(p.category in _SETTING - {Category.VERB} or p.role is Role.NUMBER for p in self.pieces)
                or any(m.full for m in self.entity_names)
            )
        if self.mood not in (Mood.COMMAND, Mood.QUESTION, Mood.NEGATION) and not (
            # "我阵间冲凉", "晚上用不到", "晚上又不会喝": what people will (not) do, not when to act.
            self.mood is Mood.LATER and situation
        ):
            return False
        placed = bool(self.areas or self.floors)
        if placed and (self.mood is Mood.QUESTION or self.also):
            # "客厅的呢？" asks about a place; "and Priya's too" asks the same there.
            return False
        return not (
            self.actions
            or self.kinds
            or self.attributes
            or self.references - {"here", "there"}
            or any(p.category in _SETTING or p.role is Role.NUMBER for p in self.pieces)
            or any(m.full and not m.owner.startswith(_RUN_WITH_A_VERB) for m in self.entity_names)
        )

    @property
    def actions_shared(self) -> bool:
        """Tell whether the clause has no verb of its own (filled in from a neighbour)."""
        return False


@dataclass(frozen=True, slots=True)
class Reading:
    """A sentence as the local layers understand it."""

    text: str
    prepared: str
    language: str
    tokens: tuple[Token, ...]
    pieces: tuple[Piece, ...]
    clauses: tuple[Clause, ...]
    mood: Mood
    # The time said in a request for later ("十分钟后"), as said.
    later: tuple[str, ...] = ()
    # Every clause that is about devices.
    commands: tuple[Clause, ...] = field(default=())

    @property
    def again(self) -> bool:
        """Tell whether the sentence asks to repeat the last command and names nothing new."""
        return any(c.again for c in self.clauses) and not any(
            c.entity_names or c.kinds or c.actions for c in self.clauses
        )

    @property
    def answers(self) -> frozenset[str]:
        """Return what the sentence answers to something the assistant asked.

        "confirm" and "farewell" when it says nothing else ("好的", "确认吧", "bye"), "refuse" when
        it opens with a refusal ("不对，改成25度"), "cancel" when it says one anywhere ("那就算了"),
        and "cancel_schedule" when the cancel names a command for later ("取消刚才的定时").
        """
        words = [p for p in self.pieces if p.role is not Role.PUNCT]
        found: set[str] = set()
        for concept in ("confirm", "farewell"):
            if any(p.could_be(Category.ANSWER, concept) for p in words) and all(
                p.could_be(Category.ANSWER, concept)
                or _only_filler(p)
                or p.could_be(Category.MOOD, "request", "polite")
                for p in words
            ):
                found.add(concept)
        if any(p.could_be(Category.ANSWER, "cancel") for p in words):
            found.add("cancel")
            if any(p.could_be(Category.ANSWER, "schedule") for p in words):
                found.add("cancel_schedule")
        first = next((p for p in words if not _only_filler(p)), None)
        if first is not None and first.could_be(Category.ANSWER, "refuse"):
            found.add("refuse")
        return frozenset(found)

    @property
    def only_a_place(self) -> bool:
        """Tell whether the whole sentence is a place alone: the answer to "which one?"."""
        return len(self.clauses) == 1 and self.clauses[0].only_a_place

    @property
    def words(self) -> str:
        """Return the prepared text without the times said (what to do, for a request for later)."""
        text = self.prepared
        for piece in sorted((p for p in self.pieces if p.role is Role.TIME), key=lambda p: -p.start):
            begin, end = self.tokens[piece.start].start, self.tokens[piece.end - 1].end
            text = text[:begin] + " " + text[end:]
        return " ".join(text.split()).strip(" ,，")


# --- Clauses ----------------------------------------------------------------------------------


def _only_filler(piece: Piece) -> bool:
    """Tell whether a piece is a particle or a hesitation and nothing else ("吧", "了", "um")."""
    return (
        piece.role is Role.WORD
        and bool(piece.senses)
        and all(s.category is Category.FILLER for s in piece.senses)
    )


def _names_a_place(piece: Piece) -> bool:
    """Tell whether a piece is the whole name of an area or a floor."""
    return any(m.full and m.owner.startswith((_AREA, _FLOOR)) for m in piece.names)


def _dangling(current: Sequence[Piece], *, trailing_off: bool = False) -> bool:
    """Tell whether a clause so far ends in an article, maybe with a hesitation after it.

    Before a comma only a word that is nothing but an article ("the", not "on" of "turn it
    on"); before a trailing off any word that can be one ("set the fan to... uh... full").
    """
    words = [p for p in current if not p.could_be(Category.FILLER, "hesitation")]
    if not words or words[-1].role is not Role.WORD:
        return False
    last = words[-1]
    return last.could_be(Category.FILLER, "article") and (
        trailing_off or all(s.category is Category.FILLER for s in last.senses)
    )


def _texts_beside(pieces: Sequence[Piece], index: int) -> tuple[str, ...]:
    """Return the texts of the pieces either side of one (an ellipsis is read as dots)."""
    return tuple(pieces[i].text for i in (index - 1, index + 1) if 0 <= i < len(pieces))


_LEADING_MOODS = frozenset({"polite_start", "polite", "request"})


def _only_leading_in(current: Sequence[Piece]) -> bool:
    """Tell whether a clause so far only leads into a request (可以把那個, "could you, um").

    Nothing in it names, does or asks anything: particles, hesitations, "that", polite words
    (可以 that could also answer "yes").
    """
    return bool(current) and all(
        p.role is Role.WORD
        and bool(p.senses)
        and all(
            s.category in (Category.FILLER, Category.REFERENCE, Category.ANSWER)
            or (s.category is Category.MOOD and s.concept in _LEADING_MOODS)
            for s in p.senses
        )
        for p in current
    )


def _split(pieces: Sequence[Piece]) -> list[tuple[list[Piece], str | None]]:
    """Split pieces into clauses at punctuation and joining words."""
    clauses: list[tuple[list[Piece], str | None]] = []
    current: list[Piece] = []
    joiner: str | None = None
    for index, piece in enumerate(pieces):
        boundary = piece.role is Role.PUNCT and piece.text in BOUNDARIES
        if boundary and piece.text in ",，" and _dangling(current):
            # "turn off the, um, bathroom fan": a comma after "the" is a pause, not a new clause.
            continue
        if piece.role is Role.WORD and piece.could_be(Category.FILLER, "correction", "dismissal"):
            # "lock the front door... I mean the back door": what takes a request back stands
            # alone, between what is taken back and what is said instead.
            if current:
                clauses.append((current, joiner))
                current = []
            clauses.append(([piece], None))
            joiner = None
            continue
        trails_off = piece.text in "~～" or (piece.text == "." and "." in _texts_beside(pieces, index))
        if boundary and trails_off and (_only_leading_in(current) or _dangling(current, trailing_off=True)):
            # "可以把那個…主臥的除濕機打開嗎", "set the fan to... uh... full speed": a trailing off
            # before the thing or the value is a pause too.
            continue
        # A joining word between two requests ("同埋", "and then"), not one that ends the sentence.
        joins = (
            piece.role in (Role.WORD, Role.NAME)
            and not any(m.full for m in piece.names)
            and piece.could_be(Category.JOINER)
            and bool(current)
            and piece is not pieces[-1]
        )
        if boundary or joins:
            if current:
                clauses.append((current, joiner))
                current = []
                joiner = piece.text if joins or piece.text == "、" else joiner if not current else None
            elif joins:
                joiner = piece.text
            if piece.text in "?？" and clauses:
                # The question mark belongs to the clause it ends.
                clauses[-1][0].append(piece)
            if boundary and piece.text != "、":
                joiner = None
            continue
        current.append(piece)
    if current:
        clauses.append((current, joiner))
    return clauses


def _mood(pieces: Sequence[Piece], actions: Sequence[Action], feelings: bool) -> tuple[Mood, bool]:
    """Return a clause's mood and whether it was said politely."""
    concepts = [p.concept for p in pieces if p.has(Category.MOOD)]
    request = "request" in concepts
    polite = request or "polite" in concepts or "polite_start" in concepts
    leading = next((p for p in pieces if p.role is not Role.PUNCT and not p.has(Category.FILLER)), None)
    hard = "question" in concepts or (leading is not None and leading.has(Category.MOOD, "question_start"))
    if any(p.role is Role.TIME for p in pieces):
        # "今天天气怎么样", "what's on tomorrow" ask; "十分钟后关灯" is for later; "晚上太亮了"
        # complains.
        if feelings and not actions and not hard:
            return Mood.FEELING, polite
        return (Mood.QUESTION if hard and not actions else Mood.LATER), polite
    if "condition" in concepts:
        return Mood.CONDITION, polite
    if "past" in concepts or "past_question" in concepts:
        return Mood.PAST, polite
    if "negation" in concepts:
        return Mood.NEGATION, polite
    if "request_end" in concepts and not hard:
        # "把灯打开嘛", "门锁上嘛", "帮我把灯打开嘛": a request said softly. It may also be 吗
        # written 嘛: after a verb said done ("床头灯关了嘛", "你把门锁了嘛"), with another
        # question word ("关没关嘛", "锁上没嘛", a question mark), or asking leave with no one
        # asked to do it ("床头灯可以关嘛"), it asks.
        if not actions or _asks(pieces) or _said_done(pieces):
            return Mood.QUESTION, polite
        leave = "polite_start" in concepts and not request
        return (Mood.QUESTION if leave else Mood.COMMAND), polite
    soft = any(
        p.has(Category.MOOD, "question_end")
        or (p.has(Category.MOOD, "question_start") and p is not leading and not _after_to(pieces, i))
        for i, p in enumerate(pieces)
    )
    if hard:
        return Mood.QUESTION, polite
    if soft:
        # "可以帮我把灯打开吗", "楼梯灯可以开一下吗", "could you switch the lamp off?": a request,
        # said politely; but "神明灯可以关吗" asks leave.
        # "可以把铁卷门降到一半吗": a clause that opens with a polite word asks for it too.
        softened = any(p.has(Category.FILLER, "softener") for p in pieces) or _opens_politely(pieces)
        return (Mood.COMMAND if (request or softened) and actions else Mood.QUESTION), polite
    if feelings and not actions and not any(p.has(Category.VERB) for p in pieces):
        # ("调到恒湿模式": a setting whose name holds a feeling's word is still asked for.)
        return Mood.FEELING, polite
    return Mood.COMMAND, polite


def _after_to(pieces: Sequence[Piece], index: int) -> bool:
    """Tell whether a word comes after "to" ("get Hamish to do a clean": no question)."""
    return index > 0 and pieces[index - 1].text == "to"


def _says_how_it_is(pieces: Sequence[Piece]) -> bool:
    """Tell whether a direction is said with a word of degree before it (太小, 好大声, so loud)."""
    said = [p for p in pieces if p.role is not Role.PUNCT and not p.has(Category.FILLER)]
    return any(
        piece.has(Category.DIRECTION) and said[index - 1].has(Category.MOOD, "feeling")
        for index, piece in enumerate(said)
        if index
    )


def _asks(pieces: Sequence[Piece]) -> bool:
    """Tell whether a clause has a question word or mark anywhere ("关没关", "锁上没", "？")."""
    return any(
        p.could_be(Category.MOOD, "question", "question_start", "question_end")
        or (p.role is Role.PUNCT and p.text in "?？")
        for p in pieces
    )


def _said_done(pieces: Sequence[Piece]) -> bool:
    """Tell whether a verb is said done (关了, 开咗; 了 apart or as the end of the verb)."""
    done = concept_words(Category.FILLER, "done")
    return any(
        p.has(Category.FILLER, "done") or (p.has(Category.VERB) and p.text.endswith(done)) for p in pieces
    )


def _opens_politely(pieces: Sequence[Piece]) -> bool:
    """Tell whether a clause starts, after any hesitation, with a polite word (可以…, "maybe…")."""
    opener = next(
        (
            p
            for p in pieces
            if p.role is not Role.PUNCT
            and not (p.has(Category.FILLER, "hesitation") or p.has(Category.FILLER, "wake"))
        ),
        None,
    )
    return opener is not None and opener.has(Category.MOOD, "polite_start")


# Categories whose words never need an action to be explained.
_SELF_EXPLAINED = frozenset(
    {
        Category.FILLER,
        Category.MOOD,
        Category.GROUP,
        Category.REFERENCE,
        Category.JOINER,
        Category.KIND,
        Category.FEELING,
        Category.PLACE,
        Category.AMOUNT,
        Category.STATE,
    }
)


def _clock_read(pieces: list[Piece]) -> list[Piece]:
    """Read "at ten" after a switching verb as a clock time ("turn off the lights at ten").

    After a verb of setting it stays a value ("set the fan at 3", "keep it at 20"), and so
    does a number with a unit ("at 50 percent").
    """
    verbs = {p.concept for p in pieces if p.has(Category.VERB) and p.text not in CLOCK_AT}
    if not verbs & CLOCK_VERBS or verbs & SETTING_VERBS:
        return pieces
    for index, piece in enumerate(pieces[:-1]):
        hour = pieces[index + 1]
        if piece.text not in CLOCK_AT or hour.role is not Role.NUMBER or not 1 <= (hour.number or 0) <= 12:
            continue
        end = index + 2
        if end < len(pieces) and pieces[end].has(Category.UNIT):
            return pieces
        text = " ".join(p.text for p in pieces[index:end])
        time = Piece(text, piece.start, pieces[end - 1].end, Role.TIME)
        return [*pieces[:index], time, *pieces[end:]]
    return pieces


def _clause(pieces: list[Piece], joiner: str | None) -> Clause:
    """Read one clause."""
    pieces = _clock_read(pieces)
    composition = compose(pieces)
    actions, used = composition.actions, composition.used
    feelings = [p.concept for p in pieces if p.has(Category.FEELING)]
    mood, polite = _mood(pieces, actions, bool(feelings))
    if mood is Mood.COMMAND and _says_how_it_is(pieces):
        # "电视声音太小了", "the TV is so loud": how it is, not which way to change it.
        mood, actions = Mood.FEELING, []
    unexplained = []
    for index, piece in enumerate(pieces):
        if piece.role in (Role.PUNCT, Role.TIME, Role.NAME):
            continue
        if piece.role is Role.UNKNOWN or (piece.role is Role.NUMBER and index not in used):
            unexplained.append(piece.text)
        elif piece.category is not None and piece.category not in _SELF_EXPLAINED and index not in used:
            if piece.category in (Category.ATTRIBUTE, Category.UNIT) and mood is not Mood.COMMAND:
                # "校咗幾多 %？": the setting or the unit a question asks about.
                continue
            if piece.category is Category.VERB and mood is not Mood.COMMAND:
                continue
            unexplained.append(piece.text)
    # "to on instead of auto": what follows "instead of" is not wanted; what is, is not sure.
    unexplained += [
        p.text
        for index, piece in enumerate(pieces)
        if piece.has(Category.FILLER, "instead")
        for p in pieces[index + 1 :]
        if p.role is not Role.PUNCT and not p.has(Category.FILLER)
    ]
    # Names said; a place said whole names the place, not the devices whose names hold it.
    named = tuple(
        m
        for p in pieces
        if p.role is Role.NAME
        for m in p.names
        if m.full or not any(n.full and ":" in n.owner for n in p.names)
    )
    kinds = tuple(dict.fromkeys(p.concept for p in pieces if p.has(Category.KIND))) or tuple(
        dict.fromkeys(
            ACTIVITY_KINDS[p.concept] for p in pieces if p.has(Category.VERB) and p.concept in ACTIVITY_KINDS
        )
    )
    # A place said whole is the place, not a part of some device's name.
    places = [p for p in pieces if p.role is Role.NAME and any(m.full and ":" in m.owner for m in p.names)]
    areas = tuple(
        dict.fromkeys(
            m.owner[len(_AREA) :] for p in places for m in p.names if m.full and m.owner.startswith(_AREA)
        )
    )
    floors = tuple(
        dict.fromkeys(
            m.owner[len(_FLOOR) :] for p in places for m in p.names if m.full and m.owner.startswith(_FLOOR)
        )
    )
    implied = [d for f in feelings for d in FEELINGS.get(f, ())]
    implied += [d for p in pieces if p.has(Category.VERB) for d in ACTIVITIES.get(p.concept, ())]
    # "is the front door locked?": only a lock is locked.
    stated = tuple(
        dict.fromkeys(d for p in pieces if p.has(Category.STATE) for d in STATES.get(p.concept, ()))
    )
    generic = tuple((p.text, p.concept) for p in pieces if p.has(Category.PLACE) and p.role is not Role.NAME)
    # ("send it home": that home is where the vacuum goes, no group.)
    groups = [p.concept for i, p in enumerate(pieces) if p.has(Category.GROUP) and i not in used]
    group = next((g for g in groups if g in ("all", "home", "two")), None) or next(iter(groups), None)
    references = frozenset(p.concept for p in pieces if p.has(Category.REFERENCE))
    if references and not (actions or named or kinds or feelings) and mood is Mood.COMMAND:
        # "嗯…那个，把灯打开": a lone 那个 is a hesitation, not "that one".
        references = frozenset()
    text = "".join(
        p.text if not p.text.isascii() or not p.text[0].isalnum() else f" {p.text} " for p in pieces
    )
    return Clause(
        text=" ".join(text.split()),
        pieces=tuple(pieces),
        joiner=joiner,
        mood=mood,
        actions=tuple(actions),
        unexplained=tuple(unexplained),
        kinds=kinds,
        implied_domains=tuple(dict.fromkeys(implied)),
        stated_domains=stated,
        named=named,
        areas=areas,
        floors=floors,
        place_words=tuple(p.text for p in places),
        generic_places=generic,
        group=group,
        references=references,
        again=any(p.has(Category.VERB, "again") or p.has(Category.VERB, "more") for p in pieces),
        more=any(p.has(Category.VERB, "more") for p in pieces),
        # "keep it at 20", "leave it half open": kept at a setting is that setting.
        keep=any(p.has(Category.VERB, "keep") for p in pieces)
        and not any(a.value is not None or a.option for a in actions),
        polite=polite,
        attributes=tuple(dict.fromkeys(p.concept for p in pieces if p.has(Category.ATTRIBUTE))),
    )


def _name_commands_marked(clauses: list[Clause], lexicon: Lexicon) -> list[Clause]:
    """Mark a clause that is only a scene's or script's name holding a verb or a mode, or asked for.

    Said alone, 全屋熄燈 or 睡觉模式 asks to run it, and so does "Movie night, please"; a scene
    named 拜拜 or "Good night" said alone is a goodbye.
    """
    marked = list(clauses)
    # "please", 麻烦, not "thanks": a request word said beside the name.
    asked = any(p.has(Category.MOOD, "request") for c in clauses for p in c.pieces)
    for index, clause in enumerate(clauses):
        # "Relax scene in the lounge": the kind word of a scene or script asks for it to be run.
        kind_said = [
            p for p in clause.pieces if p.role is Role.WORD and p.could_be(Category.KIND, "scene", "script")
        ]
        said = [
            p
            for p in clause.pieces
            if p.role is not Role.PUNCT
            and not p.has(Category.FILLER)
            and not p.has(Category.MOOD)
            and p not in kind_said
        ]
        if clause.actions or clause.mood is not Mood.COMMAND or not said:
            continue
        if any(p.role is not Role.NAME for p in said):
            continue
        # "Film night in the lounge" of a scene "Lounge Film night": the rest of its name is a place said.
        places = {
            "".join(normalize(p.text).split())
            for p in said
            if any(m.full and ":" in m.owner for m in p.names)
        }
        if not any(
            (m.full or (m.before and m.before in places)) and m.owner.startswith(_RUN_WITH_A_VERB)
            for p in said
            for m in p.names
        ):
            continue
        # "喂一下豆豆" of a script 喂豆豆: a name said with 一下 inside it is being done.
        done = any(m.full and name_key(piece.text) != m.name for piece in said for m in piece.names)
        if asked or done or kind_said or any(_holds_a_request(piece.text, lexicon) for piece in said):
            marked[index] = replace(clause, name_commands=True)
    return marked


def _activity_named(clause: Clause, lexicon: Lexicon) -> Clause:
    """Return a clause that only names a device by what it does as asking for it ("幫我淋花").

    A valve aliased 淋花 ("water the flowers") said alone, or with a request, is opened: the name
    is the activity, and the device is of the kind that does it.
    """
    if clause.actions or clause.mood is not Mood.COMMAND:
        return clause
    said = [p for p in clause.pieces if p.role is not Role.PUNCT and not p.has(Category.FILLER)]
    said = [p for p in said if not p.has(Category.MOOD, "request")]
    if len(said) != 1 or said[0].role is not Role.NAME:
        return clause
    piece = said[0]
    owners = [m.owner for m in piece.names if m.full]
    concepts = {
        sense.concept
        for _, senses in lexicon.matches(tokenize(normalize(piece.text)), 0)
        for sense in senses
        if sense.category is Category.VERB
    }
    for concept in concepts & ACTIVITIES.keys():
        kind = action_of_verb(concept)
        domains = ACTIVITIES[concept]
        whole = lexicon.words(Category.VERB, concept)
        if (
            kind is not None
            and normalize(piece.text) in whole
            and owners
            and all(owner.split(".", 1)[0] in domains for owner in owners)
        ):
            return replace(clause, actions=(Action(kind),))
    return clause


def _holds_a_request(text: str, lexicon: Lexicon) -> bool:
    """Tell whether a name holds a verb or a mode word ("全屋熄燈": 熄; "睡觉模式": 模式)."""
    tokens = tokenize(normalize(text))
    return any(
        sense.category is Category.VERB or (sense.category is Category.ATTRIBUTE and sense.concept == "mode")
        for start in range(len(tokens))
        for _, senses in lexicon.matches(tokens, start)
        for sense in senses
    )


def _conditions_marked(clauses: list[Clause], lexicon: Lexicon) -> list[Clause]:
    """Mark a request after what people do as a condition ("乐乐瞓着咗之后熄夜灯": not now)."""
    after = set(lexicon.words(Category.JOINER, "after"))
    marked = list(clauses)
    for index, (before, clause) in enumerate(pairwise(clauses), start=1):
        if clause.joiner is not None and normalize(clause.joiner) in after and not before.actions:
            marked[index] = replace(clause, mood=Mood.CONDITION)
    return marked


def _is_correction(clause: Clause) -> bool:
    """Tell whether a clause only takes back what was said before it ("哦不对", "no wait")."""
    return any(
        p.has(Category.FILLER, "correction") or p.has(Category.FILLER, "dismissal") for p in clause.pieces
    ) and all(p.role is Role.PUNCT or p.category is Category.FILLER for p in clause.pieces)


def _taken_back(clauses: list[Clause]) -> list[Clause]:
    """Drop a request the speaker takes back, and the words that take it back.

    "把客厅的窗帘拉开……哦不对，是次卧的窗帘": only 次卧的窗帘 is asked for, with the verb of the
    request taken back; its "是" restates, and is explained. Only a plain request for now is
    replaced so: one for later or a "don't" taken back, or one taken back with nothing said
    instead ("……, no wait"), keeps the words that take it back unexplained, and nothing is done
    locally.
    """
    kept = list(clauses)
    index = 1
    while index < len(kept):
        withdrawn, correction = kept[index - 1], kept[index]
        if not _is_correction(correction) or not (withdrawn.actions or withdrawn.about_devices):
            index += 1
            continue
        following = kept[index + 1] if index + 1 < len(kept) else None
        plain = withdrawn.mood is Mood.COMMAND and not any(p.role is Role.TIME for p in withdrawn.pieces)
        # ("…, never mind the desk lamp" leaves the lamp out; it is no request for the lamp.)
        dismissed = any(p.has(Category.FILLER, "dismissal") for p in correction.pieces)
        if (
            following is None
            or not plain
            or following.mood is not Mood.COMMAND
            or (dismissed and not following.actions)
        ):
            # (Both sides: what is said after it may be more of the "don't", or of the later.)
            taking_back = tuple(p.text for p in correction.pieces if p.role is not Role.PUNCT)
            kept[index - 1] = replace(withdrawn, unexplained=(*withdrawn.unexplained, *taking_back))
            if following is not None:
                kept[index + 1] = replace(following, unexplained=(*following.unexplained, *taking_back))
            index += 1
            continue
        restating = {p.text for p in following.pieces[:1] if p.has(Category.RESTATING)}
        following = replace(
            following,
            actions=following.actions or withdrawn.actions,
            unexplained=tuple(w for w in following.unexplained if w not in restating),
        )
        kept[index - 1 : index + 2] = [following]
    return kept


def _restarts_marked(clauses: list[Clause]) -> list[Clause]:
    """Mark what is said and then said again in a whole request.

    A kind alone ("空调……客厅的空调开一下"), a verb alone ("幫我開…開埋露台燈"), or a routine's
    name alone.
    """
    marked = list(clauses)
    for index, (clause, following) in enumerate(pairwise(clauses)):
        kind_again = (
            clause.kinds
            and not (clause.actions or clause.references or clause.unexplained)
            and not any(m.full for m in clause.named)
            and set(clause.kinds) <= set(following.kinds)
        )
        verb_again = (
            clause.actions
            and not (clause.kinds or clause.named or clause.references or clause.unexplained)
            and not (clause.areas or clause.floors)
            and [a.kind for a in clause.actions] == [a.kind for a in following.actions]
            and bool(following.named or following.kinds)
        )
        # "早上要開店了，幫我按一下開店": a routine said as what is happening, then run by name.
        routine_again = (
            bool(clause.named)
            and not (clause.actions or clause.kinds or clause.references or clause.unexplained)
            and all(m.full and m.owner.startswith(_RUN_WITH_A_VERB) for m in clause.named)
            and bool(following.actions)
            and {m.owner for m in clause.named} <= {m.owner for m in following.named if m.full}
        )
        if kind_again or verb_again or routine_again:
            marked[index] = replace(clause, restarted=True)
    return marked


def instead(before: Clause, after: Clause) -> bool:
    """Tell whether a clause names, with no verb, what to do instead of a "don't" before it.

    "Don't turn off the porch light, just the foyer light"; not "…, the back door either" or
    "…，走廊灯都係", which are more of the "don't".
    """
    return (
        before.mood is Mood.NEGATION
        and bool(before.actions)
        and after.mood is Mood.COMMAND
        and not after.actions
        and not after.joiner
        and bool(after.entity_names or after.kinds)
        and not after.also
        and not any(p.has(Category.JOINER) for p in after.pieces)
    )


def _sentence_mood(clauses: Sequence[Clause]) -> Mood:
    """Return the mood of a whole sentence from its clauses (remarks beside a request aside)."""
    # (What is done instead of a "don't" may look like a remark: "…, just the floods".)
    told_instead = any(instead(before, after) for before, after in pairwise(clauses))
    clauses = [c for c in clauses if not c.aside] or clauses
    moods = {c.mood for c in clauses}
    for mood in (Mood.CONDITION, Mood.LATER, Mood.PAST):
        if mood in moods:
            return mood
    device_moods = {c.mood for c in clauses if c.about_devices} or moods
    if Mood.QUESTION in device_moods:
        return Mood.QUESTION
    if Mood.COMMAND in device_moods and any(c.actions or c.again for c in clauses if c.mood is Mood.COMMAND):
        return Mood.COMMAND
    if told_instead:
        # "Don't turn off the porch light, just the foyer light": the foyer light, off.
        return Mood.COMMAND
    if Mood.NEGATION in moods or any(c.keep for c in clauses):
        return Mood.NEGATION
    if Mood.FEELING in moods:
        return Mood.FEELING
    return Mood.COMMAND


def read(text: str, language: str, names: NameIndex | None = None, lexicon: Lexicon | None = None) -> Reading:
    """Read a sentence once, for every layer (``lexicon``: the language's own data unless given)."""
    prepared = prepare(text)
    tokens = tokenize(prepared)
    lexicon = lexicon or lexicon_for(language)
    pieces = cut(tokens, lexicon, names, prepared)
    clauses = [
        _clause(choose(clause_pieces, first=index == 0), joiner)
        for index, (clause_pieces, joiner) in enumerate(_split(pieces))
    ]
    clauses = _taken_back(clauses)
    clauses = _name_commands_marked(_conditions_marked(_restarts_marked(clauses), lexicon), lexicon)
    clauses = [_activity_named(clause, lexicon) for clause in clauses]
    chosen = tuple(p for c in clauses for p in c.pieces)
    return Reading(
        text=text,
        prepared=prepared,
        language=language,
        tokens=tokens,
        pieces=chosen,
        clauses=tuple(clauses),
        mood=_sentence_mood(clauses),
        later=tuple(p.text for p in pieces if p.role is Role.TIME),
        commands=tuple(c for c in clauses if c.about_devices),
    )
