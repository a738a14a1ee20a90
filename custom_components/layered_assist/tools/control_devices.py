"""The ``control_devices`` tool: its schema lists only this turn's candidates."""

from dataclasses import dataclass, field
import json
from typing import Any

import voluptuous as vol

from homeassistant.core import Context, HomeAssistant, State

from ..language.actions import Action
from ..language.names import name_key
from ..language.reading import Mood
from ..localize import async_reply, is_chinese
from ..selection.capabilities import ALL_RISKS, CommandError, Param, commands_for, commands_meant
from ..selection.carry_out import Hold, async_carry_out
from ..selection.catalog import DeviceCatalog
from ..selection.execute import PlannedCommand, plan_command, spoken_names
from ..selection.local_commands import command_for_action
from ..selection.recall import Candidate, Recall, Segment
from .base import CONTROLS, DirectResponse, ModelResult, ToolOutcome, ToolRequest, ToolSpec

CONTROL_TOOL = "control_devices"
MAX_COMMANDS = 64
# Most commands a schema-held answer may list (a bound also keeps the grammar finite).
MAX_SCHEMA_COMMANDS = 16


@dataclass(frozen=True, slots=True)
class SaidRequest:
    """One clause that asks for something: the devices it names and what it asks."""

    # The candidates it names, or asks for by kind and place; None when it cannot tell ("turn it off").
    devices: frozenset[str] | None
    actions: tuple[Action, ...]
    # The areas it says ("掃吓廚房": the kitchen is what is to be cleaned).
    areas: frozenset[str] = frozenset()


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
    # What the sentence asks, clause by clause (none known: the model may do anything listed).
    requests: tuple[SaidRequest, ...] = ()
    # What the tool did this turn, recorded as it happens: the entities a command changed,
    # and the records of the commands carried out (for "再来一次").
    acted_on: list[str] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)

    @property
    def allowed_commands(self) -> frozenset[str] | None:
        """Return the only commands the sentence can mean (all switch-ons, say), or None for any."""
        return commands_meant({action.kind.value for r in self.requests for action in r.actions})

    @property
    def said(self) -> frozenset[str] | None:
        """Return the candidates the sentence names or asks for by kind; None when it cannot tell."""
        if any(request.devices is None for request in self.requests):
            return None
        said = frozenset().union(*(request.devices or () for request in self.requests))
        return said or None

    def cleans_elsewhere(self, entity_id: str, command: str) -> bool:
        """Tell whether a vacuum would clean the whole home when a room was asked for.

        "叫部掃地機掃吓廚房": HA's ``vacuum.start`` cleans everywhere, not the kitchen.
        """
        if entity_id.split(".", 1)[0] != "vacuum" or command not in ("start", "turn_on"):
            return False
        entry = self.catalog.entry(entity_id)
        home = entry.area_id if entry is not None else None
        return any(
            r.areas and home not in r.areas
            for r in self.requests
            if r.devices is None or entity_id in r.devices
        )

    def actions_for(self, entity_id: str) -> list[Action]:
        """Return what the clauses that may mean this entity ask."""
        return [
            action
            for request in self.requests
            if request.devices is None or entity_id in request.devices
            for action in request.actions
        ]

    def allowed(self, entity_id: str) -> bool:
        """Tell whether the model may act on an entity this turn."""
        if self.catalog.entry(entity_id) is None:
            return False
        return self.any_device or entity_id in self.candidates

    @property
    def offers_control(self) -> bool:
        """Tell whether there is anything the model could control."""
        return self.any_device or bool(self.candidates)

    def describe(self, hass: HomeAssistant, *, short_ids: bool = False) -> str:
        """Return the candidates, grouped under the commands they share, one line each.

        With ``short_ids`` each is listed by its handle ("d3") instead of its entity id.
        """
        groups: dict[str, list[str]] = {}
        handles = {entity_id: handle for handle, entity_id in self.handles.items()}
        for entity_id in self.candidates:
            entry = self.catalog.entry(entity_id)
            state = hass.states.get(entity_id)
            if entry is None or state is None:
                continue
            area = self.catalog.area_of(entry)
            commands = ", ".join(spec.describe() for spec in commands_for(state).values()) or "read only"
            name = json.dumps(entry.name, ensure_ascii=False)
            place = f" @{json.dumps(area.name, ensure_ascii=False)}" if area else ""
            listed = handles[entity_id] if short_ids else entity_id
            groups.setdefault(commands, []).append(f"{listed} {name}{place} {state.state}")
        return "\n".join(f"[{commands}]\n" + "\n".join(lines) for commands, lines in groups.items())

    @property
    def handles(self) -> dict[str, str]:
        """Return a short handle ("d1", "d2" …) for each known candidate, in the candidates' order.

        A model writes every character of an answer one token at a time: "d3" instead of
        "light.yeelink_bslamp2_77d4_light" makes a schema-held answer seconds shorter.
        """
        known = [e for e in self.candidates if self.catalog.entry(e) is not None]
        return {f"d{index}": entity_id for index, entity_id in enumerate(known, start=1)}

    def commands_from_answer(self, answer: list[Any]) -> list[Any]:
        """Return a schema-held answer's commands as the control tool takes them (entity ids)."""
        handles = self.handles
        commands: list[Any] = []
        for item in answer:
            if not isinstance(item, dict) or "device" not in item:
                commands.append(item)
                continue
            device = str(item["device"])
            rest = {key: value for key, value in item.items() if key != "device"}
            commands.append({"entity_id": handles.get(device, device), **rest})
        return commands


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


