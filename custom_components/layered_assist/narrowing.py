"""Layer 2: an optional small model picks the targets among Layer 1's candidates.

It sees the numbered candidates, the conversation's recent devices and last turns,
and must answer with JSON ``{"targets": [numbers]}``. Anything else gets one retry;
then the layer steps aside and the main model sees every candidate.
"""

import json
from typing import Any

from homeassistant.core import HomeAssistant

from .chat.client import ChatRequest, EndpointClient
from .chat.errors import EndpointError
from .const import LOGGER
from .selection.catalog import DeviceCatalog
from .state import ConversationState

INSTRUCTIONS = (
    "You pick which smart-home devices a request is about. Answer only with JSON "
    '{"targets": [n, ...]} using the numbers of the list; [] when none fits.'
)
MAX_TOKENS = 60


class InvalidChoice(ValueError):
    """The small model's answer is not a usable choice."""


def parse_choice(text: str, count: int) -> list[int]:
    """Return the chosen 1-based numbers, or raise InvalidChoice."""
    stripped = text.strip().removeprefix("```json").removeprefix("```").removesuffix("```").strip()
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError as err:
        raise InvalidChoice(f"not JSON: {err.msg}") from err
    if not isinstance(value, dict) or not isinstance(value.get("targets"), list):
        raise InvalidChoice('expected {"targets": [numbers]}')
    numbers = value["targets"]
    if not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= count for n in numbers):
        raise InvalidChoice(f"targets must be numbers from 1 to {count}")
    return list(dict.fromkeys(numbers))


class CandidateFilter:
    """Asks a small model to narrow the candidates of an uncertain turn."""

    def __init__(self, client: EndpointClient, model: str, timeout: float) -> None:
        """Bind to the small model's endpoint."""
        self.client = client
        self.model = model
        self.timeout = timeout

    async def async_narrow(
        self,
        hass: HomeAssistant,
        catalog: DeviceCatalog,
        text: str,
        candidates: list[str],
        state: ConversationState,
    ) -> list[str] | None:
        """Return the chosen candidates, or None when the layer steps aside."""
        if len(candidates) <= 1:
            return None
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": self._prompt(hass, catalog, text, candidates, state)},
        ]
        for attempt in range(2):
            request = ChatRequest(
                model=self.model,
                messages=messages,
                temperature=0.0,
                max_tokens=MAX_TOKENS,
                stream=False,
                timeout=self.timeout,
            )
            try:
                completion = await self.client.async_complete(request)
            except EndpointError as err:
                LOGGER.debug("Small model unavailable, skipping it: %s", err.detail)
                return None
            answer = completion.choices[0].message.content or "" if completion.choices else ""
            try:
                chosen = parse_choice(answer, len(candidates))
            except InvalidChoice as err:
                LOGGER.debug("Small model answer %r rejected (attempt %s): %s", answer, attempt + 1, err)
                messages += [
                    {"role": "assistant", "content": answer},
                    {"role": "user", "content": f"Invalid: {err}. Answer again with the JSON only."},
                ]
                continue
            return [candidates[n - 1] for n in chosen] or None
        return None

    @staticmethod
    def _prompt(
        hass: HomeAssistant,
        catalog: DeviceCatalog,
        text: str,
        candidates: list[str],
        state: ConversationState,
    ) -> str:
        """Return the numbered candidates and the conversation so far."""
        lines = []
        for number, entity_id in enumerate(candidates, 1):
            entry = catalog.entry(entity_id)
            area = catalog.area_of(entry) if entry else None
            name = json.dumps(entry.name if entry else entity_id, ensure_ascii=False)
            place = f" @{json.dumps(area.name, ensure_ascii=False)}" if area else ""
            current = hass.states.get(entity_id)
            lines.append(f"{number}. {entity_id} {name}{place} {current.state if current else ''}".rstrip())
        recent = ", ".join(state.recent_devices) or "none"
        turns = " | ".join(
            f"{t.get('user', '')} -> {t.get('assistant', '')}" for t in state.recent_turns[-3:]
        )
        return (
            "Devices:\n" + "\n".join(lines) + f"\nRecently used: {recent}\n"
            f"Earlier turns: {turns or 'none'}\nRequest: {json.dumps(text, ensure_ascii=False)}"
        )
