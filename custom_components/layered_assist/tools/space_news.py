"""The ``search_space_news`` tool: Spaceflight News API v4 articles by keyword and period."""

from datetime import date, datetime, time, timedelta
import re
from typing import Any

import voluptuous as vol

from homeassistant.util import dt as dt_util
from homeassistant.util.json import json_loads

from ..language.numbers import english_to_arabic, to_arabic
from ..language.text import normalize
from .base import WEB_LOOKUP, ModelResult, ToolOutcome, ToolRequest, ToolSpec
from .web import FetchError, async_fetch, endpoints, error_result

DEFAULT_LIMIT = 3
MAX_SUMMARY = 140
_YEAR = re.compile(r"\b((?:19|20)\d{2})\s*年?")
_DAYS_AGO = re.compile(r"(\d+)\s*(?:天前|days? ago)")

type Period = tuple[date, date]


def period_of(text: str, today: date) -> tuple[Period, str] | None:
    """Return (first day, last day) and a key for a period phrase, or None."""
    phrase = to_arabic(english_to_arabic(normalize(text)))
    week_start = today - timedelta(days=today.weekday())
    month_start = today.replace(day=1)
    last_month_end = month_start - timedelta(days=1)
    fixed: list[tuple[tuple[str, ...], Period, str]] = [
        (("今天", "today"), (today, today), "today"),
        (("昨天", "yesterday"), (today - timedelta(days=1), today - timedelta(days=1)), "yesterday"),
        (("本周", "这周", "this week"), (week_start, today), "this_week"),
        (
            ("上周", "last week"),
            (week_start - timedelta(days=7), week_start - timedelta(days=1)),
            "last_week",
        ),
        (("本月", "这个月", "this month"), (month_start, today), "this_month"),
        (("上个月", "上月", "last month"), (last_month_end.replace(day=1), last_month_end), "last_month"),
        (("今年", "this year"), (today.replace(month=1, day=1), today), "this_year"),
        (("去年", "last year"), (date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)), "last_year"),
    ]
    for words, span, key in fixed:
        if any(word in phrase for word in words):
            return span, key
    if match := _DAYS_AGO.search(phrase):
        day = today - timedelta(days=int(match.group(1)))
        return (day, day), "days_ago"
    if match := _YEAR.search(phrase):
        year = int(match.group(1))
        return (date(year, 1, 1), min(date(year, 12, 31), today)), "year"
    return None


def _params(keywords: str, span: Period | None, limit: int) -> dict[str, Any]:
    params: dict[str, Any] = {"limit": limit, "ordering": "-published_at"}
    if keywords:
        params["search"] = keywords
    if span is not None:
        params["published_at_gte"] = datetime.combine(span[0], time.min).isoformat() + "Z"
        params["published_at_lte"] = datetime.combine(span[1], time.max).isoformat() + "Z"
    return params


async def _async_space_news(request: ToolRequest) -> ToolOutcome:
    """Return the latest matching articles, short."""
    today = dt_util.now().date()
    keywords = request.args.get("keywords", "").strip()
    limit = request.args.get("limit", DEFAULT_LIMIT)
    found = period_of(request.args.get("period", ""), today) if request.args.get("period") else None
    if found is None and (year := _YEAR.search(keywords)):
        # "SpaceX 2025": the year is a period, not a word to search for.
        found = period_of(year.group(0), today)
        keywords = _YEAR.sub(" ", keywords).strip()
    span, key = found if found else (None, None)
    try:
        articles = await _async_articles(request, _params(keywords, span, limit))
        fallback = False
        if not articles and key == "this_year":
            articles = await _async_articles(request, _params(keywords, None, limit))
            fallback = True
    except FetchError as err:
        return ModelResult(error_result("unavailable", str(err)))
    except ValueError as err:
        return ModelResult(error_result("unavailable", f"unexpected response: {err}"))
    result: dict[str, Any] = {"articles": articles}
    if key:
        result["period"] = key
    if fallback:
        result["note"] = "nothing this year; these are the latest articles"
    return ModelResult(result)


async def _async_articles(request: ToolRequest, params: dict[str, Any]) -> list[dict[str, str]]:
    fetched = await async_fetch(request.hass, endpoints(request.hass).space_news, params=params)
    data = json_loads(fetched.body)
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise ValueError("no results list")
    articles = []
    for item in results:
        if not isinstance(item, dict):
            continue
        summary = str(item.get("summary") or "")
        articles.append(
            {
                "title": str(item.get("title", "")),
                "site": str(item.get("news_site", "")),
                "date": str(item.get("published_at", ""))[:10],
                "summary": summary if len(summary) <= MAX_SUMMARY else summary[:MAX_SUMMARY] + "…",
            }
        )
    return articles


SPACE_NEWS_TOOL = ToolSpec(
    name="search_space_news",
    traits=WEB_LOOKUP,
    description=(
        "Search spaceflight news (Spaceflight News API). keywords optional; period like 今天, 昨天, 本周, "
        "上周, 本月, 上个月, 今年, 去年, 3天前, 2024年, this week."
    ),
    parameters=vol.Schema(
        {
            vol.Optional("keywords"): vol.All(str, vol.Length(max=80)),
            vol.Optional("period"): vol.All(str, vol.Length(max=30)),
            vol.Optional("limit"): vol.All(vol.Coerce(int), vol.Range(min=1, max=10)),
        }
    ),
    handler=_async_space_news,
)
