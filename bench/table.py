"""Print benchmark reports (JSON files from bench.selection) as a Markdown table."""

import json
from pathlib import Path
import sys

COLUMNS = (
    "set",
    "entities (exposed)",
    "turns",
    "recall",
    "median candidates",
    "local exact (single-turn)",
    "local precision",
    "fast-path precision",
    "abstain",
    "prompt bytes ours / HA",
    "ratio",
    "local ms p50 / p95",
    "recall ms p95",
    "state update ms p50",
)


def row(name: str, report: dict) -> list[str]:
    """Return one table row."""
    home = report["home"]
    prompt = report["prompt_bytes"]
    latency = report["latency_ms"]

    def share(value: float | None) -> str:
        return "–" if value is None else f"{value:.3f}"

    return [
        name,
        f"{home['entities']} ({home['exposed']})",
        str(report["turns"]),
        share(report["recall"]),
        f"{report['candidates']['median']:g}",
        f"{share(report['exact'])} ({share(report['exact_single_turn'])})",
        share(report["local"]["precision"]),
        share(report["fast_path"]["precision"]),
        share(report["abstain"]),
        f"{prompt['ours_median']:g} / {prompt['baseline_median']:g}",
        "–" if prompt["ratio"] is None else f"{prompt['ratio']:.1f}×",
        f"{latency['p50']:.1f} / {latency['p95']:.1f}",
        f"{report['layer_ms']['recall_p95']:.1f}",
        f"{report['state_update_ms']['p50']:.4f}",
    ]


def main() -> None:
    """Print the table for the report files given on the command line."""
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for path in map(Path, sys.argv[1:]):
        report = json.loads(path.read_text(encoding="utf-8"))
        print("| " + " | ".join(row(path.stem, report)) + " |")


if __name__ == "__main__":
    main()