def said_requests(recall: Recall, catalog: DeviceCatalog) -> tuple[SaidRequest, ...]:
    """Return what each clause of a sentence asks, and of which candidates.

    A model may act only on the devices named: of "鱼缸关一下" the fish tank's plug, not the
    lights beside it; of "turn off the lights" the lights (of the room, if one is said). What a
    sentence does not want is no request, but what it names is what "it" is next ("don't
    turn the TV off, just mute it": the TV, muted).
    """
    requests: list[SaidRequest] = []
    before: frozenset[str] | None = None
    for segment in recall.commands:
        devices = _devices_said(segment, catalog)
        if segment.clause.mood is Mood.NEGATION:
            before = devices
            continue
        named = [c for c in segment.candidates if c.name_score > 0]
        if not named and not segment.domains and not segment.actions:
            continue  # a remark beside the request ("我要倒水")
        if devices is None and before:
            devices = before
        said_here = frozenset() if segment.area_inherited else frozenset(segment.areas)
        requests.append(SaidRequest(devices, segment.actions, said_here))
        before = devices
    return tuple(requests)


def _devices_said(segment: Segment, catalog: DeviceCatalog) -> frozenset[str] | None:
    """Return the candidates one clause names, or asks for by kind and place."""
    if segment.confident and segment.targets:
        return frozenset(segment.targets)  # sure of them ("mute it": the TV of the clause before)
    named = [c for c in segment.candidates if c.name_score > 0]
    # "Dyson" names the fan aliased Dyson, not its Night-mode switch of that make; "小米台灯" the
    # 米家台灯, not every Xiaomi plug: a device named only by its maker is not named beside one
    # named by its own name.
    own = [c for c in named if not _by_maker(catalog, c)]
    named = own or named
    if named:
        best = max(c.name_score for c in named)
        return frozenset(c.entity_id for c in named if c.name_score >= NAMED_SHARE * best)
    if not segment.domains:
        return None  # "turn it off", "that one": nothing to check against
    said: set[str] = set()
    for candidate in segment.candidates:
        entry = catalog.entry(candidate.entity_id)
        if entry is None or entry.domain not in segment.domains:
            continue
        place = catalog.area_of(entry)
        if not segment.areas or (place is not None and place.id in segment.areas):
            said.add(candidate.entity_id)
    # (None of the kind where it is said: "in here" of a room the thermostat is not in.)
    return frozenset(said) or None


def _by_maker(catalog: DeviceCatalog, candidate: Candidate) -> bool:
    """Tell whether the name that matched a candidate best is its device's maker or model."""
    entry = catalog.entry(candidate.entity_id)
    return entry is not None and name_key(candidate.name) in entry.brand_names


