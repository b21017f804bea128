"""``evaluate``: one dataset file in, one report out — what ``pmemo eval`` calls;
``evaluate_groupchat`` the same for the synthetic group-chat scenario.

>>> from pmemo.eval.harness import default_data_dir
>>> default_data_dir().name
'pmemo-eval'
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..config import Settings
from ..errors import InvalidInput
from ..retrieval.recipe import SIGNALS as RECIPE
from .datasets import load
from .embedcache import FileCachedEmbedder, run_embedder
from .groupchat_gen import generate
from .groupchat_report import print_report as print_groupchat
from .groupchat_report import write as write_groupchat
from .groupchat_run import INGEST_TURNS
from .groupchat_run import run as run_groupchat
from .groupchat_scenario import Scenario, from_json
from .groupchat_windows import compare as compare_windows
from .groupchat_windows import variants as scenario_variants
from .machine import machine
from .report import build_report, print_report, progress_bar, write_all
from .runner import EvalConfig, PmemoSystem, baseline_factory, run_episodes


def default_data_dir() -> Path:
    """Where eval runs keep their embedding cache and scratch stores, across runs."""
    return Path.home() / ".cache" / "pmemo-eval"


def evaluate(
    kind: str,
    path: str | Path,
    *,
    out: str | Path | None = None,
    limit: int | None = None,
    start: int = 1,
    embedder: str | Any = None,
    data: str | Path | None = None,
    settings: Settings | None = None,
    llm: Any = None,
    systems: Sequence[str] | None = None,
    budgets: Sequence[int] | None = None,
    memories: str | Path | None = None,
    show: bool = True,
    window_tokens: Sequence[int] = (),
    ablate: Sequence[str] = (),
) -> dict[str, Any]:
    """Run pmemo and the baselines over a dataset; write JSON/Markdown/PNG to ``out``.
    ``start`` (1-based) and ``limit`` pick ``limit`` conversations/questions from ``start`` on.
    ``window_tokens``: also pmemo with L2 windows of each size ("pmemo-w<N>"), "pmemo" being
    then one embedding per turn, in the same run. ``ablate``: also pmemo without each of these
    ranking signals ("pmemo-no-<signal>", its weight 0; names in ``SIGNALS``)."""
    return asyncio.run(_evaluate(
        kind, path, out=out, limit=limit, start=start, embedder=embedder, data=data, settings=settings, llm=llm,
        systems=systems, budgets=budgets, memories=memories, show=show, window_tokens=window_tokens, ablate=ablate,
    ))


async def _evaluate(
    kind: str, path: str | Path, *, out: str | Path | None, limit: int | None, start: int, embedder: str | Any,
    data: str | Path | None, settings: Settings | None, llm: Any, systems: Sequence[str] | None,
    budgets: Sequence[int] | None, memories: str | Path | None, show: bool, window_tokens: Sequence[int] = (),
    ablate: Sequence[str] = (),
) -> dict[str, Any]:
    settings = settings or Settings.from_env()
    data_dir = Path(data) if data else default_data_dir()
    settings, cached = run_embedder(embedder if embedder is not None else settings.embedder, settings, data_dir)
    cfg = _config(systems, budgets, window_tokens, ablate)
    skip = max(start, 1) - 1
    episodes = load(kind, path, limit=skip + limit if limit else None, memories=memories)[skip:]
    make_system = _system_maker(settings, cached, llm, data_dir, windowed=bool(window_tokens))
    started = time.perf_counter()
    total = sum(len(e.probes) for e in episodes)
    try:
        with progress_bar(total, f"{kind}: {len(episodes)} memories", enabled=show) as tick:
            runs = await run_episodes(
                episodes, make_system=make_system, cfg=cfg, llm=llm, on_probe=tick
            )
    finally:
        cached.close()
    meta = {
        "file": str(path),
        "episodes": len(episodes),
        "units": sum(len(e.units) for e in episodes),
        "limit": limit,
        "start": start,
        **_run_meta(cached, settings, llm, cfg, window_tokens, ablate),
        "seconds": round(time.perf_counter() - started, 1),
        "machine": machine(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    report = build_report(kind, meta, runs)
    if out is not None:
        report["files"] = {k: str(v) for k, v in write_all(report, out).items()}
    if show:
        print_report(report)
    return report


def _config(systems: Sequence[str] | None, budgets: Sequence[int] | None, window_tokens: Sequence[int],
            ablate: Sequence[str]) -> EvalConfig:
    """The systems and budgets to run: the defaults, those asked for, and pmemo's variants."""
    cfg = EvalConfig()
    if systems:
        cfg = EvalConfig(systems=tuple(systems), budgets=cfg.budgets)
    if budgets:
        cfg = EvalConfig(systems=cfg.systems, budgets=tuple(budgets))
    if window_tokens or ablate:
        variants = [f"pmemo-w{n}" for n in window_tokens] + [f"pmemo-no-{check_signal(a)}" for a in ablate]
        cfg = EvalConfig(systems=with_variants(cfg.systems, variants), budgets=cfg.budgets)
    return cfg


def _system_maker(settings: Settings, cached: FileCachedEmbedder, llm: Any, data_dir: Path, *,
                  windowed: bool) -> Any:
    """``make_system(name)``: a baseline, or pmemo opened with its variant's settings."""
    from .. import Memory
    from ..tokens import make_counter

    make_baseline = baseline_factory(cached, make_counter(settings.tokenizer))

    def opener(changes: dict[str, Any]) -> Any:
        async def open_memory(store_dir: str) -> Any:
            wanted = settings.replace(data=store_dir, **changes)
            return await Memory.open(store_dir, settings=wanted, embedder=cached, llm=llm)

        return open_memory

    def make_system(name: str) -> Any:
        changes = variant(name)
        if changes is None:
            return make_baseline(name)
        if windowed:  # beside windowed runs, every other pmemo embeds each turn
            changes = {"window_tokens": 0, **changes}
        return PmemoSystem(opener(changes), data_dir / "stores")

    return make_system


