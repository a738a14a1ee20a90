"""The device catalog: exposed entities with their names, places and matching keys.

Built once from HA's entity, device, area and floor registries and the state
machine, then kept current from their events, so a request never rebuilds it.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from homeassistant.components.climate import ATTR_HVAC_MODES, DOMAIN as CLIMATE_DOMAIN, HVACMode
from homeassistant.components.homeassistant.exposed_entities import (
    async_listen_entity_updates,
    async_should_expose,
)
from homeassistant.const import ATTR_DEVICE_CLASS, ATTR_FRIENDLY_NAME, EVENT_STATE_CHANGED
from homeassistant.core import Event, EventStateChangedData, HomeAssistant, State, callback
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    floor_registry as fr,
)

from ..compat import device_brand, entity_aliases
from ..language.concepts import KINDS
from ..language.lexicon import maker_kinds, names_lexicon, place_variants
from ..language.names import NameIndex, joined, name_key, name_tokens
from ..language.tokens import Token, normalize

ASSISTANT = "conversation"
# The modes in which a thermostat cools or runs as an air conditioner does.
_COOLING_MODES = frozenset({HVACMode.COOL, HVACMode.HEAT_COOL, HVACMode.DRY, HVACMode.FAN_ONLY})


AREA, FLOOR = "area:", "floor:"


@dataclass(frozen=True, slots=True)
class MatchName:
    """A name prepared for matching: its normalized text and its tokens."""

    text: str
    units: tuple[Token, ...]


def prepare_names(names: Iterable[str | None]) -> tuple[MatchName, ...]:
    """Normalize names, drop empties and duplicates, keep their order."""
    seen: dict[str, MatchName] = {}
    for name in names:
        if not name:
            continue
        tokens = name_tokens(name)
        text = joined(tokens)
        if text and text not in seen:
            seen[text] = MatchName(text, tokens)
    return tuple(seen.values())


@dataclass(frozen=True, slots=True)
class Place:
    """An area or a floor."""

    id: str
    name: str
    names: tuple[MatchName, ...]
    floor_id: str | None = None
    # Those of its names that are other people's words for it (主人房 of 主卧), not its own.
    other_words: frozenset[str] = frozenset()

    @classmethod
    def named(cls, place_id: str, name: str, aliases: Iterable[str], floor_id: str | None = None) -> "Place":
        """Return a place with its name, aliases and the other words people use for them."""
        own = [name, *aliases]
        names = prepare_names(_with_variants(own))
        said = {n.text for n in prepare_names(own)}
        return cls(place_id, name, names, floor_id, frozenset(n.text for n in names) - said)


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """One exposed entity as the selection layers see it."""

    entity_id: str
    domain: str
    name: str
    names: tuple[MatchName, ...]
    area_id: str | None
    device_id: str | None
    device_class: str | None
    # The kinds of device its names say it is ("浴室抽风机": an exhaust fan; "Garage lights": a light),
    # and the words that say so (落地灯 and 床头灯 are both lamps, not the same one).
    named_kinds: frozenset[str] = frozenset()
    kind_words: frozenset[str] = frozenset()
    # The kind words of its own names and aliases with their kinds, not its device's (not
    # 扫地机器人 of 扫拖机器人 on a device 科沃斯扫地机器人).
    own_kind_words: frozenset[tuple[str, str]] = frozenset()
    # The names it has only as its device's (米家智能插座3 of a plug of that model renamed 電飯煲).
    borrowed_names: frozenset[str] = frozenset()
    # Its device's maker and model as the name index keeps them ("ecobee", "小米"): names of
    # every entity of the device, so they name none of them as well as its own name does.
    brand_names: frozenset[str] = frozenset()
    # The aliases the user gave it, as name keys: a kind word given as one (台灯) is meant.
    aliases: frozenset[str] = frozenset()
    # A thermostat with no mode that cools (a radiator zone): no air conditioner.
    heats_only: bool = False

    # Every sound of every name, for the index (read once).
    sounds: frozenset[str] = field(init=False, default=frozenset())

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "sounds", frozenset(unit.sound for name in self.names for unit in name.units)
        )


def _heats_only(state: State) -> bool:
    """Tell whether a thermostat has modes and none of them cools (a radiator zone's)."""
    modes = state.attributes.get(ATTR_HVAC_MODES) if state.domain == CLIMATE_DOMAIN else None
    return isinstance(modes, list) and bool(modes) and not {str(m) for m in modes} & _COOLING_MODES


def _kinds_named(name: str, places: frozenset[str] = frozenset()) -> dict[str, str]:
    """Return the kind words of a name and their kinds, in any language (the home's places read first)."""
    return names_lexicon().kinds_in(name, places)


def _kinds_of_maker(brand: list[str], domain: str) -> dict[str, str]:
    """Return the kind a device's maker or model says, where it fits the entity's domain."""
    said = " ".join(normalize(text) for text in brand)
    return {
        word: kind
        for word, kind in maker_kinds()
        if word in said and (head := KINDS.get(kind)) is not None and domain in head.domains
    }


def _feature_of(name: str, device_name: str) -> bool:
    """Tell whether an entity is a feature of its device ("Rachio-5A1B2C Rain Delay"), not the device."""
    device_name = name_key(device_name)
    return bool(device_name) and name.startswith(device_name) and len(name) > len(device_name)


def _with_variants(names: list[str]) -> list[str]:
    """Return a place's names and the other words people use for them (主卧: 主人房, master bedroom)."""
    return [*names, *(variant for name in names for variant in place_variants(name))]


@dataclass(frozen=True, slots=True)
class _Views:
    """The catalog's entities grouped the ways recall looks them up, each in catalog order."""

    by_area: dict[str, tuple[CatalogEntry, ...]]
    by_floor: dict[str, tuple[CatalogEntry, ...]]
    by_domain: dict[str, tuple[CatalogEntry, ...]]
    by_named_kind: dict[str, tuple[CatalogEntry, ...]]
    position: dict[str, int]


@dataclass
class DeviceCatalog:
    """Exposed entities, areas and floors, with an index by sound."""

    hass: HomeAssistant
    entries: dict[str, CatalogEntry] = field(default_factory=dict)
    areas: dict[str, Place] = field(default_factory=dict)
    floors: dict[str, Place] = field(default_factory=dict)
    # Every name of every entity, area and floor, for finding them in a sentence.
    names: NameIndex = field(default_factory=NameIndex)
    _index: dict[str, set[str]] = field(default_factory=dict)
    _place_words: frozenset[str] = frozenset()
    # Built on first use after any change (entities and places change rarely, turns often).
    _views: _Views | None = None
    _unsubscribe: list[Callable[[], None]] = field(default_factory=list)

    @callback
    def async_start(self) -> None:
        """Build the catalog and follow registry, state and exposure changes."""
        self._rebuild_places()
        for entity_id in self.hass.states.async_entity_ids():
            self._refresh_entity(entity_id)
        bus = self.hass.bus
        self._unsubscribe = [
            bus.async_listen(er.EVENT_ENTITY_REGISTRY_UPDATED, self._on_entity_registry),
            bus.async_listen(dr.EVENT_DEVICE_REGISTRY_UPDATED, self._on_device_registry),
            bus.async_listen(ar.EVENT_AREA_REGISTRY_UPDATED, self._on_places),
            bus.async_listen(fr.EVENT_FLOOR_REGISTRY_UPDATED, self._on_places),
            bus.async_listen(EVENT_STATE_CHANGED, self._on_state_changed),
            async_listen_entity_updates(self.hass, ASSISTANT, self._on_exposure_changed),
        ]

    @callback
    def async_stop(self) -> None:
        """Stop following changes."""
        while self._unsubscribe:
            self._unsubscribe.pop()()

    def entry(self, entity_id: str) -> CatalogEntry | None:
        """Return an exposed entity, or None (unknown or not exposed)."""
        return self.entries.get(entity_id)

    def entity_ids_with_sounds(self, sounds: Iterable[str], rarer_than: int | None = None) -> set[str]:
        """Return the entities whose names share a sound (optionally a rare one) with the given ones."""
        found: set[str] = set()
        for sound in sounds:
            ids = self._index.get(sound, set())
            if rarer_than is None or len(ids) < rarer_than:
                found |= ids
        return found

    def in_areas(self, area_ids: Iterable[str]) -> Sequence[CatalogEntry]:
        """Return the entities in any of the areas, in catalog order."""
        return self._gathered(self._built().by_area, area_ids)

    def on_floors(self, floor_ids: Iterable[str]) -> Sequence[CatalogEntry]:
        """Return the entities in an area on any of the floors, in catalog order."""
        return self._gathered(self._built().by_floor, floor_ids)

    def of_domains(self, domains: Iterable[str]) -> Sequence[CatalogEntry]:
        """Return the entities of any of the domains, in catalog order."""
        return self._gathered(self._built().by_domain, domains)

    def named_as(self, kinds: Iterable[str]) -> Sequence[CatalogEntry]:
        """Return the entities whose names say any of the kinds (落地灯: a floor lamp), in catalog order."""
        return self._gathered(self._built().by_named_kind, kinds)

    def _gathered(
        self, view: dict[str, tuple[CatalogEntry, ...]], keys: Iterable[str]
    ) -> Sequence[CatalogEntry]:
        groups = [group for key in set(keys) if (group := view.get(key))]
        if len(groups) < 2:
            return groups[0] if groups else ()
        position = self._built().position
        # (By id: hashing an entry hashes every name it has.)
        merged = {entry.entity_id: entry for group in groups for entry in group}
        return [merged[entity_id] for entity_id in sorted(merged, key=position.__getitem__)]

    def _built(self) -> _Views:
        if self._views is not None:
            return self._views
        by_area: dict[str, list[CatalogEntry]] = {}
        by_floor: dict[str, list[CatalogEntry]] = {}
        by_domain: dict[str, list[CatalogEntry]] = {}
        by_named_kind: dict[str, list[CatalogEntry]] = {}
        for entry in self.entries.values():
            by_domain.setdefault(entry.domain, []).append(entry)
            for kind in entry.named_kinds:
                by_named_kind.setdefault(kind, []).append(entry)
            if entry.area_id is not None:
                by_area.setdefault(entry.area_id, []).append(entry)
                if (floor_id := self.floor_of(entry)) is not None:
                    by_floor.setdefault(floor_id, []).append(entry)
        self._views = _Views(
            by_area={key: tuple(group) for key, group in by_area.items()},
            by_floor={key: tuple(group) for key, group in by_floor.items()},
            by_domain={key: tuple(group) for key, group in by_domain.items()},
            by_named_kind={key: tuple(group) for key, group in by_named_kind.items()},
            position={entity_id: index for index, entity_id in enumerate(self.entries)},
        )
        return self._views

    @property
    def place_words(self) -> frozenset[str]:
        """Return every name of every area and floor (normalized)."""
        return self._place_words

    def area_of(self, entry: CatalogEntry) -> Place | None:
        """Return an entity's area."""
        return self.areas.get(entry.area_id) if entry.area_id else None

    def places_of(self, entry: CatalogEntry) -> list[Place]:
        """Return an entity's area and that area's floor, where it has them."""
        area = self.area_of(entry)
        floor = self.floors.get(area.floor_id) if area and area.floor_id else None
        return [place for place in (area, floor) if place is not None]

    def floor_of(self, entry: CatalogEntry) -> str | None:
        """Return an entity's floor id."""
        area = self.area_of(entry)
        return area.floor_id if area else None

    def _rebuild_places(self) -> None:
        """Read every area and floor (there are few)."""
        self._views = None
        for old in (*self.areas, *self.floors):
            self.names.remove(f"{AREA}{old}" if old in self.areas else f"{FLOOR}{old}")
        self.floors = {
            floor.floor_id: Place.named(floor.floor_id, floor.name, floor.aliases)
            for floor in fr.async_get(self.hass).async_list_floors()
        }
        self.areas = {
            area.id: Place.named(area.id, area.name, area.aliases, area.floor_id)
            for area in ar.async_get(self.hass).async_list_areas()
        }
        self._place_words = frozenset(
            n.text for place in (*self.areas.values(), *self.floors.values()) for n in place.names
        )
        for prefix, places in ((AREA, self.areas), (FLOOR, self.floors)):
            for place in places.values():
                texts = [n.text for n in place.names]
                self.names.set_names(
                    f"{prefix}{place.id}",
                    [t for t in texts if t not in place.other_words],
                    other_words=[t for t in texts if t in place.other_words],
                )

    def _refresh_entity(self, entity_id: str) -> None:
        """Re-read one entity; drop it when it is gone or not exposed."""
        self._remove(entity_id)
        state = self.hass.states.get(entity_id)
        if state is None or not async_should_expose(self.hass, ASSISTANT, entity_id):
            return
        registry_entry = er.async_get(self.hass).async_get(entity_id)
        device = None
        area_id = None
        names: list[str | None] = [state.attributes.get(ATTR_FRIENDLY_NAME)]
        if registry_entry is not None:
            names += [
                registry_entry.name or registry_entry.original_name,
                *entity_aliases(registry_entry.aliases),
            ]
            if registry_entry.device_id:
                device = dr.async_get(self.hass).async_get(registry_entry.device_id)
            area_id = registry_entry.area_id or (device.area_id if device else None)
        device_name = (device.name_by_user or device.name or "") if device is not None else ""
        own_texts = {name.text for name in prepare_names(names)}
        if device_name:
            own = str(names[0] or "")
            if not (own.startswith(device_name) and len(own) > len(device_name)) and not (
                device is not None and self._sibling_named(entity_id, device.id, device_name)
            ):
                # "客厅主灯 Ambilight" is not what "客厅主灯" names: its device's main light is.
                names.append(device_name)
        prepared = prepare_names(names)
        if not prepared:
            return
        places = self.place_words
        named = {name.text: _kinds_named(name.text, places) for name in prepared}
        # "主人房冷气" for 主卧空调's room, "厅灯" for 客厅灯: other words for the places in its names;
        # "the ecobee", "the Roborock": the brand and model of its device.
        texts = [name.text for name in prepared]
        other_words = [v for text in texts for v in place_variants(text) if v not in texts]
        own_names = [*texts, *other_words]
        brand = device_brand(self.hass, device) if device is not None else []
        if not any(named.values()) and not _feature_of(name_key(texts[0]), device_name):
            # A zone named "Side Yard" of a Rachio controller is a sprinkler: its maker says so.
            named["maker"] = _kinds_of_maker(brand, state.domain)
        brand_variants = [*brand, *(v for text in brand for v in place_variants(text))]
        # (A brand that is also its own name or alias, "Dyson", is its name.)
        brand_keys = (
            {name_key(text) for text in brand_variants} - {name_key(text) for text in own_names}
            if brand_variants
            else set()
        )
        entry = CatalogEntry(
            entity_id=entity_id,
            domain=state.domain,
            name=str(state.attributes.get(ATTR_FRIENDLY_NAME) or prepared[0].text),
            names=prepared,
            area_id=area_id,
            device_id=device.id if device else None,
            device_class=state.attributes.get(ATTR_DEVICE_CLASS),
            named_kinds=frozenset(kind for kinds in named.values() for kind in kinds.values()),
            kind_words=frozenset(word for kinds in named.values() for word in kinds),
            own_kind_words=frozenset(pair for text in own_texts for pair in named.get(text, {}).items()),
            borrowed_names=frozenset(texts) - own_texts,
            brand_names=frozenset(brand_keys),
            aliases=frozenset(
                name_key(alias)
                for alias in (entity_aliases(registry_entry.aliases) if registry_entry else ())
            ),
            heats_only=_heats_only(state),
        )
        self.entries[entity_id] = entry
        self._views = None
        self.names.set_names(entity_id, texts, brand_variants, other_words)
        for sound in entry.sounds:
            self._index.setdefault(sound, set()).add(entity_id)

    def _sibling_named(self, entity_id: str, device_id: str, device_name: str) -> bool:
        """Tell whether another entity of the device has the device's name as its own, or as its start.

        A two-outlet plug named String Lights: its outlet "String Lights" is that, not "Misters".
        A strip named 拖板 whose other sockets are "拖板 插座 2" and "拖板 USB": 拖板 is the whole
        strip, not the socket renamed 魚缸. (As a start, only of the same domain's name.)
        """
        key = name_key(device_name)
        domain = entity_id.split(".", 1)[0]
        registry = er.async_get(self.hass)
        for sibling in er.async_entries_for_device(registry, device_id):
            if sibling.entity_id == entity_id:
                continue
            state = self.hass.states.get(sibling.entity_id)
            own = (
                sibling.name or sibling.original_name or (state and state.attributes.get(ATTR_FRIENDLY_NAME))
            )
            if not own:
                continue
            own_key = name_key(str(own))
            if own_key == key or (sibling.domain == domain and own_key.startswith(key)):
                return True
        return False

    def _remove(self, entity_id: str) -> None:
        if (old := self.entries.pop(entity_id, None)) is None:
            return
        self._views = None
        self.names.remove(entity_id)
        for sound in old.sounds:
            if (ids := self._index.get(sound)) is not None:
                ids.discard(entity_id)

    def _refresh_with_siblings(self, entity_id: str) -> None:
        """Re-read an entity and the other entities of its device.

        What a device's name names depends on its siblings' names (a strip named 拖板 whose
        sockets are "拖板 插座 2" names no one socket), so one appearing or renamed changes them.
        """
        old = self.entries.get(entity_id)
        registry = er.async_get(self.hass)
        registry_entry = registry.async_get(entity_id)
        self._refresh_entity(entity_id)
        device_ids = {old.device_id if old else None, registry_entry.device_id if registry_entry else None}
        for device_id in device_ids - {None}:
            for sibling in er.async_entries_for_device(registry, str(device_id)):
                if sibling.entity_id != entity_id:
                    self._refresh_entity(sibling.entity_id)

    @callback
    def _on_entity_registry(self, event: Event[er.EventEntityRegistryUpdatedData]) -> None:
        self._refresh_with_siblings(event.data["entity_id"])
        if event.data["action"] == "update" and "old_entity_id" in event.data:
            self._remove(event.data["old_entity_id"])

    @callback
    def _on_device_registry(self, event: Event[dr.EventDeviceRegistryUpdatedData]) -> None:
        device_id = event.data["device_id"]
        for registry_entry in er.async_entries_for_device(er.async_get(self.hass), device_id):
            self._refresh_entity(registry_entry.entity_id)

    @callback
    def _on_places(self, event: Event[Any]) -> None:
        self._rebuild_places()
        # A place renamed changes what the names of its devices say they are (露台灯).
        for entity_id in list(self.entries):
            self._refresh_entity(entity_id)

    @callback
    def _on_state_changed(self, event: Event[EventStateChangedData]) -> None:
        old, new = event.data["old_state"], event.data["new_state"]
        # Only appearance, removal and renames change what we match on.
        if (
            old is None
            or new is None
            or old.attributes.get(ATTR_FRIENDLY_NAME) != new.attributes.get(ATTR_FRIENDLY_NAME)
            or old.attributes.get(ATTR_DEVICE_CLASS) != new.attributes.get(ATTR_DEVICE_CLASS)
        ):
            self._refresh_with_siblings(event.data["entity_id"])

    @callback
    def _on_exposure_changed(self) -> None:
        for entity_id in self.hass.states.async_entity_ids():
            exposed = async_should_expose(self.hass, ASSISTANT, entity_id)
            if exposed != (entity_id in self.entries):
                self._refresh_entity(entity_id)
