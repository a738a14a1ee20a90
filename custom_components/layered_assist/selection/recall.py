"""Layer 1: local recall of candidate entities for each segment of a sentence.

Names and aliases are matched on characters and on their sounds (pinyin), so
speech-recognition homophones still match; area, floor and domain words re-rank;
pronouns and room references come from the conversation state and the speaking
device's area. Everything here is local and takes milliseconds.
"""

from dataclasses import dataclass, field, replace
from itertools import pairwise
import re
from typing import Self

from ..language.numbers import english_to_arabic, to_arabic
from ..language.text import Unit, is_cjk, normalize, units
from .actions import Action, parse_action, strip_action
from .catalog import CatalogEntry, DeviceCatalog, MatchName, Place, prepare_names
from .understanding import Mood, sentence_mood
from .vocabulary import (
    AGAIN,
    DOMAIN_WORDS,
    FLOOR_WORDS,
    HERE,
    PRONOUN,
    RELATIVE_FLOORS,
    SEGMENT_SPLIT,
    SHARED_VERB_JOINERS,
    STRONG_GROUP,
    SUBTYPE_DEVICE_CLASSES,
    THAT_ROOM,
    WEAK_GROUP,
    domain_hints,
    domain_words,
    plural_group_domains,
    primary_domains,
    residual_words,
    state_domains,
    translate_mixed,
)

SOUND_MATCH = 0.85
PLACE_MATCH = 0.9
AREA_BONUS, AREA_PENALTY = 0.35, -0.6
SOFT_AREA_BONUS = 0.15
DOMAIN_BONUS, DOMAIN_PENALTY = 0.25, -0.4
CONFIDENT_SCORE = 1.0
CONFIDENT_MARGIN = 0.25
SWAPPED_WORDS = 0.9
# A name said in full (every sound of it, in order).
FULL_NAME = 0.99
LOW_CONFIDENCE = 0.5
# A sound shared by fewer entities than this is worth a look on its own (台 in 台灯, lamp).
RARE_SOUND = 40


@dataclass(frozen=True, slots=True)
class Features:
    """What a segment offers for matching."""

    chars: frozenset[str]
    sounds: frozenset[str]
    char_pairs: frozenset[tuple[str, str]]
    sound_pairs: frozenset[tuple[str, str]]

    @classmethod
    def of(cls, seq: tuple[Unit, ...]) -> Self:
        """Return the features of a unit sequence."""
        return cls(
            frozenset(u.text for u in seq),
            frozenset(u.sound for u in seq),
            frozenset((a.text, b.text) for a, b in pairwise(seq)),
            frozenset((a.sound, b.sound) for a, b in pairwise(seq)),
        )


def segment_features(text: str) -> Features:
    """Return a segment's features, adding Chinese readings of English words.

    "turn on the kitchen light" then also matches 厨房灯 in a Chinese home.
    """
    features = Features.of(units(text))
    translated = translate_mixed(text)
    if translated == text:
        return features
    extra = Features.of(units(translated))
    return Features(
        features.chars | extra.chars,
        features.sounds | extra.sounds,
        features.char_pairs | extra.char_pairs,
        features.sound_pairs | extra.sound_pairs,
    )


def name_score(name: MatchName, features: Features) -> float:
    """Return how much of a name the segment contains (1.0 = all of it, in order)."""
    seq = name.units
    single = sum(
        1.0 if u.text in features.chars else SOUND_MATCH if u.sound in features.sounds else 0.0 for u in seq
    ) / len(seq)
    if len(seq) == 1:
        return single
    paired = sum(
        1.0
        if (a.text, b.text) in features.char_pairs
        else SOUND_MATCH
        if (a.sound, b.sound) in features.sound_pairs
        # English says "the right curtain" of "Curtain Right".
        else SWAPPED_WORDS
        if a.text.isascii() and (b.text, a.text) in features.char_pairs
        else 0.0
        for a, b in pairwise(seq)
    ) / (len(seq) - 1)
    return 0.4 * single + 0.6 * paired