def _run_meta(cached: FileCachedEmbedder, settings: Settings, llm: Any, cfg: EvalConfig,
              window_tokens: Sequence[int], ablate: Sequence[str]) -> dict[str, Any]:
    """What a report says it ran with: embedder and its cache, tokenizer, LLM, budgets, windows, ablations."""
    return {
        "embedder": cached.model_id,
        "embedding_cache": {"hits": cached.hits, "misses": cached.misses},
        "tokenizer": settings.tokenizer,
        "llm": getattr(llm, "model_id", None),
        "budgets": list(cfg.budgets),
        "window_tokens": list(window_tokens) or settings.window_tokens,
        "window_overlap_tokens": settings.window_overlap_tokens,
        "ablated": [check_signal(a) for a in ablate],
    }


def evaluate_groupchat(
    path: str | Path | None = None,
    *,
    seed: int = 0,
    messages: int = 3000,
    im: bool = False,
    out: str | Path | None = None,
    embedder: str | Any = None,
    data: str | Path | None = None,
    settings: Settings | None = None,
    ingest_turns: int = INGEST_TURNS,
    show: bool = True,
    window_tokens: Sequence[int] = (),
    ablate: Sequence[str] = (),
) -> dict[str, Any]:
    """Run the group-chat scenario in ``path`` (a ``to_json`` file; without one, generated from
    ``seed`` with ``messages`` messages) through pmemo; ``groupchat.json`` and ``.md`` go to ``out``.
    ``window_tokens``: also L2 windows of each size against one embedding per message.
    ``ablate``: also the scenario without each of these ranking signals (``SIGNALS``).

    >>> evaluate_groupchat(seed=0, messages=300, out="eval_out", embedder="hashing")  # doctest: +SKIP
    """
    settings = settings or Settings.from_env()
    scenario = read_scenario(path) if path is not None else generate(seed, messages=messages, im=im)
    data_dir = Path(data) if data else default_data_dir()
    embedder = embedder if embedder is not None else settings.embedder
    report = run_groupchat(scenario, embedder=embedder, data_dir=data_dir, settings=settings,
                           ingest_turns=ingest_turns)
    report["meta"] = {"file": str(path) if path is not None else None, **report["meta"]}
    if window_tokens:
        report["windows"] = compare_windows(scenario, window_tokens, data_dir=data_dir, embedder=embedder,
                                           settings=settings)
    if ablate:
        names = ["pmemo", *(check_signal(a) for a in ablate)]
        rows = scenario_variants(scenario, [{} if n == "pmemo" else {SIGNALS[n]: 0.0} for n in names],
                                 data_dir=data_dir, embedder=embedder, settings=settings)
        report["ablations"] = [{"signal": n, **row} for n, row in zip(names, rows, strict=True)]
    if out is not None:
        report["files"] = {k: str(v) for k, v in write_groupchat(report, out).items()}
    if show:
        print_groupchat(report)
    return report


def read_scenario(path: str | Path) -> Scenario:
    """A scenario file written from ``groupchat_scenario.to_json``; InvalidInput says what is wrong."""
    import json

    file = Path(path)
    if not file.is_file():
        raise InvalidInput(f"scenario file {file} does not exist")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"scenario file {file} is not JSON: {exc}") from exc
    return from_json(data)


# The ranking signals an ablation can turn off, each by its weight setting (retrieval/recipe.py
# says what each one is for). "pmemo-no-<name>" runs pmemo with that weight 0.
SIGNALS = {s.name: s.setting for s in RECIPE}


def check_signal(name: str) -> str:
    if name not in SIGNALS:
        raise InvalidInput(f"unknown signal {name!r} to ablate: use {', '.join(SIGNALS)}")
    return name


def with_variants(systems: Sequence[str], variants: Sequence[str]) -> tuple[str, ...]:
    """The systems with pmemo's variants right after "pmemo" (first if absent).

    >>> with_variants(("pmemo", "bm25"), ["pmemo-w160", "pmemo-no-speaker"])
    ('pmemo', 'pmemo-w160', 'pmemo-no-speaker', 'bm25')
    """
    if "pmemo" not in systems:
        return (*variants, *systems)
    at = systems.index("pmemo") + 1
    return (*systems[:at], *variants, *systems[at:])


def variant(system: str) -> dict[str, Any] | None:
    """The settings a pmemo system changes ({} for plain "pmemo"), None for a baseline.

    >>> variant("pmemo-w256"), variant("pmemo-no-money"), variant("pmemo"), variant("bm25")
    ({'window_tokens': 256}, {'w_money': 0.0}, {}, None)
    >>> variant("pmemo-use")  # the bundled USE as a second dense channel
    {'second_encoder': 'use'}
    """
    if system == "pmemo":
        return {}
    if system == "pmemo-use":
        return {"second_encoder": "use"}
    if system.startswith("pmemo-no-") and system[len("pmemo-no-"):] in SIGNALS:
        return {SIGNALS[system[len("pmemo-no-"):]]: 0.0}
    head, _, size = system.partition("-w")
    return {"window_tokens": int(size)} if head == "pmemo" and size.isdigit() else None
