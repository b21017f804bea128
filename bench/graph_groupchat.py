"""The graph on the group-chat scenario: triples with the right subject and predicate, and changes.

    .venv/bin/python bench/graph_groupchat.py [--messages 3000] [--seed 0] [--embedder hashing]

Replays the synthetic group chat (src/pmemo/eval/groupchat_*.py) through the public API, as
its own runner does (one ``add_many`` per run of one chat, in time order), then reads every
chat's triples and compares them with the script: each scripted statement (``subject_checks``:
the message, whom it is about, the value) of a fact whose kind maps to a predicate should give
a triple from that message with that subject, that predicate and that value. Also: triples with
the right value and predicate but another subject (wrong attribution), triples about cast
members that no scripted fact accounts for (from filler talk, or wrong), and the job and city
changes: after the change the current value is the new one and the history ends the old one
where the new one begins. Last, what the "Related facts" section costs a context: the
scenario's questions asked with it and without it (``graph_in_context=0``) on the same store,
alternating, and how many of those contexts it adds to; and the questions the scenario does not
ask, about a thing rather than a person ("谁在蓝鲸数据上班？", "Who works at Fernway?"): how often
the context names the person, with the section and without. The scenario's own checks are untouched.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from typing import Any

from pmemo import Settings, SyncMemory
from pmemo.eval.groupchat_data import FACTS, LANG
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_run import chat_runs, turn_item, where_of

# a scripted fact's kind → the predicates that say it (a dislike said as "不吃" is an avoidance)
PREDICATES = {"allergy": {"allergic_to"}, "diet": {"diet", "avoids"}, "likes": {"likes", "favorite"},
              "dislikes": {"dislikes", "avoids"}, "employer": {"works_at"}, "city": {"lives_in"},
              "pet": {"has_pet"}, "school": {"studies_at"}, "title": {"job"}}


def same(a: str, b: str) -> bool:
    a, b = a.casefold(), b.casefold()
    return a in b or b in a


def ingest(m: SyncMemory, s: Any) -> dict[int, int]:
    """Every message in time order; returns turn id → message idx."""
    idx_of: dict[int, int] = {}
    for run in chat_runs(s.messages, 100):
        for turn, msg in zip(m.add_many([turn_item(x) for x in run]), run, strict=True):
            idx_of[turn.id] = msg.idx
    m.drain()
    return idx_of


def measure(m: SyncMemory, s: Any, idx_of: dict[int, int]) -> dict[str, Any]:
    chats = {(x.group_id, x.user_id) for x in s.messages}
    by_message: dict[int, list[Any]] = {}
    everything = []
    for group, user in chats:
        for t in m.triples(history=True, **where_of(group, user)):
            everything.append(t)
            for turn_id in t.sources:
                by_message.setdefault(idx_of[turn_id], []).append(t)
    kinds = {(f.pid, f.value): f.kind for f in FACTS if f.kind in PREDICATES}
    right, wrong_subject, missed = Counter(), Counter(), Counter()
    explained: set[int] = set()
    for check in s.subject_checks:
        kind = kinds.get((check.expected_subject, check.fact_hint))
        if kind is None:
            continue  # a plan or a private fact: not a link between a person and a thing
        said = [t for t in by_message.get(check.message_idx, []) if t.predicate in PREDICATES[kind]
                and (same(t.object, check.fact_hint) or same(t.object_name, check.fact_hint))]
        good = [t for t in said if t.subject == check.expected_subject]
        explained.update(t.id for t in good)
        if good:
            right[kind] += 1
        elif said:
            wrong_subject[kind] += 1
        else:
            missed[kind] += 1
    cast = {p.id for p in s.people}
    linked = {p for names in PREDICATES.values() for p in names}
    scripted = {(f.pid, p, f.value) for f in FACTS for p in PREDICATES.get(f.kind, ())}
    unscripted = [t for t in everything if t.subject in cast and t.predicate in linked and t.id not in explained
                  and not any(same(t.object, v) for pid, p, v in scripted if pid == t.subject and p == t.predicate)]
    return {"right": right, "wrong_subject": wrong_subject, "missed": missed, "unscripted": unscripted,
            "triples": len(everything), "changes": changes(m, s)}


def changes(m: SyncMemory, s: Any) -> list[dict[str, Any]]:
    """Each scripted change (a job, a city): the current value and the old one's end in history."""
    out = []
    for f in FACTS:
        if not f.extra or f.kind not in ("employer", "city") or f.key.endswith(".old"):
            continue
        (pred,) = PREDICATES[f.kind]
        history = m.triples(f.pid, predicate=pred, history=True, group_id=f.scope)
        now = m.triples(f.pid, predicate=pred, group_id=f.scope)
        old = [t for t in history if same(t.object, f.extra)]
        new = [t for t in history if same(t.object, f.value)]
        ended = bool(old and new and old[-1].valid_to is not None and old[-1].valid_to <= new[0].valid_from)
        out.append({"person": f.pid, "predicate": pred, "old": f.extra, "new": f.value,
                    "current": [t.object for t in now], "old_ends_where_new_begins": ended,
                    "history": [(t.object, t.valid_from.date().isoformat(),
                                 t.valid_to.date().isoformat() if t.valid_to else None) for t in history]})
    return out


