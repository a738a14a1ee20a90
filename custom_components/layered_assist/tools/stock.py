"""The ``get_stock`` tool: A-share, HK and US quotes from the public Tencent quote endpoint."""

import re

import voluptuous as vol

from .base import WEB_LOOKUP, ModelResult, ToolOutcome, ToolRequest, ToolSpec
from .web import FetchError, async_fetch, endpoints, error_result

_QUOTE = re.compile(r'v_(\w+)="([^"]*)"')


def to_code(query: str) -> str | None:
    """Return Tencent's code for a ticker (600519 → sh600519, 00700 → hk00700, AAPL → usAAPL)."""
    text = query.strip().lower().removeprefix("$")
    if re.fullmatch(r"(sh|sz|bj|hk)\d{5,6}", text):
        return text
    if re.fullmatch(r"us[a-z.]{1,6}", text):
        return "us" + text[2:].upper()
    if re.fullmatch(r"\d{6}", text):
        prefix = "sh" if text[0] in "569" else "bj" if text[0] in "48" else "sz"
        return prefix + text
    if re.fullmatch(r"\d{1,5}", text):
        return "hk" + text.zfill(5)
    if re.fullmatch(r"[a-z.]{1,6}", text):
        return "us" + text.upper()
    return None


async def _async_lookup(request: ToolRequest, name: str) -> str | None:
    """Find a code by company name through Tencent's search."""
    fetched = await async_fetch(request.hass, endpoints(request.hass).stock_search.format(query=name))
    text = fetched.text("utf-8")
    match = re.search(r'v_hint="([^"]*)"', text)
    if not match or not match.group(1) or match.group(1) == "N":
        return None
    first = match.group(1).split("^")[0].split("~")
    return to_code(first[0] + first[1]) if len(first) > 1 else None


async def _async_stock(request: ToolRequest) -> ToolOutcome:
    """Return price, change and change percent for a code or a company name."""
    query = request.args["query"]
    try:
        code = to_code(query) or await _async_lookup(request, query)
        if code is None:
            return ModelResult(error_result("unknown_stock", f"no stock found for {query}"))
        fetched = await async_fetch(request.hass, endpoints(request.hass).stock_quote.format(codes=code))
    except FetchError as err:
        return ModelResult(error_result("unavailable", str(err)))
    match = _QUOTE.search(fetched.text("gbk"))
    fields = match.group(2).split("~") if match else []
    if not match or match.group(1) == "pv_none_match" or len(fields) < 33 or not fields[3]:
        return ModelResult(error_result("unknown_stock", f"no quote for {query}"))
    return ModelResult(
        {
            "name": fields[1],
            "code": code,
            "price": float(fields[3]),
            "change": float(fields[31] or 0),
            "change_percent": float(fields[32] or 0),
            "time": fields[30],
        }
    )


STOCK_TOOL = ToolSpec(
    name="get_stock",
    traits=WEB_LOOKUP,
    description=(
        "Get a stock quote: A-share, Hong Kong or US code or company name (600519, 贵州茅台, 00700, AAPL)."
    ),
    parameters=vol.Schema({vol.Required("query"): vol.All(str, vol.Length(min=1, max=30))}),
    handler=_async_stock,
)
