"""Reports of an eval run: a rich table, a JSON file, a Markdown page and a PNG chart.

The report is a plain dict (``build_report``); every writer renders that dict, so the
terminal, the JSON and the Markdown always show the same numbers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .runner import SystemRun, summarise

COLUMNS = (
    "R@5",
    "R@10",
    "R@20",
    "full@10",
    "S@5",
    "S@10",
    "ctx@1k",
    "ctx@2k",
    "ctx@4k",
    "ans@2k",
    "tok@2k",
    "F1",
    "BLEU-1",
)
CATEGORY_COLUMNS = ("R@10", "S@5", "ctx@2k")
METRICS = (
    "R@k: the share of a question's evidence (turns, or MADial memories) found in the top k of"
    " search (a summary or key line counts through its source turns); full@10: questions with all"
    " their evidence in the top 10; S@k: the share of evidence sessions with a turn in the top k"
    " (LongMemEval); ctx@Nk: the share of evidence turns whose own text is in the context packed"
    " at N thousand tokens; ans@2k: the share of the gold answer's words in that context; tok@2k:"
    " tokens that context used; p50/p95: median and 95th-percentile milliseconds per search or"
    " context, query embedding included; turn embeds/1k turns: embeddings of turns (or of their"
    " L2 windows: pmemo-wN, windows of N tokens) per 1000 turns stored; all embeds/1k turns: every"
    " text pmemo embedded (episodes, summaries and diary entries too)."
)


def build_report(
    dataset: str, meta: Mapping[str, Any], runs: Mapping[str, SystemRun], include_rows: bool = True
) -> dict[str, Any]:
    systems = {name: summarise(run) for name, run in runs.items()}
    first = next(iter(runs.values()), None)
    rows = first.rows if first else []
    counts: dict[str, int] = {
        "questions": len(rows),
        "scored": sum(r["apart"] is None for r in rows),
    }
    for r in rows:
        if r["apart"]:
            counts[r["apart"]] = counts.get(r["apart"], 0) + 1
    report: dict[str, Any] = {
        "dataset": dataset,
        "meta": dict(meta),
        "counts": counts,
        "systems": systems,
    }
    if include_rows:
        report["rows"] = {name: run.rows for name, run in runs.items()}
    return report


def _columns(report: Mapping[str, Any]) -> list[str]:
    present = {
        k for s in report["systems"].values() for k, v in s["overall"].items() if v is not None
    }
    return [c for c in COLUMNS if c in present]


def _fmt(value: Any, col: str = "") -> str:
    if value is None:
        return "-"
    if col.startswith("tok") or col in ("n", "turns/s"):
        return f"{value:.0f}"
    if col.endswith("ms"):
        return f"{value:.1f}"
    return f"{value:.3f}"


def table_rows(report: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The overall table, one row per metric and one column per system (rich and Markdown)."""
    systems = report["systems"]
    header = ["metric", *systems]
    body = [["n", *[_fmt(s["overall"].get("n"), "n") for s in systems.values()]]]
    body += [
        [c, *[_fmt(s["overall"].get(c), c) for s in systems.values()]] for c in _columns(report)
    ]
    body.append(["search p50 ms", *[_fmt(s["latency_ms"]["p50"], "ms") for s in systems.values()]])
    body.append(["search p95 ms", *[_fmt(s["latency_ms"]["p95"], "ms") for s in systems.values()]])
    body.append(
        ["ingest turns/s", *[_fmt(s["ingest"]["units_per_s"], "turns/s") for s in systems.values()]]
    )
    for label, key in (
        ("turn embeds/1k turns", "message_embeddings_per_1k"),
        ("all embeds/1k turns", "embeddings_per_1k"),
    ):
        body.append([label, *[_fmt(s["ingest"].get(key), "n") for s in systems.values()]])
    return header, body


def category_rows(
    report: Mapping[str, Any], group: str = "by_category"
) -> tuple[list[str], list[list[str]]]:
    """Per-category table: one row per (category, metric), one column per system."""
    systems = list(report["systems"])
    cats: list[str] = []
    for s in report["systems"].values():
        cats += [c for c in s[group] if c not in cats]
    header = ["category", "n", "metric", *systems]
    body = []
    for cat in cats:
        first = report["systems"][systems[0]][group].get(cat, {})
        for col in CATEGORY_COLUMNS:
            values = [report["systems"][n][group].get(cat, {}).get(col) for n in systems]
            if all(v is None for v in values):
                continue
            body.append([cat, _fmt(first.get("n"), "n"), col, *[_fmt(v, col) for v in values]])
    return header, body


ABLATED = ("R@5", "R@10", "ctx@1k", "ctx@2k")


