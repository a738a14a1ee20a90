"""A scriptable OpenAI-compatible server on 127.0.0.1 for the tests.

Each test queues the replies the server gives, in order, and reads back every
request it received. Replies can stream text and tool calls (with arguments split
across chunks), fail with an HTTP status, hang, cut the stream, or send data that
is not valid SSE.
"""

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
import json
import time
from typing import Any

from aiohttp import web


@dataclass
class ScriptedCall:
    """A tool call the fake model makes; ``arguments`` may be raw (malformed) text."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    id: str | None = None

    @property
    def raw_arguments(self) -> str:
        """Return the arguments as the model would write them."""
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, ensure_ascii=False)


@dataclass
class Reply:
    """One scripted answer of the fake server."""

    text: str | None = None
    calls: list[ScriptedCall] = field(default_factory=list)
    status: int = 200
    error_message: str = "error"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    hang: bool = False
    cut_after_chunks: int | None = None
    malformed_sse: bool = False
    # Text is streamed in pieces of this many characters; arguments likewise.
    piece: int = 4


def text(content: str, **kwargs: Any) -> Reply:
    """Reply with plain text."""
    return Reply(text=content, **kwargs)


def call(name: str, arguments: dict[str, Any] | str | None = None, **kwargs: Any) -> Reply:
    """Reply with one tool call."""
    return Reply(calls=[ScriptedCall(name, arguments if arguments is not None else {})], **kwargs)


def calls(*scripted: ScriptedCall, **kwargs: Any) -> Reply:
    """Reply with several tool calls in one message."""
    return Reply(calls=list(scripted), **kwargs)


def failure(status: int, message: str = "error", **kwargs: Any) -> Reply:
    """Reply with an HTTP error."""
    return Reply(status=status, error_message=message, **kwargs)


def _pieces(value: str, size: int) -> list[str]:
    """Split text into pieces of ``size`` characters."""
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


class FakeOpenAI:
    """The fake endpoint; ``base_url`` is what the integration is given."""

    def __init__(self) -> None:
        """Start with no replies and the default model list."""
        self.replies: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.sizes: list[int] = []
        # What each chat request was answered with (text and calls), for token estimates.
        self.served: list[dict[str, Any]] = []
        self.models: list[str] | None = ["gpt-test", "qwen2.5:7b"]
        self.models_status = 200
        # Given when no scripted reply is left (benchmarks); tests leave it unset.
        self.default_reply: Reply | None = None
        # Computes the reply from the request when set (benchmark oracles).
        self.responder: Callable[[dict[str, Any]], Reply] | None = None
        # Requests for a schema-held answer (response_format) are kept apart from the others.
        # By default the endpoint has no structured output and rejects them, as DeepSeek's
        # does; with ``structured`` set it answers each from ``structured_replies``.
        self.structured = False
        # (A reply may be a function of the request, to answer with what the request lists.)
        self.structured_replies: deque[dict[str, Any] | str | Callable[[dict[str, Any]], dict[str, Any]]] = (
            deque()
        )
        self.structured_requests: list[dict[str, Any]] = []
        self._release = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        """Return the OpenAI-style base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    def add(self, *replies: Reply) -> None:
        """Queue replies."""
        self.replies.extend(replies)

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """Return the bodies of the chat completion requests."""
        return [r for r in self.requests if r.get("_path") == "/v1/chat/completions"]

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application()
        app.router.add_get("/v1/models", self._models)
        app.router.add_post("/v1/chat/completions", self._chat)
        self._runner, self.port = await async_serve(app)

    async def stop(self) -> None:
        """Release hanging requests and stop."""
        self._release.set()
        if self._runner is not None:
            await self._runner.cleanup()

    def _record(self, request: web.Request, body: dict[str, Any]) -> None:
        body["_path"] = request.path
        self.requests.append(body)
        self.headers.append(dict(request.headers))

    async def _models(self, request: web.Request) -> web.StreamResponse:
        self._record(request, {})
        if self.models_status != 200:
            return _error_response(self.models_status, "models failed", {})
        if self.models is None:
            return _error_response(404, "Not Found", {})
        return web.json_response(
            {
                "object": "list",
                "data": [{"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in self.models],
            }
        )

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        body = json.loads(raw)
        if "response_format" in body:
            return self._structured(body)
        self._record(request, body)
        self.sizes.append(len(raw))
        if self.responder is not None:
            reply = self.responder(body)
        elif self.replies:
            reply = self.replies.popleft()
        elif self.default_reply is not None:
            reply = self.default_reply
        else:
            return _error_response(500, "the test scripted no reply for this request", {})
        self.served.append({"text": reply.text, "calls": [[c.name, c.raw_arguments] for c in reply.calls]})
        if reply.delay:
            await asyncio.sleep(reply.delay)
        if reply.hang:
            await self._release.wait()
            return web.Response(status=503)
        if reply.status != 200:
            return _error_response(reply.status, reply.error_message, reply.headers)
        if body.get("stream"):
            return await self._stream(request, body, reply)
        return web.json_response(_completion(body, reply))

    def _structured(self, body: dict[str, Any]) -> web.Response:
        """Answer a request for a schema-held answer, or reject it as an endpoint without them does."""
        self.structured_requests.append(body)
        if not self.structured:
            return _error_response(400, "response_format json_schema is not supported", {})
        if not self.structured_replies:
            return _error_response(500, "the test scripted no structured reply", {})
        answer = self.structured_replies.popleft()
        if callable(answer):
            answer = answer(body)
        content = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        return web.json_response(_completion(body, Reply(text=content)))

    async def _stream(self, request: web.Request, body: dict[str, Any], reply: Reply) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        chunks = _chunks(body, reply)
        for index, chunk in enumerate(chunks):
            if reply.cut_after_chunks is not None and index == reply.cut_after_chunks:
                # Drop the connection mid-stream, as a crashed server would.
                assert request.transport is not None
                request.transport.close()
                return response
            if reply.malformed_sse and index == 1:
                await response.write(b"data: {this is not json\n\n")
                continue
            await response.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response


async def async_serve(app: web.Application) -> tuple[web.AppRunner, int]:
    """Serve an app on a free port of 127.0.0.1; return the runner and the port."""
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server = site._server
    assert server is not None
    return runner, server.sockets[0].getsockname()[1]  # type: ignore[union-attr]


def _error_response(status: int, message: str, headers: dict[str, str]) -> web.Response:
    return web.json_response(
        {"error": {"message": message, "type": "test_error", "code": status}}, status=status, headers=headers
    )


def _envelope(body: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "gpt-test"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _chunks(body: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
    """Return the SSE chunks of a reply."""
    chunks = [_envelope(body, {"role": "assistant", "content": ""})]
    if reply.text:
        chunks.extend(_envelope(body, {"content": piece}) for piece in _pieces(reply.text, reply.piece))
    for index, scripted in enumerate(reply.calls):
        call_id = scripted.id or f"call_{index}_{len(body.get('messages', []))}"
        chunks.append(
            _envelope(
                body,
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call_id,
                            "type": "function",
                            "function": {"name": scripted.name, "arguments": ""},
                        }
                    ]
                },
            )
        )
        chunks.extend(
            _envelope(body, {"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            for piece in _pieces(scripted.raw_arguments, reply.piece)
        )
    chunks.append(_envelope(body, {}, "tool_calls" if reply.calls else "stop"))
    return chunks


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """Return a non-streamed completion."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.calls:
        message["tool_calls"] = [
            {
                "id": scripted.id or f"call_{index}_{len(body.get('messages', []))}",
                "type": "function",
                "function": {"name": scripted.name, "arguments": scripted.raw_arguments},
            }
            for index, scripted in enumerate(reply.calls)
        ]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "gpt-test"),
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if reply.calls else "stop"}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
