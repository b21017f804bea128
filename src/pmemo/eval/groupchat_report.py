"""The group-chat report (``groupchat_run``'s dict) as tables: metric | pmemo | bm25 | target | met.

The targets are issue 17's. Every writer renders the same rows, so the terminal, the JSON and
the Markdown show the same numbers.

>>> report = {"metrics": {"recall_at_5": 0.9, "bm25_recall_at_5": 0.7, "leaks": 0}, "counts": {}}
>>> [r for r in table_rows(report)[1] if r[0].startswith(("R@5 (", "leaks"))]
[['R@5 (search, top 5)', '0.900', '0.700', '≥ 0.95', 'no'], ['leaks', '0', '-', '0', 'yes']]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .groupchat_score import p50
from .metrics import percentile
from .report import print_table

SHOWN = 20  # failures kept per list; the counts keep the totals


@dataclass(frozen=True)
class Row:
    """One line of the table: the metric keys of pmemo and the baseline, the target and its test.

    >>> Row("leaks", "leaks", target="0", met=lambda v: v == 0, unit="int").met(0)
    True
    """

    label: str
    pmemo: str
    bm25: str | None = None
    target: str = ""
    met: Callable[[float], bool] | None = None
    unit: str = "share"  # share | int | ms | rate | ratio
    count: str | None = None  # a ``counts`` entry [right, total] shown beside a share


ROWS = (
    Row("R@5 (search, top 5)", "recall_at_5", "bm25_recall_at_5", "≥ 0.95", lambda v: v >= 0.95),
    Row("R@5, the chat's last lines as the query (cues)", "cue_recall_at_5", "bm25_cue_recall_at_5"),
    Row("cues whose first fact found is theirs", "cue_first_fact"),
    Row("cues whose fact reaches a 2k context", "cue_context_2k"),
    Row("subject accuracy", "subject_accuracy", target="≥ 0.95", met=lambda v: v >= 0.95),
    Row("fact messages that gave a fact", "subject_extracted"),
    Row("alias precision (learned only)", "alias_precision", target="≥ 0.97", met=lambda v: v >= 0.97),
    Row("alias recall (learned only)", "alias_recall", target="≥ 0.95", met=lambda v: v >= 0.95),
    Row("alias F1 (learned only)", "alias_f1"),
    Row("alias precision, names read as before issue 44 §6", "alias_precision_before"),
    Row("alias recall, names read as before issue 44 §6", "alias_recall_before"),
    Row("profile checks right", "profile_checks", target="all", met=lambda v: v == 1.0, count="profile_checks"),
    Row("follow-ups right", "followups", target="all", met=lambda v: v == 1.0, count="followups"),
    Row("leaks", "leaks", target="0", met=lambda v: v == 0, unit="int"),
    Row("tokens per context (budget 2,000)", "context_tokens", unit="rate"),
    Row("evidence messages in those contexts", "context_evidence"),
    Row("filler lines in all contexts", "context_filler_lines", target="0", met=lambda v: v == 0, unit="int"),
    Row("person questions: their fact in a 600-token context", "person_fact_600", target="≥ 0.95",
        met=lambda v: v >= 0.95),
    Row("…, people section as before issue 44 §3", "person_fact_600_before"),
    Row("…, in their own card", "person_card_600"),
    Row("…, in their own card, as before", "person_card_600_before"),
    Row("facts under another person's card", "person_misplaced", target="0", met=lambda v: v == 0, unit="int"),
    Row("…, as before", "person_misplaced_before", unit="int"),
    Row("consecutive contexts, same leading sections", "stable_prefix"),
    Row("…, of those about the same people", "stable_prefix_same_people"),
    Row("search p50 ms", "search_p50_ms", "bm25_search_p50_ms", unit="ms"),
    Row("search p95 ms", "search_p95_ms", "bm25_search_p95_ms", unit="ms"),
    Row("context p50 ms, with people", "context_people_p50_ms", unit="ms"),
    Row("context p50 ms, without", "context_plain_p50_ms", unit="ms"),
    Row("context with / without people", "context_people_ratio", target="≤ 1.3×", met=lambda v: v <= 1.3,
        unit="ratio"),
    Row("ingest turns/s, with actor_id", "ingest_people_turns_per_s", unit="rate"),
    Row("ingest turns/s, plain", "ingest_plain_turns_per_s", unit="rate"),
    Row("ingest with / without actor_id", "ingest_ratio", target="≥ 0.9×", met=lambda v: v >= 0.9, unit="ratio"),
    Row("processed turns/s, with actor_id", "processed_people_per_s", unit="rate"),
    Row("processed turns/s, plain", "processed_plain_per_s", unit="rate"),
    Row("processed with / without actor_id", "processed_ratio", target="≥ 0.9×", met=lambda v: v >= 0.9,
        unit="ratio"),
)  # fmt: skip

NOTES = (
    "R@5: share of the evidence messages behind the top 5 hits of `search` in the question's own chat "
    "(a fact or window hit counts through its source turns); bm25 ranks that chat's messages alone.",
    "Cues: the chat's last lines as the query (small talk, then a member naming another on a topic one of "
    "their facts bears on, without its words: 'dinner on Saturday, Sam coming?'); R@5 of that person's "
    "facts on the topic said in the chat; first fact: the first fact among those hits is one of them; "
    "in context: the fact's value is in the `context` the cue's speaker gets at 2,000 tokens (memory only).",
    "Subject accuracy: fact messages whose facts (read back with `profile(..., history=True)` per chat) "
    "name the right person; a dated plan counts through the person of the agenda item it gave (pmemo keeps "
    "plans in the agenda, not as facts); a message that gave neither counts as wrong.",
    "Aliases: `resolve_people` after the replay; nobody was registered by hand, so every nickname had to "
    "be learned from the messages; ambiguous matches count as no answer. Each check is a text said in a "
    "group with the members it names there (the scenario's truth: a title nobody used, or a 哥 / 姐 form "
    "for the other sex, names someone outside the group; another group's nickname names nobody): precision "
    "is the share of the people resolved that the text names, recall the share of the people it names "
    "that were resolved. 'As before issue 44 §6': the same store read with `alias_guesses=any` and "
    "`aliases_per_chat=false` (every generated form a name, a nickname said anywhere good everywhere).",
    "Leaks: forbidden messages (another group's or a private chat's) behind a `search` hit (top 20) or a "
    "`context` item, or quoted verbatim in the context text.",
    "Contexts: each chat's questions in time order, asked by their asker with the chat's last 3 messages as "
    "`recent`, at the default budget: tokens each, lines showing a turn with nothing in it (laughter, a "
    "sticker, 在吗), and the share of consecutive pairs whose leading sections (blocks, key lines, people) "
    "are the same bytes: the prefix a provider's prompt cache reuses; 'same people': of the pairs whose "
    "people section is about the same people.",
    "Person questions (issue 44 §3): a member asks about another — who they are, one of their facts, or "
    "either with a pronoun right after a line that named them — in several phrasings per kind, zh and en; "
    "the `context` the asker gets at 600 tokens (the question's chat lines as `recent`) holds one of the "
    "values that person said in that chat (from memory, the question itself not counted), and 'in their own "
    "card': as a fact line under that person's line in the people section. 'As before': the same store read "
    "with `person_card=false` (the people section before §3). Facts under another person's card: fact lines "
    "in the people section standing after the line of someone they are not about.",
    "Context latency: `context` per question with the asker and the chat's last 3 messages as `recent` "
    "vs neither, alternating which goes first.",
    "Ingest: wall time of the `add_many` calls only (batches of 100, one group, a fresh store per round, "
    "an untimed warm-up round, then rounds ABBA BAAB); the background jobs they queue run meanwhile (the "
    "worker lets writers go first: it waits for a pause in `add` calls) and are not waited for. Processed: "
    "the calls and then a `drain`, until every job they queued is done.",
)


def build_report(meta: Mapping[str, Any], parts: Mapping[str, Any]) -> dict[str, Any]:
    """One plain dict from what ``groupchat_run`` measured: headline metrics (flat, the keys of
    ``ROWS``), counts, R@5 per question kind, timing, and the failure lists (the first 20 each)."""
    q, cue, ingest = parts["questions"], parts["cues"], parts["ingest"]
    subj, prof, follow, alias, leak = (parts[k] for k in ("subjects", "profiles", "followups", "aliases", "leaks"))
    cards, old_cards = parts.get("person_cards", {}), parts.get("person_cards_before", {})
    metrics = {**_recall_metrics(parts), **_latency_metrics(parts), **_pack_metrics(parts), **_ingest_metrics(ingest)}
    counts = {
        "questions": q["n"],
        "cues": cue["n"],
        "subject_checks": subj["n"],
        "subject_extracted": subj["extracted"],
        "subject_from_agenda": subj["from_agenda"],
        "alias_checks": alias["n"],
        "alias_tp": alias["tp"],
        "alias_fp": alias["fp"],
        "alias_fn": alias["fn"],
        "profile_checks": [prof["right"], prof["total"]],
        "followups": [follow["right"], follow["total"]],
        "leak_probes": leak["n"],
        "leaks_by_search": leak["search"],
        "leaks_by_context": leak["context"],
        "person_questions": cards.get("n"),
        "person_facts_twice": [cards.get("twice"), old_cards.get("twice")],
    }
    lists = {"questions": q, "cues": cue, "subjects": subj, "aliases": alias, "profiles": prof, "followups": follow,
             "leaks": leak, "person_questions": {"failures": cards.get("failures", [])}}
    return {
        "dataset": "groupchat",
        "meta": dict(meta),
        "metrics": metrics,
        "counts": counts,
        "by_kind": q["by_kind"],
        "person_by_kind": _person_by_kind(cards, old_cards),
        "timing": {"replay": parts["replay"], "ingest": ingest},
        "failures_total": {k: len(v["failures"]) for k, v in lists.items()},
        "failures": {k: v["failures"][:SHOWN] for k, v in lists.items()},
    }


def _recall_metrics(parts: Mapping[str, Any]) -> dict[str, Any]:
    """What was found: R@5 of questions and cues, subjects, aliases, profiles, follow-ups, leaks."""
    q, cue, subj, alias = parts["questions"], parts["cues"], parts["subjects"], parts["aliases"]
    before = parts["aliases_before"] if "aliases_before" in parts else None
    return {
        "recall_at_5": q["pmemo"],
        "bm25_recall_at_5": q["bm25"],
        "cue_recall_at_5": cue["pmemo"],
        "bm25_cue_recall_at_5": cue["bm25"],
        "cue_first_fact": cue["first_fact"],
        "cue_context_2k": parts["cue_context"]["share"],
        "subject_accuracy": subj["accuracy"],
        "subject_extracted": _share(subj["extracted"], subj["n"]),
        "alias_precision": alias["precision"],
        "alias_recall": alias["recall"],
        "alias_f1": alias["f1"],
        "alias_precision_before": before["precision"] if before is not None else None,
        "alias_recall_before": before["recall"] if before is not None else None,
        "profile_checks": _share(parts["profiles"]["right"], parts["profiles"]["total"]),
        "followups": _share(parts["followups"]["right"], parts["followups"]["total"]),
        "leaks": parts["leaks"]["count"],
    }


def _latency_metrics(parts: Mapping[str, Any]) -> dict[str, Any]:
    q, ctx = parts["questions"], parts["context"]
    people_ms, plain_ms = p50(ctx["people"]), p50(ctx["plain"])
    return {
        "search_p50_ms": p50(q["search_ms"]),
        "search_p95_ms": percentile(q["search_ms"], 95),
        "bm25_search_p50_ms": p50(q["bm25_ms"]),
        "bm25_search_p95_ms": percentile(q["bm25_ms"], 95),
        "context_people_p50_ms": people_ms,
        "context_plain_p50_ms": plain_ms,
        "context_people_ratio": people_ms / plain_ms if people_ms and plain_ms else None,
    }


def _pack_metrics(parts: Mapping[str, Any]) -> dict[str, Any]:
    """What the contexts held: tokens, evidence, filler lines, person cards, the stable prefix."""
    packs = parts.get("packs", {})
    cards, old_cards = parts.get("person_cards", {}), parts.get("person_cards_before", {})
    return {
        "context_tokens": packs.get("tokens"),
        "context_evidence": packs.get("evidence"),
        "context_filler_lines": packs.get("filler_lines"),
        "person_fact_600": cards.get("held"),
        "person_fact_600_before": old_cards.get("held"),
        "person_card_600": cards.get("in_card"),
        "person_card_600_before": old_cards.get("in_card"),
        "person_misplaced": cards.get("misplaced"),
        "person_misplaced_before": old_cards.get("misplaced"),
        "stable_prefix": packs.get("stable_prefix"),
        "stable_prefix_same_people": packs.get("stable_prefix_same_people"),
    }


def _ingest_metrics(ingest: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "ingest_people_turns_per_s": ingest.get("people_turns_per_s"),
        "ingest_plain_turns_per_s": ingest.get("plain_turns_per_s"),
        "ingest_ratio": (ingest["people_turns_per_s"] / ingest["plain_turns_per_s"]) if ingest else None,
        "processed_people_per_s": ingest.get("people_processed_per_s"),
        "processed_plain_per_s": ingest.get("plain_processed_per_s"),
        "processed_ratio": (ingest["people_processed_per_s"] / ingest["plain_processed_per_s"]) if ingest else None,
    }


def _person_by_kind(cards: Mapping[str, Any], old_cards: Mapping[str, Any]) -> dict[str, Any]:
    """The person questions by kind: held and in the card, now and as before."""
    old = old_cards.get("by_kind", {})
    return {k: {"n": v["n"], "held": v["held"], "held_before": old.get(k, {}).get("held"),
                "in_card": v["in_card"], "in_card_before": old.get(k, {}).get("in_card")}
            for k, v in cards.get("by_kind", {}).items()}


def _share(right: int, total: int) -> float | None:
    return right / total if total else None


# how a row's unit is printed; any other unit (a share, a score): three decimals
_FORMATS = {"int": "{:.0f}", "ms": "{:.1f}", "rate": "{:,.0f}", "ratio": "{:.2f}×"}


def _fmt(value: Any, unit: str) -> str:
    return "-" if value is None else _FORMATS.get(unit, "{:.3f}").format(value)


def table_rows(report: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The headline table: one row per metric, pmemo beside BM25 where BM25 answers the same question."""
    metrics, counts = report["metrics"], report["counts"]
    body = []
    for row in ROWS:
        value = metrics.get(row.pmemo)
        shown = _fmt(value, row.unit)
        if row.count and counts.get(row.count):
            right, total = counts[row.count]
            shown = f"{right}/{total} = {shown}"
        met = "-" if row.met is None or value is None else ("yes" if row.met(value) else "no")
        base = _fmt(metrics.get(row.bm25), row.unit) if row.bm25 else "-"
        body.append([row.label, shown, base, row.target or "-", met])
    return ["metric", "pmemo", "bm25", "target", "met"], body


