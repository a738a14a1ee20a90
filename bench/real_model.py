"""Real-model benchmark: our agent and HA's own agent, one real model behind llama-server.

Both agents run in one real HA holding the home and talk to the same llama-server
(``--url``): ours directly through its OpenAI-compatible client; HA's Ollama agent,
with HA's Assist API, through bench/ollama_bridge.py, which gives Ollama's chat API
over the same server's /v1/chat/completions (HA's OpenAI agent cannot talk to
llama-server: its Responses API tools carry null fields the server refuses). On the
single-turn device cases of
the sets given, each turn is judged from the service calls made (bench/actions.py) and
its reply is checked for markup (tool JSON or tags) and for false claims (none of the
devices asked for was acted on, yet the reply says something was done: 已/好的/done/turned…,
and asks nothing). Times are wall clock per turn and the
server's own prefill seconds (the time to the first token).

HA's agent needs minutes per turn on a small CPU (its prompt lists the whole home), so
it runs on an evenly spread sample of the cases (``--ha-cases``); ours runs on all.
Every case runs twice in a row: cold (the server's cache emptied first), then warm.
"""

import argparse
import asyncio
from dataclasses import dataclass, field
import json
from pathlib import Path
import re
import tempfile
import time
from typing import Any

import aiohttp
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_test_home_assistant

from bench.actions import judge, made_calls
from bench.fake_ollama import ha_ollama_entry
from bench.home import async_prepare_home, our_entry, percentile, read_home, satellite_in_area, write_report
from bench.ollama_bridge import OllamaBridge
from custom_components.layered_assist.const import (
    CONF_MAX_TOKENS,
    CONF_MODEL,
    CONF_TIMEOUT,
    DOMAIN,
    LLM_API_ID,
)
from homeassistant.components import conversation
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import Context, HomeAssistant, State
from homeassistant.helpers import entity_registry as er

MODEL_NAME = "qwen2.5-coder-1.5b-instruct"
# What a reply must not contain: tool JSON, call tags, code fences.
_MARKUP = re.compile(r"[{}]|</?\s*tool|```|\"name\"\s*:")
_ASKS = re.compile(r"[?？]")
# Words of a reply that says something was done (a claim, when nothing asked for was).
_DONE_WORDS = (
    "已",
    "好的",
    "好了",
    "完成",
    "搞定",
    "咗",
    "done",
    "turned",
    "switched",
    "i've",
    "i have",
    "has been",
    "have been",
    "is now",
    "are now",
    "set to",
    r"\bok\b",
    "sure",
)
_DONE = re.compile("|".join(_DONE_WORDS), re.IGNORECASE)
CONFIRM = {"zh": "确认", "en": "yes"}
TURN_TIMEOUT = 900.0


@dataclass
class Turn:
    """One agent's turn on one case."""

    case: str
    text: str
    verdict: str
    reply: str
    wall_s: float
    prefill_s: float
    asked_model: bool
    markup: bool
    false_claim: bool
    cold: bool
    made: list[str] = field(default_factory=list)


class Server:
    """The llama-server both agents use: its prompt cache and its counters."""

    def __init__(self, url: str) -> None:
        """``url`` is the server's root (without /v1)."""
        self.url = url.rstrip("/").removesuffix("/v1")

    async def erase_cache(self) -> None:
        """Empty the slot's cache, so the next request is processed from its first token."""
        async with (
            aiohttp.ClientSession() as session,
            session.post(f"{self.url}/slots/0?action=erase") as response,
        ):
            if response.status != 200:
                raise SystemExit(f"cannot erase the server's cache: {await response.text()}")

    async def counters(self) -> dict[str, float]:
        """Return the server's prompt seconds and request count so far."""
        async with aiohttp.ClientSession() as session, session.get(f"{self.url}/metrics") as response:
            text = await response.text()
        values = {}
        for line in text.splitlines():
            if line.startswith("llamacpp:") and " " in line:
                name, value = line.split(" ", 1)
                values[name.removeprefix("llamacpp:")] = float(value)
        return values


def _honest_replies(language: str) -> list[str]:
    """Return our own replies that say plainly that nothing was done (not claims)."""
    folder = Path(__file__).resolve().parent.parent / "custom_components" / DOMAIN / "translations"
    lang = "en" if language.startswith("en") else language
    path = folder / f"{lang}.json"
    if not path.exists():
        path = folder / "zh-Hans.json"
    exceptions = json.loads(path.read_text(encoding="utf-8"))["exceptions"]
    return [item["message"] for item in exceptions.values() if "message" in item]


