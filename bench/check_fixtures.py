"""Check a benchmark home and its cases (docs: shared bench-format.md) and print counts.

Usage::

    python bench/check_fixtures.py --home HOME.json [--cases CASES.jsonl]

Problems (exit status 1): broken references, duplicate ids, expectations that name an
entity that does not exist or is not exposed, unknown ``context_area`` ids, states and
attributes outside their range. Warnings (exit status 0): names or aliases shared by
several exposed entities, cases that expect nothing but are not tagged ``negative``.
Standard library only.
"""

import argparse
from collections import Counter, defaultdict
import json
from pathlib import Path
import re
import sys
from typing import Any

LANGUAGES = {"en", "zh-Hans", "zh-Hant", "zh-HK", "zh-TW"}
ENTITY_ID = re.compile(r"^[a-z0-9_]+\.[a-z0-9_]+$")
STATES: dict[str, set[str]] = {
    "light": {"on", "off", "unavailable"},
    "switch": {"on", "off", "unavailable"},
    "fan": {"on", "off", "unavailable"},
    "humidifier": {"on", "off", "unavailable"},
    "binary_sensor": {"on", "off", "unavailable"},
    "cover": {"open", "closed", "opening", "closing", "unavailable"},
    "lock": {"locked", "unlocked", "locking", "unlocking", "jammed", "open", "opening", "unavailable"},
    "valve": {"open", "closed", "opening", "closing", "unavailable"},
    "vacuum": {"cleaning", "docked", "idle", "paused", "returning", "error", "unavailable"},
    "media_player": {"on", "off", "idle", "playing", "paused", "standby", "buffering", "unavailable"},
}


class Report:
    """Collected problems and warnings."""

    def __init__(self) -> None:
        """Start empty."""
        self.problems: list[str] = []
        self.warnings: list[str] = []

    def problem(self, text: str) -> None:
        """Record a problem (makes the check fail)."""
        self.problems.append(text)

    def warn(self, text: str) -> None:
        """Record a warning."""
        self.warnings.append(text)


def _in_range(value: Any, low: float, high: float) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and low <= value <= high


def _check_state(entity: dict[str, Any], report: Report) -> None:
    """Check an entity's state and attributes against its domain's rules."""
    entity_id = entity["entity_id"]
    domain = entity_id.split(".", 1)[0]
    state = entity.get("state")
    attrs = entity.get("attributes") or {}
    if not isinstance(attrs, dict):
        report.problem(f"{entity_id}: attributes is not an object")
        return
    if domain in STATES and state not in STATES[domain]:
        report.problem(f"{entity_id}: state {state!r} is not a {domain} state")
    if (
        domain == "light"
        and attrs.get("brightness") is not None
        and not _in_range(attrs["brightness"], 0, 255)
    ):
        report.problem(f"{entity_id}: brightness {attrs['brightness']!r} outside 0..255")
    if domain == "cover" and "current_position" in attrs:
        position = attrs["current_position"]
        if not _in_range(position, 0, 100):
            report.problem(f"{entity_id}: current_position {position!r} outside 0..100")
        elif (position > 0) != (state == "open") and state in {"open", "closed"}:
            report.problem(f"{entity_id}: state {state} does not match current_position {position}")
    if domain == "fan" and attrs.get("percentage") is not None and not _in_range(attrs["percentage"], 0, 100):
        report.problem(f"{entity_id}: percentage {attrs['percentage']!r} outside 0..100")
    if domain == "media_player" and "volume_level" in attrs and not _in_range(attrs["volume_level"], 0, 1):
        report.problem(f"{entity_id}: volume_level {attrs['volume_level']!r} outside 0..1")
    if domain in {"climate", "water_heater"} and "temperature" in attrs:
        low, high = attrs.get("min_temp", -50), attrs.get("max_temp", 100)
        if attrs["temperature"] is not None and not _in_range(attrs["temperature"], low, high):
            report.problem(f"{entity_id}: temperature {attrs['temperature']!r} outside {low}..{high}")
    if domain == "climate" and "hvac_modes" in attrs and state not in attrs["hvac_modes"]:
        report.problem(f"{entity_id}: state {state!r} not among hvac_modes")
    if domain == "water_heater" and "operation_list" in attrs and state not in attrs["operation_list"]:
        report.problem(f"{entity_id}: state {state!r} not among operation_list")
    if domain == "humidifier" and "humidity" in attrs:
        low, high = attrs.get("min_humidity", 0), attrs.get("max_humidity", 100)
        if not _in_range(attrs["humidity"], low, high):
            report.problem(f"{entity_id}: humidity {attrs['humidity']!r} outside {low}..{high}")