@dataclass(frozen=True, slots=True)
class Candidate:
    """An entity and how well it fits a segment."""

    entity_id: str
    score: float
    name_score: float
    # The name that matched best.
    name: str = ""


def _without_kind_words(entry: CatalogEntry) -> list[MatchName]:
    """Return the entity's English names without the words of its own kind ("front door" of a lock)."""
    names: list[MatchName] = []
    for name in entry.names:
        words = [u.text for u in name.units]
        if not name.text.isascii() or len(words) < 2:
            continue
        kept = [w for w in words if entry.domain not in DOMAIN_WORDS.get(w, ())]
        if kept and len(kept) < len(words):
            names.extend(prepare_names([" ".join(kept)]))
    return names


def _shadow_contained_names(candidates: list[Candidate]) -> list[Candidate]:
    """Lower a full match whose name lies inside another full match ("客厅灯" in "客厅灯带")."""
    full = {c.name for c in candidates if c.name_score >= FULL_NAME and c.name}
    return [
        replace(c, score=round(c.score - 2 * CONFIDENT_MARGIN, 4))
        if c.name in full and any(c.name != other and c.name in other for other in full)
        else c
        for c in candidates
    ]


@dataclass(slots=True)
class Segment:
    """One command inside a sentence, as Layer 1 reads it."""

    text: str
    joiner: str | None
    action: Action | None
    domains: set[str]
    primary_domains: set[str]
    # Kinds the sentence's state words belong to ("locked": a lock).
    stated_domains: set[str]
    areas: set[str]
    floors: set[str]
    area_inherited: bool = False
    action_inherited: bool = False
    place_words: list[str] = field(default_factory=list)
    # Floor words said that name nothing in this home ("upstairs" in a one-storey home).
    unknown_places: list[str] = field(default_factory=list)
    strong_group: bool = False
    weak_group: bool = False
    pronoun: bool = False
    candidates: list[Candidate] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    confident: bool = False
    reason: str = ""

    @property
    def about_devices(self) -> bool:
        """Tell whether the segment says anything about devices."""
        named = bool(self.candidates) and self.candidates[0].name_score >= 0.6
        own_action = self.action is not None and not self.action_inherited
        return bool(
            self.targets or own_action or self.domains or self.areas or self.floors or self.pronoun or named
        )


@dataclass(frozen=True, slots=True)
class RecallContext:
    """What Layer 1 knows beyond the sentence."""

    context_area: str | None = None
    recent_devices: tuple[str, ...] = ()
    recent_rooms: tuple[str, ...] = ()
    last_targets: tuple[str, ...] = ()


@dataclass(slots=True)
class Recall:
    """Layer 1's reading of a whole sentence."""

    text: str
    segments: list[Segment]
    again: bool
    candidates: list[str]
    # What the sentence asks for: read once, used by every layer.
    mood: Mood = Mood.COMMAND

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
        """Tell whether the sentence reads as a device command (an action, or sure devices)."""
        return bool(self.candidates) and any(s.action is not None or s.confident for s in self.segments)

    @property
    def unknown_places(self) -> list[str]:
        """Return the floor words said that name nothing in this home."""
        return list(dict.fromkeys(word for s in self.segments for word in s.unknown_places))

    @property
    def targets(self) -> list[str]:
        """Return the sure targets of all segments, in order, without repeats."""
        return list(dict.fromkeys(t for s in self.commands for t in s.targets))


# The room's light as a whole ("卧室的电灯"), and the names of a room's main light.
_ROOM_LIGHT = re.compile(r"电灯")
_MAIN_LIGHT = re.compile(r"(?:主灯|吸顶灯|顶灯|吊灯|大灯|ceiling lights?|ceiling lamps?)$")


def prepare_text(text: str) -> str:
    """Normalize a sentence: Simplified Chinese, English words of mixed text, numerals."""
    normalized = normalize(text)
    if is_cjk(normalized):
        normalized = translate_mixed(normalized)
    # "switch off" is a verb, not the switch domain.
    normalized = re.sub(r"\bswitch (on|off)\b", r"turn \1", normalized)
    return to_arabic(english_to_arabic(normalized))


