"""Network tools against a local server that replays each API's response shapes."""

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

from aiohttp import web
from freezegun.api import FrozenDateTimeFactory
import pytest

from custom_components.layered_assist.const import DOMAIN
from custom_components.layered_assist.tools.space_news import period_of
from custom_components.layered_assist.tools.stock import to_code
from custom_components.layered_assist.tools.web import DATA_ENDPOINTS, Endpoints
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.setup import async_setup_component

from ..fake_openai import async_serve
from ..llm_tools import call_tool


def tencent_quote(fields: dict[int, str]) -> str:
    """Return a quote line in Tencent's ~-separated format (index: value)."""
    values = ["0"] * 50
    for index, value in fields.items():
        values[index] = value
    return "~".join(values)


# Fields: 1 name, 2 code, 3 price, 4 previous close, 30 time, 31 change, 32 change %.
MOUTAI = tencent_quote(
    {
        0: "1",
        1: "贵州茅台",
        2: "600519",
        3: "1432.50",
        4: "1420.00",
        30: "20261120150003",
        31: "12.50",
        32: "0.88",
    }
)
TENCENT_HK = tencent_quote(
    {
        0: "100",
        1: "腾讯控股",
        2: "00700",
        3: "612.000",
        4: "605.500",
        30: "2026/11/20 16:08:17",
        31: "6.500",
        32: "1.07",
    }
)


class ReplayServer:
    """Serves recorded-format answers; remembers the queries it got."""

    def __init__(self) -> None:
        self.queries: list[dict[str, str]] = []
        self.mode = "normal"

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/q={codes}", self.quote)
        app.router.add_get("/s3/", self.search)
        app.router.add_get("/wiki/{language}/{title}", self.wiki)
        app.router.add_get("/v4/articles/", self.articles)
        return app

    async def _faults(self) -> web.Response | None:
        if self.mode == "slow":
            await asyncio.sleep(4)
        if self.mode == "500":
            return web.Response(status=500, text="oops")
        if self.mode == "garbage":
            return web.Response(text="<html>not what you expect</html>")
        return None

    async def quote(self, request: web.Request) -> web.Response:
        if fault := await self._faults():
            return fault
        codes = request.match_info["codes"]
        body = {"sh600519": f'v_sh600519="{MOUTAI}";', "hk00700": f'v_hk00700="{TENCENT_HK}";'}.get(
            codes, 'v_pv_none_match="1";'
        )
        return web.Response(body=body.encode("gbk"), content_type="text/html", charset="GBK")

    async def search(self, request: web.Request) -> web.Response:
        hint = (
            "sh~600519~贵州茅台~gzmt~GP-A^sz~000858~五粮液~wly~GP-A"
            if "茅台" in request.query.get("q", "")
            else "N"
        )
        return web.Response(text=f'v_hint="{hint}"')

    async def wiki(self, request: web.Request) -> web.Response:
        if fault := await self._faults():
            return fault
        self.queries.append(
            {"language": request.match_info["language"], "accept": request.headers.get("Accept-Language", "")}
        )
        title = request.match_info["title"]
        if title == "长城":
            text = "长城是中国古代的军事防御工程。" * 3
            return web.json_response({"type": "standard", "title": "长城", "extract": text})
        if title == "Mercury":
            return web.json_response(
                {"type": "disambiguation", "title": "Mercury", "extract": "Mercury may refer to:"}
            )
        return web.json_response(
            {"type": "https://mediawiki.org/wiki/HyperSwitch/errors/not_found"}, status=404
        )

    async def articles(self, request: web.Request) -> web.Response:
        if fault := await self._faults():
            return fault
        query = dict(request.query)
        self.queries.append(query)
        if (
            "published_at_gte" in query
            and query["published_at_gte"].startswith("2026-01-01")
            and self.mode == "empty_year"
        ):
            return web.json_response({"count": 0, "results": []})
        results = [
            {
                "title": f"Starship flight {n}",
                "news_site": "SpaceNews",
                "published_at": f"2026-11-{20 - n:02d}T10:00:00Z",
                "summary": "A long summary " * 20,
                "url": "https://example.invalid/a",
            }
            for n in range(int(query.get("limit", 10)))
        ]
        return web.json_response({"count": len(results), "results": results})


