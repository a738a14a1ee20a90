"""Grow a benchmark home (shared bench-format.md) to a given number of entities.

Usage::

    python bench/grow_home.py --home IN.home.json --entities 1000 --out OUT.home.json \
        [--seed 0] [--cases IN.cases.jsonl --out-cases OUT.cases.jsonl]

Every original floor, area, device and entity is kept unchanged. The added entities go
into new rooms (客房2, 健身房, ... for Chinese homes; Guest Room 2, Gym, ... for English
ones) on one new floor above the others (三楼 / 三樓 / Second floor, or the next free
ordinal), so no original area or floor gains entities and the expectations of room- and
floor-level cases stay right. The rooms hold lights, air conditioners or radiators,
curtains or blinds, plugs, temperature and humidity sensors and motion sensors, with
battery and power sensors not exposed, as HA does by default. Nothing else is added, so
cases about devices the home lacks (a TV in the guest room, an air purifier, an attic)
stay negative.

With ``--cases``, the cases are copied to ``--out-cases`` unchanged, except turns of
cases tagged ``whole-home`` ("turn off all the lights", "所有空调都关掉"): their
expectations gain the added entities of the same kinds (lights; air conditioners versus
other climate devices; covers and sensors by device class), as those commands now reach
them too. Same seed, same input: same output. Standard library only.
"""

import argparse
from collections.abc import Iterator
import json
from pathlib import Path
import random
import sys
from typing import Any

# (name, id slug); a name already used by the home gets the next free number.
ROOMS = {
    "zh": [
        ("客房", "guest_room"),
        ("书房", "study"),
        ("卧室", "bedroom"),
        ("健身房", "gym"),
        ("影音室", "media_room"),
        ("茶室", "tea_room"),
        ("储物间", "storage_room"),
        ("洗衣房", "laundry_room"),
        ("衣帽间", "walk_in_closet"),
        ("琴房", "music_room"),
        ("画室", "art_studio"),
        ("保姆房", "nanny_room"),
        ("棋牌室", "card_room"),
        ("玩具房", "playroom"),
        ("工作间", "workshop"),
        ("瑜伽室", "yoga_room"),
    ],
    "en": [
        ("Guest Room", "guest_room"),
        ("Study", "study"),
        ("Bedroom", "bedroom"),
        ("Gym", "gym"),
        ("Media Room", "media_room"),
        ("Games Room", "games_room"),
        ("Box Room", "box_room"),
        ("Craft Room", "craft_room"),
        ("Dressing Room", "dressing_room"),
        ("Music Room", "music_room"),
        ("Nursery", "nursery"),
        ("Playroom", "playroom"),
        ("Workshop", "workshop"),
        ("Library", "library"),
        ("Sewing Room", "sewing_room"),
        ("Studio", "studio"),
    ],
}
FLOORS = {
    "zh-Hans": [(f"{n}楼", [f"{n}层"]) for n in "三四五六七八九"],
    "zh-Hant": [(f"{n}樓", [f"{n}層"]) for n in "三四五六七八九"],
    "en": [(f"{n} floor", []) for n in ("Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh")],
}
TEXT = {
    "zh": {
        "main": "{room}灯",
        "main_alias": "{room}吸顶灯",
        "extra": ["{room}台灯", "{room}筒灯", "{room}灯带", "{room}落地灯"],
        "climate": "{room}空调",
        "cover": "{room}窗帘",
        "plug": "{room}插座",
        "temperature": "{room}温度",
        "humidity": "{room}湿度",
        "meter": "{room}温湿度计",
        "motion": "{room}人体传感器",
        "battery": "{device} 电量",
        "power": "{device} 功率",
    },
    "en": {
        "main": "{room} Light",
        "main_alias": "{room} Ceiling Light",
        "extra": ["{room} Lamp", "{room} Spotlights", "{room} Light Strip", "{room} Floor Lamp"],
        "climate": "{room} Radiator",
        "cover": "{room} Curtains",
        "plug": "{room} Plug",
        "temperature": "{room} Temperature",
        "humidity": "{room} Humidity",
        "meter": "{room} Meter",
        "motion": "{room} Motion",
        "battery": "{device} Battery",
        "power": "{device} Power",
    },
}
# The simplified characters of the added names that differ in traditional writing.
TRADITIONAL = str.maketrans("书卧储间画灯顶台带调帘温湿计体传电", "書臥儲間畫燈頂檯帶調簾溫濕計體傳電")
SIMPLIFIED = str.maketrans("書臥儲間畫燈頂檯帶調簾溫濕計體傳電樓層", "书卧储间画灯顶台带调帘温湿计体传电楼层")
EXTRA_SLUGS = ["lamp", "spotlights", "strip", "floor_lamp"]
MAKERS = {
    "light": [
        ("Yeelight", "yeelink.light.ceiling22"),
        ("Signify", "Hue White Ambiance E27"),
        ("OPPLE", "MX450"),
    ],
    "climate_zh": [
        ("Gree", "KFR-35GW/NhGc1B"),
        ("Midea", "KFR-26GW/N8XHC1"),
        ("Haier", "KFR-35GW/15DCA21AU1"),
    ],
    "climate_en": [("tado°", "Smart Radiator Thermostat X"), ("Danfoss", "Ally eTRV")],
    "cover": [("Aqara", "lumi.curtain.acn003"), ("SwitchBot", "Curtain 3"), ("Dooya", "DT82TV")],
    "plug": [("Xiaomi", "cuco.plug.v3"), ("TP-Link", "Tapo P110"), ("Shelly", "Plus Plug S")],
    "meter": [("Aqara", "lumi.sensor_ht.agl02"), ("SwitchBot", "W3400010")],
    "motion": [("Aqara", "lumi.motion.ac02"), ("Signify", "Hue motion sensor")],
}


