"""User-facing text in the user's language.

Spoken replies live in our own per-language files (``replies/<file>.json``): HA's
translation schema has no place for them. Texts HA's schema does have a place for
(exceptions, selector options) are read through HA's translations.
"""

from pathlib import Path

from homeassistant.core import HomeAssistant
from homeassistant.helpers.translation import async_get_translations
from homeassistant.util.hass_dict import HassKey
from homeassistant.util.json import load_json_object

from .const import DOMAIN
from .language.text import to_traditional

FALLBACK_LANGUAGE = "en"
# Chinese conversation languages by the translation file that serves them: Cantonese
# (Hong Kong, Macau), Taiwan Mandarin, other Traditional, else Simplified.
_CHINESE_VARIANTS = (("zh-hk", "zh-HK"), ("zh-mo", "zh-HK"), ("zh-tw", "zh-TW"), ("zh-hant", "zh-Hant"))
TRADITIONAL = frozenset({"zh-HK", "zh-TW", "zh-Hant"})
REPLIES_DIR = Path(__file__).parent / "replies"
# Reply files by language file, read once per running HA (an absent file reads as empty).
_REPLIES: HassKey[dict[str, dict[str, str]]] = HassKey(f"{DOMAIN}_replies")


def translation_language(language: str | None) -> str:
    """Return the translation file that serves a conversation language."""
    if not language:
        return FALLBACK_LANGUAGE
    lowered = language.lower().replace("_", "-")
    if lowered.startswith("yue"):
        return "zh-HK"
    if lowered.startswith("zh"):
        return next((file for prefix, file in _CHINESE_VARIANTS if lowered.startswith(prefix)), "zh-Hans")
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
    return _filled(template, language, placeholders)


def _read_replies(file: str) -> dict[str, str]:
    """Read one language's reply file (blocking)."""
    path = REPLIES_DIR / f"{file}.json"
    # A language tag names a file only when it is one (letters and hyphens).
    if not file.replace("-", "").isalpha() or not path.is_file():
        return {}
    return {key: str(text) for key, text in load_json_object(path).items()}


async def async_reply(
    hass: HomeAssistant,
    language: str | None,
    key: str,
    placeholders: dict[str, str] | None = None,
) -> str:
    """Return a spoken reply in the user's language, falling back to English, then to the key."""
    loaded = hass.data.setdefault(_REPLIES, {})
    for file in dict.fromkeys((translation_language(language), FALLBACK_LANGUAGE)):
        if file not in loaded:
            loaded[file] = await hass.async_add_executor_job(_read_replies, file)
        if (template := loaded[file].get(key)) is not None:
            return _filled(template, language, placeholders)
    return key


def _filled(template: str, language: str | None, placeholders: dict[str, str] | None) -> str:
    """Put the placeholders into a template; a template they do not fit is said as written."""
    values = placeholders or {}
    if (file := translation_language(language)) in TRADITIONAL:
        # Names and words put into the reply may be Simplified (a device named so).
        values = {name: to_traditional(value, file) for name, value in values.items()}
    try:
        return template.format(**values)
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
