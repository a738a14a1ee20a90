"""The ``get_news`` tool: headlines from the RSS/Atom feeds in the agent's options."""

from dataclasses import dataclass
import time
from typing import Any

import feedparser
import voluptuous as vol

from homeassistant.core import HomeAssistant
from homeassistant.util.hass_dict import HassKey

from ..const import CONF_NEWS_FEEDS, DOMAIN
from .base import WEB_LOOKUP, ModelResult, ToolOutcome, ToolRequest, ToolSpec
from .web import FetchError, async_fetch, error_result

CACHE_SECONDS = 600
DEFAULT_LIMIT = 5


@dataclass(frozen=True, slots=True)
class Feed:
    """A configured feed: an optional category name and its URL."""

    category: str | None
    url: str


def parse_feeds(text: str) -> list[Feed]:
    """Read feeds written one per line or separated by ';', as ``url`` or ``category=url``."""
    feeds = []
    for line in text.replace(";", "\n").splitlines():
        part = line.strip()
        if not part:
            continue
        name, sep, url = part.partition("=")
        feeds.append(Feed(name.strip(), url.strip()) if sep and "://" not in name else Feed(None, part))
    return feeds


DATA_NEWS_CACHE: HassKey[dict[str, tuple[float, list[dict[str, str]]]]] = HassKey(f"{DOMAIN}_news_cache")


def _configured_feeds(request: ToolRequest) -> list[Feed]:
    """Return the asking agent's feeds."""
    agent = request.owner(need_agent=True).required_agent
    return parse_feeds(str(agent.options.get(CONF_NEWS_FEEDS) or ""))


async def _async_items(hass: HomeAssistant, feed: Feed) -> list[dict[str, str]]:
    """Return a feed's items, from a cache kept for ten minutes."""
    cache = hass.data.setdefault(DATA_NEWS_CACHE, {})
    cached = cache.get(feed.url)
    if cached is not None and time.time() - cached[0] < CACHE_SECONDS:
        return cached[1]
    fetched = await async_fetch(hass, feed.url)
    parsed: Any = await hass.async_add_executor_job(feedparser.parse, fetched.body)
    if not parsed.get("version"):
        raise FetchError(f"{feed.url} is not an RSS or Atom feed")
    source = str(parsed.feed.get("title", feed.category or ""))
    items = [
        {
            "title": str(entry.get("title", "")).strip(),
            "source": source,
            "published": str(entry.get("published") or entry.get("updated") or "")[:25],
        }
        for entry in parsed.entries
        if entry.get("title")
    ]
    cache[feed.url] = (time.time(), items)
    return items


async def _async_news(request: ToolRequest) -> ToolOutcome:
    """Return the newest headlines, optionally of one category."""
    feeds = _configured_feeds(request)
    if not feeds:
        return ModelResult(
            error_result("no_feeds", "no news feeds are configured; add RSS/Atom URLs in the agent's options")
        )
    category = (request.args.get("category") or "").strip().lower()
    chosen = [f for f in feeds if f.category and category and category in f.category.lower()] or feeds
    limit = request.args.get("limit", DEFAULT_LIMIT)
    headlines: list[dict[str, str]] = []
    problems = []
    for feed in chosen:
        try:
            headlines.extend(await _async_items(request.hass, feed))
        except FetchError as err:
            problems.append(str(err))
    if not headlines:
        return ModelResult(error_result("unavailable", "; ".join(problems) or "the feeds have no items"))
    result: dict[str, Any] = {"headlines": headlines[:limit]}
    if problems:
        result["problems"] = problems
    return ModelResult(result)


NEWS_TOOL = ToolSpec(
    owned_by="agent",
    name="get_news",
    traits=WEB_LOOKUP,
    description="Get the latest news headlines from the configured feeds, optionally of one category.",
    parameters=vol.Schema(
        {
            vol.Optional("category"): vol.All(str, vol.Length(max=40)),
            vol.Optional("limit"): vol.All(vol.Coerce(int), vol.Range(min=1, max=10)),
        }
    ),
    handler=_async_news,
)
