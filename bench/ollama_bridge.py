"""Ollama's chat API in front of llama-server, so HA's own Ollama agent can use the same model.

HA's OpenAI agent cannot talk to llama-server (its Responses API tools carry null fields
that llama-server refuses: "Failed to parse tools"), and llama-server has no Ollama API.
This bridge answers ``/api/tags`` and ``/api/chat`` by forwarding each chat to the
server's ``/v1/chat/completions`` (the same endpoint our agent uses) and translating
the answer back, tool calls included. It adds a few milliseconds; it changes nothing
the model sees but the message format.
"""

import json
from typing import Any, ClassVar

from aiohttp import ClientSession, ClientTimeout, web

from bench.fake_ollama import OllamaEndpoint


class OllamaBridge(OllamaEndpoint):
    """Serves HA's Ollama integration from an OpenAI-compatible server."""

    details: ClassVar[dict[str, str]] = {
        "format": "gguf",
        "family": "qwen2",
        "parameter_size": "1.5B",
        "quantization_level": "Q4_K_M",
    }

    def __init__(self, openai_url: str, model: str, timeout: float) -> None:
        """``openai_url`` ends in /v1."""
        super().__init__(model)
        self.openai_url = openai_url.rstrip("/")
        self.timeout = timeout

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = json.loads(await request.read())
        completion = await self._complete(body)
        choice = (completion.get("choices") or [{}])[0]
        answer = choice.get("message") or {}
        message: dict[str, Any] = {"role": "assistant", "content": answer.get("content") or ""}
        if answer.get("tool_calls"):
            message["tool_calls"] = [
                {"function": {"name": call["function"]["name"], "arguments": _arguments(call["function"])}}
                for call in answer["tool_calls"]
            ]
        return await self._answer(request, message, choice.get("finish_reason") or "stop")

    async def _complete(self, body: dict[str, Any]) -> dict[str, Any]:
        """Ask the OpenAI-compatible server the same chat."""
        options = body.get("options") or {}
        request: dict[str, Any] = {
            "model": self.model,
            "messages": _openai_messages(body.get("messages") or []),
            "stream": False,
            "temperature": options.get("temperature", 0.0),
        }
        if body.get("tools"):
            request["tools"] = body["tools"]
        if "num_predict" in options:
            request["max_tokens"] = options["num_predict"]
        async with (
            ClientSession(timeout=ClientTimeout(total=self.timeout)) as session,
            session.post(f"{self.openai_url}/chat/completions", json=request) as response,
        ):
            if response.status != 200:
                raise web.HTTPBadGateway(text=await response.text())
            result: dict[str, Any] = await response.json()
            return result


def _arguments(function: dict[str, Any]) -> dict[str, Any]:
    """Return a call's arguments as the object Ollama gives (OpenAI gives a JSON string)."""
    raw = function.get("arguments") or "{}"
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _openai_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return Ollama messages in the OpenAI format: tool calls get ids, tool results refer to them."""
    converted: list[dict[str, Any]] = []
    pending: list[str] = []
    for index, message in enumerate(messages):
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            calls = []
            for number, call in enumerate(message["tool_calls"]):
                call_id = f"call_{index}_{number}"
                pending.append(call_id)
                function = call.get("function") or {}
                calls.append(
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {
                            "name": function.get("name", ""),
                            "arguments": json.dumps(function.get("arguments") or {}, ensure_ascii=False),
                        },
                    }
                )
            converted.append(
                {"role": "assistant", "content": message.get("content") or "", "tool_calls": calls}
            )
        elif role == "tool":
            call_id = pending.pop(0) if pending else f"call_{index}"
            converted.append(
                {"role": "tool", "tool_call_id": call_id, "content": message.get("content") or ""}
            )
        else:
            converted.append({"role": role, "content": message.get("content") or ""})
    return converted
