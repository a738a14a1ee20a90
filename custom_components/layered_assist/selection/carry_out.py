"""The one place where planned commands are risk-gated, carried out and phrased.

Local plans, confirmed risky commands and the model's ``control_devices`` tool all
come here, so every path asks before opening the home up, passes the user's context
(HA's permissions apply) and words the outcome the same way.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from homeassistant.core import Context, HomeAssistant

from ..localize import is_chinese
from .capabilities import ALL_RISKS, is_sensitive
from .execute import ExecutionReport, PlannedCommand, async_execute, async_phrase

# Keeps risky commands for the user's confirmation; returns the question to ask.
type Hold = Callable[[list[PlannedCommand], str], Awaitable[str]]


@dataclass(slots=True)
class CarriedOut:
    """What became of a batch of commands."""

    speech: str = ""
    report: ExecutionReport = field(default_factory=ExecutionReport)
    held: list[PlannedCommand] = field(default_factory=list)

    @property
    def acted_on(self) -> list[str]:
        """Return the entities whose command succeeded."""
        return self.report.acted_on

    @property
    def commands(self) -> list[dict[str, Any]]:
        """Return records of the commands that succeeded."""
        return [o.command.as_record() for o in self.report.outcomes if o.ok]


def risky(hass: HomeAssistant, planned: list[PlannedCommand], risks: frozenset[str]) -> list[PlannedCommand]:
    """Return the commands that need the user's confirmation."""
    return [
        c
        for c in planned
        if (state := hass.states.get(c.entity_id)) and is_sensitive(state, c.command, risks)
    ]


async def async_carry_out(
    hass: HomeAssistant,
    planned: list[PlannedCommand],
    context: Context,
    language: str,
    *,
    risks: frozenset[str] = frozenset(ALL_RISKS),
    hold: Hold | None = None,
) -> CarriedOut:
    """Run the safe commands now and hold the risky ones (with ``hold``; none are run without)."""
    held = risky(hass, planned, risks)
    safe = [c for c in planned if c not in held]
    parts = []
    report = ExecutionReport()
    if safe:
        report = await async_execute(hass, safe, context)
        parts.append(await async_phrase(hass, language, report))
    if held and hold is not None:
        parts.append(await hold(held, language))
    separator = "" if is_chinese(language) else " "
    return CarriedOut(separator.join(parts), report, held)
