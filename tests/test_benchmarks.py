"""The benchmark scripts run end to end on the test home and report their figures."""

import json
from pathlib import Path
import subprocess
import sys

import pytest

# Starts benchmark processes: left out of scripts/test --quick.
pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).parent.parent


def run_module(
    module: str, out: Path, home: Path = FIXTURES / "home_zh.json", cases: Path = FIXTURES / "cases_zh.jsonl"
) -> dict:
    """Run a benchmark module on a home (the test home by default) and return its report."""
    subprocess.run(
        [sys.executable, "-m", module, "--home", str(home), "--cases", str(cases), "--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return json.loads(out.read_text(encoding="utf-8"))


def test_selection_benchmark(tmp_path: Path) -> None:
    """The selection report has every field of the format and sensible values."""
    report = run_module("bench.selection", tmp_path / "selection.json")
    for key in (
        "turns",
        "recall",
        "exact",
        "abstain",
        "candidates",
        "latency_ms",
        "state_update_ms",
        "fast_path",
        "prompt_bytes",
        "by_tag",
        "failures",
    ):
        assert key in report
    assert report["turns"] == 10
    assert report["recall"] == 1.0
    assert report["abstain"] == 1.0
    assert report["local"]["precision"] == 1.0
    assert report["prompt_bytes"]["ours_median"] < report["prompt_bytes"]["baseline_median"]
    assert set(report["by_tag"]) >= {"simple", "pronoun", "negative", "query"}
    # Turns with calls are judged for both agents: nothing is done on a question or a
    # later request, and 25度半 sets 25.5.
    actions = report["actions"]
    assert actions["ours"]["turns"] == actions["ha"]["turns"] == 3
    assert (actions["ours"]["exact"], actions["ours"]["wrong"]) == (3, 0)
    assert actions["by_tag"]["query"]["ours"]["exact"] == 1


@pytest.mark.parametrize("name", ["zh-home", "en-home", "zh-hk-home", "zh-tw-home"])
def test_our_fixtures_are_all_carried_out(tmp_path: Path, name: str) -> None:
    """Our own fixtures in every language: every action turn exact, none wrong (issue 19's floor)."""
    bench = ROOT / "bench" / "fixtures"
    report = run_module(
        "bench.selection",
        tmp_path / "selection.json",
        bench / f"{name}.home.json",
        bench / f"{name}.cases.jsonl",
    )
    ours = report["actions"]["ours"]
    assert ours["turns"] >= 40
    assert ours["wrong"] == 0, ours["wrong_turns"]
    assert ours["action_exact"] == 1.0, [v["text"] for v in report["verdicts"] if v["verdict"] != "exact"]


def test_e2e_benchmark(tmp_path: Path) -> None:
    """Both agents act on the single-turn cases; ours needs fewer requests and less time."""
    report = run_module("bench.e2e", tmp_path / "e2e.json")
    ours, ha = report["ours"], report["ha"]
    assert ours["commands"] == ha["commands"] == 5
    assert ha["model_requests_per_command"] == 2
    assert ours["model_requests_per_command"] < 1
    assert ours["acted_on_expected"] == 1.0
    assert ha["acted_on_expected"] >= 0.75
    assert ours["modeled_ms"]["median"] < ha["modeled_ms"]["median"]