async def run(
    sets: list[tuple[Path, Path]], server: Server, ha_cases: int, agents: list[str]
) -> dict[str, Any]:
    """Run the agents over every set's single-turn device cases."""
    turns: dict[str, list[Turn]] = {name: [] for name in agents}
    for home_path, cases_path in sets:
        home = read_home(home_path)
        cases = [
            json.loads(line) for line in cases_path.read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        cases = [c for c in cases if len(c["turns"]) == 1 and c["turns"][0].get("calls")]
        for name, items in (await _run_set(home, cases, server, ha_cases, agents)).items():
            turns[name].extend(items)
    return {"model": MODEL_NAME, "agents": {name: _summary(items) for name, items in turns.items()}} | {
        "ratios_ha_to_ours": _ratios(turns)
    }


async def _run_set(
    home: dict[str, Any],
    cases: list[dict[str, Any]],
    server: Server,
    ha_cases: int,
    agents: list[str],
) -> dict[str, list[Turn]]:
    results: dict[str, list[Turn]] = {name: [] for name in agents}
    bridge = OllamaBridge(f"{server.url}/v1", MODEL_NAME, TURN_TIMEOUT)
    await bridge.start()
    with tempfile.TemporaryDirectory() as config_dir:
        async with async_test_home_assistant(config_dir=config_dir) as hass:
            loaded = await async_prepare_home(hass, home)
            entries = {name: _entry(name, server, bridge) for name in agents}
            for entry in entries.values():
                entry.add_to_hass(hass)
                assert await hass.config_entries.async_setup(entry.entry_id), entry.domain
            await hass.async_block_till_done()
            await conversation.async_converse(hass, "warm up", None, Context(), language=loaded.language)
            honest = _honest_replies(loaded.language)
            attributes = {e["entity_id"]: e.get("attributes") or {} for e in home["entities"]}
            initial = {e: hass.states.get(e) for e in attributes}
            sample = set(_spread(range(len(cases)), ha_cases))
            for index, case in enumerate(cases):
                for name, entry in entries.items():
                    if name == "ha" and index not in sample:
                        continue
                    # Cold (the server's cache emptied), then at once the same turn warm.
                    for warm in (False, True):
                        _restore(hass, initial)
                        turn = await _turn(hass, loaded, entry, case, server, honest, attributes, warm)
                        results[name].append(turn)
            for entry in entries.values():
                await hass.config_entries.async_unload(entry.entry_id)
    await bridge.stop()
    return results


def _entry(name: str, server: Server, bridge: OllamaBridge) -> MockConfigEntry:
    """Return the config entry of one agent, pointed at the server."""
    if name == "ours":
        options = {
            CONF_MODEL: MODEL_NAME,
            CONF_LLM_HASS_API: [LLM_API_ID],
            CONF_TIMEOUT: TURN_TIMEOUT,
            CONF_MAX_TOKENS: 400,
        }
        return our_entry(f"{server.url}/v1", {"Layered Assist": options})
    return ha_ollama_entry(bridge.url, MODEL_NAME, num_ctx=16384, keep_alive=-1)


async def _turn(
    hass: HomeAssistant,
    loaded: Any,
    entry: MockConfigEntry,
    case: dict[str, Any],
    server: Server,
    honest: list[str],
    attributes: dict[str, dict[str, Any]],
    warm: bool,
) -> Turn:
    """Run one case through one agent and judge it."""
    turn = case["turns"][0]
    agent_id = _agent_entity(hass, entry)
    area = loaded.area_ids.get(case.get("context_area") or "")
    device_id = satellite_in_area(hass, area) if area else None
    if not warm:
        await server.erase_cache()
    before_counters = await server.counters()
    calls_before = len(loaded.calls)
    started = time.perf_counter()
    result = await conversation.async_converse(
        hass, turn["text"], None, Context(), language=loaded.language, agent_id=agent_id, device_id=device_id
    )
    if entry.domain == DOMAIN and entry.runtime_data.states.get(result.conversation_id or "").pending:
        # Ours asks before a risky command; the user who asked for it confirms.
        result = await conversation.async_converse(
            hass,
            CONFIRM[loaded.language[:2]],
            result.conversation_id,
            Context(),
            language=loaded.language,
            agent_id=agent_id,
            device_id=device_id,
        )
    wall = time.perf_counter() - started
    after = await server.counters()
    reply = result.response.speech.get("plain", {}).get("speech", "")
    made = made_calls(loaded.calls[calls_before:])
    asked = any(
        after.get(key, 0) > before_counters.get(key, 0)
        for key in ("prompt_tokens_total", "tokens_predicted_total")
    )
    prompt_s = after.get("prompt_seconds_total", 0) - before_counters.get("prompt_seconds_total", 0)
    verdict = judge(turn["calls"], made, asked_model=True, attributes=attributes)
    return Turn(
        case=case["id"],
        text=turn["text"],
        verdict=verdict,
        reply=reply,
        wall_s=round(wall, 3),
        prefill_s=round(prompt_s, 3),
        asked_model=asked,
        markup=bool(_MARKUP.search(reply)),
        false_claim=_claims(reply, honest)
        and not {c["entity_id"] for c in turn["calls"]} & {m.entity_id for m in made},
        cold=not warm,
        made=[f"{m.service} {m.entity_id} {dict(m.data)}" for m in made],
    )


def _claims(reply: str, honest: list[str]) -> bool:
    """Tell whether a reply says something was done (our own "nothing was changed" does not)."""
    if _ASKS.search(reply) or any(text in reply for text in honest):
        return False
    return bool(_DONE.search(reply))


def _summary(runs: list[Turn]) -> dict[str, Any]:
    """Return the figures of one agent; what was done is judged on the first (cold) run of each case."""
    turns = [t for t in runs if t.cold]
    warm = [t for t in runs if not t.cold]
    modeled = [t for t in turns if t.asked_model]

    def times(items: list[Turn], key: str) -> dict[str, float | None]:
        values = [getattr(t, key) for t in items]
        if not values:
            return {"median": None, "p95": None}
        return {"median": round(percentile(values, 0.5), 3), "p95": round(percentile(values, 0.95), 3)}

    return {
        "turns": len(turns),
        "exact": sum(t.verdict == "exact" for t in turns),
        "wrong": sum(t.verdict == "wrong" for t in turns),
        "model_turns": len(modeled),
        "model_turns_exact": sum(t.verdict == "exact" for t in modeled),
        "model_turns_wrong": sum(t.verdict == "wrong" for t in modeled),
        "markup": sum(t.markup for t in turns),
        "false_claims": sum(t.false_claim for t in turns),
        "wall_s": {"cold": times(turns, "wall_s"), "warm": times(warm, "wall_s")},
        "prefill_s": {"cold": times(turns, "prefill_s"), "warm": times(warm, "prefill_s")},
        "model_turn_wall_s": {
            "cold": times(modeled, "wall_s"),
            "warm": times([t for t in warm if t.asked_model], "wall_s"),
        },
        "not_exact": [
            {
                "case": t.case,
                "text": t.text,
                "verdict": t.verdict,
                "reply": t.reply[:200],
                "made": t.made,
                "asked_model": t.asked_model,
                "wall_s": t.wall_s,
            }
            for t in turns
            if t.verdict != "exact" or t.markup or t.false_claim
        ],
        "model_turn_list": [
            {"case": t.case, "text": t.text, "verdict": t.verdict, "wall_s": t.wall_s, "cold": t.cold}
            for t in modeled
        ],
    }


def _ratios(turns: dict[str, list[Turn]]) -> dict[str, Any]:
    """Return HA's wall time over ours per device command (how many times faster ours is).

    Each agent's own distribution: ours over every case, HA's over its sample.
    """
    if "ha" not in turns or "ours" not in turns:
        return {}
    figures: dict[str, Any] = {}
    for label, cold in (("cold", True), ("warm", False)):
        ours = [t.wall_s for t in turns["ours"] if t.cold is cold]
        theirs = [t.wall_s for t in turns["ha"] if t.cold is cold]
        if not ours or not theirs:
            continue
        figures[label] = {
            "median": round(percentile(theirs, 0.5) / max(percentile(ours, 0.5), 1e-6), 1),
            "p95": round(percentile(theirs, 0.95) / max(percentile(ours, 0.95), 1e-6), 1),
        }
    return figures


def _spread(items: Any, count: int) -> list[int]:
    """Return ``count`` items spread evenly over the list."""
    values = list(items)
    if count >= len(values):
        return values
    if count <= 0:
        return []
    step = len(values) / count
    return [values[int(i * step)] for i in range(count)]


def _restore(hass: HomeAssistant, initial: dict[str, State | None]) -> None:
    for entity_id, state in initial.items():
        if state is not None:
            hass.states.async_set(entity_id, state.state, state.attributes)


def _agent_entity(hass: HomeAssistant, entry: MockConfigEntry) -> str:
    registry = er.async_get(hass)
    return next(
        e.entity_id
        for e in registry.entities.values()
        if e.config_entry_id == entry.entry_id and e.domain == "conversation"
    )


def main() -> None:
    """Run from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set", nargs=2, action="append", metavar=("HOME", "CASES"), required=True, type=Path
    )
    parser.add_argument("--url", required=True, help="the llama-server, e.g. http://127.0.0.1:8087")
    parser.add_argument("--agents", default="ours,ha")
    parser.add_argument("--ha-cases", type=int, default=6, help="cases HA's agent runs, per set")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    report = asyncio.run(run(args.set, Server(args.url), args.ha_cases, args.agents.split(",")))
    write_report(report, args.out)


if __name__ == "__main__":
    main()
