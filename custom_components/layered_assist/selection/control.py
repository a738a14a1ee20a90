"""Layer 3: the ``control_devices`` tool, whose schema lists only this turn's candidates."""

from collections.abc import Iterable
from dataclasses import dataclass, field
import json
from typing import Any

import voluptuous as vol

from homeassistant.core import Context, HomeAssistant

from ..localize import async_text, is_chinese
from ..tools.base import CONTROLS, DirectResponse, ModelResult, ToolOutcome, ToolRequest, ToolSpec
from .capabilities import ALL_RISKS, CommandError, Param, commands_for
from .carry_out import Hold, async_carry_out
from .catalog import DeviceCatalog
from .execute import PlannedCommand, plan_command, spoken_names
from .recall import Recall

CONTROL_TOOL = "control_devices"
MAX_COMMANDS = 64
# Most commands a schema-held answer may list (a bound also keeps the grammar finite).
MAX_SCHEMA_COMMANDS = 16


@dataclass
class DeviceTurn:
    """One turn's candidates and how the tool may act on them; what it did is in its results."""

    catalog: DeviceCatalog
    candidates: list[str]
    # For HA's other agents, which bring their own device context: any exposed device.
    any_device: bool = False
    # A device command: the model needs no other tool for it.
    devices_only: bool = False
    risks: frozenset[str] = frozenset(ALL_RISKS)
    # Keeps risky commands for the user's confirmation and returns the question.
    hold: Hold | None = None
    attempts: int = 0
    # The only commands the sentence can mean (all switch-ons, say), or None for any.
    allowed_commands: frozenset[str] | None = None
    # The candidates the sentence names, or asks for by their kind; None when it cannot tell.
    said: frozenset[str] | None = None
    # The entities a command of this turn changed, whoever asked for it.
    acted_on: list[str] = field(default_factory=list)

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


# A candidate named (nearly) as well as the best-named one of its clause is "named": of
# 净化器童锁 the purifier's child lock, not the purifier.
NAMED_SHARE = 0.95


def said_devices(recall: Recall, catalog: DeviceCatalog) -> frozenset[str] | None:
    """Return the candidates a sentence names, or asks for by kind and place; None if it cannot tell.

    A model may act only on these: of "鱼缸关一下" the fish tank's plug, not the lights
    beside it; of "turn off the lights" the lights (of the room, if one is said).
    """
    said: set[str] = set()
    for segment in recall.commands:
        named = [c for c in segment.candidates if c.name_score > 0]
        if named:
            best = max(c.name_score for c in named)
            said.update(c.entity_id for c in named if c.name_score >= NAMED_SHARE * best)
            continue
        if not segment.domains:
            if not segment.actions:
                continue  # a remark beside the request ("我要倒水")
            return None  # "turn it off", "that one": nothing to check against
        for candidate in segment.candidates:
            entry = catalog.entry(candidate.entity_id)
            if entry is None or entry.domain not in segment.domains:
                continue
            place = catalog.area_of(entry)
            if not segment.areas or (place is not None and place.id in segment.areas):
                said.add(candidate.entity_id)
    return frozenset(said) if said else None


def command_schema(hass: HomeAssistant, turn: DeviceTurn) -> dict[str, Any] | None:
    """Return the JSON schema of this turn's possible commands, the control tool's arguments.

    Each command is one variant listing the candidates that take it and its parameters
    with their ranges, so a model held to the schema can only name what exists.
    """
    groups: dict[tuple[str, tuple[Param, ...]], list[str]] = {}
    for entity_id in turn.candidates:
        if turn.catalog.entry(entity_id) is None or (state := hass.states.get(entity_id)) is None:
            continue
        for spec in commands_for(state).values():
            if turn.allowed_commands is not None and spec.name not in turn.allowed_commands:
                continue
            groups.setdefault((spec.name, spec.params), []).append(entity_id)
    if not groups:
        return None
    variants = [_variant(command, params, entity_ids) for (command, params), entity_ids in groups.items()]
    return {
        "type": "object",
        "properties": {
            "commands": {"type": "array", "items": {"anyOf": variants}, "maxItems": MAX_SCHEMA_COMMANDS}
        },
        "required": ["commands"],
        "additionalProperties": False,
    }