def _ids(items: list[dict[str, Any]], kind: str, report: Report) -> set[str]:
    seen: set[str] = set()
    for item in items:
        item_id = item.get("id")
        if not isinstance(item_id, str) or not item_id:
            report.problem(f"{kind} without an id: {item}")
        elif item_id in seen:
            report.problem(f"duplicate {kind} id {item_id}")
        seen.add(item_id)
        if not isinstance(item.get("name"), str) or not item["name"]:
            report.problem(f"{kind} {item_id} has no name")
        aliases = item.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
            report.problem(f"{kind} {item_id}: aliases must be a list of non-empty strings")
    return seen


def check_home(home: dict[str, Any], report: Report) -> dict[str, dict[str, Any]]:
    """Check a home; return its entities by id with an added ``_area`` (effective area)."""
    if home.get("language") not in LANGUAGES:
        report.problem(f"language {home.get('language')!r} is not one of {sorted(LANGUAGES)}")
    floors = _ids(home.get("floors", []), "floor", report)
    areas = _ids(home.get("areas", []), "area", report)
    devices = _ids(home.get("devices", []), "device", report)
    for area in home.get("areas", []):
        if "floor" in area and area["floor"] not in floors:
            report.problem(f"area {area['id']}: unknown floor {area['floor']!r}")
    device_area: dict[str, str | None] = {}
    for device in home.get("devices", []):
        if device.get("area") is not None and device["area"] not in areas:
            report.problem(f"device {device['id']}: unknown area {device['area']!r}")
        device_area[device["id"]] = device.get("area")

    entities: dict[str, dict[str, Any]] = {}
    for entity in home.get("entities", []):
        entity_id = entity.get("entity_id")
        if not isinstance(entity_id, str) or not ENTITY_ID.match(entity_id):
            report.problem(f"bad entity_id {entity_id!r}")
            continue
        if entity_id in entities:
            report.problem(f"duplicate entity_id {entity_id}")
            continue
        if entity.get("area") is not None and entity["area"] not in areas:
            report.problem(f"{entity_id}: unknown area {entity['area']!r}")
        if entity.get("device") is not None and entity["device"] not in devices:
            report.problem(f"{entity_id}: unknown device {entity['device']!r}")
        aliases = entity.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
            report.problem(f"{entity_id}: aliases must be a list of non-empty strings")
        if "exposed" in entity and not isinstance(entity["exposed"], bool):
            report.problem(f"{entity_id}: exposed must be true or false")
        if "state" not in entity:
            report.problem(f"{entity_id}: no state")
        _check_state(entity, report)
        entities[entity_id] = {
            **entity,
            "_area": entity.get("area") or device_area.get(entity.get("device", "")),
        }

    _check_names(home, entities, report)
    return entities


def _check_names(home: dict[str, Any], entities: dict[str, dict[str, Any]], report: Report) -> None:
    """Warn about names or aliases that several exposed entities (or areas, or floors) share."""
    owners: dict[str, set[str]] = defaultdict(set)
    for entity_id, entity in entities.items():
        if entity.get("exposed", True):
            for name in [entity.get("name"), *entity.get("aliases", [])]:
                if name:
                    owners[name.casefold()].add(entity_id)
    for name, ids in sorted(owners.items()):
        if len(ids) > 1:
            report.warn(f"name or alias {name!r} is shared by {sorted(ids)}")
    place_owners: dict[str, set[str]] = defaultdict(set)
    for kind in ("floors", "areas"):
        for place in home.get(kind, []):
            for name in [place.get("name"), *place.get("aliases", [])]:
                if name:
                    place_owners[name.casefold()].add(f"{kind[:-1]} {place.get('id')}")
    for name, places in sorted(place_owners.items()):
        if len(places) > 1:
            report.warn(f"floor/area name or alias {name!r} is shared by {sorted(places)}")


def _calls_ok(calls: Any) -> bool:
    """Tell whether a turn's calls have the format's shape."""
    return isinstance(calls, list) and all(
        isinstance(c, dict)
        and isinstance(c.get("service"), str)
        and isinstance(c.get("entity_id"), str)
        and isinstance(c.get("data", {}), dict)
        for c in calls
    )