def _fold(name: str) -> str:
    """Return ``name`` as names are compared: case and simplified/traditional writing ignored."""
    return name.casefold().translate(SIMPLIFIED)


def kind(entity: dict[str, Any]) -> str:
    """Return what sort of thing an entity is, as whole-home commands group them."""
    domain = entity["entity_id"].split(".", 1)[0]
    attributes = entity.get("attributes") or {}
    if domain == "light":
        return "light"
    if domain == "climate":
        return "climate:ac" if "cool" in attributes.get("hvac_modes", []) else "climate:heating"
    return f"{domain}:{attributes.get('device_class')}"


class Grower:
    """Adds rooms full of entities to a home."""

    def __init__(self, home: dict[str, Any], seed: int) -> None:
        """Index the home's names and ids so that nothing added collides with them."""
        self.home = home
        self.rng = random.Random(seed)
        language = home.get("language", "en")
        self.lang = "en" if language == "en" else "zh"
        self.hant = language == "zh-Hant"
        self.text = TEXT[self.lang]
        # Object ids are kept unique across domains too, so "light.gym_main" never meets "switch.gym_main".
        self.object_ids = {e["entity_id"].split(".", 1)[1] for e in home.get("entities", [])}
        self.device_ids = {d["id"] for d in home.get("devices", [])}
        self.area_ids = {a["id"] for a in home.get("areas", [])}
        self.names: set[str] = set()
        for item in [*home.get("floors", []), *home.get("areas", []), *home.get("entities", [])]:
            self.names.update(_fold(n) for n in [item.get("name"), *(item.get("aliases") or [])] if n)
        self.place_names = {
            _fold(n)
            for item in [*home.get("floors", []), *home.get("areas", [])]
            for n in [item.get("name"), *(item.get("aliases") or [])]
            if n
        }
        self.added: list[dict[str, Any]] = []

    def _free(self, name: str) -> bool:
        return _fold(name) not in self.names

    def _unique(self, wanted: str, taken: set[str]) -> str:
        candidate, number = wanted, 2
        while candidate in taken:
            candidate = f"{wanted}_{number}"
            number += 1
        taken.add(candidate)
        return candidate

    def add_floor(self) -> str:
        """Add the new floor above the others; return its id."""
        language = self.home.get("language", "en")
        free = [(name, aliases) for name, aliases in FLOORS.get(language, FLOORS["en"]) if self._free(name)]
        if not free:
            raise SystemExit("no free floor name left")
        name, aliases = free[0]
        floor_id = self._unique("grown_floor", {f["id"] for f in self.home.get("floors", [])})
        floor: dict[str, Any] = {"id": floor_id, "name": name}
        free_aliases = [a for a in aliases if self._free(a)]
        if free_aliases:
            floor["aliases"] = free_aliases
        self.names.update(_fold(n) for n in [name, *free_aliases])
        self.home.setdefault("floors", []).append(floor)
        return floor_id

    def rooms(self) -> Iterator[tuple[str, str]]:
        """Yield (name, slug) of rooms that cannot be mistaken for the home's own.

        A room is skipped when its name, or a name an entity in it could get, is already
        a name or alias in the home, or when its name is part of an existing floor or area
        name or alias (卧室 in 主卧室, "Bedroom" in "Main Bedroom"): "the bedroom light"
        must keep meaning what it meant.
        """
        number = 1
        while True:
            for base, slug in ROOMS[self.lang]:
                name = (
                    base if number == 1 else (f"{base}{number}" if self.lang == "zh" else f"{base} {number}")
                )
                name = self._tr(name)
                if self._room_is_free(name):
                    yield name, slug if number == 1 else f"{slug}_{number}"
            number += 1

    def _room_is_free(self, room: str) -> bool:
        folded = _fold(room)
        if any(folded in place for place in self.place_names):
            return False
        templates = [value for key, value in self.text.items() if key not in {"extra", "battery", "power"}]
        names = [self._tr(t.format(room=room)) for t in [*templates, *self.text["extra"]]]
        return all(self._free(name) for name in [room, *names])

    def _tr(self, text: str) -> str:
        """Return ``text`` in traditional characters for zh-Hant homes."""
        return text.translate(TRADITIONAL) if self.hant else text

    def _device(self, slug: str, what: str, name: str, area: str, maker_key: str) -> str:
        device_id = self._unique(f"grown_{slug}_{what}", self.device_ids)
        maker, model = self.rng.choice(MAKERS[maker_key])
        self.home.setdefault("devices", []).append(
            {"id": device_id, "name": name, "area": area, "manufacturer": maker, "model": model}
        )
        return device_id

    def _entity(self, entity: dict[str, Any]) -> dict[str, Any]:
        domain, object_id = entity["entity_id"].split(".", 1)
        entity["entity_id"] = f"{domain}.{self._unique(object_id, self.object_ids)}"
        entity["attributes"]["friendly_name"] = entity["name"]
        self.names.update(_fold(n) for n in [entity["name"], *(entity.get("aliases") or [])])
        return entity

    def room_entities(self, room: str, slug: str, area: str) -> Iterator[dict[str, Any]]:
        """Yield the entities of one new room, most important first."""
        t, rng = self.text, self.rng

        def name(key: str, **fmt: str) -> str:
            return self._tr(t[key].format(room=room, **fmt))

        device = self._device(slug, "main_light", name("main_alias"), area, "light")
        on = rng.random() < 0.3
        yield self._entity(
            _light(f"light.{slug}_main", name("main"), [name("main_alias")], area, device, on, rng)
        )
        if rng.random() < 0.8:
            pick = rng.randrange(len(t["extra"]))
            extra_name = self._tr(t["extra"][pick].format(room=room))
            device = self._device(slug, EXTRA_SLUGS[pick], extra_name, area, "light")
            light = _light(
                f"light.{slug}_{EXTRA_SLUGS[pick]}", extra_name, [], area, device, rng.random() < 0.3, rng
            )
            yield self._entity(light)
        if rng.random() < 0.8:
            device = self._device(slug, "climate", name("climate"), area, f"climate_{self.lang}")
            yield self._entity(
                _climate(
                    f"climate.{slug}_{'ac' if self.lang == 'zh' else 'radiator'}",
                    name("climate"),
                    area,
                    device,
                    self.lang,
                    rng,
                )
            )
        if rng.random() < 0.7:
            device = self._device(slug, "cover", name("cover"), area, "cover")
            yield self._entity(_cover(f"cover.{slug}_curtain", name("cover"), area, device, rng))
        meter = name("meter")
        device = self._device(slug, "meter", meter, area, "meter")
        yield self._entity(
            _sensor(
                f"sensor.{slug}_temperature",
                name("temperature"),
                area,
                device,
                "temperature",
                "°C",
                round(rng.uniform(18, 29), 1),
                True,
            )
        )
        yield self._entity(
            _sensor(
                f"sensor.{slug}_humidity",
                name("humidity"),
                area,
                device,
                "humidity",
                "%",
                rng.randint(35, 75),
                True,
            )
        )
        yield self._entity(
            _sensor(
                f"sensor.{slug}_meter_battery",
                name("battery", device=meter),
                area,
                device,
                "battery",
                "%",
                rng.randint(40, 100),
                False,
            )
        )
        device = self._device(slug, "plug", name("plug"), area, "plug")
        yield self._entity(_switch(f"switch.{slug}_plug", name("plug"), area, device, rng.random() < 0.5))
        yield self._entity(
            _sensor(
                f"sensor.{slug}_plug_power",
                name("power", device=name("plug")),
                area,
                device,
                "power",
                "W",
                round(rng.uniform(0, 80), 1),
                False,
            )
        )
        if rng.random() < 0.6:
            motion = name("motion")
            device = self._device(slug, "motion", motion, area, "motion")
            yield self._entity(
                _binary(f"binary_sensor.{slug}_motion", motion, area, device, rng.random() < 0.2)
            )
            yield self._entity(
                _sensor(
                    f"sensor.{slug}_motion_battery",
                    name("battery", device=motion),
                    area,
                    device,
                    "battery",
                    "%",
                    rng.randint(40, 100),
                    False,
                )
            )

    def grow(self, total: int) -> None:
        """Add rooms on a new floor until the home has ``total`` entities."""
        entities = self.home.setdefault("entities", [])
        if len(entities) >= total:
            print(f"the home already has {len(entities)} entities; nothing added", file=sys.stderr)
            return
        floor = self.add_floor()
        for room, slug in self.rooms():
            area = self._unique(f"grown_{slug}", self.area_ids)
            self.home.setdefault("areas", []).append({"id": area, "name": room, "floor": floor})
            self.names.add(_fold(room))
            for entity in self.room_entities(room, slug, area):
                entities.append(entity)
                self.added.append(entity)
                if len(entities) >= total:
                    return


