"""End-to-end benchmark: our agent and HA's own Ollama agent on the same home and sentences.

Both agents run in one real HA instance holding the home and talk to local fake model
servers (OpenAI-compatible for ours, Ollama's /api/chat for HA's) that share one latency
model and one oracle: each request costs ``base + prompt_bytes × prefill + output_tokens ×
decode`` milliseconds, and is answered with the tool call a perfect model would make for
the case, then with a short final text when the protocol needs one.
"""

import argparse
import asyncio
from dataclasses import dataclass, field
import json
import math
from pathlib import Path
import re
import statistics
import sys
import tempfile
import time
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry, async_test_home_assistant

from bench.fake_ollama import FakeOllama, OllamaReply, ha_ollama_entry
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
from custom_components.layered_assist.compat import spoken_entity_name
from custom_components.layered_assist.const import (
    CONF_MODEL,
    DOMAIN,
    LLM_API_ID,
)
from custom_components.layered_assist.language.actions import Action, ActionKind
from custom_components.layered_assist.language.reading import read
from custom_components.layered_assist.selection.catalog import DeviceCatalog
from custom_components.layered_assist.selection.local_commands import command_for_action
from custom_components.layered_assist.selection.recall import RecallContext, Recaller
from homeassistant.components import conversation
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import Context, HomeAssistant, State
from homeassistant.helpers import entity_registry as er
from tests.fake_openai import FakeOpenAI, Reply, ScriptedCall

OLLAMA_MODEL = "qwen3:4b-instruct"
_CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True)
class LatencyModel:
    """What one model request costs."""

    base_ms: float = 300.0
    prefill_ms_per_byte: float = 0.05
    decode_ms_per_token: float = 10.0

    def cost(self, prompt_bytes: int, output_tokens: int) -> float:
        """Return the modeled milliseconds of one request."""
        return (
            self.base_ms + prompt_bytes * self.prefill_ms_per_byte + output_tokens * self.decode_ms_per_token
        )


def output_tokens(text: str) -> int:
    """Estimate tokens: one per Chinese character, one per four other characters."""
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


@dataclass
class Turn:
    """The case being run, as the oracle sees it."""

    text: str
    expect: list[str]
    actions: dict[str, Action | None] = field(default_factory=dict)


