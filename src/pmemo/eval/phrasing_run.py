"""``pmemo eval phrasing``: the phrasing set through pmemo, once per setting compared, side by side.

Each chat goes into a fresh embedded store (SQLite in a temporary folder under ``data_dir``): its
lines posted with ``add_many`` as the chat said them (``actor_id`` and the display name on each, the
group or the private chat's user as scope), the background jobs drained, then what pmemo learned
read back through the public API only: ``profile(person, history=True)`` for each member and
``profile(history=True)`` for the chat (a fact filed under nobody of the chat counts too), and
``agenda`` (dated plans live there). ``phrasing_score`` scores it.

A run is one ``Settings``: "today" is the settings as they are, and every compared variant is the
same with some settings overridden (``--compare PMEMO_X=a,PMEMO_X=b``), so a new extractor and
today's behaviour are measured in one run on the same set.

>>> today = [("today", Settings(embedder="hashing"))]
>>> report = run(quick(build()), today, data_dir=tempfile.mkdtemp())  # doctest: +SKIP
>>> report["runs"][0]["score"]["recall"]["all"]["rate"]  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..config import ENV_PREFIX, Settings
from ..errors import InvalidInput
from .embedcache import FileCachedEmbedder
from .machine import machine
from .phrasing_score import Produced, kind_of, score
from .phrasing_set import SETS, build, counts, quick
from .phrasing_spec import KINDS, Chat, Line

BATCH = 100  # lines per add_many call


def evaluate_phrasing(environ: Mapping[str, str], *, compare: str | None = None, quick_run: bool = False,
                      embedder: str | None = None, data: str | Path | None = None,
                      json_file: str | Path | None = None, show: bool = True, which: str = "a") -> dict[str, Any]:
    """The set ``which`` ("a", or the held-out "b"; or its ``quick`` slice) through today's settings
    (from ``environ``) and each variant of ``compare``; the table printed, the numbers written to ``json_file``.

    >>> evaluate_phrasing(os.environ, compare="PMEMO_FACT_MIN_CONFIDENCE=0.8", embedder="hashing")  # doctest: +SKIP
    """
    from .harness import default_data_dir

    if which not in SETS:
        raise InvalidInput(f"--set: the phrasing sets are {', '.join(SETS)}; got {which!r}")
    variants = compare_settings(compare, environ, embedder)
    chats = quick(build(which)) if quick_run else build(which)
    report = run(chats, variants, data_dir=Path(data) if data else default_data_dir())
    report["meta"].update({"quick": quick_run, "compare": compare, "set": which})
    if json_file is not None:
        path = Path(json_file)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    if show:
        print(table(report))
    return report


def compare_settings(text: str | None, environ: Mapping[str, str],
                     embedder: str | None = None) -> list[tuple[str, Settings]]:
    """"today" (the settings ``environ`` gives) and one variant per comma-separated item of ``text``:
    ``NAME=value``, several joined by ``+``; NAME is a setting as its variable (PMEMO_X) or field (x).

    >>> [(n, s.fact_min_confidence) for n, s in compare_settings("PMEMO_FACT_MIN_CONFIDENCE=0.8", {})]
    [('today', 0.6), ('PMEMO_FACT_MIN_CONFIDENCE=0.8', 0.8)]
    """
    known = {f.name for f in fields(Settings)}
    out = [("today", Settings.from_env(environ, embedder=embedder))]
    for part in (p.strip() for p in (text or "").split(",")):
        if not part:
            continue
        env = dict(environ)
        for assignment in part.split("+"):
            name, sep, value = assignment.partition("=")
            field = name.strip().upper().removeprefix(ENV_PREFIX).lower()
            if not sep or not field:
                raise InvalidInput(f"--compare takes NAME=value items like PMEMO_X=a,PMEMO_X=b; got {assignment!r}")
            if field not in known:
                raise InvalidInput(f"--compare: pmemo has no setting {ENV_PREFIX}{field.upper()} (in"
                                   f" {assignment.strip()!r}); docs/CONFIGURATION.md lists them")
            env[ENV_PREFIX + field.upper()] = value.strip()
        out.append((part, Settings.from_env(env, embedder=embedder)))
    return out


def run(chats: Sequence[Chat], variants: Sequence[tuple[str, Settings]], *, data_dir: str | Path) -> dict[str, Any]:
    """Every chat through pmemo once per (name, settings) in ``variants``; the report as a plain dict."""
    return asyncio.run(run_async(chats, variants, data_dir=data_dir))


async def run_async(chats: Sequence[Chat], variants: Sequence[tuple[str, Settings]], *,
                    data_dir: str | Path) -> dict[str, Any]:
    """``run`` for callers that already have an event loop."""
    root = Path(data_dir)
    (root / "stores").mkdir(parents=True, exist_ok=True)
    runs = []
    for name, settings in variants:
        from ..embedders import make_embedder

        started = time.perf_counter()
        items: list[Produced] = []
        cached = FileCachedEmbedder(make_embedder(settings.embedder, settings),
                                    root / f"embeddings-{settings.embedder}.sqlite")
        try:
            for chat in chats:
                items += await learned(chat, settings, root, cached)
        finally:
            cached.close()
        runs.append({
            "name": name,
            "seconds": round(time.perf_counter() - started, 1),
            "items": len(items),
            "score": score(chats, items),
        })
    return {
        "meta": {
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "embedder": variants[0][1].embedder if variants else None,
            "machine": machine(),
        },
        "set": counts(chats),
        "runs": runs,
    }


async def learned(chat: Chat, settings: Settings, root: Path, embedder: Any) -> list[Produced]:
    """What pmemo learned from ``chat`` in a fresh store under ``root/stores``: one item per (fact or
    agenda item, source line)."""
    from .. import Memory

    with tempfile.TemporaryDirectory(prefix="pmemo-phrasing-", dir=root / "stores") as where:
        mem = await Memory.open(where, settings=settings.replace(data=where), embedder=embedder)
        try:
            line_of = await _post(mem, chat)
            return await _read(mem, chat, line_of)
        finally:
            await mem.close()


def turn_item(chat: Chat, line: Line) -> dict[str, Any]:
    """A line as an ``add_many`` item: the speaker's id and display name, the chat as scope.

    >>> from pmemo.eval.phrasing_set import build
    >>> chat = build()[0]; item = turn_item(chat, chat.lines[0])
    >>> item["actor_id"], item["actor"], item["group_id"]
    ('ni', '周霓', 'g_kaoyan')
    """
    return {
        "session_id": f"s-{chat.id}",
        "content": line.text,
        "role": "user",
        "actor": line.actor,
        "actor_id": line.speaker,
        "timestamp": line.timestamp,
        **chat.where,
    }


async def _post(mem: Any, chat: Chat) -> dict[int, int]:
    """Post the chat's lines in order and drain the jobs they queued; turn id -> line idx."""
    line_of: dict[int, int] = {}
    for start in range(0, len(chat.lines), BATCH):
        batch = chat.lines[start : start + BATCH]
        turns = await mem.add_many([turn_item(chat, line) for line in batch])
        line_of.update({t.id: line.idx for t, line in zip(turns, batch, strict=True)})
    await mem.drain()
    return line_of


