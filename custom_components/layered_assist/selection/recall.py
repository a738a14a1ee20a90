"""Layer 1: local recall of candidate entities for each clause of a reading.

The reading says which stretches of the sentence name things of this home (whole, in
part or by sound), which name kinds of devices, places, groups and references. Recall
scores the entities those point at, re-ranks them by place and kind, and decides sure
targets; pronouns and room references come from the conversation state and the speaking
device's area. When nothing is sure the candidates widen (the kinds implied, then the
whole home) rather than staying empty. Everything here is local and takes milliseconds.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from ..language.actions import ACTION_DOMAINS, Action, ActionKind
from ..language.concepts import (
    ATTRIBUTE_DOMAINS,
    COOLING,
    EXCLUDES,
    GENERIC,
    KINDS,
    LIGHTS,
    kinds_within,
    narrower,
    same_family,
)
from ..language.lexicon import Category, names_lexicon, side_words
from ..language.names import POSSESSIVES, NameMatch, joined, name_key, name_tokens
from ..language.pieces import Piece, Role
from ..language.reading import Clause, Mood, Reading, instead
from ..language.tokens import normalize, tokenize
from .catalog import CatalogEntry, DeviceCatalog, MatchName

AREA_BONUS, AREA_PENALTY = 0.35, -0.6
SOFT_AREA_BONUS = 0.15
DOMAIN_BONUS, DOMAIN_PENALTY = 0.25, -0.4
CONFIDENT_SCORE = 0.95
CONFIDENT_MARGIN = 0.25
# A name said in full (every token of it, nothing else said as a name).
FULL_NAME = 0.99
# Part of a name that no other device has.
UNIQUE_PART = 0.96
# How much a device loses when the name said ends in a kind it is not.
NAME_KIND_MISMATCH = 0.1
# How much sounds shared with unknown words may raise a device (never to a sure one).
SOUND_HINT = 0.5
# A sound shared by fewer entities than this is worth a look on its own (架 in 晾衣架).
RARE_SOUND = 40
# Entities that only report: a part of a device's name said in a command is not for them.
_REPORTING = frozenset({"sensor", "binary_sensor", "event", "update", "button", "camera", "image"})
LOW_CONFIDENCE = 0.5
# A device this well named is shown to the model even past a sure clause's few candidates.
NAMED_EXTRA = 0.1
# Classes of cover that people name one for another ("close the blinds" of a curtain).
_WINDOW_COVERINGS = frozenset({"curtain", "blind", "shade", "shutter"})
# Joiners that start a new request rather than continue a list ("然后", "and then").
_CLAUSE_BREAKS = frozenset({"然后", "then", "and then", "接着", "之后再", "顺便", "另外"})
# Candidates a clause may give the model at most when nothing points anywhere.
WIDEST = 60


@dataclass(frozen=True, slots=True)
class Candidate:
    """An entity and how well it fits a clause."""

    entity_id: str
    score: float
    name_score: float
    # The name that matched best.
    name: str = ""


@dataclass(frozen=True, slots=True)
class RecallContext:
    """What Layer 1 knows beyond the sentence."""

    context_area: str | None = None
    recent_devices: tuple[str, ...] = ()
    recent_rooms: tuple[str, ...] = ()
    last_targets: tuple[str, ...] = ()
    # The last turn carried out the commands of ``last_targets`` (it was not handed on since).
    just_acted: bool = False


@dataclass(frozen=True, slots=True)
class Segment:
    """One clause of a sentence, as Layer 1 reads it."""

    clause: Clause
    # The clause's own actions, or its neighbour's when it has none ("A和B都关了").
    actions: tuple[Action, ...]
    action_inherited: bool
    domains: frozenset[str]
    primary_domains: frozenset[str]
    device_classes: frozenset[str]
    areas: frozenset[str]
    floors: frozenset[str]
    area_inherited: bool = False
    # "Jack's room too" after a group: a group again.
    group_again: bool = False
    # "次卧和书房的灯都关掉": 都 after a list of places is every one of the kind in each of them.
    each_place: bool = False
    # Floor words said that name nothing in this home ("upstairs" in a one-storey home).
    unknown_places: tuple[str, ...] = ()
    # A kind word said as a name and read as the kind (电扇 of a plug, among fans).
    read_as_kind: str | None = None
    candidates: tuple[Candidate, ...] = ()
    targets: tuple[str, ...] = ()
    confident: bool = False
    reason: str = ""

    @property
    def text(self) -> str:
        """Return the clause as said (normalized)."""
        return self.clause.text

    @property
    def mood(self) -> Mood:
        """Return the clause's mood."""
        return self.clause.mood

    @property
    def place_words(self) -> tuple[str, ...]:
        """Return the words of the places said."""
        return self.clause.place_words

    @property
    def pronoun(self) -> bool:
        """Tell whether the clause says "it" or "them" (or "that one", "the one")."""
        return bool(self.clause.references & {"it", "they", "one"})

    @property
    def strong_group(self) -> bool:
        """Tell whether the clause asks for a whole group on its own (所有, all, both, the whole home)."""
        return self.clause.group in ("all", "home", "two")

    @property
    def weak_group(self) -> bool:
        """Tell whether the clause asks for a group in a place (都, English plurals).

        "主卫的排气扇和镜前灯都打开": a 都 after a list is for the list, not a group of its own.
        """
        listed = self.clause.joiner is not None and self.clause.joiner not in _CLAUSE_BREAKS
        # "阿仔房嗰盞都閂埋": 都 after "that one" (a measure word: one lamp) is "too", not every one
        # there; "閂晒佢" is all of them.
        measures = names_lexicon().words(Category.FILLER, "measure")
        one = any(
            p.has(Category.REFERENCE) and any(word in p.text for word in measures) for p in self.clause.pieces
        )
        return (
            (self.clause.group == "each" and not listed and not one)
            or self.each_place
            or self._plural
            or self.group_again
            or self._lights_out
        )

    @property
    def _lights_out(self) -> bool:
        """Tell whether the clause is 关灯 and no more: in Chinese, the lights of the room go off.

        Chinese has no plural to say "the lights"; "关灯" said in a room means all of them, as
        HA's own agent reads it. Switching on ("开灯") stays unsure: often one light is meant.
        """
        pieces = [
            p for p in self.clause.pieces if p.role in (Role.NAME, Role.WORD, Role.UNKNOWN, Role.NUMBER)
        ]
        kinds = [p for p in pieces if p.has(Category.KIND, "light") and not p.text.isascii()]
        others = [
            p for p in pieces if p not in kinds and not p.has(Category.VERB) and not p.has(Category.FILLER)
        ]
        return len(kinds) == 1 and not others and [a.kind for a in self.actions] == [ActionKind.TURN_OFF]

    @property
    def _plural(self) -> bool:
        """Tell whether a kind ("the lights", 客廳啲燈) or a shared name ("the Hue Plays") is plural."""
        pieces = self.clause.pieces
        return any(
            (p.has(Category.KIND) or _plural_of_a_shared_name(p))
            and (
                (p.text.isascii() and p.text.endswith("s") and p.text != "ss")
                or (index > 0 and pieces[index - 1].has(Category.FILLER, "plural"))
            )
            for index, p in enumerate(pieces)
        )

    @property
    def action(self) -> Action | None:
        """Return the clause's first action, if any."""
        return self.actions[0] if self.actions else None

    @property
    def about_devices(self) -> bool:
        """Tell whether the clause says anything about devices."""
        return (
            bool(self.targets)
            or self.clause.about_devices
            or (bool(self.actions) and not self.action_inherited)
        )


@dataclass(frozen=True, slots=True)
class Recall:
    """Layer 1's reading of a whole sentence: its clauses, their candidates and sure targets."""

    reading: Reading
    segments: tuple[Segment, ...]
    candidates: tuple[str, ...]

    @property
    def text(self) -> str:
        """Return the prepared sentence."""
        return self.reading.prepared

    @property
    def mood(self) -> Mood:
        """Return what the sentence asks for."""
        return self.reading.mood

    @property
    def again(self) -> bool:
        """Tell whether the sentence asks to repeat the last command."""
        return self.reading.again

    @property
    def commands(self) -> list[Segment]:
        """Return the segments that are about devices ("出门了" in "出门了，把灯关掉" is not)."""
        return [s for s in self.segments if s.about_devices]

    @property
    def confident(self) -> bool:
        """Tell whether every device segment has sure targets."""
        segments = self.commands
        return bool(segments) and all(s.confident and s.targets for s in segments)

    @property
    def is_device_command(self) -> bool:
        """Tell whether the sentence reads as a device command (an action on devices, or sure devices)."""
        return bool(self.candidates) and any(
            s.confident or (s.actions and (s.domains or _names_anything(s.clause) or s.clause.references))
            for s in self.segments
        )

    @property
    def unknown_places(self) -> list[str]:
        """Return the floor words said that name nothing in this home."""
        return list(dict.fromkeys(word for s in self.segments for word in s.unknown_places))

    @property
    def targets(self) -> list[str]:
        """Return the sure targets of all segments, in order, without repeats."""
        return list(dict.fromkeys(t for s in self.commands for t in s.targets))


def _kinds_of(clause: Clause) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Return the domains, main domains and device classes a clause's kind words name."""
    domains: set[str] = set()
    primary: set[str] = set()
    classes: set[str] = set()
    for concept in clause.kinds:
        kind = KINDS.get(concept)
        if kind is None:
            continue
        domains.update(kind.domains)
    # The last kind word is the head ("晾衫架盏灯": the airer's light); the others modify it.
    if clause.kinds and (head := KINDS.get(clause.kinds[-1])) is not None:
        primary.add(head.domains[0])
        classes.update(head.device_classes)
    domains.update(clause.implied_domains)
    acting = {d for action in clause.actions for d in ACTION_DOMAINS.get(action.kind, ())}
    if primary and acting and not primary & acting and domains & acting:
        # "把大门锁上": 大门 is a door; to be locked, it is the door's lock.
        primary = domains & acting
    if not primary:
        # "那就锁上": the verb says what kind of device; "bedroom to 50% brightness" the setting.
        primary.update(clause.implied_domains)
        for attribute in clause.attributes:
            primary.update(ATTRIBUTE_DOMAINS.get(attribute, ()))
        for action in clause.actions:
            primary.update(ACTION_DOMAINS.get(action.kind, ()))
        domains.update(primary)
    return frozenset(domains), frozenset(primary), frozenset(classes)


@dataclass(slots=True)
class _Said:
    """The names a clause says, by entity: which pieces name it and how much of its name they cover."""

    pieces: dict[str, set[int]] = field(default_factory=dict)
    covered: dict[tuple[str, str], int] = field(default_factory=dict)
    full: dict[str, bool] = field(default_factory=dict)
    sizes: dict[tuple[str, str], int] = field(default_factory=dict)
    total: int = 0
    # Pieces that name a place whole (counted in no name's share of what was said).
    places: set[int] = field(default_factory=set)
    # Entities that a stretch said names alone (of those that do something).
    only_one: set[str] = field(default_factory=set)
    # The entities each name said belongs to (a device's name is its entities' name too).
    owners_of: dict[str, set[str]] = field(default_factory=dict)


def _whole_words(match: NameMatch, places: frozenset[str], length: int) -> bool:
    """Tell whether a part of a name stands on its own.

    It does when it starts the name, is English (words are whole), follows a place ("电饭煲"
    of 厨房电饭煲; not "卧室空调" of 主卧室空调) or a latin word or number, or is a long tail
    after a brand and its blurb ("落地扇1X" of 米家直流变频落地扇1X).
    """
    tail = match.start + length == match.size and len(match.before) >= 2 and length >= 3
    # After a model number or a latin word a Chinese part starts anew ("童锁" of "… X86C 童锁").
    after_latin = match.before[-1:].isascii() and match.before[-1:].isalnum()
    # A latin word after a Chinese one is whole too ("Nest Mini" of "BB房 Nest Mini").
    compact = match.name.replace(" ", "")
    latin_part = compact[len(match.before) : len(match.before) + 1].isascii()
    return (
        match.start == 0
        or match.before.isascii()
        or latin_part
        or match.before in places
        or tail
        or after_latin
        or _kind_said_short(match)
    )