class Oracle:
    """Answers as a perfect model would for the current turn."""

    def __init__(self, hass: HomeAssistant, catalog: DeviceCatalog, language: str) -> None:
        """Read the home through the same catalog our agent uses."""
        self.hass = hass
        self.catalog = catalog
        self.final_text = "好的。" if language.startswith("zh") else "Done."
        self.language = language
        self.turn = Turn("", [])

    def start(self, text: str, expect: list[str]) -> None:
        """Set the turn; work out which action each expected entity is asked for."""
        recall = Recaller(self.catalog).recall(read(text, self.language, self.catalog.names), RecallContext())
        fallback = next((s.action for s in recall.segments if s.action), None)
        actions: dict[str, Action | None] = {}
        for entity_id in expect:
            segment = next(
                (
                    s
                    for s in recall.segments
                    if entity_id in s.targets or entity_id in [c.entity_id for c in s.candidates[:30]]
                ),
                None,
            )
            actions[entity_id] = segment.action if segment and segment.action else fallback
        self.turn = Turn(text, expect, actions)

    def _state(self, entity_id: str) -> State | None:
        return self.hass.states.get(entity_id)

    # Ours: control_devices with the expected entities.
    def ours(self, body: dict[str, Any]) -> Reply:
        """Answer a request of our agent."""
        if body["messages"][-1]["role"] == "tool":
            return Reply(text=self.final_text)
        tools = {t["function"]["name"]: t["function"] for t in body.get("tools", [])}
        control = tools.get("control_devices")
        if control is None:
            return Reply(text=self.final_text)
        allowed = control["parameters"]["properties"]["commands"]["items"]["properties"]["entity_id"].get(
            "enum"
        )
        commands = []
        for entity_id in self.turn.expect:
            state = self._state(entity_id)
            if state is None or (allowed is not None and entity_id not in allowed):
                continue
            action = self.turn.actions.get(entity_id)
            mapped = command_for_action(self.hass, state, action) if action else None
            mapped = mapped or command_for_action(self.hass, state, Action(ActionKind.TURN_ON))
            command, params = mapped or ("turn_on", {})
            commands.append({"entity_id": entity_id, "command": command, "params": params})
        if not commands:
            return Reply(text=self.final_text)
        return Reply(calls=[ScriptedCall("control_devices", {"commands": commands})])

    # HA's: the Assist intent tools with the expected names.
    def ha(self, body: dict[str, Any]) -> OllamaReply:
        """Answer a request of HA's Ollama agent."""
        if body["messages"][-1]["role"] == "tool":
            return OllamaReply(text=self.final_text)
        tools = {t["function"]["name"] for t in body.get("tools", [])}
        calls = []
        for entity_id in self.turn.expect:
            state = self._state(entity_id)
            if state is None:
                continue
            intent, args = self._intent(state, self.turn.actions.get(entity_id))
            name = _offered(tools, intent) or _offered(tools, "HassTurnOn")
            if name is not None:
                calls.append((name, {"name": self._name(state), **args}))
        return OllamaReply(calls=calls) if calls else OllamaReply(text=self.final_text)

    def _name(self, state: State) -> str:
        # The name HA's prompt shows the model for the entity.
        return spoken_entity_name(self.hass, state)

    def _intent(self, state: State, action: Action | None) -> tuple[str, dict[str, Any]]:
        """Return the Assist intent and its slots for an action on an entity."""
        kind = action.kind if action else ActionKind.TURN_ON
        value = action.value if action else None
        domain = state.domain
        attributes = state.attributes
        if kind is ActionKind.TURN_OFF:
            return "HassTurnOn" if domain == "lock" else "HassTurnOff", {}
        if kind in (
            ActionKind.SET_TEMPERATURE,
            ActionKind.ADJUST_TEMPERATURE,
            ActionKind.SET_VALUE,
        ) and domain in ("climate", "water_heater"):
            target = (
                value
                if kind is not ActionKind.ADJUST_TEMPERATURE
                else float(attributes.get("temperature", 24)) + (value or 0)
            )
            return "HassClimateSetTemperature", {"temperature": target}
        if domain == "light" and kind in (
            ActionKind.SET_BRIGHTNESS,
            ActionKind.ADJUST_BRIGHTNESS,
            ActionKind.SET_VALUE,
            ActionKind.SET_POSITION,
            ActionKind.INCREASE,
            ActionKind.DECREASE,
        ):
            current = round(100 * float(attributes.get("brightness") or 0) / 255)
            if kind in (ActionKind.ADJUST_BRIGHTNESS, ActionKind.INCREASE, ActionKind.DECREASE):
                up = kind is ActionKind.INCREASE or (value or 0) > 0
                value = max(1, min(100, current + (20 if up else -20)))
            return "HassLightSet", {"brightness": round(value or 100)}
        if domain in ("cover", "valve") and kind in (ActionKind.SET_POSITION, ActionKind.SET_VALUE):
            return "HassSetPosition", {"position": round(value or 0)}
        if domain == "media_player":
            media = {
                ActionKind.PAUSE: "HassMediaPause",
                ActionKind.PLAY: "HassMediaUnpause",
                ActionKind.NEXT: "HassMediaNext",
                ActionKind.PREVIOUS: "HassMediaPrevious",
            }
            if kind in media:
                return media[kind], {}
            if kind in (
                ActionKind.SET_VOLUME,
                ActionKind.SET_VALUE,
                ActionKind.ADJUST_VOLUME,
                ActionKind.INCREASE,
                ActionKind.DECREASE,
            ):
                current = round(100 * float(attributes.get("volume_level") or 0.5))
                if kind not in (ActionKind.SET_VOLUME, ActionKind.SET_VALUE):
                    up = kind is ActionKind.INCREASE or (value or 0) > 0
                    value = max(0, min(100, current + (10 if up else -10)))
                return "HassSetVolume", {"volume_level": round(value or 0)}
        if domain == "fan" and kind in (
            ActionKind.SET_SPEED,
            ActionKind.SET_SPEED_LEVEL,
            ActionKind.SET_VALUE,
            ActionKind.INCREASE,
            ActionKind.DECREASE,
        ):
            current = int(attributes.get("percentage") or 0)
            if kind in (ActionKind.INCREASE, ActionKind.DECREASE):
                value = max(0, min(100, current + (33 if kind is ActionKind.INCREASE else -33)))
            elif kind is ActionKind.SET_SPEED_LEVEL:
                step = float(attributes.get("percentage_step") or 33.33)
                value = min(100, round((value or 1) * step))
            return "HassFanSetSpeed", {"percentage": round(value or 0)}
        if domain == "vacuum":
            return (
                ("HassVacuumReturnToBase", {}) if kind is ActionKind.RETURN_HOME else ("HassVacuumStart", {})
            )
        if domain == "humidifier" and kind in (
            ActionKind.SET_HUMIDITY,
            ActionKind.SET_VALUE,
            ActionKind.SET_POSITION,
        ):
            return "HassHumidifierSetpoint", {"humidity": round(value or 50)}
        if kind is ActionKind.LOCK:
            return "HassTurnOn", {}
        return "HassTurnOn", {}


