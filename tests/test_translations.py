"""The translation files agree with each other."""

import json
from pathlib import Path
import re
from typing import Any

import pytest

TRANSLATIONS = Path(__file__).parent.parent / "custom_components" / "layered_assist" / "translations"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Return every string by its dotted key."""
    flat: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


@pytest.mark.parametrize("language", ["zh-Hans", "zh-Hant", "zh-HK", "zh-TW"])
def test_same_keys_and_placeholders(language: str) -> None:
    """Every English string exists in Chinese with the same placeholders (HA drops it otherwise)."""
    english = flatten(json.loads((TRANSLATIONS / "en.json").read_text(encoding="utf-8")))
    other = flatten(json.loads((TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8")))
    assert set(other) == set(english)
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), key