def _kind_said_short(match: NameMatch) -> bool:
    """Tell whether a part starts inside a kind word, with the kind it is said for short.

    "插座三" of 智慧插座3開關1: 智慧插座 is a plug, and so is 插座; not "卧室空调" of 主卧室空调.
    """
    compact = match.name.replace(" ", "")
    cut = len(match.before)
    lexicon = names_lexicon()
    for word in lexicon.kinds_in(compact):
        at = compact.find(word)
        if at < cut < at + len(word) and compact[cut : at + len(word)] in lexicon.kinds_in(compact[cut:]):
            return True
    return False


def _said(
    clause: Clause,
    places: frozenset[str] = frozenset(),
    kinds: frozenset[str] = frozenset(),
    *,
    ignore: str | None = None,
) -> _Said:
    """Collect the entity names a clause says (a place said whole is a place, not a name).

    ``ignore``: a kind word said that is read as the kind, not a name (``Recaller._kind_alias``).
    """
    said = _Said()
    # Who each stretch names: a part cut from the middle of a name counts when another stretch
    # names the same device ("米家" + "插座三" of 米家智能插座3).
    named_by: dict[str, int] = {}
    for piece in clause.pieces:
        if piece.role is Role.NAME:
            for owner in {m.owner for m in piece.names}:
                named_by[owner] = named_by.get(owner, 0) + 1
    for index, piece in enumerate(clause.pieces):
        if not piece.names or piece.role is not Role.NAME or piece.text == ignore:
            # (A kind word or a verb that is also part of some name says no name: "the TV".)
            continue
        whole_place = any(m.full and ":" in m.owner for m in piece.names)
        length = piece.end - piece.start
        if whole_place:
            said.places.add(index)
        else:
            said.total += length
        acting = {
            m.owner for m in piece.names if ":" not in m.owner and m.owner.split(".", 1)[0] not in _REPORTING
        }
        # "密室灯" is no part of "浴室灯": a part beside a word nobody knows may be part of that word.
        beside_unknown = any(
            0 <= i < len(clause.pieces) and clause.pieces[i].role is Role.UNKNOWN
            for i in (index - 1, index + 1)
        )
        if len(acting) == 1 and not whole_place and piece.role is Role.NAME and not beside_unknown:
            match = next(m for m in piece.names if m.owner in acting)
            if _whole_words(match, places, length):
                said.only_one.update(acting)
        for match in piece.names:
            if ":" in match.owner:
                continue
            also_named = named_by.get(match.owner, 0) > 1
            if whole_place and not match.full and not also_named:
                # "客厅" names the room, not every 客厅X; with "relax" beside it, "Lounge Relax".
                continue
            if whole_place and match.full and kinds and match.owner.split(".", 1)[0] not in kinds:
                # "pause the upstairs vacuum": Upstairs is the floor, not the thermostat so named.
                continue
            if not match.full and not _whole_words(match, places, length) and not also_named:
                # "卧室" is no name of 主卧室空调: a part cut out of the middle of a word.
                continue
            if not match.full and _another_number_follows(clause, index, match, length):
                # "Hue white lamp two" is not "Hue white lamp 1": the number said is another.
                continue
            said.pieces.setdefault(match.owner, set()).add(index)
            said.owners_of.setdefault(match.name, set()).add(match.owner)
            key = (match.owner, match.name)
            said.covered[key] = said.covered.get(key, 0) + (match.size if match.full else length)
            said.sizes[key] = match.size
            if match.full and match.exact:
                said.full[match.owner] = True
    return said


def _owner_of_another_kind(clause: Clause, pieces: set[int], entry: CatalogEntry) -> bool:
    """Tell whether the entity is only said as the owner of a kind it is not ("客厅大灯的夜灯")."""
    for index in pieces:
        after = clause.pieces[index + 1 : index + 3]
        if (
            len(after) < 2
            or after[0].text not in POSSESSIVES
            or not after[1].has(Category.KIND)
            or narrower(after[1].concept, entry.named_kinds)
            or _of_its_domain_alone(after[1].concept, entry)
        ):
            return False
    return True


def _of_its_domain_alone(kind: str, entry: CatalogEntry) -> bool:
    """Tell whether a kind said after a name is the entity's own, its name saying no other of that domain.

    "出門的腳本": the script 出門 (its name says a door, which no script is), not an owner
    of some script; "客厅大灯的夜灯" stays the night light of the main light.
    """
    head = KINDS.get(kind)
    return (
        head is not None
        and entry.domain in head.domains
        and not any(entry.domain in KINDS[own].domains for own in entry.named_kinds if own in KINDS)
    )


def _another_number_follows(clause: Clause, index: int, match: NameMatch, length: int) -> bool:
    """Tell whether a part of a name is said with a number where the name has another one."""
    after = index + 1
    if after >= len(clause.pieces) or clause.pieces[after].role is not Role.NUMBER:
        return False
    tokens = name_tokens(match.name)
    at = match.start + length
    return at < len(tokens) and tokens[at].text.isdigit() and tokens[at].text != clause.pieces[after].text


def _name_score(
    entry: CatalogEntry, said: _Said, segment: Segment, shared: bool = False
) -> tuple[float, str]:
    """Return how well what was said names an entity, and the name it matched best.

    Half is how much of the entity's name was said, half how much of what was said as
    names is this entity's ("the roborock downstairs" is the Roborock S8 Downstairs, not
    the thermostat named Downstairs).
    """
    entity_id, clause = entry.entity_id, segment.clause
    pieces = said.pieces.get(entity_id)
    if not pieces or _owner_of_another_kind(clause, pieces, entry):
        return 0.0, ""
    best, name = 0.0, ""
    # "is the front door locked?": the kind said apart ("locked": a lock) completes "Front Door Lock".
    # A kind said that its name says it is not: the "pool heater" is no "Pool Light".
    kinds_said = segment.clause.kinds
    other_kind = bool(kinds_said and entry.named_kinds) and not any(
        same_family(kind, entry.named_kinds) for kind in kinds_said
    )
    # ``shared``: "Nest" of Nest Audio, Nest Hub and Nest Mini is no more the speaker's because
    # "Audio" is a kind, when the word said is as much a part of another device's own name.
    own_kind = entry.domain in segment.domains and not other_kind and not shared
    for (owner, text), covered in said.covered.items():
        if owner != entity_id:
            continue
        size = said.sizes[(owner, text)]
        # What is left unsaid of the name is its kind word ("客厅" of 客厅灯); not a model's
        # "Google … Mini" around the "Nest" said.
        kind_sizes = {len(tokenize(word)) for word in entry.kind_words if word in text} if own_kind else set()
        coverage = 1.0 if size - covered in kind_sizes else min(1.0, covered / max(1, size))
        if coverage > best:
            best, name = coverage, text
    # ("set the lounge to Relax": "lounge" names the room; "Relax" only the scene Lounge Relax.)
    mine = sum(clause.pieces[i].end - clause.pieces[i].start for i in pieces if i not in said.places)
    explained = mine / said.total if said.total else 1.0
    # A name said whole in parts ("the pool pump for two hours" of "Pool pump 2 hours") is said.
    exact = 1.0 if said.full.get(entity_id) or (best >= 1.0 and len(pieces) > 1) else 0.97
    if entity_id in said.only_one and explained >= 1.0 and not other_kind:
        # "the Arc", "Yeelight吸顶灯": part of one device's name, and of no other's.
        best = max(best, UNIQUE_PART)
    return round(min(best, exact) * (0.5 + 0.5 * min(1.0, explained)), 4), name


def _named_as(entry: CatalogEntry, kind: str) -> bool:
    """Tell whether one of a device's names ends in a word of the kind (和室除濕機, not "除濕機 負離子").

    A plug or a switch is the appliance it works only when named as it, not as a part of it; one
    whose names say no kind is what its maker makes (a Rachio zone named "Side Yard").
    """
    lexicon = names_lexicon()
    said_any = False
    for name in entry.names:
        said = list(lexicon.kinds_in(name.text).items())
        said_any = said_any or bool(said)
        if said and name.text.endswith(said[-1][0]) and narrower(kind, frozenset({said[-1][1]})):
            return True
    return not said_any


def _is_plug(entry: CatalogEntry) -> bool:
    """Tell whether a device is named as a plug (床头插座); a plug named "Floor Lamp" is a lamp."""
    return "plug" in entry.named_kinds


def _name_head(name: str) -> str | None:
    """Return the kind a name ends in ("bedroom fan": fan; "bedroom fan light": light)."""
    kinds = list(names_lexicon().kinds_in(name).values()) if name else []
    return kinds[-1] if kinds and kinds[-1] in KINDS else None


def _unknown_sounds(clause: Clause) -> set[str]:
    """Return the sounds of the words of a clause nobody knows."""
    return {t.sound for p in clause.pieces if p.role is Role.UNKNOWN for t in tokenize(p.text)}


def _names_anything(clause: Clause) -> bool:
    """Tell whether a clause says which devices by itself (a name, a kind or a place)."""
    return bool(clause.entity_names or clause.kinds or clause.areas or clause.floors or clause.generic_places)


# An entity's domain, and whether it is in the area said, on the floor said, where the speaker is.
_FitKey = tuple[str, bool, bool, bool]


def _head(segment: Segment) -> str | None:
    """Return the kind said last in a clause (the head noun: "晾衫架盏灯" is a light)."""
    return segment.clause.kinds[-1] if segment.clause.kinds else None


@dataclass(frozen=True, slots=True)
class _Case:
    """A clause being resolved, with its scored candidates."""

    segment: Segment
    context: RecallContext
    # The sure targets of the clause before, in the same sentence.
    previous: tuple[str, ...]

    @property
    def top(self) -> Candidate | None:
        candidates = self.segment.candidates
        return candidates[0] if candidates else None

    @property
    def second(self) -> Candidate | None:
        candidates = self.segment.candidates
        return candidates[1] if len(candidates) > 1 else None

    @property
    def has_place(self) -> bool:
        return bool(self.segment.areas or self.segment.floors)

    @property
    def explicit_place(self) -> bool:
        """Tell whether the clause itself said the place (not the clause before)."""
        return self.has_place and not self.segment.area_inherited

    @property
    def named_any(self) -> bool:
        return named_any_early(self.top)

    @property
    def leaders(self) -> list[Candidate]:
        """Return the candidates about as good as the best (within half the confident margin)."""
        top = self.top
        if top is None:
            return []
        return [c for c in self.segment.candidates if c.score >= top.score - CONFIDENT_MARGIN / 2]

    def sure(self, targets: Iterable[str], reason: str) -> Segment:
        return replace(self.segment, targets=tuple(targets), confident=True, reason=reason)

    def unsure(self, reason: str) -> Segment:
        return replace(self.segment, reason=reason)


def side_said(clause: Clause) -> tuple[str | None, frozenset[str]]:
    """Return the side a clause's words not otherwise read say ("右边", "left"), and those words.

    No side when they say none or both.
    """
    sides = side_words()
    unread = [p.text for p in clause.pieces if p.role is Role.UNKNOWN]
    # (Chinese is read a character at a time when it is no word: 右 边.)
    joined = "".join(unread)
    saying = {word for word in unread if word in sides} | (set(unread) if joined in sides else set())
    found = {sides[word] for word in {*unread, joined} if word in sides}
    return (found.pop(), frozenset(saying)) if len(found) == 1 else (None, frozenset())


def _has_side(key: str, side: str) -> bool:
    """Tell whether a name begins or ends with a word of the side ("主卧床头灯右", "left hue play")."""
    words = key.split()
    ends = {words[0], words[-1]} if words else set()
    return any(
        said == side
        and (word in ends or (not word.isascii() and (key.startswith(word) or key.endswith(word))))
        for word, said in side_words().items()
    )


def _placed(segment: Segment, context: RecallContext) -> bool:
    """Tell whether a place is said or known (where the speaker is)."""
    return bool(segment.areas or segment.floors) or context.context_area is not None


def _ends_with_place(clause: Clause) -> bool:
    """Tell whether a clause ends with the place it names ("… and the TV in the rec room")."""
    words = [p for p in clause.pieces if p.role is not Role.PUNCT and not p.has(Category.FILLER)]
    return bool(words) and any(m.full and ":" in m.owner for m in words[-1].names)


