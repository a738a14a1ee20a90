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
    "action exact (ours · HA)",
    "wrong actions (ours · HA)",
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
        *action_cells(report.get("actions")),
    ]


def action_cells(actions: dict | None) -> list[str]:
    """Return the action columns: share exact and wrong turns, ours beside HA's default agent."""
    if not actions or not actions["ours"]["turns"]:
        return ["–", "–"]
    ours, ha = actions["ours"], actions["ha"]
    return [
        f"{ours['action_exact']:.3f} · {ha['action_exact']:.3f} ({ours['turns']})",
        f"{ours['wrong']} · {ha['wrong']}",
    ]


E2E_COLUMNS = (
    "set",
    "commands",
    "model requests / command (ours · HA)",
    "ours with no request",
    "request bytes median (ours · HA)",
    "modeled ms median (ours · HA)",
    "modeled ms p95 (ours · HA)",
    "HA ÷ ours, p95",
    "acted on expected (ours · HA)",
)


def e2e_row(name: str, report: dict) -> list[str]:
    """Return one row of the end-to-end table."""
    ours, ha = report["ours"], report["ha"]
    p95 = ha["modeled_ms"]["p95"] / ours["modeled_ms"]["p95"] if ours["modeled_ms"]["p95"] else float("inf")
    return [
        name,
        str(ours["commands"]),
        f"{ours['model_requests_per_command']:.2f} · {ha['model_requests_per_command']:.2f}",
        f"{report['ours_zero_request_share']:.0%}",
        f"{ours['request_bytes']['median']:g} · {ha['request_bytes']['median']:g}",
        f"{ours['modeled_ms']['median']:.0f} · {ha['modeled_ms']['median']:.0f}",
        f"{ours['modeled_ms']['p95']:.0f} · {ha['modeled_ms']['p95']:.0f}",
        f"{p95:.1f}×",
        f"{ours['acted_on_expected']:.3f} · {ha['acted_on_expected']:.3f}",
    ]


BLIND_COLUMNS = (
    "set",
    "turns",
    "action turns done locally, exactly",
    "all turns exact",
    "wrong (ours · HA)",
    "handed on",
    "recall",
    "local ms p95",
)


def blind_row(name: str, report: dict) -> list[str]:
    """Return one row of the blind-set table: the figures issue 19 is judged by."""
    ours, ha = report["actions"]["ours"], report["actions"]["ha"]
    return [
        name,
        str(ours["turns"]),
        f"{ours['action_turns_exact']:.3f} ({ours['action_turns']})",
        f"{ours['action_exact']:.3f}",
        f"{ours['wrong']} · {ha['wrong']}",
        str(ours["handed"]),
        f"{report['recall']:.3f}",
        f"{report['latency_ms']['p95']:.1f}",
    ]


def main() -> None:
    """Print the table for the report files given on the command line (selection or e2e).

    ``--blind`` first: the blind-set table (bench/blind).
    """
    arguments = sys.argv[1:]
    blind = bool(arguments) and arguments[0] == "--blind"
    paths = list(map(Path, arguments[1:] if blind else arguments))
    reports = [(path.stem, json.loads(path.read_text(encoding="utf-8"))) for path in paths]
    e2e = bool(reports) and "ours" in reports[0][1]
    columns, make_row = (
        (BLIND_COLUMNS, blind_row) if blind else (E2E_COLUMNS, e2e_row) if e2e else (COLUMNS, row)
    )
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for name, report in reports:
        print("| " + " | ".join(make_row(name, report)) + " |")


if __name__ == "__main__":
    main()