def _light(
    entity_id: str, name: str, aliases: list[str], area: str, device: str, on: bool, rng: random.Random
) -> dict[str, Any]:
    attributes: dict[str, Any] = {
        "supported_color_modes": ["color_temp"],
        "min_color_temp_kelvin": 2700,
        "max_color_temp_kelvin": 6500,
        "color_mode": "color_temp" if on else None,
        "brightness": rng.randint(40, 255) if on else None,
        "color_temp_kelvin": rng.choice([2700, 3000, 4000, 5000]) if on else None,
        "supported_features": 32,
    }
    entity = {"entity_id": entity_id, "name": name, "aliases": aliases, "area": area, "device": device}
    if not aliases:
        del entity["aliases"]
    return {**entity, "state": "on" if on else "off", "attributes": attributes, "exposed": True}


def _climate(
    entity_id: str, name: str, area: str, device: str, lang: str, rng: random.Random
) -> dict[str, Any]:
    if lang == "zh":
        mode = rng.choice(["off", "off", "cool"])
        current = round(rng.uniform(24, 30), 1)
        attributes: dict[str, Any] = {
            "hvac_modes": ["off", "cool", "heat", "dry", "fan_only", "auto"],
            "min_temp": 16,
            "max_temp": 30,
            "target_temp_step": 1,
            "fan_modes": ["auto", "low", "medium", "high"],
            "current_temperature": current,
            "temperature": rng.randint(24, 27),
            "fan_mode": "auto",
            "hvac_action": "cooling" if mode == "cool" else "off",
            "supported_features": 393,
        }
    else:
        mode = rng.choice(["off", "heat", "heat"])
        attributes = {
            "hvac_modes": ["off", "heat", "auto"],
            "min_temp": 5,
            "max_temp": 25,
            "target_temp_step": 0.5,
            "current_temperature": round(rng.uniform(15, 21), 1),
            "temperature": rng.choice([16, 17, 18, 19, 20]),
            "hvac_action": "idle" if mode == "heat" else "off",
            "supported_features": 385,
        }
    entity = {"entity_id": entity_id, "name": name, "area": area, "device": device, "state": mode}
    return {**entity, "attributes": attributes, "exposed": True}