def _remark_on_what_people_do(segment: Segment) -> bool:
    """Tell whether a clause only remarks on what people do, naming nothing whole ("阿公還在看")."""
    clause = segment.clause
    return (
        clause.aside
        and not segment.actions
        and any(p.has(Category.FILLER, "situation") for p in clause.pieces)
        and not (clause.areas or clause.floors or any(m.full for m in clause.entity_names))
    )


def _plural_of_a_shared_name(piece: Piece) -> bool:
    """Tell whether a piece says in the plural a part of several names ("the Hue Plays").

    Its last word is a word of each name only without its "s" ("Sonos" of Sonos Beam and
    Sonos One is no plural).
    """
    owners = {m.owner for m in piece.names}
    if piece.role is not Role.NAME or len(owners) < 2 or any(m.full for m in piece.names):
        return False
    last = piece.text.split()[-1]
    return all(last[:-1] in (words := m.name.split()) and last not in words for m in piece.names)


def _trailing_place(segments: list[Segment]) -> list[Segment]:
    """Give "the lights" of "turn off the lights and the TV in the rec room" the room said last.

    Not a place that is what a verb of its own acts on: in "close both garage doors and lock
    the workshop" the workshop is what is locked.
    """
    shared = list(segments)
    for index in range(len(shared) - 2, -1, -1):
        segment, following = shared[index], shared[index + 1]
        if (
            following.clause.joiner
            and (following.areas or following.floors)
            and _ends_with_place(following.clause)
            and not _place_is_the_object(following.clause)
            and not (segment.areas or segment.floors or segment.clause.entity_names)
            and segment.domains
        ):
            shared[index] = replace(segment, areas=following.areas, floors=following.floors)
    return shared


def _place_is_the_object(clause: Clause) -> bool:
    """Tell whether a clause's verb acts on the place it ends with ("lock the workshop").

    Not when it names a device of its own ("… and switch off the hot tub in the garden"); a
    speaker named after the room ("Workshop") is the room said.
    """
    devices_named = any(
        m.full and ":" not in m.owner
        for p in clause.pieces
        if not any(":" in n.owner for n in p.names)
        for m in p.names
    )
    return any(p.has(Category.VERB) for p in clause.pieces) and not clause.kinds and not devices_named


def _place_answered(segments: list[Segment]) -> list[Segment]:
    """Give a request with no place the place said alone right after it ("把電視關掉，客廳的").

    The place clause says which of the devices of the kind is meant, and nothing more.
    """
    answered: list[Segment] = []
    for segment in segments:
        before = answered[-1] if answered else None
        if (
            before is not None
            and before.actions
            and before.domains
            and not (before.areas or before.floors)
            and segment.clause.only_a_place
        ):
            answered[-1] = replace(before, areas=segment.areas, floors=segment.floors)
            continue
        answered.append(segment)
    return answered


def _only_a_kind_word(text: str, kind: str, places: frozenset[str] = frozenset()) -> bool:
    """Tell whether a text is one kind word and nothing else (冷气, "thermostat"; not 客厅冷气)."""
    return bool(kind) and names_lexicon().kinds_in(text, places) == {text: kind}


# Who does what, when a name fits several devices (beyond ACTION_DOMAINS): a bare number is the
# thermostat's temperature; a step with no amount ("开大d") is of a speed, a volume, a brightness,
# a temperature or an opening, never a switch's.
_STEPPING = ("fan", "media_player", "light", "climate", "water_heater", "cover")
_DOING = {
    ActionKind.SET_VALUE: ("climate",),
    # "Turn the Arc down to twenty percent": what has a percentage, not the Arc's night-sound switch.
    ActionKind.SET_POSITION: ("cover", "valve", "light", "fan", "media_player", "humidifier"),
    ActionKind.INCREASE: _STEPPING,
    ActionKind.DECREASE: _STEPPING,
}


def _alike(entry: CatalogEntry, before: CatalogEntry) -> bool:
    """Tell whether a device is like one before: its domain, and the kinds its name says.

    (A switch is like a switch only by a kind both are named: 客厅灯 on a Shelly is no electric
    blanket's plug.)
    """
    return (
        entry.domain == before.domain
        and before.named_kinds - GENERIC <= entry.named_kinds
        and (entry.domain != "switch" or bool(before.named_kinds & entry.named_kinds))
    )


def _words_said(segment: Segment) -> set[str]:
    """Return the words a clause says, one by one."""
    return {token.text for piece in segment.clause.pieces for token in tokenize(normalize(piece.text))}


def _all_words_said(name: MatchName, said: set[str]) -> bool:
    """Tell whether every word of a name of two or more words was said, in a row or not.

    (Words, not characters: 把全屋的灯关了 says every character of 全屋关灯.)
    """
    return (
        len(name.units) > 1 and not any(u.is_cjk for u in name.units) and {u.text for u in name.units} <= said
    )


def _of_class(entry: CatalogEntry, kind_word: str) -> bool:
    """Tell whether a device is of a kind that is its class (a TV, a dehumidifier), whatever its name.

    A kind that is a domain of its own (a vacuum, a lock) is every entity of that domain.
    """
    kind = KINDS.get(kind_word)
    if kind is None:
        return False
    if kind.domains == (kind_word,) and not kind.device_classes:
        return entry.domain == kind_word
    return (
        any(kind_word.startswith(dc) for dc in kind.device_classes)
        and entry.domain in kind.domains
        and entry.device_class in kind.device_classes
    )


def _counted(segment: Segment, group: Sequence[object]) -> bool:
    """Tell whether a group is as many as the clause said ("both": two)."""
    return segment.clause.group != "two" or len(group) == 2


def named_any_early(top: Candidate | None) -> bool:
    """Tell whether a device was named at all (a group word then means "both of those")."""
    return top is not None and top.name_score >= 0.6


# Kinds of valve by what they water: a group of them is not every valve of the home.
_WATERING = frozenset({"sprinkler", "plants"})


def _light_modifier(segment: Segment, head: str) -> str:
    """Return what a light's kind word says before its word for a light ("bedside" of "bedside lamps")."""
    lexicon = names_lexicon()
    piece = next((p for p in reversed(segment.clause.pieces) if p.has(Category.KIND, head)), None)
    if piece is None:
        return ""
    tokens = name_tokens(piece.text)
    for start in range(1, len(tokens)):
        rest = joined(tokens[start:])
        if lexicon.kinds_in(rest).get(rest) in LIGHTS:
            return joined(tokens[:start])
    return ""


def _cannot_cool(entry: CatalogEntry, kind: str) -> bool:
    """Tell whether a thermostat that only heats is said as a kind that cools (an air conditioner)."""
    return entry.heats_only and kind in COOLING and not entry.named_kinds & COOLING


def _the_light_said(head: str | None, entry: CatalogEntry) -> bool:
    """Tell whether an entity is the light a kind word names (床头灯, not 主灯).

    Any entity is, when the word names no particular light ("the light", 灯, "the TV").
    """
    return head is None or head in GENERIC or head not in LIGHTS or narrower(head, entry.named_kinds)


def switches_a_light(entry: CatalogEntry) -> bool:
    """Tell whether a switch is named as a light, a wall switch that works one.

    ("公卫开关" with the alias 公卫灯, 生活阳台灯 on an Aqara H1; a socket is not.)
    """
    return entry.domain == "switch" and entry.device_class != "outlet" and bool(entry.named_kinds & LIGHTS)


def _of_kind(entry: CatalogEntry, segment: Segment, *, loose: bool = False) -> bool:
    """Tell whether an entity is of the kind the clause names (窗帘: a curtain, not the garage door).

    A device named as that kind is one ("Basement TV" whatever its device class, the plug
    named 电暖器 a heater); otherwise its domain and device class say.
    """
    kinds = segment.clause.kinds
    excluded = {k for kind in kinds for k in EXCLUDES.get(kind, ())}
    if excluded & entry.named_kinds:
        # (Even one that is named as the kind too.)
        return False
    if not kinds and "valve" in segment.primary_domains and entry.device_class == "outlet":
        # "露台开始浇水": a valve or a sprinkler zone's switch waters, not the plug of the fish tank.
        return False
    if kinds and kinds[-1] in LIGHTS and entry.domain == "switch":
        # A switch is a light when named as one and not a socket (廚房燈 on a wall switch;
        # not 插座3, nor 床头插座 though it shares 床头 with 床头灯, nor the plug of 鱼缸灯).
        named = (
            bool(entry.named_kinds & LIGHTS)
            if kinds[-1] in GENERIC
            else narrower(kinds[-1], entry.named_kinds)
        )
        return named and entry.device_class != "outlet" and not _is_plug(entry)
    if kinds and (head := KINDS.get(kinds[-1])) is not None:
        if (
            narrower(kinds[-1], entry.named_kinds)
            and entry.domain in head.domains
            and (entry.domain != "switch" or head.domains[0] == "switch" or _named_as(entry, kinds[-1]))
        ):
            return True
        if head.by_name:
            return False
        if kinds[-1] not in GENERIC and entry.named_kinds and not same_family(kinds[-1], entry.named_kinds):
            # A purifier is no 电扇, an Apple TV no 电视: its name says what it is.
            return False
    if entry.domain not in segment.primary_domains:
        return "light" in segment.primary_domains and switches_a_light(entry)
    if kinds and _cannot_cool(entry, kinds[-1]):
        return False
    if not segment.device_classes or entry.device_class in segment.device_classes:
        return True
    # Loosely (when nothing in the place is of that very class): no class is any, and "the
    # blinds" of a room that has curtains are its curtains.
    return loose and (
        entry.device_class is None
        or (entry.device_class in _WINDOW_COVERINGS and bool(segment.device_classes & _WINDOW_COVERINGS))
    )


