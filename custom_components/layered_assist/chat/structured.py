"""Answers constrained to a JSON schema, from endpoints that can give them.

OpenAI, llama.cpp's server, vLLM and Ollama accept ``response_format`` with a JSON
schema and hold the model to it; small local models that fumble tool calls fill a
schema with enums of the candidates reliably. Whether an endpoint can is learnt on
the first try and remembered on its client: a request the endpoint rejects, or an
answer that is not the JSON asked for, turns the attempt off for that endpoint.
"""

import json
from typing import Any

from ..const import LOGGER
from .client import ChatRequest, EndpointClient
from .errors import BadRequest


async def async_ask_json(
    client: EndpointClient, request: ChatRequest, name: str, schema: dict[str, Any]
) -> dict[str, Any] | None:
    """Return the model's answer as a JSON object, or None when the endpoint cannot give one."""
    if client.structured_output is False:
        return None
    request.stream = False
    request.tools = []
    request.response_format = {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema, "strict": False},
    }
    try:
        completion = await client.async_complete(request)
    except BadRequest as err:
        _turn_off(client, f"the endpoint rejected it: {err.detail}")
        return None
    content = completion.choices[0].message.content if completion.choices else None
    try:
        answer = json.loads(content or "")
    except json.JSONDecodeError:
        _turn_off(client, "the answer was not JSON")
        return None
    if not isinstance(answer, dict):
        _turn_off(client, "the answer was not a JSON object")
        return None
    client.structured_output = True
    return answer


def _turn_off(client: EndpointClient, why: str) -> None:
    """Remember that this endpoint gives no structured output, and say so once.

    An endpoint that has answered in JSON before keeps trying: one cut answer is no proof.
    """
    if client.structured_output is not None:
        LOGGER.debug("No structured answer from %s this time: %s", client.base_url, why)
        return
    client.structured_output = False
    LOGGER.info("Structured output is off for %s: %s; device commands use tools", client.base_url, why)