def _offered(tools: set[str], intent: str) -> str | None:
    """Return the tool HA offers for an intent (``intent__HassTurnOn`` since HA 2026.9)."""
    return next((tool for tool in sorted(tools) if tool == intent or tool.endswith(f"__{intent}")), None)


@dataclass
class AgentRun:
    """Per-command figures of one agent."""

    requests: list[int] = field(default_factory=list)
    request_bytes: list[int] = field(default_factory=list)
    modeled_ms: list[float] = field(default_factory=list)
    acted: list[bool] = field(default_factory=list)
    misses: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Return the agent's figures."""

        def p95(values: list[float]) -> float:
            return percentile(values, 0.95)

        sizes = [float(b) for b in self.request_bytes]
        return {
            "commands": len(self.requests),
            "model_requests_per_command": round(statistics.mean(self.requests), 3) if self.requests else 0,
            "request_bytes": {"median": statistics.median(sizes) if sizes else 0, "p95": p95(sizes)},
            "modeled_ms": {
                "median": round(statistics.median(self.modeled_ms), 1),
                "p95": round(p95(self.modeled_ms), 1),
            },
            "acted_on_expected": round(sum(self.acted) / len(self.acted), 4) if self.acted else None,
            "misses": self.misses,
        }


async def run(home_path: Path, cases_path: Path, latency: LatencyModel) -> dict[str, Any]:
    """Run both agents over the single-turn device cases."""
    home = read_home(home_path)
    cases = [json.loads(line) for line in cases_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = [c for c in cases if len(c["turns"]) == 1 and turn_expect(c["turns"][0])]
    ours_server = FakeOpenAI()
    ollama_holder: dict[str, Oracle] = {}
    ha_server = FakeOllama(OLLAMA_MODEL, lambda body: ollama_holder["oracle"].ha(body))
    await ours_server.start()
    await ha_server.start()
    with tempfile.TemporaryDirectory() as config_dir:
        async with async_test_home_assistant(config_dir=config_dir) as hass:
            loaded = await async_prepare_home(hass, home)
            ours_entry = our_entry(
                ours_server.base_url,
                {"Layered Assist": {CONF_MODEL: "bench", CONF_LLM_HASS_API: [LLM_API_ID]}},
            )
            ha_entry = ha_ollama_entry(ha_server.url, OLLAMA_MODEL, num_ctx=8192)
            for entry in (ours_entry, ha_entry):
                entry.add_to_hass(hass)
                assert await hass.config_entries.async_setup(entry.entry_id), entry.domain
            await hass.async_block_till_done()
            oracle = Oracle(hass, ours_entry.runtime_data.catalog, loaded.language)
            ollama_holder["oracle"] = oracle
            ours_server.responder = oracle.ours
            agents = {
                "ours": (_agent_entity(hass, DOMAIN), ours_server.sizes, ours_server),
                "ha": (_agent_entity(hass, "ollama"), ha_server.sizes, ha_server),
            }
            await conversation.async_converse(hass, "warm up", None, Context(), language=loaded.language)
            runs, confirmations = await _async_run_cases(
                hass, agents, cases, oracle, loaded, latency, ours_entry
            )
            for entry in (ours_entry, ha_entry):
                await hass.config_entries.async_unload(entry.entry_id)
    await ours_server.stop()
    await ha_server.stop()
    ours, ha = runs["ours"].summary(), runs["ha"].summary()
    zero = sum(1 for n in runs["ours"].requests if n == 0) / len(runs["ours"].requests) if cases else 0
    return {
        "home": {"entities": len(home["entities"]), "cases": len(cases)},
        "ours_confirmations": confirmations,
        "latency_model": {
            "base_ms": latency.base_ms,
            "prefill_ms_per_byte": latency.prefill_ms_per_byte,
            "decode_ms_per_token": latency.decode_ms_per_token,
        },
        "ours": ours,
        "ha": ha,
        "ours_zero_request_share": round(zero, 4),
        "ratios_ours_to_ha": {
            "model_requests": _ratio(ours["model_requests_per_command"], ha["model_requests_per_command"]),
            "request_bytes_median": _ratio(ours["request_bytes"]["median"], ha["request_bytes"]["median"]),
            "modeled_ms_median": _ratio(ours["modeled_ms"]["median"], ha["modeled_ms"]["median"]),
            "modeled_ms_p95": _ratio(ours["modeled_ms"]["p95"], ha["modeled_ms"]["p95"]),
        },
    }


async def _async_run_cases(
    hass: HomeAssistant,
    agents: dict[str, tuple[str, list[int], Any]],
    cases: list[dict[str, Any]],
    oracle: Oracle,
    loaded: LoadedHome,
    latency: LatencyModel,
    ours_entry: MockConfigEntry,
) -> tuple[dict[str, AgentRun], int]:
    """Run every case through every agent; return the runs and how often ours asked first."""
    runs = {name: AgentRun() for name in agents}
    confirmations = 0
    for case in cases:
        turn = case["turns"][0]
        device_id = _satellite(hass, loaded, case.get("context_area"))
        for name, (agent_id, sizes, server) in agents.items():
            oracle.start(turn["text"], turn_expect(turn))
            calls_before = len(loaded.calls)
            sizes_before = len(sizes)
            replies_before = len(_replies(server))
            started = time.perf_counter()
            result = await conversation.async_converse(
                hass,
                turn["text"],
                None,
                Context(),
                language=loaded.language,
                agent_id=agent_id,
                device_id=device_id,
            )
            if name == "ours" and ours_entry.runtime_data.states.get(result.conversation_id or "").pending:
                # Ours asks before a risky command; the user who asked for it confirms.
                confirmations += 1
                await conversation.async_converse(
                    hass,
                    "确认" if loaded.language.startswith("zh") else "yes",
                    result.conversation_id,
                    Context(),
                    language=loaded.language,
                    agent_id=agent_id,
                    device_id=device_id,
                )
            wall_ms = (time.perf_counter() - started) * 1000
            new_sizes = sizes[sizes_before:]
            new_replies = _replies(server)[replies_before:]
            modeled = wall_ms + sum(
                latency.cost(size, output_tokens(reply))
                for size, reply in zip(new_sizes, new_replies, strict=False)
            )
            record = runs[name]
            record.requests.append(len(new_sizes))
            record.request_bytes.extend(new_sizes)
            record.modeled_ms.append(modeled)
            acted = loaded.acted_on(calls_before)
            record.acted.append(set(turn_expect(turn)) <= acted)
            if not set(turn_expect(turn)) <= acted:
                record.misses.append(
                    {
                        "case": case["id"],
                        "text": turn["text"],
                        "expect": turn_expect(turn),
                        "acted": sorted(acted),
                    }
                )
    return runs, confirmations


def _ratio(ours: float, theirs: float) -> float | None:
    return round(ours / theirs, 4) if theirs else None


def _replies(server: FakeOpenAI | FakeOllama) -> list[str]:
    """Return each served answer as text, to estimate its output tokens."""
    if isinstance(server, FakeOllama):
        return [r.text + json.dumps(r.calls, ensure_ascii=False) for r in server.replies]
    return [json.dumps(r, ensure_ascii=False) for r in server.served]


def _agent_entity(hass: HomeAssistant, platform: str) -> str:
    registry = er.async_get(hass)
    return next(
        e.entity_id
        for e in registry.entities.values()
        if e.platform == platform and e.domain == "conversation"
    )


def _satellite(hass: HomeAssistant, loaded: LoadedHome, area_key: str | None) -> str | None:
    """Return a device in the case's area for the speaker, if it has one."""
    area_id = loaded.area_ids.get(area_key or "")
    return satellite_in_area(hass, area_id) if area_id else None


def main() -> None:
    """Run from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", required=True, type=Path)
    parser.add_argument("--cases", required=True, type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--base-ms", type=float, default=300.0)
    parser.add_argument("--prefill-ms-per-byte", type=float, default=0.05)
    parser.add_argument("--decode-ms-per-token", type=float, default=10.0)
    args = parser.parse_args()
    latency = LatencyModel(args.base_ms, args.prefill_ms_per_byte, args.decode_ms_per_token)
    write_report(asyncio.run(run(args.home, args.cases, latency)), args.out)


if __name__ == "__main__":
    sys.exit(main())
