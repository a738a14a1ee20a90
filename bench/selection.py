"""Selection benchmark: run HOME.json + CASES.jsonl through the real agent in a real HA.

Three agents share one entry pointing at a local fake model server:
- ``local``: the agent as configured by default (fast path and local action on);
- ``layer3``: local layers off, so every turn shows the main-model request we send;
- ``baseline``: local layers off and only HA's Assist LLM API, i.e. the request HA's
  own LLM agents build for the same home and sentence.
The report fields are those of docs/bench-format.md.
"""

import argparse
import asyncio
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
import json
from pathlib import Path
import statistics
import sys
import tempfile
import time
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry, async_test_home_assistant

from bench.actions import judge, made_calls, summarize
from bench.home import (
    LoadedHome,
    async_prepare_home,
    our_entry,
    percentile,
    read_home,
    satellite_in_area,
    turn_expect,
    write_report,
)
from custom_components.layered_assist.compat import open_chat_session
from custom_components.layered_assist.const import (
    CONF_FAST_PATH,
    CONF_LOCAL_ACTION,
    CONF_MODEL,
    CONF_TOP_K,
    DOMAIN,
    LLM_API_ID,
)
from custom_components.layered_assist.language.reading import read
from homeassistant.components import conversation
from homeassistant.components.conversation.const import DATA_COMPONENT
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import Context, HomeAssistant, State
from homeassistant.helpers import entity_registry as er
from tests.fake_openai import FakeOpenAI, text

CONFIRM = {"zh": "确认", "en": "yes"}
HA_AGENT = "conversation.home_assistant"
AGENTS = {
    "local": {LLM_API_ID: True},
    "layer3": {CONF_FAST_PATH: False, CONF_LOCAL_ACTION: False},
    "baseline": {CONF_FAST_PATH: False, CONF_LOCAL_ACTION: False, "assist_only": True},
}


@dataclass
class TurnRecord:
    """What happened on one turn."""

    case_id: str
    text: str
    tags: list[str]
    expect: list[str]
    single_turn: bool
    candidates: list[str] = field(default_factory=list)
    layer: str = "model"
    acted: list[str] = field(default_factory=list)
    latency_ms: float = 0.0
    recall_ms: float = 0.0
    fast_path_ms: float | None = None
    state_update_ms: float = 0.0
    ours_bytes: int = 0
    baseline_bytes: int = 0
    non_exposed_candidates: list[str] = field(default_factory=list)
    confirmed: bool = False
    # With the turn's ``calls``: the verdicts of our agent and of HA's default agent.
    calls: list[dict[str, Any]] | None = None
    ours_verdict: str | None = None
    ha_verdict: str | None = None
    # The service calls our agent made, as "domain.service entity_id data".
    made: list[str] = field(default_factory=list)
    # What our agent answered.
    reply: str = ""

    @property
    def recalled(self) -> bool:
        """Tell whether every expected entity is a candidate."""
        return set(self.expect) <= set(self.candidates)

    @property
    def local(self) -> bool:
        """Tell whether the local layers acted."""
        return self.layer in ("fast_path", "local_action")

    @property
    def exact(self) -> bool:
        """Tell whether the local layers acted on exactly the expected entities."""
        return self.local and set(self.acted) == set(self.expect)


def _actions(turns: list[TurnRecord], by_tag: dict[str, list[TurnRecord]]) -> dict[str, Any]:
    """Return the action verdicts of both agents, overall and per tag (turns with calls)."""

    def both(items: list[TurnRecord]) -> dict[str, Any]:
        judged = [t for t in items if t.calls is not None]
        return {
            agent: summarize(
                [(t.case_id, t.text, str(getattr(t, f"{agent}_verdict"))) for t in judged],
                [bool(t.calls) for t in judged],
            )
            for agent in ("ours", "ha")
        }

    return {**both(turns), "by_tag": {tag: both(items) for tag, items in sorted(by_tag.items())}}


def _agent_options(name: str, top_k: int) -> dict[str, Any]:
    options: dict[str, Any] = {CONF_MODEL: "bench", CONF_TOP_K: top_k, CONF_LLM_HASS_API: [LLM_API_ID]}
    spec = AGENTS[name]
    options[CONF_FAST_PATH] = spec.get(CONF_FAST_PATH, True)
    options[CONF_LOCAL_ACTION] = spec.get(CONF_LOCAL_ACTION, True)
    if spec.get("assist_only"):
        options[CONF_LLM_HASS_API] = ["assist"]
    return options


