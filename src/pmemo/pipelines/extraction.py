"""Profile extraction: a batch of turns → candidate facts about people → the upsert rules → the store.

A fact is about one person: the speaker for first-person statements, the person a statement
names for third-person ones ("霓霓对花生过敏"); the turn is its source either way. With an
LLM, one JSON prompt per chat of a batch that extracts only explicit statements, sent only
the clauses the statement model marks as candidates with a message of context either side
(``prefilter``; ``llm_prefilter`` off: every message, as before issue 44 §8); without one
(or when a call fails), the statement model and the rules in ``extract_rules`` on each
statement ``attribution`` cut out. Runs in the background worker; a re-run of the same turn
changes nothing (a fact already sourced from the turn is skipped).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..config import Settings
from ..embedders.cached import CachedEmbedder
from ..errors import Conflict, LLMError, ModelFileError
from ..llms.base import LLM
from ..models import Candidate, Fact, Scope, Turn, epoch_of
from ..people.resolve import Resolver
from ..people.statements import statements
from ..ports.facts import FactPort
from ..prompts.facts import FactOut, FactsOut, Line, batch_facts_prompt, clause_facts_prompt, clause_replies
from ..prompts.transcript import LLM_BATCH
from ..reads_first import give_way
from ..rules.attribution import Attributed
from ..rules.extract_rules import CORRECTED, extract
from ..statements.kinds import SLOTS, kinds_of, slot_of
from ..statements.model import E5_MODEL_ID, StatementModel, load
from ..statements.read import Embed, Said, candidates, core, corrections, explicit, read_turn
from ..stores.base import FullStore
from ..text.future import date_in
from ..tiers.profile import decide
from .prefilter import chat_batches, marked

log = logging.getLogger("pmemo")
RETRIES = 3
EXTRACTORS = ("model", "rules", "both", "lexical")
CORRECTS_WITHIN = timedelta(days=2)  # a correction is of what its speaker said lately
_FIX = re.compile(
    r"^\W*(?:不对不对|不对|说错了|更正一下|纠正一下|打错了|我记错了|记错了|啊不对|sorry,? I meant|correction:?"
    r"|no wait,?|wait,? I mean|oops,?|my bad,?|actually no,?)[，,:：\s]*(?:是|it's|it is)?\s*", re.I)


def statement_model(settings: Settings) -> StatementModel | None:
    """The statement model the settings ask for, or None for the rules: ``fact_extractor``
    "rules", or the file missing or damaged (logged as an error naming it)."""
    if settings.fact_extractor not in EXTRACTORS:
        log.error("fact_extractor=%r is not one of %s: extracting facts with the rules", settings.fact_extractor,
                  ", ".join(EXTRACTORS))
        return None
    if settings.fact_extractor == "rules" or not settings.extract_facts:
        return None
    try:
        return _loaded(settings.statement_model or "")
    except ModelFileError as exc:
        log.error("%s", exc)
        return None


@functools.lru_cache(maxsize=4)
def _loaded(path: str) -> StatementModel:
    """One copy of a model file's weights per process (read-only: every memory shares it)."""
    return load(Path(path) if path else None)


def lexical_screen(settings: Settings) -> StatementModel | None:
    """The statement model for the LLM's pre-filter of a memory that does not embed with e5: its
    lexical weights mark candidates with the rules (on the phrasing set they send 0.81 en / 0.73
    zh of the facts' clauses where the rules alone send 0.23 / 0.24: ``pmemo eval llmcost``);
    None when the settings ask for the rules or the file is missing (logged at open)."""
    if settings.fact_extractor == "rules" or not settings.extract_facts:
        return None
    try:
        return _loaded(settings.statement_model or "")
    except ModelFileError:
        return None


def statement_reader(model: StatementModel | None, embed: CachedEmbedder | None,
                     settings: Settings) -> tuple[StatementModel | None, Embed | None]:
    """The model and the e5 vectors it reads, as the settings and the memory's embedder allow:
    the model reads with e5 vectors when the memory embeds with e5 (the default); with another
    embedder the rules extract (the lexical weights alone read the dev split far worse: precision
    0.66 zh, 0.71 en against 0.81 and 0.90), unless ``fact_extractor`` is "lexical", which asks
    for them (an ablation)."""
    if model is None:
        return None, None
    if settings.fact_extractor == "lexical":
        return model, None
    if embed is None or embed.model_id != E5_MODEL_ID:
        return None, None
    return model, lambda texts: embed.passages(texts)


def _from_llm(out: FactOut) -> Candidate | None:
    expires = None
    if out.expires:
        try:
            day = datetime.fromisoformat(out.expires[:10]).replace(tzinfo=UTC)
            expires = day.timestamp() + 86400
        except ValueError:
            expires = None
    if out.correction:
        return Candidate(
            out.category,
            out.key.strip(),
            out.value.strip(),
            max(out.confidence, CORRECTED),
            "corrected",
            0.6,
            expires,
        )
    return Candidate(
        out.category, out.key.strip(), out.value.strip(), out.confidence, "explicit", 0.5, expires
    )