# "who has this thing?" asked in the chat where it was said, by kind and language
WHO = {("employer", "zh"): "谁在{v}上班？", ("employer", "en"): "Who works at {v}?",
       ("city", "zh"): "谁住在{v}？", ("city", "en"): "Who lives in {v}?",
       ("pet", "zh"): "{v}是谁家的{x}？", ("pet", "en"): "Whose {x} is {v}?",
       ("school", "zh"): "谁在{v}读书？", ("school", "en"): "Who studies at {v}?"}


def who_questions(path: str, embedder: str) -> dict[str, float]:
    """For each current scripted employer, city, pet and school: does the context of "who …?"
    name the person (their display name now), with the related facts and without them?"""
    asked = [(f, WHO[(f.kind, LANG[f.scope])].format(v=f.value, x=f.extra)) for f in FACTS
             if (f.kind, LANG.get(f.scope, "")) in WHO and not f.key.endswith(".old")]
    found: dict[int, int] = {12: 0, 0: 0}
    in_section = 0
    for n in found:
        with SyncMemory.open(path, embedder=embedder, settings=Settings(graph_in_context=n)) as m:
            for f, query in asked:
                name = m.person(f.pid).name or f.pid
                pack = m.context(query, group_id=f.scope, budget_tokens=800)
                found[n] += name in pack.text.rsplit("## Current input", 1)[0]
                in_section += any(h.tier == "graph" and name in h.text for h in pack.items)
    return {"questions": len(asked), "with": found[12] / len(asked), "without": found[0] / len(asked),
            "section": in_section / len(asked)}


def context_cost(path: str, s: Any, embedder: str, rounds: int = 3) -> dict[str, float]:
    """Median context time with the graph section and without, over the scenario's questions,
    the two asked alternately (a store opened with each setting in turn); the share of contexts
    the section is in."""
    times: dict[int, list[float]] = {12: [], 0: []}
    with_section = 0
    for _ in range(rounds):
        for n in (12, 0):
            with SyncMemory.open(path, embedder=embedder, settings=Settings(graph_in_context=n)) as m:
                for q in s.questions:
                    start = time.perf_counter()
                    pack = m.context(q.query, at=q.at, asker=q.asker, **where_of(q.group_id, q.user_id))
                    times[n].append(time.perf_counter() - start)
                    with_section += n > 0 and any(h.tier == "graph" for h in pack.items)
    med = {n: sorted(t)[len(t) // 2] * 1000 for n, t in times.items()}
    return {"with_ms": med[12], "without_ms": med[0], "share_with_section": with_section / (rounds * len(s.questions))}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--embedder", default="hashing")
    args = ap.parse_args()
    s = generate(args.seed, messages=args.messages)
    with tempfile.TemporaryDirectory() as tmp:
        with SyncMemory.open(tmp, embedder=args.embedder) as m:
            start = time.perf_counter()
            idx_of = ingest(m, s)
            took = time.perf_counter() - start
            r = measure(m, s, idx_of)
        cost = context_cost(tmp, s, args.embedder)
        who = who_questions(tmp, args.embedder)
    total = sum(r["right"].values()) + sum(r["wrong_subject"].values()) + sum(r["missed"].values())
    print(f"{len(s.messages)} messages (seed {args.seed}) ingested in {took:.1f} s; {r['triples']} triples")
    print(f"scripted statements of a link: {total}; right subject, predicate and value:"
          f" {sum(r['right'].values())} ({sum(r['right'].values()) / max(total, 1):.0%}); wrong subject:"
          f" {sum(r['wrong_subject'].values())}; missed: {sum(r['missed'].values())}")
    for kind in PREDICATES:
        n = r["right"][kind] + r["wrong_subject"][kind] + r["missed"][kind]
        print(f"  {kind:9} {r['right'][kind]:3}/{n:<3} wrong subject {r['wrong_subject'][kind]},"
              f" missed {r['missed'][kind]}")
    print(f"triples about cast members no scripted fact accounts for: {len(r['unscripted'])}")
    for t in r["unscripted"][:15]:
        print(f"  {t.learned_in} {t.subject} {t.predicate} {t.object!r}")
    print(f"context, median over {len(s.questions)} questions x 3: {cost['with_ms']:.1f} ms with the related facts,"
          f" {cost['without_ms']:.1f} ms without ({cost['with_ms'] / cost['without_ms']:.2f}x); the section is in"
          f" {cost['share_with_section']:.0%} of them")
    print(f"'who …?' about a thing ({who['questions']} questions, budget 800): the context names the person in"
          f" {who['with']:.0%} with the related facts ({who['section']:.0%} in the section itself),"
          f" {who['without']:.0%} without")
    print("changes:")
    for c in r["changes"]:
        print(f"  {c['person']} {c['predicate']}: {c['old']} → {c['new']}: current {c['current']},"
              f" old ends where new begins: {c['old_ends_where_new_begins']}; history {c['history']}")


if __name__ == "__main__":
    main()
