"""Layer 1 with local action: recall the sentence, then act, answer, or pass it on."""

from collections.abc import Callable

from homeassistant.core import HomeAssistant

from ..localize import async_reply, is_chinese
from ..turn import Turn, TurnOutcome
from .carry_out import Hold, async_carry_out
from .engine import SelectionEngine


class LocalLayer:
    """Carries out what the local rules are sure of; answers questions and "don't"s."""

    name = "local"

    def __init__(
        self,
        hass: HomeAssistant,
        engine: SelectionEngine,
        risks: frozenset[str],
        hold_for: Callable[[str], Hold],
    ) -> None:
        """Bind to the agent's engine and its way of holding risky commands."""
        self.hass = hass
        self.engine = engine
        self.risks = risks
        self.hold_for = hold_for

    async def async_handle(self, turn: Turn) -> TurnOutcome | None:
        """Recall the turn's devices; act or answer when sure, else leave the recall to later layers."""
        recall = turn.recall
        if places := recall.unknown_places:
            # "turn off the lights upstairs" in a home with no upstairs: say so, touch nothing.
            joined = "、" if is_chinese(turn.language) else ", "
            speech = await async_reply(
                self.hass, turn.language, "unknown_place", {"places": joined.join(places)}
            )
            return TurnOutcome("local_answer", speech)
        if planned := self.engine.plan(recall, turn.state, turn.area):
            done = await async_carry_out(
                self.hass,
                planned,
                turn.user_input.context,
                turn.language,
                risks=self.risks,
                hold=self.hold_for(turn.conversation_id),
            )
            # What is held for a yes is what the turn was about: "算啦，鎖返佢" is that lock.
            held = [c.entity_id for c in done.held]
            return TurnOutcome("local_action", done.speech, done.acted_on, done.commands, subjects=held)
        return await self.engine.async_answer(recall, turn.language)
