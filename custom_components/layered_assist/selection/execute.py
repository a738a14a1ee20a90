"""Run validated commands through HA services and phrase the result.

Devices are called in parallel; one device's commands in order (on, then mode, then value).
"""

import asyncio
from dataclasses import dataclass, field, replace
from typing import Any

from homeassistant.const import ATTR_ENTITY_ID, ATTR_FRIENDLY_NAME, UnitOfTemperature
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError, Unauthorized
from homeassistant.util import color as color_util

from ..const import LOGGER
from ..localize import async_reply, is_chinese
from .capabilities import CommandError, validate_command


@dataclass(slots=True)
class PlannedCommand:
    """A command for one entity, validated against its state."""

    entity_id: str
    command: str
    params: dict[str, Any]
    service: str
    data: dict[str, Any]
    action: dict[str, Any] | None = None

    def as_record(self) -> dict[str, Any]:
        """Return what the conversation state keeps for "again"."""
        return {
            "entity_id": self.entity_id,
            "command": self.command,
            "params": self.params,
            "action": self.action,
        }


@dataclass(slots=True)
class CommandOutcome:
    """What happened to one command."""

    command: PlannedCommand
    error: str | None = None
    # HA refused the call: the user may not control the entity.
    refused: bool = False

    @property
    def ok(self) -> bool:
        """Tell whether the service call succeeded."""
        return self.error is None


@dataclass(slots=True)
class ExecutionReport:
    """The outcomes of one turn's commands."""

    outcomes: list[CommandOutcome] = field(default_factory=list)

    @property
    def acted_on(self) -> list[str]:
        """Return the entities whose command succeeded."""
        return list(dict.fromkeys(o.command.entity_id for o in self.outcomes if o.ok))

    @property
    def all_ok(self) -> bool:
        """Tell whether every command succeeded."""
        return all(o.ok for o in self.outcomes)


def plan_command(
    hass: HomeAssistant,
    entity_id: str,
    command: str,
    params: dict[str, Any] | None,
    action: dict[str, Any] | None = None,
) -> PlannedCommand:
    """Validate a command against the entity's current state, or raise CommandError."""
    state = hass.states.get(entity_id)
    if state is None:
        raise CommandError(f"{entity_id} does not exist")
    service, data = validate_command(state, command, params)
    return PlannedCommand(entity_id, command, dict(params or {}), service, data, action)


async def async_execute(
    hass: HomeAssistant, commands: list[PlannedCommand], context: Context
) -> ExecutionReport:
    """Call every command's service at once and collect the outcomes."""

    async def call(planned: PlannedCommand, entity_ids: str | list[str]) -> CommandOutcome:
        domain = planned.entity_id.split(".", 1)[0]
        try:
            await hass.services.async_call(
                domain,
                planned.service,
                {ATTR_ENTITY_ID: entity_ids, **planned.data},
                blocking=True,
                context=context,
            )
        except Unauthorized:
            LOGGER.info("Command %s on %s refused: the user may not control it", planned.command, entity_ids)
            return CommandOutcome(planned, "unauthorized", refused=True)
        except (HomeAssistantError, ValueError) as err:
            LOGGER.info("Command %s on %s failed: %s", planned.command, entity_ids, err)
            return CommandOutcome(planned, str(err) or type(err).__name__)
        return CommandOutcome(planned)

    async def run(planned: PlannedCommand) -> CommandOutcome:
        return await call(planned, planned.entity_id)

    async def run_in_order(batch: list[PlannedCommand]) -> list[CommandOutcome]:
        # One device's commands one after another: switched on, then its mode, then its values;
        # a light's settings in one call ("40 percent and a warm white"), as one change.
        outcomes: list[CommandOutcome] = []
        for call in _joined(batch):
            outcome = await run(call[0] if len(call) == 1 else _together(call))
            outcomes.extend(
                CommandOutcome(planned, outcome.error, refused=outcome.refused) for planned in call
            )
        return outcomes

    async def run_together(alike: list[PlannedCommand]) -> list[CommandOutcome]:
        # Many devices given the same setting ("turn off every light"): one call for them all,
        # as HA's own group commands do. Should HA refuse it (one device the user may not
        # control, one that cannot), each is called alone so every device has its own outcome;
        # only settings that end the same however often they are given are joined.
        if (await call(alike[0], [planned.entity_id for planned in alike])).ok:
            return [CommandOutcome(planned) for planned in alike]
        return list(await asyncio.gather(*(run(planned) for planned in alike)))

    by_entity: dict[str, list[PlannedCommand]] = {}
    for planned in commands:
        by_entity.setdefault(planned.entity_id, []).append(planned)
    alone: list[list[PlannedCommand]] = []
    alike: dict[tuple[str, str, str], list[PlannedCommand]] = {}
    for batch in by_entity.values():
        if len(batch) > 1 or not _repeatable(planned := batch[0]):
            alone.append(batch)
            continue
        key = (planned.entity_id.split(".", 1)[0], planned.service, repr(sorted(planned.data.items())))
        alike.setdefault(key, []).append(planned)
    groups = [group for group in alike.values() if len(group) > 1]
    alone += [group for group in alike.values() if len(group) == 1]
    done = await asyncio.gather(
        *(run_in_order(batch) for batch in alone), *(run_together(group) for group in groups)
    )
    outcomes = {id(o.command): o for batch in done for o in batch}
    return ExecutionReport([outcomes[id(c)] for c in commands])


