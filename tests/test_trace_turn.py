"""scripts/trace-turn: which of the integration's files a turn passes through.

The bounds are today's, so the way a turn takes cannot grow unnoticed; the house's goal
is 12 files for a turn carried out locally and 16 for one the model answers.
"""

import json
from pathlib import Path
import subprocess
import sys

import pytest

# Starts a process with its own HA: left out of scripts/test --quick.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parent.parent
LOCAL_FILES_AT_MOST = 25
MODEL_FILES_AT_MOST = 35


def trace(sentence: str) -> dict:
    """Return the trace of one sentence said to the fixture home of its language."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.trace", "--json", sentence],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return json.loads(done.stdout)


def test_a_turn_carried_out_locally() -> None:
    """关掉书房台灯 is carried out with no model, through the reading, recall and execution."""
    report = trace("关掉书房台灯")

    assert report["layer"] == "local_action"
    assert report["model_requests"] == 0
    assert report["files"] == len(report["by_file"]) <= LOCAL_FILES_AT_MOST
    assert {"conversation.py", "language/reading.py", "selection/execute.py"} <= set(report["by_file"])
    assert not [path for path in report["by_file"] if path.startswith("chat/client")]


def test_a_turn_the_model_answers() -> None:
    """A sentence the local layers hand on reaches the model through the chat loop."""
    report = trace("把客厅吊灯打开")

    assert report["layer"] == "model"
    assert report["model_requests"] >= 1
    assert report["files"] <= MODEL_FILES_AT_MOST
    assert {"model_layer.py", "chat/loop.py", "chat/client.py"} <= set(report["by_file"])