async def _read(mem: Any, chat: Chat, line_of: dict[int, int]) -> list[Produced]:
    facts: dict[int, Any] = {}
    for person, _ in chat.members:
        facts.update({f.id: f for f in await mem.profile(person, history=True, **chat.where)})
    facts.update({f.id: f for f in await mem.profile(history=True, **chat.where)})
    items = []
    for f in facts.values():
        who: str | None = f.subject_id or chat.user_id  # none: the scope's owner, which only a private chat has
        ref = f"fact {f.category} · {f.key}: {f.value} [{f.status}]"
        for turn in f.sources:
            if turn in line_of:
                items.append(Produced(chat.id, line_of[turn], who, kind_of(f.category, f.key),
                                      f"{f.key} {f.value}", f.status == "current", ref))
    for a in await mem.agenda(**chat.where):
        if a.turn_id in line_of:
            items.append(Produced(chat.id, line_of[a.turn_id], a.person_id, "events", f"{a.what} {a.day.isoformat()}",
                                  a.status == "open", f"agenda {a.day.isoformat()} {a.what} [{a.status}]"))
    return items


# -- the table ----------------------------------------------------------------------------------


def table(report: dict[str, Any]) -> str:
    """Recall and precision per kind and language for every run side by side, then the totals,
    subject accuracy, corrections and false facts from negatives."""
    runs = report["runs"]
    head = f"{'kind':<10}{'labels zh/en':>13}" + "".join(f" | {_cut(r['name'], 27):^27}" for r in runs)
    sub = f"{'':<23}" + "".join(f" | {'R zh':>6}{'R en':>7}{'P zh':>7}{'P en':>7}" for _ in runs)
    out = [head, sub, "-" * len(sub)]
    first = runs[0]["score"] if runs else None
    for kind in [*KINDS, "all"]:
        if first is None:
            break
        rec = first["recall"]["by_kind"].get(kind) if kind != "all" else first["recall"]
        n = f"{rec['zh']['n']}/{rec['en']['n']}"
        cells = []
        for r in runs:
            s = r["score"]
            rk = s["recall"]["by_kind"][kind] if kind != "all" else s["recall"]
            pk = s["precision"]["by_kind"][kind] if kind != "all" else s["precision"]
            cells.append(" | " + "".join(f"{_rate(x):>7}" for x in (rk["zh"], rk["en"], pk["zh"], pk["en"]))[1:])
        out.append(f"{kind:<10}{n:>13}" + "".join(cells))
    out.append("-" * len(sub))
    rows = (
        ("recall", lambda s: _rate(s["recall"]["all"])),
        ("precision", lambda s: _rate(s["precision"]["all"])),
        ("subject accuracy", lambda s: f"{_num(s['subjects']['accuracy'])} ({s['subjects']['wrong']} wrong)"),
        ("corrections", lambda s: f"{s['corrections']['right']}/{s['corrections']['n']}"
                                  f" ({s['corrections']['old_current']} old current)"),
        ("negatives w/ facts", lambda s: f"{s['negatives']['with_facts']}/{s['negatives']['lines']}"
                                         f" ({s['negatives']['facts']} facts)"),
        ("  zh / en", lambda s: " / ".join(f"{s['negatives']['by_lang'][lang]['with_facts']}"
                                           f"/{s['negatives']['by_lang'][lang]['lines']}" for lang in ("zh", "en"))),
        ("  by reason", lambda s: _cut(", ".join(f"{w} {n['with_facts']}" for w, n in s["negatives"]["by_why"].items()
                                                 if n["with_facts"]) or "none", 27)),
        ("recall self/named/rel.", lambda s: " ".join(_rate(s["recall"]["by_about"][a])
                                                    for a in ("self", "named", "relative"))),
        ("seconds", None),
    )
    for label, cell in rows:
        vals = [str(r["seconds"]) if cell is None else cell(r["score"]) for r in runs]
        out.append(f"{label:<23}" + "".join(f" | {v:>27}" for v in vals))
    out.append("runs: " + "; ".join(r["name"] for r in runs) + " (seconds: the first run also pays for imports)")
    c = report["set"]
    out.append(f"set: {c['chats']} chats, {c['lines']} lines, {c['labels']} labels "
               f"({c['labels_zh']} zh, {c['labels_en']} en), {c['negatives']} negatives, "
               f"{c['corrections']} corrections")
    return "\n".join(out)


def _rate(share: dict[str, Any]) -> str:
    return "-" if share["rate"] is None else f"{share['rate']:.2f}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