class Recaller:
    """Runs Layer 1 on a catalog."""

    def __init__(self, catalog: DeviceCatalog, top_k: int = 10) -> None:
        """Bind to a catalog."""
        self.catalog = catalog
        self.top_k = top_k
        # Whether an entity is of a clause's kind, asked many times in one recall: by the
        # entry object and what of the clause decides it (kept for one sentence only).
        self._kind_memo: dict[tuple[int, tuple[str, ...], frozenset[str], frozenset[str], bool], bool] = {}

    def recall(self, reading: Reading, context: RecallContext) -> Recall:
        """Find each clause's candidates and sure targets."""
        self._kind_memo.clear()
        segments = _trailing_place(
            self._shared(_place_answered([self._segment(c, context) for c in reading.clauses]))
        )
        resolved: list[Segment] = []
        previous_areas: frozenset[str] = frozenset()
        previous_targets: tuple[str, ...] = ()
        for read_segment in segments:
            segment = read_segment
            if not segment.areas and not segment.floors and previous_areas:
                segment = replace(segment, areas=previous_areas, area_inherited=True)
            segment = self._resolve(segment, context, previous_targets)
            if segment.area_inherited and not segment.confident and read_segment.clause.mood is Mood.COMMAND:
                # "把鱼缸关了，然后加湿器湿度调到60" in grandpa's room: the fish tank's room has no
                # humidifier, so the one meant is where the speaker is (or the home's only one).
                alone = self._resolve(read_segment, context, previous_targets)
                segment = alone if alone.confident else segment
            resolved.append(segment)
            if not segment.area_inherited and segment.areas:
                previous_areas = segment.areas
            elif segment.confident and segment.reason == "name":
                # "把客厅主灯关了，空调调到26度": the room of the device named carries on.
                rooms = {e.area_id for t in segment.targets if (e := self.catalog.entry(t)) and e.area_id}
                if len(rooms) == 1:
                    previous_areas = frozenset(rooms)
            if segment.targets and segment.confident:
                previous_targets = segment.targets
        candidates: list[str] = []
        for segment in resolved:
            candidates.extend(segment.targets)
            top = segment.candidates[0].score if segment.candidates else 0.0
            if segment.confident and top >= CONFIDENT_SCORE:
                limit = max(3, self.top_k // 3)
            elif segment.confident and top >= LOW_CONFIDENCE:
                limit = self.top_k
            else:
                limit = self.top_k * 2
            candidates.extend(c.entity_id for c in segment.candidates[:limit])
            # Every other device the words said name, up to the usual count: "净化器童锁" names the
            # purifier well and its child lock better, though the lock scores lower as a switch.
            named = [c.entity_id for c in segment.candidates[limit:] if c.name_score >= NAMED_EXTRA]
            candidates.extend(named[: max(0, self.top_k - limit)])
        if reading.again:
            candidates[:0] = list(context.last_targets or context.recent_devices[:1])
        if not candidates and any(s.domains or s.actions or _names_anything(s.clause) for s in resolved):
            candidates = self._widest(resolved)
        return Recall(reading, tuple(resolved), tuple(dict.fromkeys(candidates)))

    def _segment(self, clause: Clause, context: RecallContext) -> Segment:
        """Read a clause's places, kinds and references."""
        domains, primary, classes = _kinds_of(clause)
        group_again = False
        also = clause.also or bool(clause.references & {"it", "they"})
        # "the lounge one": the kind said before, in the place now said, though "lounge" names a device.
        kind_before = "one" in clause.references
        if (
            (also or kind_before)
            and (clause.areas or clause.floors)
            and not domains
            and (kind_before or not clause.entity_names)
            and context.recent_devices
        ):
            # "儿童房的也关了": the kind of device the last turn was about, in the room now said.
            # (Not one of two kinds it was about: "关掉客厅灯和客厅空调" … "主卧的也是" is both.)
            last = self.catalog.entry(context.recent_devices[0])
            kinds_before = {t.split(".", 1)[0] for t in context.last_targets}
            if last is not None and len(kinds_before) <= 1:
                domains = primary = frozenset({last.domain})
                classes = frozenset({last.device_class}) if last.device_class else frozenset()
                # "Jack's room too" after "the lights in Emma's room": every one there again.
                group_again = len(context.last_targets) > 1
        areas = set(clause.areas)
        floors = set(clause.floors) if not areas else set()
        if "here" in clause.references and context.context_area:
            areas.add(context.context_area)
        if "there" in clause.references and context.recent_rooms:
            areas.add(context.recent_rooms[0])
        unknown = []
        for word, concept in clause.generic_places:
            if concept == "relative" and len(self.catalog.floors) > 1:
                continue
            unknown.append(word)
        return Segment(
            clause=clause,
            actions=clause.actions,
            action_inherited=False,
            domains=domains,
            primary_domains=primary,
            device_classes=classes,
            areas=frozenset(areas),
            floors=frozenset(floors),
            unknown_places=tuple(unknown),
            group_again=group_again,
        )

    @staticmethod
    def _shared(segments: list[Segment]) -> list[Segment]:
        """Give verbless clauses the action, kinds and group of their neighbour ("客厅和卧室的灯都关了")."""
        shared = list(segments)
        # "帮我把宝宝房的窗帘，嗯，打开一下": a hesitation between is no neighbour; nor is a remark
        # given a verb ("電視不要關，阿公還在看，把燈關掉就好").
        # (What was done gives no verb: "客厅纱帘，刚才打开了" asks nothing.)
        said = [
            i
            for i, s in enumerate(shared)
            if (s.actions or s.clause.about_devices)
            and not _remark_on_what_people_do(s)
            and s.clause.mood is not Mood.PAST
        ]
        for position, index in enumerate(said):
            segment = shared[index]
            following = shared[said[position + 1]] if position + 1 < len(said) else None
            previous = shared[said[position - 1]] if position > 0 else None
            neighbour = None
            # "Ethan 房都係，順便開埋佢": "the same in Ethan's room" is what was done last, not the
            # verb of the request after it.
            same_there = (
                segment.clause.also
                and not segment.actions
                and not segment.clause.kinds
                and not segment.clause.entity_names
            )
            if (
                following is not None
                and following.actions
                and (following.clause.joiner or not _names_anything(following.clause))
                and not same_there
            ):
                # "A和B都关了"; "扫地机器人，让它扫一下地" (the device first, then what to do).
                neighbour = following
            elif (
                previous is not None
                and previous.actions
                and (
                    segment.clause.joiner
                    # "Don't turn off the porch light, just the foyer light": off, the foyer light.
                    or instead(previous.clause, segment.clause)
                )
            ):
                neighbour = previous
            if neighbour is None:
                continue
            changes: dict[str, object] = {}
            if not segment.actions and segment.clause.mood is Mood.COMMAND:
                # Not the mode the neighbour's own device word implies: "開冷氣同抽濕機" switches the
                # dehumidifier on, without the cooling 冷氣 implies.
                implied = {
                    s.concept
                    for p in neighbour.clause.pieces
                    if p.has(Category.KIND)
                    for s in p.senses
                    if s.category is Category.OPTION
                }
                takes_modes = "climate" in (segment.domains or neighbour.domains)
                fitting = tuple(
                    a
                    for a in neighbour.actions
                    if takes_modes
                    or not (a.kind is ActionKind.SET_HVAC_MODE and f"hvac.{a.option}" in implied)
                )
                changes.update(actions=fitting or neighbour.actions, action_inherited=True)
            places_only = (
                (segment.areas or segment.floors) and not segment.domains and not segment.clause.entity_names
            )
            if places_only and neighbour.domains:
                changes.update(
                    domains=neighbour.domains,
                    primary_domains=neighbour.primary_domains,
                    device_classes=neighbour.device_classes,
                )
                if (
                    neighbour is following
                    and following.clause.group == "each"
                    # "次卧和书房的灯都关掉": a kind alone; not "客厅和卧室的主灯都打开" (one each).
                    and set(following.clause.kinds) <= GENERIC
                    and not following.clause.entity_names
                ):
                    changes.update(each_place=True)
                    shared[said[position + 1]] = replace(following, each_place=True)
            if changes:
                shared[index] = replace(segment, **changes)  # type: ignore[arg-type]
        for index, segment in enumerate(shared):
            # "主臥窗簾不要動，妹妹房的打開就好": "the sister's room's" is of the kind said before.
            if (
                index == 0
                or not (segment.areas or segment.floors)
                or segment.domains
                or segment.clause.entity_names
                or not any(p.text in POSSESSIVES for p in segment.clause.pieces)
            ):
                continue
            before = shared[index - 1]
            named = {
                m.owner.split(".", 1)[0]
                for p in before.clause.pieces
                if p.role is Role.NAME
                for m in p.names
                if m.full and ":" not in m.owner
            }
            domains = before.domains or (frozenset(named) if len(named) == 1 else frozenset())
            if domains:
                shared[index] = replace(
                    segment,
                    domains=domains,
                    primary_domains=before.primary_domains or domains,
                    device_classes=before.device_classes,
                )
        return shared

    def _score(
        self,
        entry: CatalogEntry,
        said: _Said,
        segment: Segment,
        context: RecallContext,
        unknown: set[str],
        unnamed_fits: dict[_FitKey, float],
    ) -> Candidate:
        """Score one entity against a clause (``unknown``: the sounds of its words nobody knows).

        How an entity no name said fits depends only on its domain and place: ``unnamed_fits``
        keeps that for the clause (a kind said in a home of a thousand is hundreds of them).
        """
        best, matched = _name_score(entry, said, segment, self._part_shared(entry, said, segment))
        score = best
        if not best and unknown:
            # Never sure, only ranked: the sounds of words nobody knows that its names share.
            sounds = entry.sounds
            score += SOUND_HINT * len(sounds & unknown) / max(1, len(sounds))
        if matched or best:
            fit = self._fit(entry, said, segment, context, best, matched)
        else:
            fit = self._unnamed_fit(entry, said, segment, context, unnamed_fits)
        return Candidate(entry.entity_id, round(score + fit, 4), best, matched)

    def _unnamed_fit(
        self,
        entry: CatalogEntry,
        said: _Said,
        segment: Segment,
        context: RecallContext,
        unnamed_fits: dict["_FitKey", float],
    ) -> float:
        """Return ``_fit`` of an entity nothing said names, once per domain and place of a clause."""
        key = self._fit_key(entry, segment, context)
        if (fit := unnamed_fits.get(key)) is None:
            fit = unnamed_fits[key] = self._fit(entry, said, segment, context, 0.0, "")
        return fit

    def _fit_key(self, entry: CatalogEntry, segment: Segment, context: RecallContext) -> "_FitKey":
        """Return what ``_fit`` reads of an entity nothing said names: its domain and place.

        Whether it is in the area said, on the floor said, or where the speaker is.
        """
        return (
            entry.domain,
            entry.area_id in segment.areas,
            bool(segment.floors) and self.catalog.floor_of(entry) in segment.floors,
            entry.area_id is not None and entry.area_id == context.context_area,
        )

    def _fit(
        self,
        entry: CatalogEntry,
        said: _Said,
        segment: Segment,
        context: RecallContext,
        best: float,
        matched: str,
    ) -> float:
        """Return how an entity's place and domain fit the clause, given how well it was named."""
        fit = 0.0
        area_id = entry.area_id
        # An entity with no area whose own name holds the place said ("主卧加湿器" of HA's demo,
        # which has no registry entry) is not elsewhere.
        placed_by_name = area_id is None and any(word in matched for word in segment.place_words)
        if segment.areas and not segment.area_inherited:
            fit += AREA_BONUS if area_id in segment.areas else 0.0 if placed_by_name else AREA_PENALTY
        elif segment.floors:
            in_floor = self.catalog.floor_of(entry) in segment.floors
            fit += AREA_BONUS if in_floor else 0.0 if placed_by_name else AREA_PENALTY
        elif segment.areas and area_id in segment.areas:
            fit += SOFT_AREA_BONUS * 2
        elif context.context_area and area_id == context.context_area:
            fit += SOFT_AREA_BONUS
        if segment.domains:
            if entry.domain in segment.domains:
                fit += DOMAIN_BONUS
            elif best < 0.9:
                fit += DOMAIN_PENALTY
        head = _name_head(matched) if len(said.owners_of.get(matched, ())) > 1 else None
        if head is not None and entry.domain not in KINDS[head].domains:
            # "the bedroom fan" (a fan's device name, which its light shares) is the fan.
            fit -= NAME_KIND_MISMATCH
        if segment.actions and entry.domain in _REPORTING:
            # A sensor that shares a device's name does nothing asked of the device.
            fit += DOMAIN_PENALTY
        elif best < 0.9 and any(
            entry.domain not in ACTION_DOMAINS.get(a.kind, (entry.domain,)) for a in segment.actions
        ):
            # "把大门锁上": of the doors, only a lock can be locked (a device named whole may still
            # take the setting its own way: a water heater "to high demand").
            fit += DOMAIN_PENALTY
        stated = segment.clause.stated_domains
        if stated:
            # A state only some kinds have decides between devices of the same name.
            fit += DOMAIN_BONUS if entry.domain in stated else DOMAIN_PENALTY
        return fit

    def _pool(self, segment: Segment, said: _Said, context: RecallContext, unknown: set[str]) -> set[str]:
        """Return the entities worth scoring.

        Those named, the place's devices of the kinds said, and those sharing rare sounds with
        words nobody knows ("晒衣服的架子": the 晾衣架).
        """
        catalog = self.catalog
        pool = set(said.pieces)
        pool |= catalog.entity_ids_with_sounds(unknown, rarer_than=RARE_SOUND)
        if segment.domains:
            kinds = catalog.of_domains(segment.domains)
            in_place = [e.entity_id for e in kinds if self._in_place(e, segment, context)]
            pool.update(in_place)
            if len(pool) < self.top_k * 2:
                pool.update(e.entity_id for e in kinds)
        elif segment.areas or segment.floors:
            pool.update(e.entity_id for e in self._around(segment, context))
        return pool

    def _in_place(self, entry: CatalogEntry, segment: Segment, context: RecallContext) -> bool:
        """Tell whether an entity is in the segment's place (or the speaker's)."""
        if segment.areas:
            return entry.area_id in segment.areas
        if segment.floors:
            return self.catalog.floor_of(entry) in segment.floors
        return context.context_area is not None and entry.area_id == context.context_area

    def _around(self, segment: Segment, context: RecallContext) -> Sequence[CatalogEntry]:
        """Return the entities in the segment's place (or the speaker's), as ``_in_place`` tells."""
        if segment.areas:
            return self.catalog.in_areas(segment.areas)
        if segment.floors:
            return self.catalog.on_floors(segment.floors)
        return self.catalog.in_areas([context.context_area]) if context.context_area else ()

    def _kind_suspects(self, segment: Segment) -> Sequence[CatalogEntry]:
        """Return the entities of the domains ``_of_kind`` can take for the clause's kind.

        The clause's domains, the kind word's, and switches (a wall switch can be a light).
        """
        domains = {*segment.primary_domains, "switch"}
        if segment.clause.kinds and (head := KINDS.get(segment.clause.kinds[-1])) is not None:
            domains.update(head.domains)
        return self.catalog.of_domains(domains)

    def _of_kind(self, entry: CatalogEntry, segment: Segment, *, loose: bool = False) -> bool:
        """Tell whether an entity is of the kind the clause names (窗帘: a curtain, not the garage door)."""
        key = (id(entry), segment.clause.kinds, segment.primary_domains, segment.device_classes, loose)
        if (known := self._kind_memo.get(key)) is None:
            known = self._kind_memo[key] = _of_kind(entry, segment, loose=loose)
        return known

    @staticmethod
    def _narrow_group(group: list[CatalogEntry], segment: Segment) -> list[CatalogEntry]:
        """Keep the lights the kind word names: 床头灯 not 主灯, "lamps" not the ceiling light.

        Of the water valves, "all the sprinklers" are those named as sprinklers or for what they
        water, not the valve named "Water main" beside them.
        """
        head = _head(segment)
        if head in _WATERING and any(narrower(head, e.named_kinds) for e in group):
            return [e for e in group if not e.named_kinds or narrower(head, e.named_kinds)]
        said = [e for e in group if _the_light_said(head, e)]
        if said or head is None or head not in LIGHTS or head in GENERIC:
            return said or group
        # None is named so: "the bedside lamps" are "Bedside left" and "Bedside right", not the
        # downlights beside them.
        modifier = _light_modifier(segment, head)
        return [e for e in group if modifier and any(modifier in n.text for n in e.names)] or group

    def _resolve(self, segment: Segment, context: RecallContext, previous: tuple[str, ...]) -> Segment:
        """Score the pool, then decide the sure targets if there are any (the first rule that is sure)."""
        if segment.unknown_places and not segment.clause.entity_names:
            # A place that is not in this home selects nothing, never everything.
            return replace(segment, reason="unknown-place")
        # "电扇开一下" in the living room: 电扇 is what a plug elsewhere is called, and the kind of
        # the Dyson here; said as a kind, it is the room's.
        alias, doubt = self._kind_alias(segment, context)
        said = _said(segment.clause, self.catalog.place_words, segment.primary_domains, ignore=alias)
        scored = self._scored(segment, said, context)
        if alias is not None and (head := _head(segment)) is not None:
            # The name read as its kind: of those as likely, the devices named as that kind lead
            # ("the floor lamp" among twenty rooms' floor lamps: those, not every light by its id).
            # The one named so whole first.
            entries = self.catalog.entries
            whole = {m.owner for p in segment.clause.pieces if p.text == alias for m in p.names if m.full}
            scored.sort(
                key=lambda c: (
                    -c.score,
                    not narrower(head, entries[c.entity_id].named_kinds),
                    c.entity_id not in whole,
                    -c.name_score,
                    c.entity_id,
                )
            )
        case = _Case(replace(segment, candidates=tuple(scored), read_as_kind=alias), context, previous)
        if (
            alias is not None
            and (doubt or (doubt is not None and not _placed(segment, context)))
            and not (segment.strong_group or segment.weak_group)
        ):
            # With no place to tell, the plug called 电扇 and the fans are as likely.
            return case.unsure("uncertain")
        rules: tuple[Callable[[_Case], Segment | None], ...] = (
            (self._temperature_as_before, *((self._reference,) if context.just_acted else ()))
            if segment.clause.only_a_number
            else (
                self._routine,
                self._group_by_name,
                self._pair_by_name,
                self._side_said,
                self._group,
                self._part_named,
                self._name,
                self._own_name,
                self._name_in_place,
                self._same_name_here,
                self._name_and_kind,
                self._part_and_kind,
                self._name_and_action,
                self._name_said_apart,
                self._same_as_before,
                self._like_before,
                self._fan_of_the_last,
                self._named_by_kind_rule,
                self._reference,
                self._only_one,
                self._where_before,
            )
        )
        for rule in rules:
            if (resolved := rule(case)) is not None:
                if resolved.confident and (
                    self._routine_said(segment, resolved.targets)
                    or any(self._of_another_class(segment, target) for target in resolved.targets)
                ):
                    return case.unsure("uncertain")
                return resolved
        return case.unsure("uncertain")

    def _of_another_class(self, segment: Segment, entity_id: str) -> bool:
        """Tell whether a device's class says it is not the kind said, its names not saying it is.

        "Turn on the TV in the bedroom", where "Bedroom" is a Sonos: a speaker is no TV, though
        its name is said whole; nor is a thermostat that only heats an air conditioner. (Not
        among window coverings, which people name loosely.)
        """
        entry = self.catalog.entry(entity_id)
        head = _head(segment)
        kind = KINDS.get(head) if head is not None else None
        if entry is not None and head is not None and _cannot_cool(entry, head):
            # "the air con in the front room", where "Front Room" is a radiator zone.
            return True
        if entry is None or head is None or kind is None or entry.device_class is None:
            return False
        if same_family(head, entry.named_kinds):
            # (One whose names say it is of the kind is, whatever its class.)
            return False
        return (
            bool(kind.device_classes)
            and entry.domain in kind.domains
            and entry.domain != "switch"
            and entry.device_class not in kind.device_classes
            and not kind.device_classes & _WINDOW_COVERINGS
        )

    def _routine_said(self, segment: Segment, targets: tuple[str, ...]) -> bool:
        """Tell whether every word of a scene's or script's name was said, though not in a row.

        "Boost the hot water" says all of the script "Boost hot water": not surely the water
        heater boosted by a degree.
        """
        said = _words_said(segment)
        return any(
            entry.entity_id not in targets and any(_all_words_said(name, said) for name in entry.names)
            for entry in self.catalog.of_domains(("scene", "script"))
        )

    def _scored(self, segment: Segment, said: _Said, context: RecallContext) -> list[Candidate]:
        """Return the pool's candidates, best first."""
        entries = self.catalog.entries
        unknown = _unknown_sounds(segment.clause)
        unnamed_fits: dict[_FitKey, float] = {}
        scored = []
        for entity_id in self._pool(segment, said, context, unknown):
            if (entry := entries.get(entity_id)) is None:
                continue
            if unknown or entity_id in said.pieces:
                scored.append(self._score(entry, said, segment, context, unknown, unnamed_fits))
                continue
            # Nothing said names it (a kind said in a home of a thousand is hundreds of these).
            fit = self._unnamed_fit(entry, said, segment, context, unnamed_fits)
            scored.append(Candidate(entity_id, round(fit, 4), 0.0, ""))
        scored.sort(key=lambda c: (-c.score, -c.name_score, c.entity_id))
        return scored

    def _kind_alias(self, segment: Segment, context: RecallContext) -> tuple[str | None, bool | None]:
        """Return a kind word said as a name when the kind is not that device's alone, and a doubt.

        The doubt is None when the word is the kind of another name said with it ("the bedroom
        heating"): that name tells which.

        The doubt: "turn the heating off" said in a study with its own radiator valve, of the
        thermostat named Heating elsewhere, may be either (nothing is done on a guess).

        A name that is only a kind word is weak unless the user gave it as an alias (小夜灯, one
        night light among others): a device's own name (冷氣, as an integration names it), a
        stand-in's alias (电扇 of the plug a fan is on), a name with its place left out
        ("thermostat" of Living Room Thermostat), a part of a longer name ("Panasonic
        空氣清淨機"). Such a device is meant when it is the only one of the kind or is where the
        speaker is or said; when others of the kind exist, the word is read as the kind.
        """
        for piece in segment.clause.pieces:
            if piece.role is not Role.NAME or not piece.has(Category.KIND):
                continue
            if not _only_a_kind_word(piece.text, piece.concept):
                continue
            head = KINDS.get(piece.concept)
            named = {entry for match in piece.names if (entry := self.catalog.entry(match.owner)) is not None}
            full = {e for m in piece.names if m.full and (e := self.catalog.entry(m.owner)) is not None}
            if head is None or not named:
                continue
            said_place = bool(segment.areas or segment.floors) and not segment.area_inherited
            here = context.context_area if not said_place else None
            # "檯燈關掉" said in the study, where 米家智慧檯燈 Pro is, of a 檯燈 in the son's room:
            # the study's.
            one_here = here is not None and any(e.area_id == here for e in named - full)
            # "put the heating up" said in the study, which has its own radiator valve, of the
            # thermostat named Heating elsewhere: the study's as much as the one named so.
            own_here = here is not None and any(
                e.area_id == here and e.domain in head.domains and e not in full
                for e in self.catalog.in_areas((here,))
            )
            # "檯燈關掉" of 檯燈 beside 米家LED智慧檯燈 1S, "close the curtain" of one named Curtain
            # beside 客廳窗簾: others are called so too (in any language), so the one named the
            # word alone is meant only where it is (the speaker's room or the place said), unless
            # the word is an alias the user gave it (台灯 of 米家智能台灯Pro beside 天台灯). Others
            # are of the kind's domains and their own names say it: not 电视背景灯带 (a light)
            # beside a TV named 电视, nor 阳台灯 (no desk lamp); nor a part of the device named so
            # ("Soundbar Night Sound" of the Soundbar); nor one whose device alone says it
            # (扫拖机器人 on a device 科沃斯扫地机器人, beside the one named 扫地机器人).
            devices = {e.device_id for e in full if e.device_id is not None}
            given = any(name_key(piece.text) in e.aliases for e in full)
            full_ids = {e.entity_id for e in full}
            if any(
                m.full
                and m.owner not in full_ids
                and (other_entry := self.catalog.entry(m.owner)) is not None
                and other_entry.domain in head.domains
                # By its own name, not its maker's ("the Govee floor lamp"), and of the kind
                # ("the TV in the rec room" is no Sonos named Rec Room).
                and m.name not in other_entry.brand_names
                and not self._of_another_class(segment, m.owner)
                and (not other_entry.named_kinds or same_family(piece.concept, other_entry.named_kinds))
                for other in segment.clause.pieces
                if other is not piece and other.role is Role.NAME and not other.has(Category.KIND)
                for m in other.names
            ):
                # "the bedroom heating", of the radiator valve named Bedroom beside the thermostat
                # named Heating: the word says what kind of thing the other name is.
                return piece.text, None
            word = normalize(piece.text)
            called_so_too = not given and any(
                e.entity_id not in full_ids
                and e.domain in head.domains
                and (e.device_id is None or e.device_id not in devices)
                and self._called_so(e, word, piece.concept)
                for e in self.catalog.named_as((piece.concept,))
            )
            if not called_so_too and any(
                self._called_only(entry, piece.concept)
                and not self._stands_in(entry, piece.concept, head.domains[0])
                and not (said_place and not self._in_place(entry, segment, context))
                and not ((one_here or own_here) and entry.area_id != here)
                for entry in full
            ):
                # (Not "书房冷气" when the one named 冷氣 is in another room.)
                continue
            of_kind = [
                e
                for e in self.catalog.entries.values()
                if e.domain not in _REPORTING
                and (
                    (narrower(piece.concept, e.named_kinds) and self._of_kind(e, segment))
                    or _of_class(e, piece.concept)
                )
            ]
            if len({*of_kind, *(e for e in named if e.domain not in _REPORTING)}) < 2 or (
                _placed(segment, context) and any(self._in_place(e, segment, context) for e in full)
            ):
                continue
            doubt = own_here and not one_here and not any(e.area_id == here for e in full)
            return piece.text, doubt
        return None, False

    def _called_so(self, entry: CatalogEntry, word: str, kind: str) -> bool:
        """Tell whether a device's own names say the kind word said, or say it in another language.

        In another language only plainly, the word after a place at most ("curtain" is 客廳窗簾;
        "desk lamp" is no 餐枱燈, a dining table's lamp). 扫拖机器人 is not 扫地机器人: a word of the
        same language the user chose to tell two vacuums apart.
        """
        if any(own == word for own, _ in entry.own_kind_words):
            return True
        if not any(
            own_kind == kind and own.isascii() != word.isascii() for own, own_kind in entry.own_kind_words
        ):
            return False
        places = sorted(self.catalog.place_words, key=len, reverse=True)
        for name in entry.names:
            if name.text in entry.borrowed_names:
                continue
            rest = next((name.text[len(p) :] for p in places if name.text.startswith(p)), name.text)
            if _only_a_kind_word(rest.strip(), kind):
                return True
        return False

    def _called_only(self, entry: CatalogEntry, kind: str) -> bool:
        """Tell whether one of a device's own names is the kind word alone (alias 小夜灯, "Desk Lamp")."""
        return any(_only_a_kind_word(own.text, kind, self.catalog.place_words) for own in entry.names)

    def _stands_in(self, entry: CatalogEntry, kind: str, domain: str) -> bool:
        """Tell whether a device is called a kind it is not (Smart Plug 2, alias 电扇).

        A plug named 取暖器 (alias 小太阳) is the heater: its own name says so.
        """
        own = frozenset(names_lexicon().kinds_in(entry.names[0].text, self.catalog.place_words).values())
        return entry.domain != domain and not same_family(kind, own)

    def _routine(self, case: "_Case") -> Segment | None:
        """Take the script that cleans the room a vacuum is asked to clean ("叫掃地機掃客廳": 掃客廳).

        A script named as cleaning a room ("扫客厅", "Vacuum the Kitchen") is how this home cleans
        one room; a vacuum told to start would clean every room. Only the vacuum may be named
        beside it.
        """
        segment = case.segment
        named = {m.owner for m in segment.clause.entity_names if m.full}
        entries = self.catalog.entries
        if any(o in entries and entries[o].domain not in ("vacuum", "script") for o in named):
            return None
        cleaning = any(a.kind is ActionKind.START for a in segment.actions)
        routines = [
            entry.entity_id
            for entry in self.catalog.of_domains(("script",))
            if (area := self._room_it_cleans(entry)) is not None
            # (The room said in this clause: 扫客厅, not a room the clause before's device is in.)
            and (entry.entity_id in named or (cleaning and case.explicit_place and area in segment.areas))
        ]
        return case.sure(routines, "routine") if len(routines) == 1 else None

    def _room_it_cleans(self, entry: CatalogEntry) -> str | None:
        """Return the area a script is named as cleaning ("扫客厅", "Vacuum the Kitchen"), if any."""
        lexicon = names_lexicon()
        for name in entry.names:
            tokens = tokenize(name.text)
            ends = [
                end
                for end, senses in lexicon.matches(tokens, 0)
                if any(s.category is Category.VERB and s.concept == "clean" for s in senses)
            ]
            if not ends:
                continue
            rest = [t for t in tokens[max(ends) :] if t.text not in ("the", "my", "our")]
            said = name_key(" ".join(t.text for t in rest))
            for area in self.catalog.areas.values():
                if any(name_key(own.text) == said for own in area.names):
                    return area.id
        return None

    def _group_by_name(self, case: "_Case") -> Segment | None:
        """Take every device a shared part of a name names ("Hue Play 两盏都…", "the Hue Play lights")."""
        segment = case.segment
        if not (segment.strong_group or segment.weak_group):
            return None
        if any(
            piece.role is Role.NAME and _only_a_kind_word(piece.text, piece.concept)
            for piece in segment.clause.pieces
        ):
            # "二樓的冷氣都打開": a kind word shared by names is the kind (the Hitachi there too).
            return None
        shared = self._sharing_a_name(segment)
        if len(shared) < 2:
            return None
        kinds = [entry.named_kinds for e in shared if (entry := self.catalog.entry(e)) is not None]
        if any(kinds) and not all(kinds):
            # "the Hue Play lights" of Hue Play left, right and a Hue Play gradient lightstrip:
            # the strip's name says another kind, the others none; not sure it is meant.
            return case.unsure("uncertain")
        return case.sure(shared, "group-by-name") if _counted(segment, shared) else case.unsure("count")

    def _pair_by_name(self, case: "_Case") -> Segment | None:
        """Take both lights of a pair said without their sides ("把 Hue Play 關掉": left and right)."""
        segment = case.segment
        said = [
            p
            for p in segment.clause.pieces
            if p.role is Role.NAME and not any(":" in m.owner for m in p.names)
        ]
        shared = self._sharing_a_name(segment)
        if len(said) != 1 or len(shared) != 2:
            return None
        sides = side_words()
        spoken = name_key(said[0].text)
        found = set()
        for entity_id in shared:
            entry = self.catalog.entries[entity_id]
            own = name_key(entry.names[0].text)
            rest = own.removeprefix(spoken).strip() if own.startswith(spoken) else ""
            if entry.domain != "light" or rest not in sides:
                return None
            found.add(sides[rest])
        return case.sure(shared, "pair-by-name") if len(found) == 2 else None

    def _side_said(self, case: "_Case") -> Segment | None:
        """Take, of a pair of the kind said, the one of the side said ("右边床头灯": 主卧床头灯 右).

        In the place said or where the speaker is; only when exactly one there has that side.
        """
        segment, context = case.segment, case.context
        side, _ = side_said(segment.clause)
        head = _head(segment)
        if side is None or head is None or not _placed(segment, context):
            return None
        sided = [
            e.entity_id
            for e in self.catalog.named_as(kinds_within(head))
            if e.domain not in _REPORTING
            and self._in_place(e, segment, context)
            and _has_side(name_key(e.names[0].text), side)
        ]
        return case.sure(sided, "side") if len(sided) == 1 else None

    def _group(self, case: "_Case") -> Segment | None:
        """Take a group: "所有灯", "客厅的灯全关了", "the kitchen lights"; "灯都关了" where one is."""
        segment, context = case.segment, case.context
        weak_here = (
            segment.weak_group
            and not case.has_place
            and context.context_area is not None
            and not named_any_early(case.top)
        )
        # "it's too bright in here, dim the lights to 40": a plural in the place said before.
        in_said_place = segment.weak_group and case.has_place
        # "鎖晒啲門", "lock the doors" with no place said or known: every one of the home, to lock
        # or switch off (a whole home is not switched on or opened on a guess).
        locking = bool(segment.actions) and all(a.kind is ActionKind.LOCK for a in segment.actions)
        home_wide = (
            segment.mood is Mood.COMMAND
            and bool(segment.actions)
            and all(a.kind in (ActionKind.LOCK, ActionKind.TURN_OFF) for a in segment.actions)
            # 都 / 晒, or a plural to lock ("lock the doors").
            and (segment.clause.group == "each" or locking)
            and segment.weak_group
            and not case.has_place
            # (A place word that names no floor here, 楼上, is a place said: not the whole home.)
            and not (segment.clause.generic_places or segment.unknown_places)
            and context.context_area is None
            and not named_any_early(case.top)
        )
        if not segment.primary_domains or not (
            segment.strong_group or in_said_place or weak_here or home_wide
        ):
            return None
        placed = case.has_place or (weak_here and not segment.strong_group)
        suspects = self._kind_suspects(segment)
        in_scope = [e for e in suspects if not placed or self._in_place(e, segment, context)]
        group = [e for e in in_scope if self._of_kind(e, segment)] or [
            e for e in in_scope if self._of_kind(e, segment, loose=True)
        ]
        group = self._narrow_group(group, segment)
        if (
            not segment.areas
            and "light" in segment.primary_domains
            and any(e.domain == "light" for e in group)
        ):
            # "every light in the house", "all the basement lights": the lights, as HA's own agent
            # takes them, and the wall switches of lights (一樓浴室燈 on a "Smart Switch 1 Gang");
            # not a relay or a plug named as a lamp here and there (a room's own are kept).
            # (Not 神明燈 on the shrine room's wall switch: the light of a thing, not of a room.)
            group = [
                e
                for e in group
                if e.domain != "switch" or ("switch" in e.named_kinds and not self._lights_a_thing(e))
            ]
        elif "light" in segment.primary_domains:
            # A room's lights: not a plug named for the light of a thing in it ("Fish Tank Light");
            # a wall switch is one (橱柜灯开关).
            group = [
                e
                for e in group
                if e.domain != "switch" or "switch" in e.named_kinds or not self._lights_a_thing(e)
            ]
        named = case.top is not None and case.top.name_score >= 0.95
        if not group or (named and not segment.strong_group and not case.explicit_place):
            return None
        if not _counted(segment, group) and (head := _head(segment)) is not None:
            # "both the aircons" of two aircons and a thermostat: the two named so.
            group = [e for e in group if head in e.named_kinds]
        if not _counted(segment, group):
            # "both the aircons" of three: not sure which two.
            return case.unsure("count")
        return case.sure(sorted(e.entity_id for e in group), "group")

    def _name(self, case: "_Case") -> Segment | None:
        """Take a name that clearly wins, or the only one said in full ("客厅落地扇" beside 客厅落地灯)."""
        top, second = case.top, case.second
        if top is None or top.score < CONFIDENT_SCORE or top.name_score < 0.6:
            return None
        if not (
            second is None
            or top.score - second.score >= CONFIDENT_MARGIN
            or (top.name_score >= FULL_NAME > second.name_score and top.score > second.score)
        ):
            return None
        # "晾衫架盏灯": the light of the device named, when the kind said last is not its own.
        part = self._part_of_device(top.entity_id, case.segment)
        return case.sure([part or top.entity_id], "name" if part is None else "part-of-device")

    def _own_name(self, case: "_Case") -> Segment | None:
        """Take, of devices a whole name fits alike, the one whose own name it is.

        "開米家智能插座三": three plugs of the model 米家智能插座3, two renamed 電飯煲 and 暖爐 and
        one left as named; the name is the last one's, and only its device's for the others.
        """
        top = case.top
        if top is None or top.name_score < FULL_NAME:
            return None
        alike = [c for c in case.segment.candidates if (c.score, c.name_score) == (top.score, top.name_score)]
        if len(alike) < 2:
            return None
        own = [
            c.entity_id
            for c in alike
            if (entry := self.catalog.entry(c.entity_id)) is not None and c.name not in entry.borrowed_names
        ]
        return case.sure(own, "own-name") if len(own) == 1 else None

    def _name_in_place(self, case: "_Case") -> Segment | None:
        """Take the one device in the place said that a part of a name names ("the Tradfri bulb in …")."""
        if not case.explicit_place:
            return None
        segment = case.segment
        owners = {
            m.owner
            for p in segment.clause.pieces
            if p.role is Role.NAME and not any(":" in m.owner for m in p.names)
            for m in p.names
        }
        entries = [
            self.catalog.entries[o]
            for o in owners
            if o in self.catalog.entries and self.catalog.entries[o].domain not in _REPORTING
        ]
        placed = [e.entity_id for e in entries if self._in_place(e, segment, case.context)]
        return case.sure(placed, "name-in-place") if len(placed) == 1 else None

    def _same_name_here(self, case: "_Case") -> Segment | None:
        """Take, of devices that share the name said, the one where the speaker is.

        Two wall switches both left as "Aqara 牆壁開關 H1 右鍵": said in the living room, the
        living room's (no place said; every one named so is equally named).
        """
        top, area = case.top, case.context.context_area
        if top is None or area is None or case.has_place or not top.name_score:
            return None
        entries = self.catalog.entries
        tied = [c for c in case.segment.candidates if c.name_score >= top.name_score - 1e-9]
        alike = [c for c in tied if c.name == top.name]
        here = [c.entity_id for c in alike if entries[c.entity_id].area_id == area]
        # (Only when every device named as well as the best has that very name.)
        if len(alike) < 2 or len(alike) != len(tied) or len(here) != 1:
            return None
        return case.sure(here, "same-name-here")

    def _name_and_kind(self, case: "_Case") -> Segment | None:
        """Take, of the devices a name fits equally, the one the kind said fits ("Aqara 吸顶灯")."""
        top, head = case.top, _head(case.segment)
        if top is None or head is None or head in GENERIC or top.name_score < 0.6:
            return None
        entries = self.catalog.entries
        near = case.leaders
        leaders = [c for c in near if narrower(head, entries[c.entity_id].named_kinds)]
        kind = KINDS.get(head)
        if kind is not None and any(
            not entries[c.entity_id].named_kinds and entries[c.entity_id].domain == kind.domains[0]
            for c in near
        ):
            # "日立冷气" of 主卧冷气 and "Hitachi RAS-28NK": both Hitachi air conditioners, one
            # named so.
            return None
        if len(leaders) == 1 and leaders[0].score >= CONFIDENT_SCORE:
            return case.sure([leaders[0].entity_id], "name-and-kind")
        return None

    def _part_and_kind(self, case: "_Case") -> Segment | None:
        """Take the one device whose name holds every part said and names the kind said.

        "米家檯燈" of 米家智慧檯燈 Pro, beside 米家床頭燈 and 米家吸頂燈: 米家 is in three names,
        a desk lamp is one of them.
        """
        segment = case.segment
        head = _head(segment)
        if head is None or head in GENERIC:
            return None
        # Parts of the devices' own names: a maker said ("日立冷氣", "the Kasa plug") names every
        # device it made, whichever of them is named as the kind.
        parts = [
            {
                m.owner
                for m in p.names
                if (entry := self.catalog.entry(m.owner)) is not None and m.name not in entry.brand_names
            }
            for p in segment.clause.pieces
            if p.role is Role.NAME and not any(":" in m.owner for m in p.names)
        ]
        if not parts:
            return None
        named = set.intersection(*parts)
        fitting = [
            owner
            for owner in named
            if (entry := self.catalog.entry(owner)) is not None
            and entry.domain not in _REPORTING
            and narrower(head, entry.named_kinds)
            and (not case.explicit_place or self._in_place(entry, segment, case.context))
        ]
        return case.sure(fitting, "part-and-kind") if len(fitting) == 1 else None

    def _name_and_action(self, case: "_Case") -> Segment | None:
        """Take, of the devices a name fits equally, the one that does what is asked.

        "Dyson 开大d": the fan, not its night-mode switch; "set the hallway to 19": the hallway's
        thermostat, not its light.
        """
        top, actions = case.top, case.segment.actions
        if top is None or top.score < CONFIDENT_SCORE or top.name_score < 0.6 or not actions:
            return None
        entries = self.catalog.entries
        able = [
            c.entity_id
            for c in case.leaders
            if all(
                entries[c.entity_id].domain in _DOING.get(a.kind, ACTION_DOMAINS.get(a.kind, ()))
                for a in actions
            )
        ]
        return case.sure(able, "name-and-action") if len(able) == 1 else None

    def _name_said_apart(self, case: "_Case") -> Segment | None:
        """Take, of the devices a clause fits equally, the one whose every name word it says.

        "The Sonos in the rec room" of "rec room Sonos", beside the Rec Room's night-sound switch.
        """
        top = case.top
        if top is None or top.score < CONFIDENT_SCORE:
            return None
        said = _words_said(case.segment)
        apart = [
            c.entity_id
            for c in case.leaders
            if (entry := self.catalog.entry(c.entity_id)) is not None
            and any(_all_words_said(name, said) for name in entry.names)
        ]
        return case.sure(apart, "name-said-apart") if len(apart) == 1 else None

    def _same_as_before(self, case: "_Case") -> Segment | None:
        """Take the devices of the clause before when this one says only a verb, a value or "it".

        "把书房空调打开，调到制热24度", "扫地机器人，让它扫一下地"; not "开小夜灯，大灯熄咗佢",
        where 佢 is the 大灯 said.
        """
        segment = case.segment
        if not case.previous or case.named_any or case.explicit_place:
            return None
        if segment.clause.kinds == ("fan",) and all(self._runs_a_fan(t) for t in case.previous):
            # "Set the Upstairs ecobee to seventy and run the fan": the thermostat's own fan.
            return case.sure(case.previous, "same-as-before")
        if segment.clause.kinds and not (
            segment.pronoun
            and all(
                (entry := self.catalog.entry(t)) is not None and self._of_kind(entry, segment)
                for t in case.previous
            )
        ):
            return None
        return case.sure(case.previous, "same-as-before")

    def _temperature_as_before(self, case: "_Case") -> Segment | None:
        """Take the thermostat of the clause before for a number said alone ("AC on, cool, 70").

        Only a thermostat's or a water heater's: "调大声一点，二十五" of a TV is no temperature.
        """
        resolved = self._same_as_before(case)
        if resolved is None or not all(t.startswith(("climate.", "water_heater.")) for t in resolved.targets):
            return None
        return resolved

    def _fan_of_the_last(self, case: "_Case") -> Segment | None:
        """Take the fan of the air conditioner just switched on, in a room with no fan.

        "AC on." … "Fan on high." in the workshop, whose window unit is its only fan: only the
        air conditioner the last turn acted on, in the place said or the speaker's, with the
        speed said among its own.
        """
        segment, context = case.segment, case.context
        speeds = [a.option for a in segment.actions if a.kind is ActionKind.SET_FAN_MODE]
        last = context.last_targets
        if (
            case.named_any
            or _head(segment) != "fan"
            or len(speeds) != 1
            or len(last) != 1
            or not last[0].startswith("climate.")
            or not _placed(segment, context)
        ):
            return None
        around = self._around(segment, context)
        if all(e.entity_id != last[0] for e in around) or any(
            e.domain == "fan" or self._of_kind(e, segment) for e in around
        ):
            return None
        state = self.catalog.hass.states.get(last[0])
        modes = [str(m).lower() for m in (state.attributes.get("fan_modes") or ())] if state else []
        return case.sure(list(last), "fan-of-the-last") if speeds[0] in modes else None

    def _runs_a_fan(self, entity_id: str) -> bool:
        """Tell whether a device is a thermostat whose fan can be run on its own (an "on" fan mode)."""
        entry = self.catalog.entry(entity_id)
        state = self.catalog.hass.states.get(entity_id) if entry is not None else None
        return (
            state is not None
            and state.domain == "climate"
            and "on" in (state.attributes.get("fan_modes") or ())
        )

    def _like_before(self, case: "_Case") -> Segment | None:
        """Take, in the place said, what is like the last turn's devices ("主卧的也关了").

        Those of the last devices that are there ("把楼上的灯都打开" … "露台的关掉"), else the one
        device there of their kind, as their names say it ("客厅纱帘打开" … "主卧的也拉开": 主卧纱帘,
        not 主卧窗帘; after 客厅主灯, 主卧's main light, not its bedside lamp).
        """
        segment, context = case.segment, case.context
        last = [e for t in context.last_targets if (e := self.catalog.entry(t)) is not None]
        if not last or case.named_any or not case.explicit_place or segment.clause.kinds:
            return None
        there = [e.entity_id for e in last if self._in_place(e, segment, context)]
        if there:
            return case.sure(there, "like-before")
        if not segment.clause.also:
            return None
        placed = self._around(segment, context)
        alike = sorted(e.entity_id for e in placed if any(_alike(e, b) for b in last))
        if len(alike) > 1 and len(last) == 1:
            # "小宇房間燈關掉" … "妹妹房間的也關掉": 妹妹房間燈, named as the last was, by its own room.
            rest = self._name_past_its_room(last[0])
            same = [t for t in alike if rest and self._name_past_its_room(self.catalog.entries[t]) == rest]
            alike = same if len(same) == 1 else alike
        if len(alike) == 1 or (alike and len(last) > 1):
            # (After "the lights in Mateo's room", "and Priya's too" is all of hers.)
            return case.sure(alike, "like-before")
        return None

    def _name_past_its_room(self, entry: CatalogEntry) -> str:
        """Return what a device's name says after the name of its room ("燈" of 小宇房間燈), or ""."""
        area = self.catalog.area_of(entry)
        if area is None:
            return ""
        own = entry.names[0].text
        rests = (own[len(n.text) :].strip() for n in area.names if own.startswith(n.text))
        return next((rest for rest in rests if rest), "")

    def _named_by_kind_rule(self, case: "_Case") -> Segment | None:
        """Take the one device in the place whose name holds the kind word said (床头灯, 落地灯)."""
        if case.named_any:
            return None
        by_kind = self._named_by_kind(case.segment, case.context)
        if len(by_kind) != 1 or self._unnamed_of_class(case.segment, case.context, by_kind[0]):
            return None
        if self._word_names_one_here(case, by_kind[0]):
            return case.unsure("uncertain")
        return case.sure(by_kind, "named-by-kind")

    def _word_names_one_here(self, case: "_Case", chosen: str) -> bool:
        """Tell whether the kind word said is also in the name of a device where the speaker is.

        "Turn on the Roku" in the bedroom, whose TV is a "55S455 (Roku TV)", while the Roku
        Express is in another room: either may be meant.
        """
        entry = self.catalog.entries[chosen]
        if self._in_place(entry, case.segment, case.context):
            return False
        here = {e.entity_id for e in self._around(case.segment, case.context)} - {chosen}
        return any(
            m.owner in here for p in case.segment.clause.pieces if p.has(Category.KIND) for m in p.names
        )

    def _unnamed_of_class(self, segment: Segment, context: RecallContext, named: str) -> bool:
        """Tell whether another device is of the kind by its class, though not named so.

        "除濕機關掉" with 日立除濕機 and a Panasonic F-Y22EN (a dehumidifier by its class): either
        is meant. Only for a kind that is its class (a TV, a dehumidifier), not a narrower one
        (纱帘 among curtains).
        """
        head = _head(segment)
        if head is None or (kind := KINDS.get(head)) is None:
            return False
        if not kind.device_classes and kind.domains != (head,):
            return False  # no class says it (a main light is no class of light)
        placed = _placed(segment, context)
        return any(
            e.entity_id != named
            and _of_class(e, head)
            and (not placed or self._in_place(e, segment, context))
            for e in self.catalog.of_domains(kind.domains)
        )

    def _reference(self, case: "_Case") -> Segment | None:
        """Take the most recent device that fits (它, 调到24度), unless something is named."""
        segment = case.segment
        if not (segment.pronoun or not case.named_any) or case.explicit_place:
            return None
        if not (segment.pronoun or segment.domains or segment.actions):
            return None

        def fits(entity_id: str) -> bool:
            entry = self.catalog.entries.get(entity_id)
            if entry is None or (segment.domains and entry.domain not in segment.domains):
                return False
            return all(entry.domain in ACTION_DOMAINS.get(a.kind, (entry.domain,)) for a in segment.actions)

        together = [e for e in case.context.last_targets if fits(e)]
        talked_of = case.context.recent_devices[:1]
        if together and talked_of and talked_of[0] not in case.context.last_targets and fits(talked_of[0]):
            # "turn it off" after "did I leave my flat iron on", or "turn them back on" after "is
            # the office fan on": what was done last, or what was asked about since.
            return case.unsure("uncertain")
        if len(together) > 1:
            if "it" in segment.clause.references:
                # "把它打开" after three lights: which one is not said.
                return case.unsure("uncertain")
            # "把灯都关了" … "开灯", "turn them back on": the last turn's, all of them.
            return case.sure(sorted(together), "reference") if self._of_kind_said(together, segment) else None
        # A kind said ("and the light") is the last device's or another's, never an older one's.
        recent = case.context.recent_devices
        for entity_id in recent[:1] if segment.clause.kinds and not segment.pronoun else recent:
            if fits(entity_id):
                return (
                    case.sure([entity_id], "reference") if self._of_kind_said([entity_id], segment) else None
                )
        return None

    def _of_kind_said(self, entity_ids: list[str], segment: Segment) -> bool:
        """Tell whether devices are of the kind a clause says, when it says one and no "it".

        "And the light" after the bath fan's switch, 也把床头灯开了 after the ceiling light: a
        kind said is another device than the last, which later rules look for.
        """
        if not segment.clause.kinds or segment.pronoun:
            return True
        head = _head(segment)
        entries = [self.catalog.entries[entity_id] for entity_id in entity_ids]
        return all(self._of_kind(entry, segment) and _the_light_said(head, entry) for entry in entries)

    def _only_one(self, case: "_Case") -> Segment | None:
        """Take the one device of that kind in the place named (or the speaker's), or in the home."""
        segment, context = case.segment, case.context
        if not segment.primary_domains or case.named_any:
            return None
        entries = self.catalog.entries
        around = self._around(segment, context)
        in_place = [e.entity_id for e in around if self._of_kind(e, segment)] or [
            e.entity_id for e in around if self._of_kind(e, segment, loose=True)
        ]
        if len(in_place) == 1:
            if not case.explicit_place and self._lamp_elsewhere(entries[in_place[0]], segment):
                return case.unsure("uncertain")
            return case.sure(in_place, "only-one-in-place")
        able = [e for e in in_place if self._can_do(entries[e], segment)]
        if len(in_place) > 1 and len(able) == 1 and case.explicit_place:
            # "客廳燈再亮一點" of a room's light and its wall switches: only the light dims.
            return case.sure(able, "only-one-that-can")
        head = _head(segment)
        plain = [
            e
            for e in in_place
            if head is not None
            and head not in GENERIC
            and head in entries[e].named_kinds
            and entries[e].named_kinds <= {head, *GENERIC}
        ]
        if len(in_place) > 1 and len(plain) == 1:
            # "吸顶灯" of a room whose ceiling light has its ambient ring beside it ("… 吸顶灯 氛围灯"):
            # the one named only as what was said.
            return case.sure(plain, "only-one-in-place")
        if not in_place and _placed(segment, context):
            # "Turn the fan on" in the bathroom, whose one fan is its "Extractor fan" (an exhaust
            # fan, not a fan): the device there whose name holds the kind word said.
            holding = {
                m.owner
                for p in segment.clause.pieces
                if p.has(Category.KIND) and (kind := KINDS.get(p.concept)) is not None
                for m in p.names
                if m.owner.split(".", 1)[0] in kind.domains
            }
            there = [e.entity_id for e in around if e.entity_id in holding]
            if len(there) == 1:
                return case.sure(there, "name-in-place")
        # 电灯 of a room (as said in Taiwan and Hong Kong), 细房盏灯 ("the light" of a room): its
        # main light.
        main = [e for e in in_place if self._is_main_light(entries[e])]
        singular = any(p.text.endswith("盏") for p in segment.clause.pieces)
        if case.explicit_place and ("room_light" in segment.clause.kinds or singular) and len(main) == 1:
            return case.sure(main, "main-light")
        # A room's light, where the only thing to switch is a wall switch named as nothing else.
        if case.explicit_place and not in_place and "light" in segment.primary_domains:
            switches = [
                e.entity_id
                for e in around
                if e.domain == "switch" and e.device_class != "outlet" and not e.named_kinds - {"switch"}
            ]
            if len(switches) == 1:
                return case.sure(switches, "wall-switch")
        if not in_place and (on_floor := self._only_one_on_speakers_floor(segment, context)) is not None:
            return case.sure([on_floor], "only-one-on-floor")
        anywhere = [e.entity_id for e in self._kind_suspects(segment) if self._of_kind(e, segment)]
        # (A place inherited from the clause before that has none of the kind does not count:
        # "闩埋走廊灯，同埋锁埋道门" locks the one lock.)
        if not in_place and len(anywhere) == 1 and not case.explicit_place:
            return case.sure(anywhere, "only-one")
        return None

    def _lamp_elsewhere(self, entry: CatalogEntry, segment: Segment) -> bool:
        """Tell whether a particular light said is one named so elsewhere, not the room's one light.

        "Turn on the lamp" in the hallway, whose one light is "Hallway", while a floor lamp and a
        desk lamp are named so in other rooms: which lamp is not said.
        """
        head = _head(segment)
        if _the_light_said(head, entry) or head is None:
            return False
        return any(
            other.entity_id != entry.entity_id and other.domain == "light"
            for other in self.catalog.named_as(kinds_within(head))
        )

    @staticmethod
    def _can_do(entry: CatalogEntry, segment: Segment) -> bool:
        """Tell whether a device's domain takes every action of the clause (switching aside)."""
        actions = [a for a in segment.actions if a.kind not in (ActionKind.TURN_ON, ActionKind.TURN_OFF)]
        return bool(actions) and all(entry.domain in ACTION_DOMAINS.get(a.kind, ()) for a in actions)

    def _only_one_on_speakers_floor(self, segment: Segment, context: RecallContext) -> str | None:
        """Return the one thermostat of the speaker's floor when their room has none.

        "bump the heat up a degree" in Emma's room upstairs: the Upstairs thermostat. Only for
        a setting of the climate said with no kind and no place: a room's own air conditioner
        or light is never another room's.
        """
        room = self.catalog.areas.get(context.context_area or "")
        if (
            room is None
            or room.floor_id is None
            or segment.clause.kinds
            or segment.areas - {room.id}
            or segment.floors
            or "climate" not in segment.primary_domains
            or segment.primary_domains - {"climate", "water_heater"}
        ):
            return None
        on_floor = [
            e.entity_id
            for e in self.catalog.of_domains(("climate",))
            if self.catalog.floor_of(e) == room.floor_id
        ]
        return on_floor[0] if len(on_floor) == 1 else None

    def _where_before(self, case: "_Case") -> Segment | None:
        """Take the one device of the kind in the room of the clause before's devices.

        "客厅电视关掉，然后主灯调到百分之三十": the living room's main light. With "also" and no
        clause before, the room of the last turn's devices ("儿子房间窗帘拉开" … "空调也打开").
        """
        segment, context = case.segment, case.context
        before = case.previous or (context.last_targets if segment.clause.also else ())
        if case.named_any or _placed(segment, context) or not before:
            return None
        rooms = {entry.area_id for t in before if (entry := self.catalog.entry(t)) is not None}
        if len(rooms) != 1 or None in rooms:
            return None
        there = replace(context, context_area=rooms.pop())
        resolved = self._only_one(replace(case, context=there))
        return None if resolved is None else replace(resolved, reason="where-before")

    def _part_shared(self, entry: CatalogEntry, said: _Said, segment: Segment) -> bool:
        """Tell whether a part of a name said is as much a part of another device's own name.

        Of the domain, and not by its maker's model ("KFR-35GW" of 空调 KFR-35GW beside an air
        conditioner whose model is KFR-35GW/N8MJA3 is the first's).
        """
        pieces = said.pieces.get(entry.entity_id) or ()
        for index in pieces:
            for match in segment.clause.pieces[index].names:
                if (
                    match.full
                    or match.owner == entry.entity_id
                    or not match.owner.startswith(f"{entry.domain}.")
                ):
                    continue
                rival = self.catalog.entry(match.owner)
                if rival is not None and name_key(match.name) not in rival.brand_names:
                    return True
        return False

    def _part_named(self, case: "_Case") -> Segment | None:
        """Take a part named after its device ("客厅吸顶灯的氛围灯": the ceiling light's ambient light).

        Two names said one after the other, with at most a possessive between them: the second
        is meant when it is, whole, the name of an entity on the first one's device.
        """
        pieces = case.segment.clause.pieces
        named_at = [i for i, p in enumerate(pieces) if p.role is Role.NAME]
        if len(named_at) != 2 or any(not pieces[i].has(Category.FILLER) for i in range(*named_at)[1:]):
            return None

        def whole(index: int) -> list[CatalogEntry]:
            return [
                e for m in pieces[index].names if m.full and (e := self.catalog.entry(m.owner)) is not None
            ]

        owners, parts = whole(named_at[0]), whole(named_at[1])
        devices = {e.device_id for e in owners if e.device_id is not None}
        on_device = [e.entity_id for e in parts if e.device_id in devices and e not in owners]
        return case.sure(on_device, "part-of-device") if len(on_device) == 1 else None

    def _part_of_device(self, entity_id: str, segment: Segment) -> str | None:
        """Return the one entity of the kind said last on the same device as the one named, if another.

        Or the one part of that device another name said names.
        """
        entry = self.catalog.entries.get(entity_id)
        if entry is None or not entry.device_id:
            return None
        pieces = segment.clause.pieces
        # "晾衣架烘干打开": the airer named, then its part "Aqara 智能晾衣机 H1 烘干" by its own word
        # (said after the device, naming no place: not 洗手間 of 洗手間燈 before "抽氣扇").
        named_at = [
            i
            for i, p in enumerate(pieces)
            if p.role is Role.NAME and any(m.owner == entity_id for m in p.names)
        ]
        parts = {
            m.owner
            for p in pieces[named_at[0] + 1 if named_at else len(pieces) :]
            if p.role is Role.NAME and all(m.owner != entity_id and ":" not in m.owner for m in p.names)
            for m in p.names
            if (sibling := self.catalog.entries.get(m.owner)) is not None
            and sibling.device_id == entry.device_id
            and sibling.domain not in _REPORTING
        }
        if len(parts) == 1:
            return parts.pop()
        if not segment.primary_domains or entry.domain in segment.primary_domains:
            return None
        kinds_at = [i for i, p in enumerate(pieces) if p.has(Category.KIND)]
        if kinds_at and named_at and kinds_at[-1] < named_at[-1]:
            # "净化器童锁": the kind said first is whose part is named, the child lock itself.
            return None
        siblings = [
            e.entity_id
            for e in self.catalog.entries.values()
            if e.device_id == entry.device_id and e.domain in segment.primary_domains
        ]
        return siblings[0] if len(siblings) == 1 else None

    def _sharing_a_name(self, segment: Segment) -> list[str]:
        """Return the devices a part of a name said belongs to, when it is all the clause names."""
        pieces = [
            p
            for p in segment.clause.pieces
            if p.role is Role.NAME and not any(":" in m.owner for m in p.names)
        ]
        if len(pieces) != 1:
            return []
        owners = [m.owner for m in pieces[0].names if m.owner in self.catalog.entries]
        entries = [
            self.catalog.entries[o] for o in owners if self.catalog.entries[o].domain not in _REPORTING
        ]
        if segment.primary_domains:
            entries = [e for e in entries if e.domain in segment.primary_domains]
        if segment.areas or segment.floors:
            entries = [e for e in entries if self._in_place(e, segment, RecallContext())]
        return sorted(e.entity_id for e in entries) if len({e.domain for e in entries}) == 1 else []

    def _named_by_kind(self, segment: Segment, context: RecallContext) -> list[str]:
        """Return the devices of the kind said whose names say that very kind (纱帘 beside 窗帘, 床头灯).

        In the place said (or where the speaker is), else in the home.
        """
        head = _head(segment)
        if head is None or head in GENERIC:
            return []
        fitting = [
            e
            for e in self.catalog.named_as(kinds_within(head))
            if self._of_kind(e, segment) and e.domain not in _REPORTING
        ]
        placed = [e for e in fitting if self._in_place(e, segment, context)]
        chosen = placed if (segment.areas or segment.floors or placed) else fitting
        return sorted(e.entity_id for e in chosen)

    def _lights_a_thing(self, entry: CatalogEntry) -> bool:
        """Tell whether every name of a device is the light of a thing (鱼缸灯, "Fish Tank Light").

        A name that is only places, people's and kind words ("Porch Light", "Caleb's Lamp",
        客厅筒灯) is a room's light; one that only says switch (神明廳開關) says neither.
        """
        known = sorted({*self.catalog.place_words, *entry.kind_words}, key=len, reverse=True)
        said = False
        for name in entry.names:
            text = name.text
            if set(names_lexicon().kinds_in(text, self.catalog.place_words).values()) == {"switch"}:
                continue
            said = True
            for word in known:
                text = text.replace(word, " ")
            rest = [
                t
                for t in tokenize(text)
                if t.is_word and not t.text.endswith("'s") and t.text not in POSSESSIVES
            ]
            if not rest:
                return False
        return said

    def _is_main_light(self, entry: CatalogEntry) -> bool:
        """Tell whether a light is named as a room's main one (主灯, 吸顶灯, ceiling light, 阿嬤房電燈).

        A light named its room and "light" and nothing more (阿仔房燈, "Kitchen Light") is the room's.
        """
        if {"main_light", "room_light"} & entry.named_kinds:
            return True
        area = self.catalog.areas.get(entry.area_id or "")
        if area is None:
            return False
        return any(
            own.text.startswith(place.text)
            and _only_a_kind_word(own.text[len(place.text) :].strip(), "light")
            for own in entry.names
            for place in area.names
        )

    def _widest(self, segments: Sequence[Segment]) -> list[str]:
        """Return candidates when nothing was named: the kinds implied, else the whole home."""
        domains = {d for s in segments for d in s.domains}
        domains |= {d for s in segments for a in s.actions for d in ACTION_DOMAINS.get(a.kind, ())}
        chosen = [e.entity_id for e in self.catalog.of_domains(domains)]
        if not chosen:
            chosen = list(self.catalog.entries)
        return sorted(chosen)[:WIDEST]