def _cover(entity_id: str, name: str, area: str, device: str, rng: random.Random) -> dict[str, Any]:
    position = rng.choice([0, 0, 100, 50])
    attributes = {"device_class": "curtain", "current_position": position, "supported_features": 15}
    entity = {"entity_id": entity_id, "name": name, "area": area, "device": device}
    return {**entity, "state": "open" if position else "closed", "attributes": attributes, "exposed": True}


def _switch(entity_id: str, name: str, area: str, device: str, on: bool) -> dict[str, Any]:
    entity = {"entity_id": entity_id, "name": name, "area": area, "device": device}
    return {
        **entity,
        "state": "on" if on else "off",
        "attributes": {"device_class": "outlet"},
        "exposed": True,
    }


def _binary(entity_id: str, name: str, area: str, device: str, on: bool) -> dict[str, Any]:
    entity = {"entity_id": entity_id, "name": name, "area": area, "device": device}
    return {
        **entity,
        "state": "on" if on else "off",
        "attributes": {"device_class": "motion"},
        "exposed": True,
    }


def _sensor(
    entity_id: str,
    name: str,
    area: str,
    device: str,
    device_class: str,
    unit: str,
    value: float,
    exposed: bool,
) -> dict[str, Any]:
    attributes = {"state_class": "measurement", "unit_of_measurement": unit, "device_class": device_class}
    entity = {"entity_id": entity_id, "name": name, "area": area, "device": device}
    return {**entity, "state": str(value), "attributes": attributes, "exposed": exposed}


