"""The translation and reply files agree with each other and with HA's translation schema."""

import json
from pathlib import Path
import re
from typing import Any

import pytest

from custom_components.layered_assist.localize import REPLIES_DIR

INTEGRATION = Path(__file__).parent.parent / "custom_components" / "layered_assist"
TRANSLATIONS = INTEGRATION / "translations"
LANGUAGES = ["en", "zh-Hans", "zh-Hant", "zh-HK", "zh-TW"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Keys an integration's translations may hold, by where they sit (HA's translation
# schema as hassfest enforces it; "*" is any name of ours: a step, a service, a key).
ALLOWED = {
    "": {
        "title", "config", "config_subentries", "options", "selector", "services", "entity",
        "entity_component", "device", "device_automation", "exceptions", "issues",
        "system_health", "conditions", "triggers", "common",
    },
    "config": {"flow_title", "title", "step", "error", "abort", "progress", "create_entry"},
    "config.step.*": {
        "title", "description", "data", "data_description", "sections", "menu_options", "submit",
    },
    "config_subentries.*": {
        "initiate_flow", "entry_type", "step", "error", "abort", "progress", "create_entry",
    },
    "config_subentries.*.initiate_flow": {"user", "reconfigure"},
    "config_subentries.*.step.*": {
        "title", "description", "data", "data_description", "sections", "menu_options", "submit",
    },
    "selector.*": {"options", "unit_of_measurement", "fields", "choices"},
    "services.*": {"name", "description", "fields", "sections"},
    "services.*.fields.*": {"name", "description", "example"},
    "exceptions.*": {"message"},
    "issues.*": {"title", "description", "fix_flow"},
    "entity.*.*": {"name", "state", "state_attributes", "unit_of_measurement"},
    "system_health": {"info"},
}  # fmt: skip


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Return every string by its dotted key."""
    flat: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def read(path: Path) -> dict[str, Any]:
    """Return a JSON file's object."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def misplaced(data: dict[str, Any], path: tuple[str, ...] = ()) -> list[str]:
    """Return the dotted keys that sit where the schema allows no such key."""
    found = []
    for key, value in data.items():
        for pattern, allowed in ALLOWED.items():
            parts = tuple(pattern.split(".")) if pattern else ()
            if len(parts) == len(path) and all(p in ("*", name) for p, name in zip(parts, path, strict=True)):
                if key not in allowed:
                    found.append(".".join((*path, key)))
                break
        if isinstance(value, dict):
            found.extend(misplaced(value, (*path, key)))
        elif not isinstance(value, str):
            found.append(".".join((*path, key)))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_only_keys_the_schema_allows(language: str) -> None:
    """hassfest refuses a translation file with a key HA's schema has no place for."""
    assert misplaced(read(TRANSLATIONS / f"{language}.json")) == []


def test_a_misplaced_key_is_seen() -> None:
    """The schema check finds what hassfest found before replies moved out."""
    english = read(TRANSLATIONS / "en.json")
    assert misplaced({**english, "replies": {"goodbye": "Bye"}}) == ["replies"]
    assert misplaced({"exceptions": {"timeout": {"message": "x", "title": "y"}}}) == [
        "exceptions.timeout.title"
    ]


@pytest.mark.parametrize("language", LANGUAGES[1:])
@pytest.mark.parametrize("folder", [TRANSLATIONS, REPLIES_DIR], ids=["translations", "replies"])
def test_same_keys_and_placeholders(folder: Path, language: str) -> None:
    """Every English string exists in Chinese with the same placeholders (HA drops it otherwise)."""
    english = flatten(read(folder / "en.json"))
    other = flatten(read(folder / f"{language}.json"))
    assert set(other) == set(english)
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), key


def test_every_reply_the_code_asks_for_exists() -> None:
    """A reply key written in the code is in the reply files (else the key itself is spoken)."""
    english = read(REPLIES_DIR / "en.json")
    asked = set()
    for source in INTEGRATION.rglob("*.py"):
        asked |= set(
            re.findall(r'async_reply\([^()]*?,[^()]*?,\s*"(\w+)"', source.read_text(encoding="utf-8"))
        )
    assert asked, "no reply key found in the code"
    assert sorted(asked - set(english)) == []


def test_icons_cover_every_service_and_entity() -> None:
    """icons.json names an icon for every action in services.yaml and every entity key."""
    icons = read(INTEGRATION / "icons.json")
    services = set(re.findall(r"^(\w+):", (INTEGRATION / "services.yaml").read_text(encoding="utf-8"), re.M))
    assert set(icons["services"]) == services
    assert all(icon["service"].startswith("mdi:") for icon in icons["services"].values())
    entities = read(TRANSLATIONS / "en.json")["entity"]
    assert {platform: set(keys) for platform, keys in icons["entity"].items()} == {
        platform: set(keys) for platform, keys in entities.items()
    }
