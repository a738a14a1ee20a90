"""Text normalization for reading (width, case, Simplified, sounds) and Traditional output."""

import pytest

from custom_components.layered_assist.language.text import normalize, to_traditional
from custom_components.layered_assist.language.tokens import sound_of


def test_homophones_share_their_sounds() -> None:
    """客厅等 (a speech recognition slip) sounds like 客厅灯, though its characters differ."""
    slip, meant = normalize("客厅等"), normalize("客厅灯")
    assert slip != meant
    assert [sound_of(c) for c in slip] == [sound_of(c) for c in meant]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("打開客廳燈", "打开客厅灯"),
        ("ＡＢＣ１２３", "abc123"),
        ("Turn on the LIGHTS", "turn on the lights"),
        ("", ""),
    ],
)
def test_normalize(text: str, expected: str) -> None:
    """Traditional becomes Simplified, full-width becomes ASCII, case folds."""
    assert normalize(text) == expected


@pytest.mark.parametrize(
    ("text", "variant", "expected"),
    [
        ("客厅灯", "zh-TW", "客廳燈"),
        # Taiwan's own words, the standard characters elsewhere.
        ("视频", "zh-TW", "影片"),
        ("视频", "zh-HK", "視頻"),
        ("视频", "zh-Hant", "視頻"),
        ("Living room", "zh-TW", "Living room"),
    ],
)
def test_to_traditional(text: str, variant: str, expected: str) -> None:
    """Replies are written in the Traditional characters and words of the variant; Latin text is kept."""
    assert to_traditional(text, variant) == expected