def kind_rows(report: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """R@5 per question kind (fact, nickname, silent, rename, job_change, who)."""
    body = [[kind, str(v["n"]), _fmt(v["pmemo"], "share"), _fmt(v["bm25"], "share")]
            for kind, v in report["by_kind"].items()]  # fmt: skip
    return ["kind", "n", "pmemo R@5", "bm25 R@5"], body


def person_rows(report: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Person questions per kind (who, fact, pronoun): their fact in the 600-token context and in
    their own card, now and as before issue 44 §3.

    >>> person_rows({"person_by_kind": {"who": {"n": 2, "held": 1.0, "held_before": 0.5, "in_card": 1.0,
    ...                                          "in_card_before": 0.0}}})[1]
    [['who', '2', '1.000', '0.500', '1.000', '0.000']]
    """
    shown = ("held", "held_before", "in_card", "in_card_before")
    body = [[kind, str(v["n"]), *(_fmt(v.get(m), "share") for m in shown)]
            for kind, v in report.get("person_by_kind", {}).items()]
    return ["kind", "n", "in context", "before", "in own card", "before"], body


def window_rows(rows: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """L2 windows against per-message embedding (``groupchat_windows.compare``'s rows, the
    per-message one first): message embeddings (of messages or windows) and how many times
    fewer, all embeddings (episodes and diary entries too), R@5, R@10, ctx@2k.

    >>> row = {"window_tokens": 0, "message_embeddings_per_1k": 900.0, "embeddings_per_1k": 1000.0,
    ...        "R@5": 0.9, "R@10": 0.95, "ctx@2k": 0.8}
    >>> window_rows([row, {**row, "window_tokens": 200, "message_embeddings_per_1k": 100.0}])[1][1]
    ['windows of 200 tokens', '100', '9.0×', '1000', '0.900', '0.950', '0.800']
    """
    base = rows[0]["message_embeddings_per_1k"] if rows else 0.0
    body = [[f"windows of {r['window_tokens']} tokens" if r["window_tokens"] else "per message",
             f"{r['message_embeddings_per_1k']:.0f}",
             f"{base / r['message_embeddings_per_1k']:.1f}×" if r["message_embeddings_per_1k"] else "-",
             f"{r['embeddings_per_1k']:.0f}", f"{r['R@5']:.3f}", f"{r['R@10']:.3f}", f"{r['ctx@2k']:.3f}"]
            for r in rows]
    return ["setting", "message embeds/1k msgs", "fewer", "all embeds/1k msgs", "R@5", "R@10", "ctx@2k"], body


def ablation_rows(rows: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Signal ablations (the harness's rows, plain pmemo first): R@5, R@10, ctx@2k, the cues'
    R@5 and the cues whose first fact is theirs, without each signal, as pmemo minus the
    ablation (positive = the signal helps).

    >>> row = {"signal": "pmemo", "R@5": 0.9, "R@10": 0.95, "ctx@2k": 0.8, "cue R@5": None}
    >>> ablation_rows([row, {**row, "signal": "speaker", "R@5": 0.85}])[1]
    [['speaker', '+0.050', '+0.000', '+0.000', '-', '-']]
    """
    base, shown = rows[0], ("R@5", "R@10", "ctx@2k", "cue R@5", "cue first fact")

    def delta(r: Mapping[str, Any], m: str) -> str:
        return "-" if base.get(m) is None or r.get(m) is None else f"{base[m] - r[m]:+.3f}"

    body = [[r["signal"], *(delta(r, m) for m in shown)] for r in rows[1:]]
    return ["signal", *(f"Δ {m}" for m in shown)], body


def markdown(report: Mapping[str, Any]) -> str:
    """The report as a Markdown page: meta, the table, R@5 per kind, notes, then the failures."""

    def table(header: list[str], body: list[list[str]]) -> list[str]:
        return [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *("| " + " | ".join(r) + " |" for r in body),
        ]

    meta = dict(report["meta"])
    scenario = meta.pop("scenario", {})
    parts = ["# pmemo eval: groupchat", "", *(f"- {k}: {v}" for k, v in meta.items())]
    parts += [f"- scenario: {scenario.get('messages')} messages, {scenario.get('people')} people, "
              f"{scenario.get('groups')} groups, {scenario.get('days')} days"] if scenario else []  # fmt: skip
    parts += [f"- timing: {report.get('timing')}", "", "## Overall", "", *table(*table_rows(report))]
    parts += ["", "## R@5 by question kind", "", *table(*kind_rows(report))]
    if report.get("person_by_kind"):
        parts += ["", "## Person questions at 600 tokens, by kind", "", *table(*person_rows(report))]
    parts += ["", *(f"- {n}" for n in NOTES)]
    if report.get("windows"):
        parts += ["", "## L2 windows against one embedding per message", "", *table(*window_rows(report["windows"]))]
    if report.get("ablations"):
        parts += ["", "## Ablations (pmemo minus pmemo without the signal; + = the signal helps)", "",
                  *table(*ablation_rows(report["ablations"]))]
    parts += ["", "## Failures", ""]
    for name, items in report["failures"].items():
        total = report["failures_total"][name]
        parts += [f"### {name}: {total}" + (f" (first {len(items)})" if total > len(items) else ""), ""]
        parts += [f"- `{json.dumps(item, ensure_ascii=False)}`" for item in items] + [""]
    return "\n".join(parts)


def print_report(report: Mapping[str, Any], console: Any = None) -> None:
    """The two tables in the terminal (rich)."""
    from rich.console import Console

    console = console or Console()
    for title, (header, body) in (("groupchat", table_rows(report)), ("groupchat: R@5 by kind", kind_rows(report))):
        print_table(console, title, header, body)
    if report.get("person_by_kind"):
        print_table(console, "groupchat: person questions at 600 tokens", *person_rows(report))
    if report.get("windows"):
        print_table(console, "groupchat: L2 windows", *window_rows(report["windows"]))
    if report.get("ablations"):
        print_table(console, "groupchat: ablations (pmemo minus without the signal)",
                    *ablation_rows(report["ablations"]))
    console.print(f"failures: {report['failures_total']}")


def write(report: Mapping[str, Any], out_dir: str | Path) -> dict[str, Path]:
    """``groupchat.json`` and ``groupchat.md`` in ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "groupchat.json", "markdown": out / "groupchat.md"}
    paths["json"].write_text(json.dumps(report, indent=1, ensure_ascii=False, default=str), encoding="utf-8")
    paths["markdown"].write_text(markdown(report), encoding="utf-8")
    return paths