def split_segments(text: str) -> list[tuple[str, str | None]]:
    """Split a prepared sentence into (segment, joiner before it)."""
    segments: list[tuple[str, str | None]] = []
    position = 0
    joiner: str | None = None
    for match in SEGMENT_SPLIT.finditer(text):
        piece = text[position : match.start()].strip()
        if piece:
            segments.append((piece, joiner))
        joiner = match.group(0).strip()
        position = match.end()
    if piece := text[position:].strip():
        segments.append((piece, joiner))
    return segments


class Recaller:
    """Runs Layer 1 on a catalog."""

    def __init__(self, catalog: DeviceCatalog, top_k: int = 10) -> None:
        """Bind to a catalog."""
        self.catalog = catalog
        self.top_k = top_k

    def recall(self, text: str, context: RecallContext) -> Recall:
        """Read a sentence: its segments, their candidates and sure targets."""
        prepared = prepare_text(text)
        again = bool(AGAIN.search(prepared)) and not self._names_anything(prepared)
        segments = [self._read_segment(piece, joiner, context) for piece, joiner in split_segments(prepared)]
        self._share_actions(segments)
        previous_areas: set[str] = set()
        for segment in segments:
            if not segment.areas and not segment.floors and previous_areas:
                segment.areas = set(previous_areas)
                segment.area_inherited = True
            self._resolve(segment, context)
            previous_areas = segment.areas if not segment.area_inherited else previous_areas
        candidates: list[str] = []
        for segment in segments:
            candidates.extend(segment.targets)
            # An unsure segment widens its candidates instead of guessing.
            top = segment.candidates[0].score if segment.candidates else 0.0
            if segment.confident and top >= CONFIDENT_SCORE:
                limit = max(3, self.top_k // 3)
            elif segment.confident and top >= LOW_CONFIDENCE:
                limit = self.top_k
            else:
                limit = self.top_k * 2
            candidates.extend(c.entity_id for c in segment.candidates[:limit])
        if again:
            candidates[:0] = list(context.last_targets or context.recent_devices[:1])
        return Recall(prepared, segments, again, list(dict.fromkeys(candidates)), sentence_mood(prepared))

    def _names_anything(self, text: str) -> bool:
        """Tell whether a sentence with 再 also names a device (再来一下 vs 再低一度)."""
        return bool(domain_hints(text)) or (parse_action(text) is not None and "再来" not in text)

    def _read_segment(self, text: str, joiner: str | None, context: RecallContext) -> Segment:
        """Parse the words of a segment: action, places, domains, references."""
        area_words = self._places(text, self.catalog.areas)
        floor_words = self._places(text, self.catalog.floors) if not area_words else {}
        areas, floors = set(area_words), set(floor_words)
        if HERE.search(text) and context.context_area:
            areas.add(context.context_area)
        if THAT_ROOM.search(text) and context.recent_rooms:
            areas.add(context.recent_rooms[0])
        named = [*area_words.values(), *floor_words.values()]
        unknown = [
            word
            for word in dict.fromkeys(match.group(0) for match in FLOOR_WORDS.finditer(text))
            if not any(word in place for place in named)
            and not self.catalog.said_in_a_name(word, text)
            and not (len(self.catalog.floors) > 1 and RELATIVE_FLOORS.fullmatch(word))
        ]
        domains = domain_hints(text)
        plural = plural_group_domains(text)
        primary = primary_domains(text) | {d for d in domains if d in plural}
        return Segment(
            text=text,
            joiner=joiner,
            action=parse_action(text),
            domains=domains,
            primary_domains=primary,
            stated_domains=state_domains(text),
            areas=areas,
            floors=floors,
            place_words=named,
            unknown_places=unknown,
            strong_group=bool(STRONG_GROUP.search(text)),
            weak_group=bool(WEAK_GROUP.search(text)) or bool(plural),
            pronoun=bool(PRONOUN.search(text)),
        )

    def _places(self, text: str, places: dict[str, Place]) -> dict[str, str]:
        """Return the places a text names in full, longest names winning."""
        features = segment_features(text)
        found: dict[str, str] = {}
        nearby = self.catalog.places_with_sounds(features.sounds)
        for place in (places[pid] for pid in nearby if pid in places):
            best = max(place.names, key=lambda n: (name_score(n, features), len(n.text)), default=None)
            if best is not None and name_score(best, features) >= PLACE_MATCH:
                found[place.id] = best.text
        # "主卧室" names 主卧 (alias 主卧室), not the 卧室 inside it.
        return {
            pid: matched
            for pid, matched in found.items()
            if not any(matched != other and matched in other for other in found.values())
        }

    @staticmethod
    def _share_actions(segments: list[Segment]) -> None:
        """Give verbless segments the action of their neighbour ("A和B都关了")."""
        for index, segment in enumerate(segments):
            if segment.action is not None:
                continue
            following = segments[index + 1] if index + 1 < len(segments) else None
            if following is not None and following.joiner in SHARED_VERB_JOINERS and following.action:
                segment.action = following.action
                segment.action_inherited = True
            elif index > 0 and segments[index - 1].action is not None:
                segment.action = segments[index - 1].action
                segment.action_inherited = True

    def _score(
        self, entry: CatalogEntry, features: Features, segment: Segment, context: RecallContext
    ) -> Candidate:
        """Score one entity against a segment."""
        best, matched = max(
            ((name_score(name, features), name.text) for name in entry.names), default=(0.0, "")
        )
        if best < FULL_NAME and entry.domain in segment.stated_domains:
            # "is the front door locked": the kind said elsewhere completes "Front Door Lock".
            best, matched = max(
                [(best, matched), *((name_score(n, features), n.text) for n in _without_kind_words(entry))]
            )
        score = best
        area_id = entry.area_id
        # An entity with no area whose own name holds the place said ("主卧加湿器" of HA's demo,
        # which has no registry entry) is not elsewhere.
        placed_by_name = area_id is None and any(word in matched for word in segment.place_words)
        if segment.areas and not segment.area_inherited:
            score += AREA_BONUS if area_id in segment.areas else 0.0 if placed_by_name else AREA_PENALTY
        elif segment.floors:
            in_floor = self.catalog.floor_of(entry) in segment.floors
            score += AREA_BONUS if in_floor else 0.0 if placed_by_name else AREA_PENALTY
        elif segment.areas and area_id in segment.areas:
            score += SOFT_AREA_BONUS * 2
        elif context.context_area and area_id == context.context_area:
            score += SOFT_AREA_BONUS
        if segment.domains:
            if entry.domain in segment.domains:
                score += DOMAIN_BONUS
            elif best < 0.9:
                score += DOMAIN_PENALTY
        return Candidate(entry.entity_id, round(score, 4), round(best, 4), matched)

    def _pool(self, segment: Segment, features: Features, context: RecallContext) -> set[str]:
        """Return the entities worth scoring: shared sound pairs, rare sounds, the place's devices."""
        catalog = self.catalog
        pool = catalog.entity_ids_with_pairs(features.sound_pairs)
        pool |= catalog.entity_ids_with_sounds(features.sounds, rarer_than=RARE_SOUND)
        if segment.domains:
            kinds = [e for e in catalog.entries.values() if e.domain in segment.domains]
            in_place = [e.entity_id for e in kinds if self._in_place(e, segment, context)]
            pool.update(in_place)
            if len(pool) < self.top_k * 2:
                pool.update(e.entity_id for e in kinds)
        return pool

    def _in_place(self, entry: CatalogEntry, segment: Segment, context: RecallContext) -> bool:
        """Tell whether an entity is in the segment's place (or the speaker's)."""
        if segment.areas:
            return entry.area_id in segment.areas
        if segment.floors:
            return self.catalog.floor_of(entry) in segment.floors
        return context.context_area is not None and entry.area_id == context.context_area

    def _narrow_group(self, group: list[CatalogEntry], segment: Segment) -> list[CatalogEntry]:
        """Keep the group's members of the kind named: 窗帘 not 车库门, 床头灯 not 主灯."""
        classes: set[str] = set()
        for word in domain_words(segment.text):
            classes |= SUBTYPE_DEVICE_CLASSES.get(word, frozenset())
        if classes and any(e.device_class in classes for e in group):
            return [e for e in group if e.device_class in classes]
        residual = residual_words(strip_action(segment.text), segment.place_words)
        residual_names = [n for n in prepare_names(residual.split()) if len(n.units) > 1 or n.text.isascii()]
        if not residual_names:
            return group
        matching = [
            e
            for e in group
            if any(
                name_score(word, Features.of(name.units)) >= PLACE_MATCH
                for word in residual_names
                for name in e.names
            )
        ]
        return matching or group

    def _resolve(self, segment: Segment, context: RecallContext) -> None:
        """Score the pool, then decide the sure targets if there are any."""
        if segment.unknown_places:
            # A place that is not in this home selects nothing, never everything.
            segment.reason = "unknown-place"
            return
        features = segment_features(segment.text)
        entries = self.catalog.entries
        scored = [
            self._score(entries[entity_id], features, segment, context)
            for entity_id in self._pool(segment, features, context)
            if entity_id in entries
        ]
        scored = _shadow_contained_names(scored)
        scored.sort(key=lambda c: (-c.score, -c.name_score, c.entity_id))
        segment.candidates = scored
        top = scored[0] if scored else None
        second = scored[1] if len(scored) > 1 else None
        has_place = bool(segment.areas or segment.floors)
        explicit_place = has_place and not segment.area_inherited

        # Groups: "所有灯", "客厅的灯全关了", "the kitchen lights".
        if segment.primary_domains and (segment.strong_group or (segment.weak_group and explicit_place)):
            group = [
                e
                for e in entries.values()
                if e.domain in segment.primary_domains
                and (self._in_place(e, segment, context) if explicit_place else True)
            ]
            group = self._narrow_group(group, segment)
            named = top is not None and top.name_score >= 0.95
            if group and not (named and not segment.strong_group and not explicit_place):
                segment.targets = sorted(e.entity_id for e in group)
                segment.confident = True
                segment.reason = "group"
                return

        # A name that clearly wins, or the only one said in full ("客厅落地扇" beside 客厅落地灯).
        if (
            top is not None
            and top.score >= CONFIDENT_SCORE
            and top.name_score >= 0.6
            and (
                second is None
                or top.score - second.score >= CONFIDENT_MARGIN
                or (top.name_score >= FULL_NAME > second.name_score and top.score > second.score)
            )
        ):
            segment.targets = [top.entity_id]
            segment.confident = True
            segment.reason = "name"
            return

        # 它 / 调到24度: the most recent device that fits, unless something is named.
        if (segment.pronoun or not (top and top.name_score >= 0.6)) and not has_place:
            for entity_id in context.recent_devices:
                entry = entries.get(entity_id)
                fits = entry is not None and (not segment.domains or entry.domain in segment.domains)
                if fits and (segment.pronoun or segment.domains or segment.action is not None):
                    segment.targets = [entity_id]
                    segment.confident = True
                    segment.reason = "reference"
                    return

        # One device of that kind in the place named (or where the speaker is), or at home.
        if segment.primary_domains:
            in_place = [
                e.entity_id
                for e in entries.values()
                if e.domain in segment.primary_domains and self._in_place(e, segment, context)
            ]
            if len(in_place) == 1:
                segment.targets = in_place
                segment.confident = True
                segment.reason = "only-one-in-place"
                return
            # 电灯 of a room (as said in Taiwan and Hong Kong) is its main light.
            main = [e for e in in_place if any(_MAIN_LIGHT.search(n.text) for n in entries[e].names)]
            if explicit_place and _ROOM_LIGHT.search(segment.text) and len(main) == 1:
                segment.targets = main
                segment.confident = True
                segment.reason = "main-light"
                return
            anywhere = [e.entity_id for e in entries.values() if e.domain in segment.primary_domains]
            if not in_place and len(anywhere) == 1 and not has_place:
                segment.targets = anywhere
                segment.confident = True
                segment.reason = "only-one"
                return

        segment.reason = "uncertain"