def check_cases(
    lines: list[str], entities: dict[str, dict[str, Any]], area_ids: set[str], report: Report
) -> list[dict[str, Any]]:
    """Check the cases against the home's entities; return the parsed cases."""
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as err:
            report.problem(f"line {number}: not JSON ({err})")
            continue
        case_id = case.get("id")
        where = f"case {case_id or f'on line {number}'}"
        if not isinstance(case_id, str) or not case_id:
            report.problem(f"line {number}: no id")
        elif case_id in seen:
            report.problem(f"duplicate case id {case_id}")
        seen.add(str(case_id))
        if "context_area" in case and case["context_area"] not in area_ids:
            report.problem(f"{where}: unknown context_area {case['context_area']!r}")
        tags = case.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            report.problem(f"{where}: tags must be a list of strings")
            tags = []
        turns = case.get("turns")
        if not isinstance(turns, list) or not turns:
            report.problem(f"{where}: no turns")
            continue
        for index, turn in enumerate(turns, 1):
            if (
                not isinstance(turn, dict)
                or not isinstance(turn.get("text"), str)
                or not turn["text"].strip()
            ):
                report.problem(f"{where} turn {index}: no text")
                continue
            calls = turn.get("calls")
            if calls is not None and not _calls_ok(calls):
                report.problem(f"{where} turn {index}: calls must be a list of {{service, entity_id, data}}")
                continue
            expect = turn.get("expect", [c["entity_id"] for c in calls] if calls is not None else None)
            if not isinstance(expect, list):
                report.problem(f"{where} turn {index}: expect (or calls) must be a list")
                continue
            if len(set(expect)) != len(expect):
                report.problem(f"{where} turn {index}: duplicate ids in expect")
            for entity_id in expect:
                entity = entities.get(entity_id)
                if entity is None:
                    report.problem(f"{where} turn {index}: expects unknown entity {entity_id}")
                elif not entity.get("exposed", True):
                    report.problem(f"{where} turn {index}: expects non-exposed entity {entity_id}")
        if (
            all(isinstance(t, dict) and t.get("expect") == [] and "calls" not in t for t in turns)
            and "negative" not in tags
        ):
            report.warn(f"{where}: expects nothing but is not tagged negative")
        if "negative" in tags and any(isinstance(t, dict) and t.get("expect") for t in turns[-1:]):
            report.warn(f"{where}: tagged negative but its last turn expects entities")
        cases.append(case)
    return cases


def summarize(home: dict[str, Any], entities: dict[str, dict[str, Any]], cases: list[dict[str, Any]]) -> str:
    """Return the counts as text."""
    out: list[str] = []
    exposed = [e for e in entities.values() if e.get("exposed", True)]
    out.append(
        f"home: language {home.get('language')}, {len(home.get('floors', []))} floors, "
        f"{len(home.get('areas', []))} areas, {len(home.get('devices', []))} devices, "
        f"{len(entities)} entities ({len(exposed)} exposed)"
    )
    by_domain = Counter(e.split(".", 1)[0] for e in entities)
    exposed_domain = Counter(e["entity_id"].split(".", 1)[0] for e in exposed)
    out.append(
        "  by domain (exposed/total): "
        + ", ".join(f"{d} {exposed_domain[d]}/{n}" for d, n in sorted(by_domain.items(), key=lambda x: -x[1]))
    )
    per_area = Counter(e["_area"] for e in entities.values())
    no_area = per_area.pop(None, 0)
    out.append(f"  entities per area: {dict(sorted(per_area.items()))}; without area: {no_area}")
    if cases:
        turns = [t for c in cases for t in c.get("turns", [])]
        empty = sum(1 for t in turns if t.get("expect") == [])
        out.append(f"cases: {len(cases)}, turns: {len(turns)}, turns expecting nothing: {empty}")
        tags = Counter(tag for c in cases for tag in c.get("tags", []))
        out.append("  cases per tag: " + ", ".join(f"{t} {n}" for t, n in sorted(tags.items())))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Run the checks; return the exit status."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--home", required=True, help="HOME.json")
    parser.add_argument("--cases", help="CASES.jsonl")
    parser.add_argument("--quiet-warnings", action="store_true", help="print only the number of warnings")
    args = parser.parse_args(argv)

    report = Report()
    home = json.loads(Path(args.home).read_text(encoding="utf-8"))
    entities = check_home(home, report)
    cases: list[dict[str, Any]] = []
    if args.cases:
        lines = Path(args.cases).read_text(encoding="utf-8").splitlines()
        area_ids = {a.get("id") for a in home.get("areas", [])}
        cases = check_cases(lines, entities, area_ids, report)

    print(summarize(home, entities, cases))
    if args.quiet_warnings:
        print(f"{len(report.warnings)} warnings")
    else:
        for warning in report.warnings:
            print(f"warning: {warning}")
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    print("OK" if not report.problems else f"{len(report.problems)} problems")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
