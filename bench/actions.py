"""Judge what an agent did on a turn against the service calls the turn asks for.

A turn's ``calls`` (docs/bench-format.md) name the service calls that must follow, or
``[]`` when nothing may be done. Verdicts, the same for every agent:
- exact: every listed call was made and nothing else was acted on (for ``[]``: nothing was done);
- handed: nothing was done and the model was asked;
- silent: nothing was done and no model was asked, though calls were listed;
- wrong: anything else: an entity acted on that the turn did not ask for, a wrong service
  or wrong data, or only part of the request carried out.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import ServiceCall

VERDICTS = ("exact", "handed", "silent", "wrong")


@dataclass(frozen=True, slots=True)
class MadeCall:
    """One service call on one entity."""

    service: str
    entity_id: str
    data: Mapping[str, Any]


def made_calls(calls: Iterable[ServiceCall]) -> list[MadeCall]:
    """Split recorded service calls into one per entity."""
    made = []
    for call in calls:
        ids = call.data.get(ATTR_ENTITY_ID, [])
        data = {k: v for k, v in call.data.items() if k != ATTR_ENTITY_ID}
        for entity_id in [ids] if isinstance(ids, str) else ids:
            made.append(MadeCall(f"{call.domain}.{call.service}", entity_id, data))
    return made


def _value_ok(expected: Any, actual: Any, attribute: Any) -> bool:
    """Tell whether a data value meets the expectation (exact, a bound, or relative)."""
    if isinstance(expected, str) and expected[:2] in ("<=", ">="):
        try:
            bound, value = float(expected[2:]), float(actual)
        except (TypeError, ValueError):
            return False
        return value <= bound if expected.startswith("<=") else value >= bound
    if (
        isinstance(expected, str)
        and expected[:1] in ("+", "-")
        and expected[1:].replace(".", "", 1).isdigit()
    ):
        try:
            return abs(float(actual) - (float(attribute) + float(expected))) < 1e-6
        except (TypeError, ValueError):
            return False
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        try:
            return abs(float(actual) - expected) < 1e-6
        except (TypeError, ValueError):
            return False
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(
            _value_ok(e, a, None) for e, a in zip(expected, actual, strict=True)
        )
    return bool(expected == actual)


def _matches(expected: Mapping[str, Any], made: MadeCall, attributes: Mapping[str, Any]) -> bool:
    """Tell whether a made call is the expected one."""
    if made.entity_id != expected["entity_id"] or made.service not in expected["service"].split("|"):
        return False
    return all(
        key in made.data and _value_ok(value, made.data[key], attributes.get(key))
        for key, value in expected.get("data", {}).items()
    )


def _split_climate_call(
    expected: Mapping[str, Any], made: list[MadeCall], attributes: Mapping[str, Any]
) -> bool:
    """Tell whether ``climate.set_temperature`` with an ``hvac_mode`` was made as its two halves.

    HA's set_temperature with a mode sets the mode, then the temperature: the same as a
    ``set_hvac_mode`` and a ``set_temperature`` on that entity.
    """
    data = dict(expected.get("data", {}))
    if "climate.set_temperature" not in expected["service"].split("|") or "hvac_mode" not in data:
        return False
    mode = {
        "service": "climate.set_hvac_mode",
        "entity_id": expected["entity_id"],
        "data": {"hvac_mode": data.pop("hvac_mode")},
    }
    temperature = {**expected, "data": data}
    return any(_matches(mode, m, attributes) for m in made) and any(
        _matches(temperature, m, attributes) for m in made
    )


def judge(
    expected: list[Mapping[str, Any]],
    made: list[MadeCall],
    asked_model: bool,
    attributes: Mapping[str, Mapping[str, Any]],
) -> str:
    """Return the verdict of a turn; ``attributes`` are the home file's, by entity."""
    if not made:
        if not expected:
            return "exact"
        return "handed" if asked_model else "silent"
    allowed = {call["entity_id"] for call in expected}
    if any(call.entity_id not in allowed for call in made):
        return "wrong"
    for call in expected:
        known = attributes.get(call["entity_id"], {})
        if not any(_matches(call, m, known) for m in made) and not _split_climate_call(call, made, known):
            return "wrong"
    return "exact"


def summarize(verdicts: list[tuple[str, str, str]], acts: list[bool] | None = None) -> dict[str, Any]:
    """Return the figures of (case, text, verdict) triples.

    ``acts`` says, turn by turn, whether the turn asks for an action (its ``calls`` are not
    empty): the share of those carried out exactly is reported apart from the share of all.
    """
    counts = {verdict: sum(v == verdict for _, _, v in verdicts) for verdict in VERDICTS}
    figures: dict[str, Any] = {
        "turns": len(verdicts),
        **counts,
        "action_exact": round(counts["exact"] / len(verdicts), 4) if verdicts else None,
    }
    if acts is not None:
        asked = [v for (_, _, v), act in zip(verdicts, acts, strict=True) if act]
        figures["action_turns"] = len(asked)
        figures["action_turns_exact"] = (
            round(sum(v == "exact" for v in asked) / len(asked), 4) if asked else None
        )
    figures["wrong_turns"] = [{"case": case, "text": text} for case, text, v in verdicts if v == "wrong"]
    return figures
