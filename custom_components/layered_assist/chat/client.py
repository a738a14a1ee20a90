"""A thin client for OpenAI-compatible chat endpoints, with errors mapped to ours."""

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
import json
import time
import traceback
from typing import Any, cast

import httpx
import openai
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from homeassistant.core import HomeAssistant
from homeassistant.helpers.httpx_client import get_async_client

from ..const import LOGGER, RATE_LIMIT_MAX_WAIT
from .errors import (
    AuthenticationFailed,
    BadRequest,
    BrokenStream,
    Busy,
    CannotConnect,
    EndpointError,
    EndpointTimeout,
    ModelNotFound,
    RateLimited,
    ServerError,
    ToolsUnsupported,
)

# Loop passes that closing openai's abandoned stream generators takes (about two each).
STREAM_FINALIZER_PASSES = 30
# Local servers ignore the key, but the SDK refuses to start without one.
PLACEHOLDER_API_KEY = "not-needed"


@dataclass(slots=True)
class ChatRequest:
    """One request to the chat completions endpoint."""

    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    stream: bool = True
    timeout: float = 30.0
    # {"type": "json_schema", ...}: an answer constrained to a schema (structured output).
    response_format: dict[str, Any] | None = None

    def as_kwargs(self) -> dict[str, Any]:
        """Return the keyword arguments of ``chat.completions.create``."""
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": self.messages,
            "stream": self.stream,
            "timeout": self.timeout,
        }
        if self.tools:
            kwargs["tools"] = self.tools
            if self.tool_choice:
                kwargs["tool_choice"] = self.tool_choice
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        if self.response_format is not None:
            kwargs["response_format"] = self.response_format
        return kwargs


class EndpointClient:
    """Talks to one OpenAI-compatible endpoint."""

    def __init__(self, hass: HomeAssistant, base_url: str, api_key: str | None) -> None:
        """Create the SDK client on HA's shared httpx client."""
        self.base_url = base_url
        # Seconds the last request took to its first byte (diagnostics, system health).
        self.last_round_trip: float | None = None
        self.last_error: str | None = None
        # Whether the endpoint constrains answers to a JSON schema: None until the first try.
        self.structured_output: bool | None = None
        self._client = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or PLACEHOLDER_API_KEY,
            # openai 3 (HA >= 2026.10) types it as httpx2's client; HA's httpx client works at run time.
            http_client=cast(Any, get_async_client(hass)),
            # Retries are ours: a voice user cannot wait for the SDK's backoff.
            max_retries=0,
        )

    async def async_prepare(self, hass: HomeAssistant) -> None:
        """Do the SDK's blocking first-use work in the executor."""
        await hass.async_add_executor_job(self._client.platform_headers)

    async def async_list_models(self, timeout: float) -> list[str] | None:
        """Return the endpoint's model ids, or None when it has no model list."""
        try:
            page = await self._client.with_options(timeout=timeout).models.list()
        except openai.NotFoundError:
            return None
        except openai.OpenAIError as err:
            raise _map_error(err) from err
        return sorted({model.id for model in page.data})

    async def async_probe(self, model: str, timeout: float) -> None:
        """Send the cheapest possible request, for endpoints without a model list."""
        request = ChatRequest(
            model=model,
            messages=[{"role": "user", "content": "ping"}],
            max_tokens=1,
            stream=False,
            timeout=timeout,
        )
        await self.async_complete(request)

    async def async_complete(self, request: ChatRequest) -> ChatCompletion:
        """Send a non-streaming request."""
        response = await self._async_create(request)
        if not isinstance(response, ChatCompletion):
            raise BrokenStream("unexpected response type")
        return response

    async def async_stream(self, request: ChatRequest) -> AsyncIterator[ChatCompletionChunk]:
        """Send a streaming request and yield its chunks."""
        stream = await self._async_create(request)
        try:
            async for chunk in stream:
                yield chunk
        except (httpx.TimeoutException, openai.APITimeoutError) as err:
            # openai 3 (HA >= 2026.10) wraps a read timeout mid-stream in its own error.
            _release_frames(err)
            raise EndpointTimeout(str(err)) from err
        except (httpx.HTTPError, json.JSONDecodeError, openai.APIError) as err:
            _release_frames(err)
            raise BrokenStream(str(err) or type(err).__name__) from err
        finally:
            # Also when the reader stops early: the connection goes back to the pool.
            await stream.close()
            # openai 3 stops reading at [DONE] and leaves its chain of SSE and httpx
            # generators to the loop's finalizer, which closes them one by one in
            # later passes of the loop; let those passes run now, within the turn.
            for _ in range(STREAM_FINALIZER_PASSES):
                await asyncio.sleep(0)

    async def _async_create(self, request: ChatRequest) -> Any:
        """Create a completion, retrying once on a short rate limit."""
        kwargs = request.as_kwargs()
        for attempt in range(2):
            started = time.monotonic()
            try:
                response = await self._client.chat.completions.create(**kwargs)
                self.last_round_trip = time.monotonic() - started
                self.last_error = None
                return response
            except openai.RateLimitError as err:
                wait = _retry_after(err)
                if attempt == 0 and wait is not None and wait <= RATE_LIMIT_MAX_WAIT:
                    LOGGER.debug("Rate limited, retrying in %.1f s", wait)
                    await asyncio.sleep(wait)
                    continue
                mapped = _map_error(err, has_tools=bool(request.tools))
                self.last_error = mapped.key
                raise mapped from err
            except openai.OpenAIError as err:
                mapped = _map_error(err, has_tools=bool(request.tools))
                self.last_error = mapped.key
                raise mapped from err
        raise AssertionError("unreachable")  # pragma: no cover


def _release_frames(err: BaseException) -> None:
    """Drop the locals of the failed stream's frames, so its generators close within the turn."""
    traceback.clear_frames(err.__traceback__)


def _retry_after(err: openai.APIStatusError) -> float | None:
    """Return the seconds a 429 asks us to wait, when it says."""
    value = err.response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _map_error(err: openai.OpenAIError, *, has_tools: bool = False) -> EndpointError:
    """Translate an SDK error into one of ours."""
    detail = str(err)
    if isinstance(err, openai.APITimeoutError):
        return EndpointTimeout(detail)
    if isinstance(err, openai.APIConnectionError):
        return CannotConnect(detail)
    if isinstance(err, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return AuthenticationFailed(detail)
    if isinstance(err, openai.NotFoundError):
        return ModelNotFound(detail)
    if isinstance(err, openai.RateLimitError):
        wait = _retry_after(err)
        return RateLimited(detail, seconds=str(round(wait))) if wait is not None else Busy(detail)
    if isinstance(err, openai.APIStatusError):
        if err.status_code >= 500:
            return ServerError(detail, status=str(err.status_code))
        if has_tools and _mentions_tools(detail):
            return ToolsUnsupported(detail)
        return BadRequest(detail, status=str(err.status_code))
    if isinstance(err, openai.APIResponseValidationError):
        return BrokenStream(detail)
    return EndpointError(detail)


def _mentions_tools(message: str) -> bool:
    """Tell whether a 4xx message blames the tools (Ollama, vLLM, llama.cpp say so)."""
    lowered = message.lower()
    return any(word in lowered for word in ("tool", "function call", "function_call"))