# Services whose every call changes the device again: a batch that failed half-way must not
# be repeated for the devices it already changed.
_STEPPING_SERVICES = frozenset(
    {
        "toggle",
        "increase_speed",
        "decrease_speed",
        "volume_up",
        "volume_down",
        "media_play_pause",
        "media_next_track",
        "media_previous_track",
    }
)
_STEPPING_FIELDS = frozenset({"brightness_step", "brightness_step_pct"})


def _repeatable(planned: PlannedCommand) -> bool:
    """Tell whether a command leaves the device the same when given twice."""
    return planned.service not in _STEPPING_SERVICES and not _STEPPING_FIELDS & set(planned.data)


def _joined(batch: list[PlannedCommand]) -> list[list[PlannedCommand]]:
    """Group one entity's commands into calls: a light's turn_on settings go together."""
    calls: list[list[PlannedCommand]] = []
    for planned in batch:
        light_on = planned.entity_id.startswith("light.") and planned.service == "turn_on"
        last = calls[-1] if calls else None
        if (
            light_on
            and last is not None
            and all(c.service == "turn_on" for c in last)
            and not {k for c in last for k in c.data} & set(planned.data)
        ):
            last.append(planned)
        else:
            calls.append([planned])
    return calls


def _together(call: list[PlannedCommand]) -> PlannedCommand:
    """Return one light's settings as one command."""
    return replace(call[0], data={key: value for planned in call for key, value in planned.data.items()})


def _reply_key(planned: PlannedCommand) -> str:
    """Return the translation key that phrases a command's success."""
    domain = planned.entity_id.split(".", 1)[0]
    data = planned.data
    if planned.command == "turn_on":
        if "brightness_pct" in data:
            return "brightness"
        if "brightness_step_pct" in data:
            return "brightness_up" if data["brightness_step_pct"] > 0 else "brightness_down"
        if "rgb_color" in data:
            return "color"
        if "color_temp_kelvin" in data:
            return "color_temp"
        if domain in ("scene", "script"):
            return "activate"
    if planned.command in ("pause", "stop") and domain == "vacuum":
        return f"vacuum_{planned.command}"
    if planned.command == "volume_mute":
        return "muted" if data.get("is_volume_muted") else "unmuted"
    return planned.command


# Colours that have spoken names in the translations.
SPOKEN_COLORS = ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "violet", "pink", "magenta")


def spoken_names(hass: HomeAssistant, entity_ids: list[str], chinese: bool) -> str:
    """Join entity names for speech."""
    names = []
    for entity_id in entity_ids:
        state = hass.states.get(entity_id)
        names.append(str(state.attributes.get(ATTR_FRIENDLY_NAME, entity_id)) if state else entity_id)
    if chinese:
        return "、".join(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _placeholders(hass: HomeAssistant, planned: PlannedCommand) -> dict[str, str]:
    """Return the values a reply template may use."""
    values: dict[str, str] = {"command": planned.command}
    for key, value in planned.data.items():
        values[key] = f"{value:g}" if isinstance(value, float) else str(value)
    if "temperature" in planned.data:
        unit = hass.config.units.temperature_unit
        symbol = "℃" if unit == UnitOfTemperature.CELSIUS else "℉"
        values["temperature"] = f"{planned.data['temperature']:g}{symbol}"
    if "volume_level" in planned.data:
        values["volume"] = str(round(float(planned.data["volume_level"]) * 100))
    if "rgb_color" in planned.data:
        rgb = tuple(planned.data["rgb_color"])
        values["color"] = next(
            (name for name in SPOKEN_COLORS if color_util.color_name_to_rgb(name) == rgb), ""
        )
    if "color_temp_kelvin" in planned.data:
        kelvin = int(planned.data["color_temp_kelvin"])
        values["shade"] = "warm" if kelvin < 3500 else "neutral" if kelvin < 5000 else "cool"
    return values


# Placeholders whose value is a choice with a spoken name in the translations (key prefix).
_CHOICES = {
    "hvac_mode": "mode",
    "fan_mode": "fan",
    "preset_mode": "preset",
    "mode": "preset",
    "color": "color",
    "shade": "shade",
}


async def _async_name_choices(hass: HomeAssistant, language: str, placeholders: dict[str, str]) -> None:
    """Replace mode, colour and white codes with their names in the user's language."""
    for key, prefix in _CHOICES.items():
        if (code := placeholders.get(key)) is not None:
            name = await async_reply(hass, language, f"{prefix}_{code.lower()}")
            placeholders[key] = code if name == f"{prefix}_{code.lower()}" else name


async def async_phrase(hass: HomeAssistant, language: str, report: ExecutionReport) -> str:
    """Phrase what was done, in the user's language, grouping equal commands."""
    chinese = is_chinese(language)
    groups: dict[tuple[str, tuple[tuple[str, str], ...], bool], list[CommandOutcome]] = {}
    for outcome in report.outcomes:
        values = _placeholders(hass, outcome.command)
        reply_key = "not_permitted" if outcome.refused else _reply_key(outcome.command)
        key = (reply_key, tuple(sorted(values.items())), outcome.ok or outcome.refused)
        groups.setdefault(key, []).append(outcome)
    sentences = []
    for (reply_key, items, ok), outcomes in groups.items():
        placeholders = dict(items)
        placeholders["names"] = spoken_names(hass, [o.command.entity_id for o in outcomes], chinese)
        await _async_name_choices(hass, language, placeholders)
        if ok:
            text = await async_reply(hass, language, reply_key, placeholders)
            if text == reply_key:
                text = await async_reply(hass, language, "generic", placeholders)
        else:
            placeholders["error"] = outcomes[0].error or ""
            text = await async_reply(hass, language, "failed", placeholders)
        sentences.append(text)
    separator, end = ("，", "。") if chinese else ("; ", ".")
    return separator.join(sentences) + end