def _variant(command: str, params: tuple[Param, ...], entity_ids: list[str]) -> dict[str, Any]:
    """Return the schema of one command for the candidates that take it."""
    properties: dict[str, Any] = {"entity_id": {"enum": entity_ids}, "command": {"const": command}}
    required = ["entity_id", "command"]
    if params:
        properties["params"] = {
            "type": "object",
            "properties": {param.name: _param_schema(param) for param in params},
            "additionalProperties": False,
        }
        # A command with one parameter needs it, except turning on (a bare turn_on is whole).
        if len(params) == 1 and command != "turn_on":
            properties["params"]["required"] = [params[0].name]
            required.append("params")
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _param_schema(param: Param) -> dict[str, Any]:
    """Return the JSON schema of one parameter, with its range or choices."""
    if param.kind in ("number", "int"):
        whole = param.kind == "int"
        schema: dict[str, Any] = {"type": "integer" if whole else "number"}
        for key, bound in (("minimum", param.minimum), ("maximum", param.maximum)):
            if bound is not None:
                schema[key] = int(bound) if whole else bound
        return schema
    if param.kind == "enum":
        return {"enum": list(param.options)}
    if param.kind == "color":
        channel = {"type": "integer", "minimum": 0, "maximum": 255}
        return {"type": "array", "items": channel, "minItems": 3, "maxItems": 3}
    return {"type": "boolean"}


async def _async_control(request: ToolRequest, turn: DeviceTurn) -> ToolOutcome:
    """Validate every command, run the valid ones in parallel, answer directly when all went well."""
    hass = request.hass
    turn.attempts += 1
    planned: list[PlannedCommand] = []
    errors: list[dict[str, str]] = []
    unnamed: list[str] = []
    for item in request.args["commands"][:MAX_COMMANDS]:
        entity_id = item["entity_id"]
        if hass.states.get(entity_id) is None or not turn.allowed(entity_id):
            errors.append({"entity_id": entity_id, "error": "not an available device; use one from the list"})
            continue
        if turn.said is not None and entity_id not in turn.said:
            # Small models add devices nobody named: those are left alone, and the user hears so.
            unnamed.append(entity_id)
            continue
        if turn.allowed_commands is not None and item["command"] not in turn.allowed_commands:
            errors.append(
                {"entity_id": entity_id, "error": "not what the user asked for: " + item["command"]}
            )
            continue
        try:
            planned.append(plan_command(hass, entity_id, item["command"], item.get("params")))
        except CommandError as err:
            errors.append({"entity_id": entity_id, "error": str(err)})
    context = request.llm_context.context or Context()
    done = await async_carry_out(hass, planned, context, request.language, risks=turn.risks, hold=turn.hold)
    if turn.hold is None:
        # No one to ask (HA's other agents): carry_out ran none of the risky commands.
        errors.extend(
            {"entity_id": c.entity_id, "error": "this command needs the user's confirmation"}
            for c in done.held
        )
    turn.acted_on.extend(e for e in done.acted_on if e not in turn.acted_on)
    effects = {"done": done.acted_on, "commands": done.commands}
    if unnamed and not done.acted_on and not done.held:
        errors.extend({"entity_id": e, "error": "the user did not name this device"} for e in unnamed)
        unnamed = []
    if (errors and turn.attempts == 1) or not done.report.all_ok:
        # The model fixes invalid commands once, and phrases failures itself.
        failed = [
            {"entity_id": o.command.entity_id, "error": o.error} for o in done.report.outcomes if not o.ok
        ]
        return ModelResult({**effects, "failed": failed, "invalid": errors})
    parts = [done.speech] if done.speech else []
    chinese = is_chinese(request.language)
    if errors:
        names = spoken_names(hass, [e["entity_id"] for e in errors], chinese)
        parts.append(await async_text(hass, request.language, "replies", "invalid_command", {"names": names}))
    if unnamed:
        names = spoken_names(hass, unnamed, chinese)
        parts.append(await async_text(hass, request.language, "replies", "not_named", {"names": names}))
    return DirectResponse(" ".join(parts), effects)


def control_effects(results: Iterable[tuple[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """Return what the control tool did in a turn, from its (tool name, result) pairs."""
    acted: list[str] = []
    commands: list[dict[str, Any]] = []
    for name, data in results:
        # HA prefixes tools of merged APIs ("layered_assist__control_devices").
        if not name.endswith(CONTROL_TOOL) or not isinstance(data, dict):
            continue
        acted.extend(str(e) for e in data.get("done") or [] if str(e) not in acted)
        commands.extend(c for c in data.get("commands") or [] if isinstance(c, dict))
    return acted, commands
