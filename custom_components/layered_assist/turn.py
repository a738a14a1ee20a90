"""One turn of a conversation: what every layer reads, and what a layer returns.

The pipeline asks each layer in turn; a layer answers with a ``TurnOutcome`` (handled), a
``Passed`` (not handled, with what it found out on the way) or ``None`` (not mine). The turn
is frozen: no layer writes into it; the driver records what the layers returned.
"""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from homeassistant.components import conversation

from .state import ConversationState

if TYPE_CHECKING:
    from .language.reading import Reading
    from .selection.recall import Recall


@dataclass(slots=True)
class TurnOutcome:
    """What a layer did with a turn."""

    layer: str
    speech: str = ""
    acted_on: list[str] = field(default_factory=list)
    # Records of the commands carried out (for "再来一次").
    commands: list[dict[str, Any]] = field(default_factory=list)
    # Devices the turn was about without acting on them (a question): 它 refers to them next.
    subjects: list[str] = field(default_factory=list)
    # Set when the layer's answer is already in the chat log or is an error result.
    result: conversation.ConversationResult | None = None
    # How many candidate devices the model was shown.
    candidates: int = 0


@dataclass(frozen=True, slots=True)
class Passed:
    """A layer did not handle the turn; what it found out on the way (for diagnostics)."""

    # HA's own sentence matcher was asked and did not handle the sentence.
    asked_ha: bool = False


@dataclass(frozen=True, slots=True)
class Turn:
    """One user message on its way through the layers."""

    user_input: conversation.ConversationInput
    chat_log: conversation.ChatLog
    # The agent entity that answers.
    agent_id: str
    state: ConversationState
    # The area of the device the user speaks through.
    area: str | None
    # The one reading of the sentence, and the devices it points at: read before any layer.
    reading: "Reading"
    recall: "Recall"

    @property
    def conversation_id(self) -> str:
        """Return the conversation's id."""
        return self.chat_log.conversation_id

    @property
    def text(self) -> str:
        """Return what the user said."""
        return self.user_input.text

    @property
    def language(self) -> str:
        """Return the conversation's language."""
        return self.user_input.language


class Layer(Protocol):
    """A layer of the pipeline."""

    # What the layer does, as diagnostics and the benchmarks name it.
    name: str

    async def async_handle(self, turn: Turn) -> TurnOutcome | Passed | None:
        """Handle the turn and say how, or pass it on (with what was found, or None)."""
