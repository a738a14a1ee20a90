"""A fake Ollama server on 127.0.0.1 (``/api/tags``, streaming ``/api/chat``) for benchmarks."""

from collections.abc import Callable
from dataclasses import dataclass, field
import json
from typing import Any, ClassVar

from aiohttp import web
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.const import CONF_LLM_HASS_API, CONF_URL
from tests.fake_openai import async_serve


@dataclass
class OllamaReply:
    """What the fake Ollama model answers: text and/or tool calls."""

    text: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def ha_ollama_entry(url: str, model: str, num_ctx: int, **options: Any) -> MockConfigEntry:
    """Return HA's own Ollama agent, with HA's Assist API, as a user would configure it."""
    return MockConfigEntry(
        domain="ollama",
        data={CONF_URL: url},
        version=3,
        minor_version=3,
        subentries_data=[
            {
                "subentry_type": "conversation",
                "data": {
                    "model": model,
                    CONF_LLM_HASS_API: ["assist"],
                    "max_history": 20,
                    "num_ctx": num_ctx,
                    **options,
                },
                "title": "Ollama Conversation",
                "unique_id": None,
            }
        ],
    )


class OllamaEndpoint:
    """Ollama's ``/api/tags`` and streaming ``/api/chat`` on 127.0.0.1; subclasses answer chats."""

    # What /api/tags says of the model.
    details: ClassVar[dict[str, str]] = {
        "format": "gguf",
        "family": "qwen3",
        "parameter_size": "4B",
        "quantization_level": "Q4_K_M",
    }

    def __init__(self, model: str) -> None:
        """Serve one model."""
        self.model = model
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        """Return the server URL HA's ollama integration takes."""
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application()
        app.router.add_get("/api/tags", self._tags)
        app.router.add_post("/api/chat", self._chat)
        self._runner, self.port = await async_serve(app)

    async def stop(self) -> None:
        """Stop serving."""
        if self._runner is not None:
            await self._runner.cleanup()

    async def _tags(self, request: web.Request) -> web.Response:
        model = {
            "name": self.model,
            "model": self.model,
            "modified_at": "2026-01-01T00:00:00Z",
            "size": 1,
            "digest": "0",
            "details": self.details,
        }
        return web.json_response({"models": [model]})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        raise NotImplementedError

    async def _answer(
        self, request: web.Request, message: dict[str, Any], done_reason: str = "stop"
    ) -> web.StreamResponse:
        """Stream one whole message, then the closing line, as Ollama does."""
        response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await response.prepare(request)
        stamp = "2026-01-01T00:00:00Z"
        for line in (
            {"model": self.model, "created_at": stamp, "message": message, "done": False},
            {
                "model": self.model,
                "created_at": stamp,
                "message": {"role": "assistant", "content": ""},
                "done": True,
                "done_reason": done_reason,
            },
        ):
            await response.write((json.dumps(line, ensure_ascii=False) + "\n").encode())
        await response.write_eof()
        return response


class FakeOllama(OllamaEndpoint):
    """Answers every chat request through ``responder`` and records request sizes."""

    def __init__(self, model: str, responder: Callable[[dict[str, Any]], OllamaReply]) -> None:
        """Serve one model."""
        super().__init__(model)
        self.responder = responder
        self.sizes: list[int] = []
        self.replies: list[OllamaReply] = []

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        self.sizes.append(len(raw))
        body = json.loads(raw)
        reply = self.responder(body)
        self.replies.append(reply)
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        if reply.calls:
            message["tool_calls"] = [
                {"function": {"name": name, "arguments": args}} for name, args in reply.calls
            ]
        return await self._answer(request, message)
