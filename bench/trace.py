"""Trace one turn: the integration's files and functions a sentence passes through.

    python -m bench.trace [--home HOME.json] [--model-reply TEXT] [--json] "SENTENCE"

The sentence is said to our agent in a real HA instance holding the home (default: the
zh-home fixture for Chinese, en-home otherwise), with a scripted model on 127.0.0.1 that
answers ``--model-reply``. Only the functions called while the turn is handled are counted,
and only those of the integration (``custom_components/layered_assist``).
"""

import argparse
import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
import json
from pathlib import Path
import sys
import tempfile
from types import FrameType
from typing import Any

from pytest_homeassistant_custom_component.common import async_test_home_assistant

from bench.home import async_prepare_home, our_entry, read_home
from custom_components.layered_assist.const import (
    CONF_MODEL,
    LLM_API_ID,
)
from homeassistant.components import conversation
from homeassistant.components.conversation.const import DATA_COMPONENT
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import Context
from tests.fake_openai import FakeOpenAI, text

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "custom_components" / "layered_assist"
FIXTURES = ROOT / "bench" / "fixtures"


@dataclass
class Trace:
    """What one turn passed through."""

    sentence: str
    layer: str = ""
    reply: str = ""
    model_requests: int = 0
    # file (relative to the integration) -> functions called in it, in first-call order
    functions: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Return the trace as the JSON the script prints."""
        return {
            "sentence": self.sentence,
            "layer": self.layer,
            "reply": self.reply,
            "model_requests": self.model_requests,
            "files": len(self.functions),
            "functions": sum(len(names) for names in self.functions.values()),
            "by_file": self.functions,
        }


@contextmanager
def _recording(trace: Trace) -> Iterator[None]:
    """Record every call of an integration function while the block runs."""
    prefix = str(PACKAGE) + "/"

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call" or not frame.f_code.co_filename.startswith(prefix):
            return
        path = frame.f_code.co_filename[len(prefix) :]
        name = frame.f_code.co_qualname
        if name.startswith("<") or name.endswith(("<genexpr>", "<lambda>", "<listcomp>")):
            return  # comprehensions and lambdas are part of the function that holds them
        names = trace.functions.setdefault(path, [])
        if name not in names:
            names.append(name)

    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(None)


def default_home(sentence: str) -> Path:
    """Return the fixture home of the sentence's language."""
    return FIXTURES / ("en-home.home.json" if sentence.isascii() else "zh-home.home.json")


async def async_trace(sentence: str, home_path: Path, model_reply: str) -> Trace:
    """Say the sentence to our agent and return what it passed through."""
    home = read_home(home_path)
    language = home.get("language", "en")
    server = FakeOpenAI()
    server.default_reply = text(model_reply)
    await server.start()
    trace = Trace(sentence)
    try:
        with tempfile.TemporaryDirectory() as config_dir:
            async with async_test_home_assistant(config_dir=config_dir) as hass:
                await async_prepare_home(hass, home)
                entry = our_entry(
                    server.base_url, {"Trace": {CONF_MODEL: "trace", CONF_LLM_HASS_API: [LLM_API_ID]}}
                )
                entry.add_to_hass(hass)
                assert await hass.config_entries.async_setup(entry.entry_id)
                await hass.async_block_till_done()
                agent_id = next(
                    e.entity_id for e in hass.data[DATA_COMPONENT].entities if e.entity_id.endswith("trace")
                )
                # A running HA has its sentences loaded and its caches warm: so should the traced turn.
                await conversation.async_converse(hass, "warm up", None, Context(), language=language)
                with _recording(trace):
                    result = await conversation.async_converse(
                        hass, sentence, None, Context(), language=language, agent_id=agent_id
                    )
                trace.reply = result.response.speech.get("plain", {}).get("speech", "")
                last = hass.data[DATA_COMPONENT].get_entity(agent_id).last_turn
                trace.layer = str(last.layer) if last else ""
                trace.model_requests = len(server.chat_requests)
                await hass.config_entries.async_unload(entry.entry_id)
    finally:
        await server.stop()
    return trace


def main() -> None:
    """Trace the sentence and print the files and functions it passed through."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("sentence")
    parser.add_argument("--home", type=Path, help="home JSON (default: a fixture of the sentence's language)")
    parser.add_argument("--model-reply", default="OK", help="what the scripted model answers")
    parser.add_argument("--json", action="store_true", help="print JSON instead of lines")
    args = parser.parse_args()
    home = args.home or default_home(args.sentence)
    trace = asyncio.run(async_trace(args.sentence, home, args.model_reply))
    if args.json:
        print(json.dumps(trace.as_dict(), ensure_ascii=False, indent=1))
        return
    report = trace.as_dict()
    print(f"{trace.sentence!r}: answered by {trace.layer}, {trace.model_requests} model request(s)")
    print(f"reply: {trace.reply}")
    print(f"{report['files']} files, {report['functions']} functions")
    for path, names in trace.functions.items():
        print(f"  {path}: {', '.join(names)}")


if __name__ == "__main__":
    main()
