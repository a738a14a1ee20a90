"""Replies in the user's language from our reply files."""

import pytest

from custom_components.layered_assist.localize import async_reply, translation_language
from homeassistant.core import HomeAssistant


@pytest.mark.parametrize(
    ("language", "file"),
    [("zh-CN", "zh-Hans"), ("zh-HK", "zh-HK"), ("yue", "zh-HK"), ("zh-TW", "zh-TW"), ("zh-Hant", "zh-Hant"),
     ("en-GB", "en"), (None, "en")],
)  # fmt: skip
def test_language_to_file(language: str | None, file: str) -> None:
    """Each conversation language is served by one reply file."""
    assert translation_language(language) == file


async def test_reply_in_language_with_placeholders(hass: HomeAssistant) -> None:
    """A reply is filled in; Traditional files get the names in Traditional characters."""
    assert await async_reply(hass, "en", "negation_ack", {"names": "the lamp"}) == (
        "OK, I'll leave the lamp as it is."
    )
    assert "书房灯" in await async_reply(hass, "zh-CN", "negation_ack", {"names": "书房灯"})
    assert "書房燈" in await async_reply(hass, "zh-TW", "negation_ack", {"names": "书房灯"})


async def test_unknown_language_key_and_path(hass: HomeAssistant) -> None:
    """English stands in for a language with no file; an unknown key is said as the key."""
    english = await async_reply(hass, "en", "goodbye")
    assert await async_reply(hass, "de-DE", "goodbye") == english
    assert await async_reply(hass, "../../secrets", "goodbye") == english
    assert await async_reply(hass, "en", "no_such_reply") == "no_such_reply"
