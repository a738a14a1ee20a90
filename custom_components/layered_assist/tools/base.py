"""What a tool is: its declaration, what its handler receives and may return."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import voluptuous as vol

from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

if TYPE_CHECKING:
    from ..owners import Owner

# Marks a tool result that is the answer itself; the loop speaks it without
# asking the model again.
DIRECT_RESPONSE_KEY = "direct_response"
SPEECH_KEY = "speech"
# A result with this key reports a failed call (a tool error result where HA has them).
ERROR_KEY = "error"


class OwnerLookup(Protocol):
    """Finds the entry (and agent) a call belongs to; raises a translated error when unclear."""

    def __call__(self, *, need_agent: bool = False) -> "Owner":
        """Return the owner."""


@dataclass(frozen=True, slots=True)
class ToolRequest:
    """What a handler receives: HA, the LLM context, validated arguments and who is asking."""

    hass: HomeAssistant
    llm_context: llm.LLMContext
    args: dict[str, Any]
    owner: OwnerLookup

    @property
    def language(self) -> str:
        """Return the conversation language, HA's own when the context has none."""
        return self.llm_context.language or self.hass.config.language


@dataclass(frozen=True, slots=True)
class ModelResult:
    """Data for the model, fed back as the tool result."""

    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DirectResponse:
    """Text spoken to the user as is, ending the turn with no further model round."""

    speech: str
    data: dict[str, Any] = field(default_factory=dict)


type ToolOutcome = ModelResult | DirectResponse | None
type ToolHandler = Callable[[ToolRequest], Awaitable[ToolOutcome]]


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolTraits:
    """How a tool behaves, shown to clients as tool annotations where HA has them."""

    read_only: bool = False
    destructive: bool = True
    idempotent: bool = False
    open_world: bool = True


# Reads Home Assistant or computes; changes nothing.
LOOKUP = ToolTraits(read_only=True, destructive=False, idempotent=True, open_world=False)
# Reads a service on the internet.
WEB_LOOKUP = ToolTraits(read_only=True, destructive=False, idempotent=True, open_world=True)
# Adds an item (an alarm, a memo) and removes nothing.
ADDS = ToolTraits(destructive=False, open_world=False)
# Sets a value of the conversation; setting it again changes nothing.
SETS = ToolTraits(destructive=False, idempotent=True, open_world=False)
# Removes stored data.
REMOVES = ToolTraits(destructive=True, idempotent=True, open_world=False)
# Changes devices in the home.
CONTROLS = ToolTraits(destructive=True, open_world=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolSpec:
    """A tool: name, description, argument schema, handler and behaviour."""

    name: str
    traits: ToolTraits
    description: str
    parameters: vol.Schema
    handler: ToolHandler
    # Whose data or settings the tool uses: an entry's stores, or an agent's options.
    owned_by: Literal["entry", "agent"] | None = None


def outcome_to_json(outcome: ToolOutcome) -> dict[str, Any]:
    """Return the JSON a handler's outcome becomes in the chat log."""
    if isinstance(outcome, DirectResponse):
        return {DIRECT_RESPONSE_KEY: True, SPEECH_KEY: outcome.speech, **outcome.data}
    if isinstance(outcome, ModelResult):
        return outcome.data
    return {"success": True}


def direct_speech(result: Any) -> str | None:
    """Return the speech of a direct-response result, else None."""
    if isinstance(result, dict) and result.get(DIRECT_RESPONSE_KEY) is True:
        speech = result.get(SPEECH_KEY)
        return speech if isinstance(speech, str) else None
    return None