def upsert(
    facts: FactPort,
    scope: Scope,
    cand: Candidate,
    turn_id: int | None,
    at: float,
    settings: Settings,
) -> Fact | None:
    """Apply the upsert rules for one candidate; re-read and retry if another writer won."""
    for attempt in range(RETRIES):
        known = facts.facts(scope, history=True, subject=cand.subject)  # keyed by whom it is about
        decision = decide(
            cand,
            known,
            turn_id if turn_id is not None else -1,
            step=settings.fact_confidence_step,
            cap=settings.fact_confidence_cap,
            threshold=settings.fact_merge_similarity,
        )
        try:
            return facts.upsert_fact(scope, decision, cand, turn_id, at)
        except Conflict:
            if attempt == RETRIES - 1:
                raise
    return None


def extract_batch(store: FullStore, llm: LLM | None, settings: Settings, turns: Sequence[Turn],
                  people: Resolver | None = None, parts: dict[int, list[Attributed]] | None = None,
                  model: StatementModel | None = None, embed: Embed | None = None,
                  name_of: Callable[[str | None], str] = lambda _: "") -> list[Fact]:
    """Extract and store the facts a batch of turns states, each under the person it is about
    (the speaker, or a person a statement names; the turn stays its source). With an LLM, one
    call per batch; when it fails or talks garbage, offline: with ``model`` the statement model
    reads each clause (``embed``: the clauses' e5 vectors), else the rules alone (on ``parts``,
    the turns' statements, when the caller has them). ``name_of``: a person's display name, for
    the clause a fact keeps. With ``llm_prefilter`` (the default) the LLM reads only the turns'
    candidate clauses (``prefilter``), one call per chat's batch; a call that fails leaves its
    turns to the offline reading, the others keep what the LLM found."""
    said = [t for t in turns if t.role == "user"]  # what the assistant says is no fact about anyone
    pairs: list[tuple[Turn, Candidate]] = []
    fixes: list[tuple[Turn, Said]] = []
    reads: dict[int, list[Said]] = {}

    def read_of(turn: Turn) -> list[Said]:  # the model's reading, once per turn (pre-filter, then fallback)
        assert model is not None
        if turn.id not in reads:
            reads[turn.id] = read_turn(turn, people, model, embed)
        return reads[turn.id]

    def cut_of(turn: Turn) -> list[Attributed]:
        return parts[turn.id] if parts and turn.id in parts else statements(turn, people)

    def screen(turn: Turn) -> list[Said] | None:  # the pre-filter's reading: e5's, else the lexical weights'
        if model is not None:
            return read_of(turn)
        lexical = lexical_screen(settings)
        return read_turn(turn, people, lexical) if lexical is not None else None

    offline = said
    if llm is not None and said and settings.llm_prefilter:
        chosen = {t.id: marked(t, screen(t), cut_of(t)) for t in said}
        pairs, failed = _from_clauses(llm, chat_batches(turns, chosen), people)
        offline = [t for t in said if t.id in failed]
    elif llm is not None and said:
        try:
            pairs, offline = _from_batch(llm, said, people), []
        except LLMError as exc:
            log.warning("fact extraction fell back to rules: %s", exc)
    for turn in offline:
        give_way()  # between two turns, a read under way goes first (reads_first)
        cut = cut_of(turn)
        if model is not None:
            read = read_of(turn)
            both = settings.fact_extractor == "both"
            found = candidates(turn, read, cut, keep_rules=both, name_of=name_of)
            pairs.extend((turn, c) for c in found)
            carried = {c.said for c in found}  # a correction the rules gave its value already
            fixes.extend((turn, s) for s in corrections(read) if explicit(s, turn, name_of) not in carried)
            continue
        for part in cut:
            who = part.subject or turn.subject
            mentioned = tuple(p for p in part.mentioned if p != who)
            pairs.extend((turn, dataclasses.replace(c, subject=who, mentioned=mentioned))
                         for c in extract(part.text, turn.timestamp))
    out = []
    for turn, cand in pairs:
        at = epoch_of(turn.timestamp)
        fact = upsert(store.profile, turn.scope.owner_scope(), cand, turn.id, at, settings)
        if fact is not None:
            out.append(fact)
            if cand.newer_wins and cand.source == "corrected":
                _end_slot(store, turn, fact, at)
    for turn, fix in fixes:
        fact = _correct(store.profile, turn, fix, settings, name_of)
        if fact is not None:
            out.append(fact)
    return out


