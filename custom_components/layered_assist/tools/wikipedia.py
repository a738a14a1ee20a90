"""The ``search_wikipedia`` tool: a page summary in the conversation language."""

from typing import Any
from urllib.parse import quote

import voluptuous as vol

from homeassistant.util.json import json_loads

from ..localize import translation_language
from .base import WEB_LOOKUP, ModelResult, ToolOutcome, ToolRequest, ToolSpec
from .web import FetchError, async_fetch, endpoints, error_result

MAX_SUMMARY = 320


def _site(language: str) -> tuple[str, str | None]:
    """Return the Wikipedia language and the Chinese script variant to ask for."""
    lang = translation_language(language)
    if lang.startswith("zh"):
        return "zh", "zh-hant" if lang == "zh-Hant" else "zh-hans"
    return lang.split("-")[0], None


async def _async_wikipedia(request: ToolRequest) -> ToolOutcome:
    """Return a short summary of a page, or say the title is unknown or ambiguous."""
    title = request.args["title"].strip()
    language, variant = _site(request.language)
    url = endpoints(request.hass).wikipedia.format(
        language=language, title=quote(title.replace(" ", "_"), safe="")
    )
    headers = {"Accept-Language": variant} if variant else None
    try:
        fetched = await async_fetch(request.hass, url, headers=headers)
    except FetchError as err:
        return ModelResult(error_result("unavailable", str(err)))
    if fetched.status == 404:
        return ModelResult(error_result("not_found", f"no Wikipedia page for {title}"))
    try:
        page: Any = json_loads(fetched.body)
    except ValueError:
        return ModelResult(error_result("unavailable", "Wikipedia sent a response that is not JSON"))
    if not isinstance(page, dict) or fetched.status != 200:
        return ModelResult(error_result("unavailable", f"Wikipedia answered HTTP {fetched.status}"))
    if page.get("type") == "disambiguation":
        return ModelResult(error_result("ambiguous", f"{title} can mean several things; ask which one"))
    extract = str(page.get("extract") or "").strip()
    if not extract:
        return ModelResult(error_result("not_found", f"no summary for {title}"))
    if len(extract) > MAX_SUMMARY:
        extract = extract[:MAX_SUMMARY].rsplit(" ", 1)[0] + "…"
    return ModelResult({"title": page.get("title", title), "summary": extract})


WIKIPEDIA_TOOL = ToolSpec(
    name="search_wikipedia",
    traits=WEB_LOOKUP,
    description="Look up a topic on Wikipedia and get a short summary in the user's language.",
    parameters=vol.Schema({vol.Required("title"): vol.All(str, vol.Length(min=1, max=100))}),
    handler=_async_wikipedia,
)