# Parameters that set one thing, any of which replaces the others ("brightness_pct" and
# "brightness_step_pct" both say how bright).
_SAME_SETTING = (
    frozenset({"brightness", "brightness_pct", "brightness_step", "brightness_step_pct"}),
    frozenset({"color_temp_kelvin", "rgb_color", "hs_color", "xy_color", "color_name"}),
)


def said_params(
    hass: HomeAssistant, state: State, command: str, params: dict[str, Any] | None, actions: list[Action]
) -> dict[str, Any] | None:
    """Return a model's parameters with the values the sentence said in their place.

    The model picks the device and the command; a number or choice the user said is theirs
    ("bump the heat up a degree" is the current setting plus one, not whatever the model
    wrote). Raise CommandError when the sentence says several values and the model's is
    none of them.
    """
    read_as = [command_for_action(hass, state, action) for action in actions]
    if None in read_as:
        # A request the device cannot take as read ("转暖光啲" read as warmer and brighter, of
        # a lamp): the reading is in doubt, so are its values.
        return params
    meant = [
        wanted for local in read_as if local is not None and local[0] == command and (wanted := local[1])
    ]
    if not meant:
        return params
    merged: dict[str, Any] = {}
    for wanted in meant:
        for key, value in wanted.items():
            if merged.setdefault(key, value) != value:
                if params is not None and any(params.items() >= p.items() for p in meant):
                    return params  # one of the values said ("24 here, 26 there")
                raise CommandError(f"the user said {' or '.join(json.dumps(p) for p in meant)}")
    replaced = {key for family in _SAME_SETTING if family & merged.keys() for key in family}
    kept = {key: value for key, value in (params or {}).items() if key not in replaced}
    return {**kept, **merged}


def command_schema(hass: HomeAssistant, turn: DeviceTurn) -> dict[str, Any] | None:
    """Return the JSON schema of this turn's possible commands, the control tool's arguments.

    Each command is one variant listing the candidates that take it (by their handles) and
    its parameters with their ranges, so a model held to the schema can only name what exists.
    """
    groups: dict[tuple[str, tuple[Param, ...]], list[str]] = {}
    for handle, entity_id in turn.handles.items():
        if (state := hass.states.get(entity_id)) is None:
            continue
        for spec in commands_for(state).values():
            if turn.allowed_commands is not None and spec.name not in turn.allowed_commands:
                continue
            groups.setdefault((spec.name, spec.params), []).append(handle)
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


def _variant(command: str, params: tuple[Param, ...], handles: list[str]) -> dict[str, Any]:
    """Return the schema of one command for the candidates (by their handles) that take it."""
    properties: dict[str, Any] = {"device": {"enum": handles}, "command": {"const": command}}
    required = ["device", "command"]
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
    seen: set[str] = set()
    said, allowed_commands = turn.said, turn.allowed_commands
    for item in request.args["commands"][:MAX_COMMANDS]:
        entity_id = item["entity_id"]
        if (key := json.dumps(item, sort_keys=True, default=str)) in seen:
            continue  # small models repeat a command
        seen.add(key)
        if (state := hass.states.get(entity_id)) is None or not turn.allowed(entity_id):
            errors.append({"entity_id": entity_id, "error": "not an available device; use one from the list"})
            continue
        if said is not None and entity_id not in said:
            # Small models add devices nobody named: those are left alone, and the user hears so.
            unnamed.append(entity_id)
            continue
        if turn.cleans_elsewhere(entity_id, item["command"]):
            errors.append({"entity_id": entity_id, "error": "it cannot clean only the room asked for"})
            continue
        if allowed_commands is not None and item["command"] not in allowed_commands:
            errors.append(
                {"entity_id": entity_id, "error": "not what the user asked for: " + item["command"]}
            )
            continue
        try:
            command = item["command"]
            params = said_params(hass, state, command, item.get("params"), turn.actions_for(entity_id))
            planned.append(plan_command(hass, entity_id, command, params))
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
    turn.commands.extend(done.commands)
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
        parts.append(await async_reply(hass, request.language, "invalid_command", {"names": names}))
    if unnamed:
        names = spoken_names(hass, unnamed, chinese)
        parts.append(await async_reply(hass, request.language, "not_named", {"names": names}))
    return DirectResponse(" ".join(parts), effects)
