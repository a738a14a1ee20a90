"""Drive an agent's climate dialog from the tool, the service and the intent."""

from dataclasses import dataclass
from typing import Any

from homeassistant.core import Context

from ..compat import current_conversation_id
from .climate import ClimateDialog, DialogReply
from .hub import DialogHub


def conversation_key(explicit: str | None, fallback: str) -> str:
    """Return the conversation a dialog belongs to: given, current chat log, or a fallback."""
    return explicit or current_conversation_id() or fallback


@dataclass(slots=True)
class ClimateStep:
    """The outcome of one step of the climate dialog, for tools, services and intents."""

    reply: DialogReply

    def as_dict(self) -> dict[str, Any]:
        """Return the step as JSON: the speech, and the dialog or the final result."""
        data: dict[str, Any] = {"speech": self.reply.speech}
        if self.reply.result is not None:
            data["result"] = self.reply.result
        elif self.reply.dialog is not None:
            dialog = self.reply.dialog
            data["stage"] = dialog.stage
            data["dialog"] = dialog.as_dict()
        else:
            data["stage"] = "closed"
        return data


async def async_climate_step(
    hub: DialogHub, conversation_id: str, language: str, context: Context, **arguments: Any
) -> ClimateStep:
    """Advance a conversation's climate dialog by structured arguments and store it."""
    state = hub.states.get(conversation_id)
    dialog = ClimateDialog.from_dict(state.dialog) if state.dialog is not None else None
    reply = await hub.climate.async_arguments(dialog, language, context=context, **arguments)
    hub.states.set_dialog(conversation_id, dialog=reply.dialog.as_dict() if reply.dialog else None)
    return ClimateStep(reply)


async def async_climate_utterance(
    hub: DialogHub, conversation_id: str, text: str, language: str, context: Context
) -> ClimateStep | None:
    """Advance a conversation's climate dialog by an utterance; None if it is not for it."""
    state = hub.states.get(conversation_id)
    dialog = ClimateDialog.from_dict(state.dialog) if state.dialog is not None else None
    reply = await hub.climate.async_utterance(dialog, hub.climate.recall_of(text), language, context)
    if reply is None:
        return None
    hub.states.set_dialog(conversation_id, dialog=reply.dialog.as_dict() if reply.dialog else None)
    return ClimateStep(reply)