@pytest.fixture
async def replay(hass: HomeAssistant, socket_enabled: None) -> AsyncGenerator[ReplayServer]:
    """Start the replay server and point the tools at it."""
    server = ReplayServer()
    runner, port = await async_serve(server.app())
    base = f"http://127.0.0.1:{port}"
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, DOMAIN, {})
    hass.data[DATA_ENDPOINTS] = Endpoints(
        stock_quote=base + "/q={codes}",
        stock_search=base + "/s3/?q={query}",
        wikipedia=base + "/wiki/{language}/{title}",
        space_news=base + "/v4/articles/",
        # Generous for a cold first request on a busy machine; "slow" outlasts it.
        timeout=1.5,
    )
    yield server
    await runner.cleanup()


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("600519", "sh600519"),
        ("000858", "sz000858"),
        ("00700", "hk00700"),
        ("700", "hk00700"),
        ("AAPL", "usAAPL"),
        ("贵州茅台", None),
    ],
)
def test_codes(query: str, code: str | None) -> None:
    """Tickers map onto Tencent's codes; names need a lookup."""
    assert to_code(query) == code


async def test_stock(hass: HomeAssistant, replay: ReplayServer) -> None:
    """By code and by name; unknown codes are a clear error."""
    quote = await call_tool(hass, "get_stock", {"query": "600519"})
    assert quote == {
        "name": "贵州茅台",
        "code": "sh600519",
        "price": 1432.5,
        "change": 12.5,
        "change_percent": 0.88,
        "time": "20261120150003",
    }
    assert (await call_tool(hass, "get_stock", {"query": "贵州茅台"}))["price"] == 1432.5
    assert (await call_tool(hass, "get_stock", {"query": "00700"}))["name"] == "腾讯控股"
    assert (await call_tool(hass, "get_stock", {"query": "ZZZZ"}))["error"] == "unknown_stock"
    assert (await call_tool(hass, "get_stock", {"query": "不存在的公司"}))["error"] == "unknown_stock"


async def test_wikipedia(hass: HomeAssistant, replay: ReplayServer) -> None:
    """Summary in the conversation's language and script; not found; ambiguous."""
    page = await call_tool(hass, "search_wikipedia", {"title": "长城"}, "zh-Hant")
    assert page["title"] == "长城"
    assert replay.queries[-1] == {"language": "zh", "accept": "zh-hant"}
    assert (await call_tool(hass, "search_wikipedia", {"title": "Mercury"}, "en"))["error"] == "ambiguous"
    assert replay.queries[-1]["language"] == "en"
    assert (await call_tool(hass, "search_wikipedia", {"title": "Nowhere"}, "en"))["error"] == "not_found"


async def test_space_news(hass: HomeAssistant, replay: ReplayServer, freezer: FrozenDateTimeFactory) -> None:
    """Keywords and periods map onto the API's parameters; results are short."""
    freezer.move_to("2026-11-22T04:00:00+00:00")
    result = await call_tool(hass, "search_space_news", {"keywords": "Starship", "period": "本周"})
    assert len(result["articles"]) == 3
    assert len(result["articles"][0]["summary"]) <= 141
    query = replay.queries[-1]
    assert query["search"] == "Starship"
    assert query["published_at_gte"].startswith("2026-11-16")
    # A year among the keywords becomes the period.
    await call_tool(hass, "search_space_news", {"keywords": "SpaceX 2025年"})
    query = replay.queries[-1]
    assert query["search"] == "SpaceX"
    assert query["published_at_gte"].startswith("2025-01-01")
    assert query["published_at_lte"].startswith("2025-12-31")


