"""The option a spoken level or preset picks among a device's own options."""

import pytest

from custom_components.layered_assist.selection.presets import fan_mode_step, pick_fan_mode, pick_preset

DAIKIN_FAN_MODES = ("Auto", "Silence", "1", "2", "3", "4", "5")


@pytest.mark.parametrize(
    ("level", "options", "expected"),
    [
        # Daikin lists its speeds as numbers: the strongest is the highest number.
        ("high", DAIKIN_FAN_MODES, "5"),
        ("low", DAIKIN_FAN_MODES, "1"),
        ("medium", DAIKIN_FAN_MODES, "3"),
        ("auto", DAIKIN_FAN_MODES, "Auto"),
        ("quiet", DAIKIN_FAN_MODES, "Silence"),
        # A named level wins over numbers; a middle of an even count is not guessed.
        ("high", ("low", "high", "1", "2"), "high"),
        ("medium", ("1", "2", "3", "4"), None),
        # One number is no scale.
        ("high", ("auto", "1"), None),
    ],
)
def test_fan_levels(level: str, options: tuple[str, ...], expected: str | None) -> None:
    """A spoken level picks a named option, else the end or middle of numbered ones."""
    assert pick_fan_mode(level, options) == expected


def test_presets_are_not_guessed() -> None:
    """A preset the device does not offer picks nothing."""
    assert pick_preset("sleep", ("auto", "sleep")) == "sleep"
    assert pick_preset("turbo", ("auto", "sleep")) is None


@pytest.mark.parametrize(
    ("current", "options", "up", "expected"),
    [
        ("3", DAIKIN_FAN_MODES, True, "4"),
        ("3", DAIKIN_FAN_MODES, False, "2"),
        ("5", DAIKIN_FAN_MODES, True, "5"),
        # From "Auto" no number is a step: nothing is guessed.
        ("Auto", DAIKIN_FAN_MODES, False, None),
        # A named scale goes to its end, as "风速调低" always did.
        ("medium", ("low", "medium", "high"), False, "low"),
    ],
)
def test_fan_mode_steps(current: str, options: tuple[str, ...], up: bool, expected: str | None) -> None:
    """A step up or down a numbered scale is the next number."""
    assert fan_mode_step(current, options, up=up) == expected