async def _converse(
    hass: HomeAssistant,
    sentence: str,
    conversation_id: str,
    agent_id: str,
    language: str,
    device_id: str | None,
) -> str:
    """Say a sentence to an agent and return what it answered."""
    result = await conversation.async_converse(
        hass, sentence, conversation_id, Context(), language=language, agent_id=agent_id, device_id=device_id
    )
    return str(result.response.speech.get("plain", {}).get("speech", ""))


def _figures(turns: list[TurnRecord]) -> dict[str, Any]:
    """Compute the report figures of a set of turns."""
    device_turns = [t for t in turns if t.expect]
    empty_turns = [t for t in turns if not t.expect]
    single = [t for t in device_turns if t.single_turn]
    fast = [t for t in turns if t.layer == "fast_path"]
    local_action = [t for t in turns if t.layer == "local_action"]
    local = fast + local_action
    sizes = [len(t.candidates) for t in turns]
    ours = [t.ours_bytes for t in turns if t.ours_bytes]
    baseline = [t.baseline_bytes for t in turns if t.baseline_bytes]

    def layer_figures(handled: list[TurnRecord]) -> dict[str, Any]:
        correct = [t for t in handled if set(t.acted) == set(t.expect)]
        return {
            "handled": len(handled),
            "correct": len(correct),
            "precision": round(len(correct) / len(handled), 4) if handled else None,
            "coverage": round(len(handled) / len(turns), 4) if turns else 0.0,
        }

    ours_median = statistics.median(ours) if ours else 0
    baseline_median = statistics.median(baseline) if baseline else 0
    return {
        "turns": len(turns),
        "recall": round(sum(t.recalled for t in device_turns) / len(device_turns), 4)
        if device_turns
        else None,
        "exact": round(sum(t.exact for t in device_turns) / len(device_turns), 4) if device_turns else None,
        "exact_single_turn": round(sum(t.exact for t in single) / len(single), 4) if single else None,
        "abstain": round(
            sum(not t.acted and not t.non_exposed_candidates for t in empty_turns) / len(empty_turns), 4
        )
        if empty_turns
        else None,
        "candidates": {
            "median": statistics.median(sizes) if sizes else 0,
            "p95": percentile(sizes, 0.95),
            "max": max(sizes, default=0),
        },
        "latency_ms": {
            "p50": round(percentile([t.latency_ms for t in turns], 0.5), 3),
            "p95": round(percentile([t.latency_ms for t in turns], 0.95), 3),
        },
        "layer_ms": {
            "recall_p50": round(percentile([t.recall_ms for t in turns], 0.5), 3),
            "recall_p95": round(percentile([t.recall_ms for t in turns], 0.95), 3),
            "ha_matcher_consulted": sum(t.fast_path_ms is not None for t in turns),
            "ha_matcher_p50": round(
                percentile([t.fast_path_ms for t in turns if t.fast_path_ms is not None], 0.5), 3
            ),
            "ha_matcher_p95": round(
                percentile([t.fast_path_ms for t in turns if t.fast_path_ms is not None], 0.95), 3
            ),
        },
        "state_update_ms": {"p50": round(percentile([t.state_update_ms for t in turns], 0.5), 4)},
        "confirmed_after_question": sum(t.confirmed for t in turns),
        "fast_path": layer_figures(fast),
        "local_action": layer_figures(local_action),
        "local": layer_figures(local),
        "prompt_bytes": {
            "ours_median": ours_median,
            "baseline_median": baseline_median,
            "ratio": round(baseline_median / ours_median, 2) if ours_median else None,
        },
    }


