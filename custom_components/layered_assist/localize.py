"""User-facing text in the user's language, read from our translation files."""

from homeassistant.core import HomeAssistant
from homeassistant.helpers.translation import async_get_translations

from .const import DOMAIN

FALLBACK_LANGUAGE = "en"
_TRADITIONAL = ("zh-hant", "zh-tw", "zh-hk", "zh-mo")


def translation_language(language: str | None) -> str:
    """Return the translation file that serves a conversation language."""
    if not language:
        return FALLBACK_LANGUAGE
    lowered = language.lower().replace("_", "-")
    if lowered.startswith("zh"):
        return "zh-Hant" if lowered.startswith(_TRADITIONAL) else "zh-Hans"
    return lowered.split("-")[0]


def is_chinese(language: str | None) -> bool:
    """Tell whether replies should be in Chinese."""
    return translation_language(language).startswith("zh")


async def async_text(
    hass: HomeAssistant,
    language: str | None,
    category: str,
    key: str,
    placeholders: dict[str, str] | None = None,
) -> str:
    """Return a translated string, falling back to English, then to the key."""
    full_key = f"component.{DOMAIN}.{category}.{key}"
    template = None
    for lang in dict.fromkeys((translation_language(language), FALLBACK_LANGUAGE)):
        strings = await async_get_translations(hass, lang, category, [DOMAIN])
        if (template := strings.get(full_key)) is not None:
            break
    if template is None:
        return key
    try:
        return template.format(**(placeholders or {}))
    except (KeyError, IndexError, ValueError):
        return template


async def async_error_text(
    hass: HomeAssistant,
    language: str | None,
    translation_key: str,
    placeholders: dict[str, str] | None = None,
) -> str:
    """Return the message of one of our exceptions in the user's language."""
    return await async_text(hass, language, "exceptions", f"{translation_key}.message", placeholders)