def _end_slot(store: FullStore, turn: Turn, fact: Fact, at: float) -> None:
    """A change of job, home, school or partner ends the other current values of its slot ("我从
    腾讯离职了" ends employer 腾讯 though it names no new one), and their triples with them, in
    one transaction."""
    slot = slot_of(fact.key)
    if slot is None:
        return
    for other in store.profile.facts(turn.scope.owner_scope(), subject=fact.subject_id):
        if other.key != fact.key and other.key in SLOTS[slot] and other.valid_from.timestamp() <= at:
            with store.tx():
                store.profile.expire_fact(other.id, at)
                store.graph.end_fact_triples(other.id, at)


def _correct(facts: FactPort, turn: Turn, fix: Said, settings: Settings,
             name_of: Callable[[str | None], str]) -> Fact | None:
    """"不对，是下周三": the value its speaker stated last (lately, in another turn) is replaced,
    not joined by a third."""
    at = epoch_of(turn.timestamp)
    scope = turn.scope.owner_scope()
    before = [f for f in facts.facts(scope, subject=turn.subject)
              if turn.id not in f.sources and f.last_seen.timestamp() <= at]
    kind = fix.reading.label.kind
    if kind != "none":  # "纠正一下：我在字节": what it corrects is of its kind
        before = [f for f in before if kind in kinds_of(f.key)] or before
    if not before:
        return None
    last = max(before, key=lambda f: (f.last_seen, f.id))
    if at - last.last_seen.timestamp() > CORRECTS_WITHIN.total_seconds():
        return None
    words = _FIX.sub("", fix.clause, count=1)
    value, expires = core(words), last.expires_at.timestamp() if last.expires_at else None
    ruled = [c for c in extract(words if words.startswith(("我", "I ")) else f"我{words}", turn.timestamp)
             if c.key == last.key]
    day = date_in(words, turn.timestamp.date())
    if ruled:
        value = ruled[0].value
    elif day is not None and re.match(r"\d{4}-\d{2}-\d{2}", last.value):
        value = day.isoformat() + last.value[10:]
        expires = datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() + 86400
    if not value:
        return None
    cand = Candidate(last.category, last.key, value, max(last.confidence, CORRECTED), "corrected", last.importance,
                     expires, subject=turn.subject, said=explicit(fix, turn, name_of), newer_wins=True)
    return upsert(facts, scope, cand, turn.id, at, settings)


def _from_clauses(llm: LLM, batches: list[list[Line]], people: Resolver | None
                  ) -> tuple[list[tuple[Turn, Candidate]], set[int]]:
    """What the LLM finds in each chat's candidate clauses, and the ids of the turns whose call
    failed (a timeout, garbage: the offline reading takes them). A fact must name a clause it
    was sent (``clause``, or ``message`` from a model that says so): one without is dropped."""
    found, failed = clause_replies(llm, batches, clause_facts_prompt, FactsOut, lambda r: r.facts,
                                   "fact extraction (to the offline reading)")
    out: list[tuple[Turn, Candidate]] = []
    for line, f in found:
        cand = _from_llm(f)
        if cand is None:
            continue
        turn = line.turn
        who = _named(f.about, turn, people) if f.about.strip() else turn.subject
        if who is not None:
            out.append((turn, dataclasses.replace(cand, subject=who, said=_in_words(line, who, turn))))
    return out, failed


def _in_words(line: Line, who: str | None, turn: Turn) -> str:
    """The clause a fact came from, its speaker named when it is about them ("周霓：花粉过敏")."""
    words = line.text.strip().rstrip("，,;；")
    if who != turn.subject or not turn.actor:
        return words
    return f"{turn.actor}：{words}" if re.search(r"[\u4e00-\u9fff]", words) else f"{turn.actor}: {words}"


def _from_batch(llm: LLM, turns: list[Turn], people: Resolver | None) -> list[tuple[Turn, Candidate]]:
    out = []
    for start in range(0, len(turns), LLM_BATCH):
        chunk = turns[start : start + LLM_BATCH]
        reply = llm.complete_json(*batch_facts_prompt(chunk), FactsOut)
        for f in reply.facts:
            cand = _from_llm(f)
            message = f.message or 0  # as before: a fact that names no message is the first's
            if cand is None or message >= len(chunk):
                continue
            turn = chunk[message]
            who = _named(f.about, turn, people) if f.about.strip() else turn.subject
            if who is not None:
                out.append((turn, dataclasses.replace(cand, subject=who)))
    return out


def _named(name: str, turn: Turn, people: Resolver | None) -> str | None:
    """The person an LLM says a fact is about, if the name resolves to exactly one."""
    if name.strip() in (turn.actor or "",):
        return turn.subject
    found = {m.person_ids[0] for m in people.resolve(name, turn.scope) if not m.ambiguous} if people else set()
    return found.pop() if len(found) == 1 else None