async def test_space_news_this_year_falls_back(
    hass: HomeAssistant, replay: ReplayServer, freezer: FrozenDateTimeFactory
) -> None:
    """Nothing this year: the latest articles, and it says so."""
    freezer.move_to("2026-11-22T04:00:00+00:00")
    replay.mode = "empty_year"
    result = await call_tool(hass, "search_space_news", {"period": "今年"})
    assert result["articles"]
    assert "latest" in result["note"]
    assert "published_at_gte" not in replay.queries[-1]


@pytest.mark.parametrize("mode", ["slow", "500", "garbage"])
@pytest.mark.parametrize(
    ("name", "args"),
    [("get_stock", {"query": "600519"}), ("search_wikipedia", {"title": "长城"}), ("search_space_news", {})],
)
async def test_faults_are_clear_results(
    hass: HomeAssistant, replay: ReplayServer, mode: str, name: str, args: dict[str, Any]
) -> None:
    """Timeouts, server errors and bodies of the wrong shape are error results, not crashes."""
    replay.mode = mode
    result = await call_tool(hass, name, args)
    assert result["error"] in ("unavailable", "unknown_stock")
    assert result["error_text"]


@pytest.mark.parametrize(
    ("phrase", "first", "last"),
    [
        ("今天", "2026-11-22", "2026-11-22"),
        ("昨天", "2026-11-21", "2026-11-21"),
        ("本周", "2026-11-16", "2026-11-22"),
        ("上周", "2026-11-09", "2026-11-15"),
        ("本月", "2026-11-01", "2026-11-22"),
        ("上个月", "2026-10-01", "2026-10-31"),
        ("今年", "2026-01-01", "2026-11-22"),
        ("去年", "2025-01-01", "2025-12-31"),
        ("三天前", "2026-11-19", "2026-11-19"),
        ("2024年", "2024-01-01", "2024-12-31"),
        ("last week", "2026-11-09", "2026-11-15"),
    ],
)
def test_periods(phrase: str, first: str, last: str) -> None:
    """Every period word maps onto dates."""
    from datetime import date  # noqa: PLC0415

    found = period_of(phrase, date(2026, 11, 22))
    assert found is not None
    assert (found[0][0].isoformat(), found[0][1].isoformat()) == (first, last)


@pytest.mark.parametrize(
    ("service", "data", "key"),
    [
        ("get_stock", {"query": "600519"}, "price"),
        ("search_wikipedia", {"title": "长城", "language": "zh-Hans"}, "summary"),
        ("search_space_news", {"keywords": "Starship", "limit": 2}, "articles"),
        ("calculate", {"expression": "2**10"}, "result"),
        ("get_datetime", {"language": "en"}, "weekday"),
    ],
)
async def test_services_respond(
    hass: HomeAssistant, replay: ReplayServer, service: str, data: dict[str, Any], key: str
) -> None:
    """Each tool is also a service that returns its result."""
    result = await hass.services.async_call(DOMAIN, service, data, blocking=True, return_response=True)
    assert key in result


async def test_actions_raise_what_tools_return(hass: HomeAssistant, replay: ReplayServer) -> None:
    """Called as an action, a tool's failure raises; input it cannot use raises a validation error."""
    replay.mode = "500"
    with pytest.raises(HomeAssistantError) as failed:
        await hass.services.async_call(
            DOMAIN, "get_stock", {"query": "600519"}, blocking=True, return_response=True
        )
    assert not isinstance(failed.value, ServiceValidationError)
    assert failed.value.translation_key == "action_failed"
    assert failed.value.translation_placeholders["action"] == "layered_assist.get_stock"
    replay.mode = "normal"
    with pytest.raises(ServiceValidationError) as invalid:
        await hass.services.async_call(
            DOMAIN, "get_stock", {"query": "ZZZZ"}, blocking=True, return_response=True
        )
    assert invalid.value.translation_key == "action_invalid"
    assert invalid.value.translation_placeholders["detail"]
    quote = await hass.services.async_call(
        DOMAIN, "get_stock", {"query": "600519"}, blocking=True, return_response=True
    )
    assert quote is not None
    assert quote["price"] == 1432.5
