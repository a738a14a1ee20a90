"""What a sentence answers to a question the assistant asked: the words are data (answers.txt)."""

import pytest

from custom_components.layered_assist.language.reading import read


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("确认", "zh-Hans"),
        ("好的", "zh-Hans"),
        ("是的", "zh-Hans"),
        ("对", "zh-Hans"),
        ("没问题", "zh-Hans"),
        ("好的吧", "zh-Hans"),
        ("確認。", "zh-TW"),
        ("係呀", "zh-HK"),
        ("yes", "en"),
        ("ok", "en"),
        ("confirm", "en"),
        ("yes please", "en"),
    ],
)
def test_a_confirmation_says_nothing_else(text: str, language: str) -> None:
    """A sentence that is only a yes (with particles or please) confirms."""
    assert "confirm" in read(text, language, None).answers


@pytest.mark.parametrize(
    ("text", "language"), [("确认一下温度是多少", "zh-Hans"), ("好冷", "zh-Hans"), ("yesterday", "en")]
)
def test_a_sentence_that_starts_like_a_yes_is_none(text: str, language: str) -> None:
    """ "确认一下温度是多少" asks something: no confirmation."""
    assert "confirm" not in read(text, language, None).answers


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("取消", "zh-Hans"),
        ("那就算了", "zh-Hans"),
        ("cancel", "en"),
        ("never mind", "en"),
        ("唔使喇", "zh-HK"),
    ],
)
def test_a_cancel_is_said_anywhere(text: str, language: str) -> None:
    """A cancel word anywhere cancels."""
    assert "cancel" in read(text, language, None).answers


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("不对", "zh-Hans"),
        ("不是", "zh-Hans"),
        ("no", "en"),
        ("不对，温度改成25度", "zh-Hans"),
        ("唔係，係廿五度", "zh-HK"),
    ],
)
def test_a_refusal_opens_the_sentence(text: str, language: str) -> None:
    """A refusal is said first; what follows may correct."""
    assert "refuse" in read(text, language, None).answers


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("取消刚才的定时", "zh-Hans", {"cancel", "cancel_schedule"}),
        ("cancel that timer", "en", {"cancel", "cancel_schedule"}),
        ("好了，再见", "zh-Hans", {"farewell"}),
        ("bye", "en", {"farewell"}),
        # A command's own words are not answers: 取消静音 is to unmute, 把灯关了 nothing asked.
        ("取消静音", "zh-Hans", set()),
        ("把灯关了", "zh-Hans", set()),
    ],
)
def test_schedules_and_goodbyes(text: str, language: str, expected: set[str]) -> None:
    """A cancel that names a schedule, a goodbye, and commands that answer nothing."""
    assert read(text, language, None).answers == expected
