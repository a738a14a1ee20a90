"""HTTP for the network tools: HA's shared session, a timeout, errors as messages."""

import asyncio
from dataclasses import dataclass
from typing import Any

import aiohttp

from homeassistant.core import HomeAssistant
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.util.hass_dict import HassKey

from ..const import DOMAIN

TIMEOUT = 8.0


@dataclass(frozen=True, slots=True)
class Endpoints:
    """Where the network tools fetch from (tests point these at local servers)."""

    stock_quote: str = "https://qt.gtimg.cn/q={codes}"
    stock_search: str = "https://smartbox.gtimg.cn/s3/?v=2&t=all&q={query}"
    wikipedia: str = "https://{language}.wikipedia.org/api/rest_v1/page/summary/{title}"
    space_news: str = "https://api.spaceflightnewsapi.net/v4/articles/"
    timeout: float = TIMEOUT


DATA_ENDPOINTS: HassKey[Endpoints] = HassKey(f"{DOMAIN}_endpoints")


def endpoints(hass: HomeAssistant) -> Endpoints:
    """Return the endpoints in use."""
    return hass.data.get(DATA_ENDPOINTS) or Endpoints()


class FetchError(Exception):
    """A fetch failed; the message is fit for a tool result."""


@dataclass(frozen=True, slots=True)
class Fetched:
    """A response body and its status."""

    status: int
    body: bytes

    def text(self, encoding: str = "utf-8") -> str:
        """Return the body as text."""
        return self.body.decode(encoding, errors="replace")


async def async_fetch(
    hass: HomeAssistant,
    url: str,
    *,
    params: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Fetched:
    """GET a URL; raise FetchError on timeouts, refused connections and 5xx."""
    session = async_get_clientsession(hass)
    try:
        async with (
            asyncio.timeout(endpoints(hass).timeout),
            session.get(url, params=params, headers=headers) as response,
        ):
            body = await response.read()
    except TimeoutError as err:
        raise FetchError("the service did not answer in time") from err
    except aiohttp.ClientError as err:
        raise FetchError(f"the service could not be reached ({type(err).__name__})") from err
    if response.status >= 500:
        raise FetchError(f"the service failed (HTTP {response.status})")
    return Fetched(response.status, body)


def error_result(kind: str, text: str) -> dict[str, str]:
    """Return a tool error the model can read."""
    return {"error": kind, "error_text": text}