def ablation_rows(report: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """One row per ablated signal ("pmemo-no-<signal>"): how much each metric moves without it
    (pmemo minus the ablation: positive = the signal helps), and on how many questions R@10
    changed at all (how often the signal decides anything)."""
    systems, rows = report["systems"], report.get("rows", {})
    full = systems.get("pmemo")
    header = ["signal", *(f"Δ {m}" for m in ABLATED), "R@10 changed"]
    body = []
    for name, run in systems.items():
        if full is None or not name.startswith("pmemo-no-"):
            continue
        deltas = [None if full["overall"].get(m) is None or run["overall"].get(m) is None
                  else full["overall"][m] - run["overall"][m] for m in ABLATED]
        pairs = list(zip(rows.get("pmemo", []), rows.get(name, []), strict=False))
        changed = sum(a["metrics"].get("R@10") != b["metrics"].get("R@10") for a, b in pairs)
        body.append([name.removeprefix("pmemo-no-"), *(_signed(d) for d in deltas), f"{changed}/{len(pairs)}"])
    return header, body


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def print_report(report: Mapping[str, Any], console: Any = None) -> None:
    from rich.console import Console

    console = console or Console()
    for title, (header, body) in (
        (f"{report['dataset']}: overall", table_rows(report)),
        (f"{report['dataset']}: by category", category_rows(report)),
        (f"{report['dataset']}: reported apart", category_rows(report, "apart")),
        (f"{report['dataset']}: ablations (pmemo minus pmemo without the signal)", ablation_rows(report)),
    ):
        if not body:
            continue
        print_table(console, title, header, body)
    console.print(f"counts: {report['counts']}")


def print_table(console: Any, title: str, header: Sequence[str], body: Sequence[Sequence[str]]) -> None:
    """One rich table: the first column left, the numbers right."""
    from rich.table import Table

    table = Table(title=title)
    for i, col in enumerate(header):
        table.add_column(col, justify="left" if i == 0 else "right")
    for row in body:
        table.add_row(*row)
    console.print(table)


def markdown(report: Mapping[str, Any]) -> str:
    def md_table(header: list[str], body: list[list[str]]) -> str:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)

    meta = report["meta"]
    parts = [f"# pmemo eval: {report['dataset']}", ""]
    parts += [f"- {k}: {v}" for k, v in meta.items()]
    parts += [f"- counts: {report['counts']}", "", "## Overall", "", md_table(*table_rows(report))]
    header, body = category_rows(report)
    if body:
        parts += ["", "## By category", "", md_table(header, body)]
    header, body = category_rows(report, "apart")
    if body:
        parts += ["", "## Reported apart (not in the overall numbers)", "", md_table(header, body)]
    header, body = ablation_rows(report)
    if body:
        parts += ["", "## Ablations (pmemo minus pmemo without the signal; + = the signal helps)", "",
                  md_table(header, body)]
    parts += [
        "",
        METRICS,
        "",
    ]
    return "\n".join(parts)


def write_chart(report: Mapping[str, Any], path: str | Path) -> Path | None:
    """Evidence recall of the packed context against the budget, one line per system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    budgets = sorted(
        {
            int(k[4:-1])
            for s in report["systems"].values()
            for k, v in s["overall"].items()
            if k.startswith("ctx@") and v is not None
        }
    )
    if not budgets:
        return None
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    for name, s in report["systems"].items():
        ys = [s["overall"].get(f"ctx@{b}k") for b in budgets]
        ax.plot(
            [b * 1000 for b in budgets],
            [y if y is not None else float("nan") for y in ys],
            marker="o",
            linewidth=2.5 if name == "pmemo" else 1.2,
            label=name,
        )
    ax.set_xlabel("context budget (tokens)")
    ax.set_ylabel("evidence recall in packed context")
    ax.set_ylim(0, 1)
    ax.set_xticks([b * 1000 for b in budgets])
    ax.set_title(f"{report['dataset']}: recall vs budget")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out


def write_all(report: Mapping[str, Any], out_dir: str | Path) -> dict[str, Path]:
    """``<dataset>.json``, ``<dataset>.md`` and ``<dataset>.png`` in ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = report["dataset"]
    paths = {"json": out / f"{name}.json", "markdown": out / f"{name}.md"}
    paths["json"].write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    paths["markdown"].write_text(markdown(report), encoding="utf-8")
    chart = write_chart(report, out / f"{name}.png")
    if chart:
        paths["chart"] = chart
    return paths


@contextmanager
def progress_bar(total: int, label: str, enabled: bool = True) -> Iterator[Any]:
    """A rich progress bar; yields a callback to call once per question."""
    if not enabled:
        yield lambda *_: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=False,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda *_: bar.advance(task)