def grow_cases(
    lines: list[str], original: dict[str, str], added: list[dict[str, Any]]
) -> tuple[list[str], int]:
    """Copy the cases; extend the turns of whole-home cases with the added entities of their kinds.

    ``original`` maps the original entity ids to their kinds.
    """
    by_kind: dict[str, list[str]] = {}
    for entity in added:
        if entity.get("exposed", True):
            by_kind.setdefault(kind(entity), []).append(entity["entity_id"])
    out: list[str] = []
    extended = 0
    for line in lines:
        if not line.strip():
            continue
        case = json.loads(line)
        if "whole-home" not in case.get("tags", []):
            out.append(line)
            continue
        for turn in case["turns"]:
            # A turn with calls expects the entities it calls.
            expect = turn.get("expect", [call["entity_id"] for call in turn.get("calls") or []])
            kinds = {original[entity_id] for entity_id in expect if entity_id in original}
            more = {entity_id for k in kinds for entity_id in by_kind.get(k, [])} - set(expect)
            if more:
                turn["expect"] = sorted([*expect, *more])
                extended += 1
        out.append(json.dumps(case, ensure_ascii=False))
    return out, extended


def main(argv: list[str] | None = None) -> int:
    """Grow the home (and copy the cases); return the exit status."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--home", required=True, help="input HOME.json")
    parser.add_argument("--entities", type=int, required=True, help="number of entities the grown home has")
    parser.add_argument("--out", required=True, help="output HOME.json")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--cases", help="input CASES.jsonl to copy")
    parser.add_argument("--out-cases", help="output CASES.jsonl")
    args = parser.parse_args(argv)
    if bool(args.cases) != bool(args.out_cases):
        parser.error("--cases and --out-cases go together")

    home = json.loads(Path(args.home).read_text(encoding="utf-8"))
    original = {e["entity_id"]: kind(e) for e in home.get("entities", [])}
    grower = Grower(home, args.seed)
    grower.grow(args.entities)
    Path(args.out).write_text(json.dumps(home, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    areas = {e["area"] for e in grower.added}
    print(
        f"{args.out}: {len(home['entities'])} entities ({len(grower.added)} added in {len(areas)} new areas)",
        file=sys.stderr,
    )
    if args.cases:
        lines = Path(args.cases).read_text(encoding="utf-8").splitlines()
        out, extended = grow_cases(lines, original, grower.added)
        Path(args.out_cases).write_text("\n".join(out) + "\n", encoding="utf-8")
        print(f"{args.out_cases}: {len(out)} cases, {extended} whole-home turns extended", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
