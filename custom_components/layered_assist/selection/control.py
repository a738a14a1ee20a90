"""Layer 3: the ``control_devices`` tool, whose schema lists only this turn's candidates."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
import json
from typing import Any

import voluptuous as vol

from homeassistant.core import Context, HomeAssistant

from ..localize import async_text, is_chinese
from ..tools.base import CONTROLS, DirectResponse, ModelResult, ToolOutcome, ToolRequest, ToolSpec
from .capabilities import ALL_RISKS, CommandError, commands_for, is_sensitive
from .catalog import DeviceCatalog
from .execute import PlannedCommand, async_execute, async_phrase, plan_command

CONTROL_TOOL = "control_devices"
MAX_COMMANDS = 64


@dataclass
class DeviceTurn:
    """One turn's candidates and what the tool did in it."""

    catalog: DeviceCatalog
    candidates: list[str]
    # For HA's other agents, which bring their own device context: any exposed device.
    any_device: bool = False
    # A device command: the model needs no other tool for it.
    devices_only: bool = False
    risks: frozenset[str] = frozenset(ALL_RISKS)
    # Keeps risky commands for the user's confirmation and returns the question.
    hold: Callable[[list[PlannedCommand], str], Awaitable[str]] | None = None
    attempts: int = 0
    acted_on: list[str] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)

    def allowed(self, entity_id: str) -> bool:
        """Tell whether the model may act on an entity this turn."""
        if self.catalog.entry(entity_id) is None:
            return False
        return self.any_device or entity_id in self.candidates

    @property
    def offers_control(self) -> bool:
        """Tell whether there is anything the model could control."""
        return self.any_device or bool(self.candidates)

    def describe(self, hass: HomeAssistant) -> str:
        """Return the candidates, grouped under the commands they share, one line each."""
        groups: dict[str, list[str]] = {}
        for entity_id in self.candidates:
            entry = self.catalog.entry(entity_id)
            state = hass.states.get(entity_id)
            if entry is None or state is None:
                continue
            area = self.catalog.area_of(entry)
            commands = ", ".join(spec.describe() for spec in commands_for(state).values()) or "read only"
            name = json.dumps(entry.name, ensure_ascii=False)
            place = f" @{json.dumps(area.name, ensure_ascii=False)}" if area else ""
            groups.setdefault(commands, []).append(f"{entity_id} {name}{place} {state.state}")
        return "\n".join(f"[{commands}]\n" + "\n".join(lines) for commands, lines in groups.items())


def control_tool(hass: HomeAssistant, turn: DeviceTurn) -> ToolSpec:
    """Return the control tool for one turn."""
    entity_ids = [e for e in turn.candidates if turn.catalog.entry(e) is not None]
    command_names = sorted(
        {name for e in entity_ids if (state := hass.states.get(e)) for name in commands_for(state)}
    )
    entity_schema: Any = vol.In(entity_ids) if entity_ids else str
    command_schema: Any = vol.In(command_names) if command_names else str
    item = vol.Schema(
        {
            vol.Required("entity_id"): entity_schema,
            vol.Required("command"): command_schema,
            vol.Optional("params"): dict,
        }
    )

    async def handle(request: ToolRequest) -> ToolOutcome:
        return await _async_control(request, turn)

    return ToolSpec(
        name=CONTROL_TOOL,
        traits=CONTROLS,
        description="Control listed devices with their listed commands and param ranges.",
        parameters=vol.Schema({vol.Required("commands"): [item]}),
        handler=handle,
    )


async def _async_control(request: ToolRequest, turn: DeviceTurn) -> ToolOutcome:
    """Validate every command, run the valid ones in parallel, answer directly when all went well."""
    hass = request.hass
    turn.attempts += 1
    planned: list[PlannedCommand] = []
    held: list[PlannedCommand] = []
    errors: list[dict[str, str]] = []
    for item in request.args["commands"][:MAX_COMMANDS]:
        entity_id = item["entity_id"]
        command = item["command"]
        state = hass.states.get(entity_id)
        if state is None or not turn.allowed(entity_id):
            errors.append({"entity_id": entity_id, "error": "not an available device; use one from the list"})
            continue
        try:
            command_plan = plan_command(hass, entity_id, command, item.get("params"))
        except CommandError as err:
            errors.append({"entity_id": entity_id, "error": str(err)})
            continue
        if not is_sensitive(state, command, turn.risks):
            planned.append(command_plan)
        elif turn.hold is not None:
            held.append(command_plan)
        else:
            errors.append({"entity_id": entity_id, "error": "this command needs the user's confirmation"})

    context = request.llm_context.context or Context()
    report = await async_execute(hass, planned, context) if planned else None
    if report is not None:
        turn.acted_on.extend(e for e in report.acted_on if e not in turn.acted_on)
        turn.commands.extend(o.command.as_record() for o in report.outcomes if o.ok)
    failed = report is not None and not report.all_ok
    if (errors and turn.attempts == 1) or failed:
        # The model fixes invalid commands once, and phrases failures itself.
        return ModelResult(
            {
                "done": report.acted_on if report else [],
                "failed": [
                    {"entity_id": o.command.entity_id, "error": o.error} for o in report.outcomes if not o.ok
                ]
                if report
                else [],
                "invalid": errors,
            }
        )
    parts = []
    if report is not None and report.outcomes:
        parts.append(await async_phrase(hass, request.language, report))
    if held and turn.hold is not None:
        parts.append(await turn.hold(held, request.language))
    if errors:
        names = [_name(hass, e["entity_id"]) for e in errors]
        joined = "、".join(names) if is_chinese(request.language) else ", ".join(names)
        parts.append(
            await async_text(hass, request.language, "replies", "invalid_command", {"names": joined})
        )
    return DirectResponse(" ".join(parts), {"done": turn.acted_on})


def _name(hass: HomeAssistant, entity_id: str) -> str:
    """Return an entity's friendly name for speech."""
    state = hass.states.get(entity_id)
    return str(state.attributes.get("friendly_name", entity_id)) if state else entity_id