async def run(home_path: Path, cases_path: Path, top_k: int) -> dict[str, Any]:
    """Run the benchmark and return the report."""
    home = read_home(home_path)
    cases = [json.loads(line) for line in cases_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    exposure = {e["entity_id"]: e.get("exposed", True) for e in home["entities"]}
    server = FakeOpenAI()
    server.default_reply = text("好的" if home.get("language", "en").startswith("zh") else "OK")
    await server.start()
    with tempfile.TemporaryDirectory() as config_dir:
        async with async_test_home_assistant(config_dir=config_dir) as hass:
            loaded = await async_prepare_home(hass, home)
            entry = our_entry(server.base_url, {name: _agent_options(name, top_k) for name in AGENTS})
            entry.add_to_hass(hass)
            assert await hass.config_entries.async_setup(entry.entry_id)
            await hass.async_block_till_done()
            # A running HA has its sentences loaded; do that before timing anything.
            await conversation.async_converse(hass, "warm up", None, Context(), language=loaded.language)
            turns = await _run_cases(hass, entry, home, loaded, cases, exposure, server)
            await hass.config_entries.async_unload(entry.entry_id)
    await server.stop()
    report = _figures(turns)
    by_tag: dict[str, list[TurnRecord]] = defaultdict(list)
    for turn in turns:
        for tag in turn.tags:
            by_tag[tag].append(turn)
    report["by_tag"] = {tag: _figures(items) for tag, items in sorted(by_tag.items())}
    report["actions"] = _actions(turns, by_tag)
    report["failures"] = [
        {
            "case": t.case_id,
            "text": t.text,
            "expect": t.expect,
            "layer": t.layer,
            "acted": t.acted,
            "candidates": t.candidates[:15],
            "problem": "wrong local action"
            if t.local and not t.exact
            else "not recalled"
            if t.expect and not t.recalled
            else "non-exposed candidate",
        }
        for t in turns
        if (t.local and not t.exact) or (t.expect and not t.recalled) or t.non_exposed_candidates
    ]
    report["verdicts"] = [
        {
            "case": t.case_id,
            "text": t.text,
            "verdict": t.ours_verdict,
            "layer": t.layer,
            "calls": t.calls,
            "made": t.made,
            "reply": t.reply,
        }
        for t in turns
        if t.calls is not None and t.ours_verdict != "exact"
    ]
    report["slowest"] = [
        {
            "case": t.case_id,
            "text": t.text,
            "layer": t.layer,
            "latency_ms": round(t.latency_ms, 2),
            "asked_ha": t.fast_path_ms is not None,
        }
        # Every turn at or above the p95, so what holds it up can be read.
        for t in sorted(turns, key=lambda t: -t.latency_ms)[: max(10, len(turns) // 20 + 2)]
    ]
    report["asked_ha"] = [t.text for t in turns if t.fast_path_ms is not None]
    report["home"] = {
        "entities": len(home["entities"]),
        "exposed": sum(exposure.values()),
        "cases": len(cases),
    }
    return report


async def _prompt_sizes(
    hass: HomeAssistant,
    server: FakeOpenAI,
    sentence: str,
    ids: dict[str, str],
    agents: dict[str, Any],
    language: str,
    device_id: str | None,
) -> tuple[int, int]:
    """Return the bytes of our Layer-3 request and of HA's Assist API request for a sentence."""
    sizes = []
    for name in ("layer3", "baseline"):
        before = len(server.sizes)
        await _converse(hass, sentence, ids[name], agents[name].entity_id, language, device_id)
        sizes.append(server.sizes[before] if len(server.sizes) > before else 0)
    return sizes[0], sizes[1]


def _snapshot(hass: HomeAssistant, entity_ids: Iterable[str]) -> dict[str, State | None]:
    """Return the current states of the home's entities."""
    return {entity_id: hass.states.get(entity_id) for entity_id in entity_ids}


def _restore(hass: HomeAssistant, snapshot: dict[str, State | None]) -> None:
    """Put the home's entities back as they were."""
    for entity_id, state in snapshot.items():
        if state is not None:
            hass.states.async_set(entity_id, state.state, state.attributes)


async def _ha_verdict(
    hass: HomeAssistant,
    loaded: LoadedHome,
    sentence: str,
    calls: list[dict[str, Any]],
    world: dict[str, State | None],
    attributes: dict[str, dict[str, Any]],
    device_id: str | None,
) -> str:
    """Run a turn through HA's default agent in the home as it was before our turn."""
    after_ours = _snapshot(hass, world)
    _restore(hass, world)
    before = len(loaded.calls)
    await conversation.async_converse(
        hass, sentence, None, Context(), language=loaded.language, agent_id=HA_AGENT, device_id=device_id
    )
    verdict = judge(calls, made_calls(loaded.calls[before:]), False, attributes)
    _restore(hass, after_ours)
    return verdict


async def _judge(
    hass: HomeAssistant,
    loaded: LoadedHome,
    record: TurnRecord,
    world: dict[str, State | None],
    calls_before: int,
    asked: bool,
    device_id: str | None,
) -> None:
    """Judge what our agent did on a turn, then what HA's default agent does on it."""
    assert record.calls is not None
    # "+1" is relative to the entity as the turn found it (earlier turns move things).
    before = {e: dict(state.attributes) for e, state in world.items() if state is not None}
    made = made_calls(loaded.calls[calls_before:])
    record.ours_verdict = judge(record.calls, made, asked, before)
    record.made = [f"{m.service} {m.entity_id} {dict(m.data)}" for m in made]
    record.ha_verdict = await _ha_verdict(hass, loaded, record.text, record.calls, world, before, device_id)


def _held_and_asked(pending: dict[str, Any] | None, turn: dict[str, Any]) -> bool:
    """Tell whether a command the agent holds for confirmation is one the turn asks for."""
    held = {c.get("entity_id") for c in (pending or {}).get("commands", [])}
    return bool(held & set(turn_expect(turn)))


async def _run_cases(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    home: dict[str, Any],
    loaded: LoadedHome,
    cases: list[dict[str, Any]],
    exposure: dict[str, bool],
    server: FakeOpenAI,
) -> list[TurnRecord]:
    runtime = entry.runtime_data
    component = hass.data[DATA_COMPONENT]
    agents: dict[str, Any] = {}
    for subentry in entry.subentries.values():
        entity_id = er.async_get(hass).async_get_entity_id("conversation", DOMAIN, subentry.subentry_id)
        agents[subentry.title] = component.get_entity(entity_id)
    engine = agents["local"].engine
    language = loaded.language
    attributes = {e["entity_id"]: e.get("attributes") or {} for e in home["entities"]}
    records: list[TurnRecord] = []
    # Every case is written against the home as its file has it: put it back before each.
    initial = _snapshot(hass, attributes)
    for case in cases:
        _restore(hass, initial)
        area = loaded.area_ids.get(case.get("context_area") or "")
        device_id = satellite_in_area(hass, area) if area else None
        ids = {}
        for name in AGENTS:
            with open_chat_session(hass, None, None) as session:
                ids[name] = session.conversation_id
        single = len(case["turns"]) == 1
        for turn in case["turns"]:
            calls = turn.get("calls")
            expect = turn_expect(turn)
            record = TurnRecord(case["id"], turn["text"], list(case.get("tags", [])), list(expect), single)
            record.calls = calls
            world = _snapshot(hass, attributes)
            requests_before = len(server.sizes)
            state = runtime.states.get(ids["local"])
            recall = engine.recall(read(turn["text"], language, engine.catalog.names), state, area)
            record.candidates = recall.candidates
            record.non_exposed_candidates = [c for c in recall.candidates if not exposure.get(c, False)]

            calls_before = len(loaded.calls)
            record.reply = await _converse(
                hass, turn["text"], ids["local"], agents["local"].entity_id, language, device_id
            )
            info = agents["local"].last_turn
            if _held_and_asked(runtime.states.get(ids["local"]).pending, turn):
                # The agent asked before a risky command; the user who asked for it confirms
                # (unless the turn does not ask for it: then asking was all there was to do).
                record.confirmed = True
                await _converse(
                    hass, CONFIRM[language[:2]], ids["local"], agents["local"].entity_id, language, device_id
                )
            record.layer = info.layer
            record.latency_ms = info.local_ms
            record.recall_ms = info.recall_ms
            if info.asked_ha:
                record.fast_path_ms = info.fast_path_ms
            if record.local:
                record.acted = sorted(loaded.acted_on(calls_before))
            if calls is not None:
                await _judge(
                    hass, loaded, record, world, calls_before, len(server.sizes) > requests_before, device_id
                )
            record.ours_bytes, record.baseline_bytes = await _prompt_sizes(
                hass, server, turn["text"], ids, agents, language, device_id
            )
            # The expected entities count as acted on for the next turn (bench format).
            rooms = engine.rooms_of(record.expect)
            started = time.perf_counter()
            for name in AGENTS:
                runtime.states.record(ids[name], devices=record.expect, rooms=rooms)
            record.state_update_ms = (time.perf_counter() - started) * 1000 / len(AGENTS)
            records.append(record)
    return records


def main() -> None:
    """Run from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", required=True, type=Path)
    parser.add_argument("--cases", required=True, type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--top-k", type=int, default=10)
    args = parser.parse_args()
    write_report(asyncio.run(run(args.home, args.cases, args.top_k)), args.out)


if __name__ == "__main__":
    sys.exit(main())
