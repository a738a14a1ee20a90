"""The news tool on feeds served locally: RSS, Atom, categories, cache, no feeds, bad feeds."""

from collections.abc import AsyncGenerator
from typing import Any

from aiohttp import web
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.layered_assist.const import CONF_NEWS_FEEDS, DOMAIN
from custom_components.layered_assist.tools.news import DATA_NEWS_CACHE, parse_feeds
from homeassistant.core import HomeAssistant

from ..fake_openai import async_serve
from ..llm_tools import call_tool

RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>科技日报</title>
<item><title>国产大模型发布新版本</title><pubDate>Sun, 22 Nov 2026 08:00:00 +0800</pubDate></item>
<item><title>新能源汽车销量创新高</title><pubDate>Sun, 22 Nov 2026 07:00:00 +0800</pubDate></item>
</channel></rss>"""
ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>World Sport</title>
<entry><title>Cup final tonight</title><updated>2026-11-22T06:00:00Z</updated></entry>
</feed>"""


class FeedServer:
    """Serves the feeds and counts the requests."""

    def __init__(self) -> None:
        self.hits = 0

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/tech.xml", self.tech)
        app.router.add_get("/sport.atom", self.sport)
        app.router.add_get("/broken", self.broken)
        return app

    async def tech(self, request: web.Request) -> web.Response:
        self.hits += 1
        return web.Response(text=RSS, content_type="application/rss+xml")

    async def sport(self, request: web.Request) -> web.Response:
        self.hits += 1
        return web.Response(text=ATOM, content_type="application/atom+xml")

    async def broken(self, request: web.Request) -> web.Response:
        return web.Response(text="<html><body>maintenance</body></html>", content_type="text/html")


@pytest.fixture
async def feeds(socket_enabled: None) -> AsyncGenerator[tuple[FeedServer, str]]:
    """Serve the feeds on 127.0.0.1."""
    server = FeedServer()
    runner, port = await async_serve(server.app())
    yield server, f"http://127.0.0.1:{port}"
    await runner.cleanup()


@pytest.fixture
def agent_options(agent_options: dict[str, Any], feeds: tuple[FeedServer, str]) -> dict[str, Any]:
    """Configure a technology RSS feed and a sport Atom feed."""
    base = feeds[1]
    return {**agent_options, CONF_NEWS_FEEDS: f"科技={base}/tech.xml\nsport={base}/sport.atom"}


async def news(hass: HomeAssistant, args: dict[str, Any]) -> dict[str, Any]:
    """Call the tool through our LLM API."""
    return await call_tool(hass, "get_news", args)


def test_parse_feeds() -> None:
    """Feeds with and without a category."""
    feeds = parse_feeds("科技=https://a/x.xml; https://b/y.atom\n\n")
    assert [(f.category, f.url) for f in feeds] == [("科技", "https://a/x.xml"), (None, "https://b/y.atom")]


@pytest.mark.usefixtures("init_integration")
async def test_headlines_categories_and_cache(hass: HomeAssistant, feeds: tuple[FeedServer, str]) -> None:
    """All feeds, one category, and a cache that spares the feeds for ten minutes."""
    server, _ = feeds
    result = await news(hass, {})
    titles = [h["title"] for h in result["headlines"]]
    assert titles == ["国产大模型发布新版本", "新能源汽车销量创新高", "Cup final tonight"]
    assert result["headlines"][0]["source"] == "科技日报"
    assert server.hits == 2
    sport = await news(hass, {"category": "Sport"})
    assert [h["title"] for h in sport["headlines"]] == ["Cup final tonight"]
    assert server.hits == 2
    hass.data[DATA_NEWS_CACHE].clear()
    await news(hass, {"limit": 1})
    assert server.hits == 4
    result = await hass.services.async_call(
        DOMAIN, "get_news", {"limit": 2}, blocking=True, return_response=True
    )
    assert len(result["headlines"]) == 2


async def test_no_feeds(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> None:
    """Without configured feeds the result says what to do."""
    hass.config_entries.async_update_subentry(
        mock_config_entry, next(iter(mock_config_entry.subentries.values())), data={"model": "gpt-test"}
    )
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    result = await news(hass, {})
    assert result["error"] == "no_feeds"
    assert "options" in result["error_text"]


@pytest.mark.usefixtures("init_integration")
async def test_broken_feed(
    hass: HomeAssistant, feeds: tuple[FeedServer, str], mock_config_entry: MockConfigEntry
) -> None:
    """A page that is not a feed is reported, the good feeds still answer."""
    subentry = next(iter(mock_config_entry.subentries.values()))
    hass.config_entries.async_update_subentry(
        mock_config_entry,
        subentry,
        data={**subentry.data, CONF_NEWS_FEEDS: f"{feeds[1]}/broken\n{feeds[1]}/sport.atom"},
    )
    # Changed settings reload the entry.
    await hass.async_block_till_done()
    result = await news(hass, {})
    assert [h["title"] for h in result["headlines"]] == ["Cup final tonight"]
    assert "not an RSS or Atom feed" in result["problems"][0]
