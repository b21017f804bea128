"""Episodic tier: an episode per finished session, compacted span or finished task.

An episode keeps a summary, topics, actions, outcomes, lessons and an importance; it is
recalled by ``similarity*0.5 + recency*0.3 + importance*0.2`` (weights in Settings),
recency in conversation time.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..config import Settings
from ..decay import recency
from ..errors import LLMError
from ..models import Episode, Scope, Turn, epoch_of
from ..ports.episodes import NewEpisode, OpenSession
from ..prompts.episode import EpisodeOut, episode_prompt
from ..stores.base import EpisodeSignal, FullStore
from ..text.filler import content_free
from ..text.keywords import keywords
from ..tokens import make_counter
from .long_term import sentences
from .services import Tiers

log = logging.getLogger("pmemo")
_REQUEST = re.compile(
    r"\b(please|can you|could you|help me|let's|i need)\b|请|帮我|麻烦|能不能|我们来", re.I
)
_OUTCOME = re.compile(
    r"\b(done|finished|decided|agreed|fixed|resolved|completed|confirmed)\b|"
    r"完成|决定|确定|搞定|解决|同意|定了|已经",
    re.I,
)
_WEIGHTY = re.compile(
    r"\b(decided|agreed|deadline|must|budget|promise|important|never|always)\b|"
    r"决定|确定|必须|截止|预算|同意|承诺|重要|一定",
    re.I,
)
SCAN = 1_000_000


def topics_of(turns: list[Turn]) -> list[str]:
    """What the turns are about (``text.keywords``), content-free ones ("哈哈") aside, no
    speaker's name among them."""
    said = [t for t in turns if not content_free(t)] or turns
    return keywords([t.content for t in said], {t.actor for t in turns if t.actor})


def matching(
    turns: list[Turn], pattern: re.Pattern[str], role: str | None, limit: int = 5
) -> list[str]:
    out: list[str] = []
    for turn in turns:
        if role is not None and turn.role != role:
            continue
        out.extend(s for s in sentences(turn.content) if pattern.search(s))
    return [s[:160] for s in out[:limit]]


def importance_of(turns: list[Turn]) -> float:
    weighty = sum(1 for t in turns for s in sentences(t.content) if _WEIGHTY.search(s))
    return round(min(1.0, 0.3 + 0.1 * min(weighty, 5) + 0.02 * min(len(turns), 10)), 3)


def weighted_score(
    similarity: float,
    recency_: float,
    importance: float,
    weights: tuple[float, float, float] = (0.5, 0.3, 0.2),
) -> float:
    """The episodic score: similarity*0.5 + recency*0.3 + importance*0.2 by default.

    >>> weighted_score(1.0, 1.0, 1.0)
    1.0
    """
    w_sim, w_rec, w_imp = weights
    return w_sim * similarity + w_rec * recency_ + w_imp * importance


class Episodes:
    def __init__(self, store: FullStore, tiers: Tiers, settings: Settings) -> None:
        self.store = store
        self.tiers = tiers
        self.settings = settings

    def fields(self, turns: list[Turn]) -> dict[str, Any]:
        """Episode fields from turns: the LLM's, or offline ones (extractive summary, rules)."""
        return self.drafted(turns)[0]

    def drafted(self, turns: list[Turn], known: Mapping[int, np.ndarray | None] | None = None,
                ) -> tuple[dict[str, Any], np.ndarray | None]:
        """(fields, vector): ``fields`` and, offline, the episode's vector: the centroid of its
        turns' vectors, as an extractive summary's (its words are theirs). Embedding its text
        instead was 3/4 of a group chat's background work (one ~75-token text per chat and day,
        one call each: bench/ingest_rate.py); None: the text is embedded (an LLM's words).
        ``known``: the turns' vectors by id (``Tiers.summarize``)."""
        base = {
            "started": epoch_of(turns[0].timestamp),
            "ended": epoch_of(turns[-1].timestamp),
            "step_from": turns[0].step,
            "step_to": turns[-1].step,
        }
        prompt = episode_prompt(turns, self.settings.summary_max_chars, sift=self.settings.llm_prefilter)
        if self.tiers.llm is not None and prompt is not None:  # None: only filler, no call
            try:
                out = self.tiers.llm.complete_json(*prompt, EpisodeOut)
                return {**base, **out.model_dump()}, None
            except LLMError as exc:
                log.warning("episode fell back to extractive: %s", exc)
        text, _, vec = self.tiers.summarize(turns, known)
        return {
            **base,
            "summary": text,
            "topics": topics_of(turns),
            "actions": matching(turns, _REQUEST, "user"),
            "outcomes": matching(turns, _OUTCOME, None),
            "lessons": [],
            "importance": importance_of(turns),
        }, vec

    def record(
        self, scope: Scope, kind: str, fields: dict[str, Any], source_ids: list[int],
        vec: np.ndarray | None = None,
    ) -> Episode:
        """Store an episode with its vector: ``vec`` (``drafted``'s, both in one commit), else its
        text embedded (after the episode is stored: no embedding inside a transaction)."""
        if vec is None:
            episode = self.store.episodes.add_episode(scope, kind, fields, source_ids)
            self._embed(episode)
            return episode
        with self.store.tx():
            episode = self.store.episodes.add_episode(scope, kind, fields, source_ids)
            self._embed(episode, vec)
        return episode

    def record_many(self, new: list[tuple[NewEpisode, np.ndarray | None]]) -> list[Episode]:
        """``record`` of each of ``new``: the episodes and the vectors ``drafted`` gave in one
        commit, then the others' texts embedded in one call and stored."""
        if not new:
            return []
        with self.store.tx():
            episodes = self.store.episodes.add_episodes([e for e, _ in new])
            self._store_vectors([(e, vec) for e, (_, vec) in zip(episodes, new, strict=True) if vec is not None])
        unmade = [e for e, (_, vec) in zip(episodes, new, strict=True) if vec is None]
        if unmade:
            self._store_vectors(list(zip(unmade, self.tiers.embed.passages([episode_text(e) for e in unmade]),
                                         strict=True)))
        return episodes

    def _store_vectors(self, pairs: list[tuple[Episode, np.ndarray]]) -> None:
        if pairs:
            self.store.vectors.put_vectors("episode", [(e.id, e.scope.owner_scope().key, vec) for e, vec in pairs],
                                   self.tiers.embed.model_id)

    def _embed(self, episode: Episode, vec: np.ndarray | None = None) -> np.ndarray:
        if vec is None:
            vec = self.tiers.embed.passages([episode_text(episode)])[0]
        self.store.vectors.put_vectors(
            "episode",
            [(episode.id, episode.scope.owner_scope().key, vec)],
            self.tiers.embed.model_id,
        )
        return vec

    def close_session(self, scope: Scope, session_id: str) -> Episode | None:
        """Record the session's not-yet-covered turns as a "session" episode."""
        owner = scope.owner_scope()
        covered = self.store.episodes.covered_steps(owner, session_id, ("session",))
        turns = [
            t
            for t in self.store.turns.list_turns(
                owner, session_id=session_id, limit=SCAN, offset=0, since=None, until=None
            )
            if t.step > covered
        ]
        if not turns:
            return None
        turns.sort(key=lambda t: t.step)
        where = Scope(owner.tenant_id, owner.agent_id, owner.owner, session_id)
        fields, vec = self.drafted(turns)
        return self.record(where, "session", fields, [t.id for t in turns], vec)

    def close_others(self, turn: Turn) -> list[Episode]:
        """A new session began: the owner's sessions that ended before it are finished."""
        return self.close_before([turn])

    def close_before(self, firsts: list[Turn]) -> list[Episode]:
        """Sessions began (``firsts``, each a session's first turn, in turn order): each owner's
        sessions that ended before one of them (other than its own) are finished, as
        ``close_others`` turn after turn would find them, in a read per owner and one write."""
        by_owner: dict[str, list[Turn]] = {}
        for turn in firsts:
            by_owner.setdefault(turn.scope.owner_scope().key, []).append(turn)
        closed: list[tuple[Scope, OpenSession]] = []
        for group in by_owner.values():
            owner = group[0].scope.owner_scope()
            found = self.store.episodes.open_turns(owner, max(epoch_of(t.timestamp) for t in group), "session")
            for turn in group:  # what each one closes, in turn order: the others are still open then
                at = epoch_of(turn.timestamp)
                closed += [(owner, s) for s in found if s.session != turn.session_id and s.last < at]
                found = [s for s in found if s.session == turn.session_id or s.last >= at]
        every = [t for _, session in closed for t in session.turns]
        known = (dict(zip([t.id for t in every], self.tiers.turn_vectors(every), strict=True))
                 if every and self.tiers.llm is None else None)  # an LLM's episode reads no vector
        new: list[tuple[NewEpisode, np.ndarray | None]] = []
        for owner, session in closed:
            fields, vec = self.drafted(session.turns, known)
            where = Scope(owner.tenant_id, owner.agent_id, owner.owner, session.session)
            new.append((NewEpisode(where, "session", fields, [t.id for t in session.turns]), vec))
        return self.record_many(new)

    def compact(self, turn: Turn) -> tuple[Episode, Any] | None:
        """Past the token budget, fold the oldest uncompacted non-system turns (summary + episode)."""
        budget = self.settings.compact_budget_tokens
        if budget <= 0:
            return None
        owner = turn.scope.owner_scope()
        covered = self.store.episodes.covered_steps(owner, turn.session_id, ("compaction",))
        turns = sorted(
            (
                t
                for t in self.store.turns.list_turns(
                    owner, session_id=turn.session_id, limit=SCAN, offset=0, since=None, until=None
                )
                if t.step > covered
            ),
            key=lambda t: t.step,
        )
        count = make_counter(self.settings.tokenizer)
        sizes = [count(t.content) for t in turns]
        total = sum(sizes)
        if total <= budget:
            return None
        span: list[Turn] = []
        for t, size in zip(turns, sizes, strict=True):
            if total <= budget // 2:
                break
            total -= size
            span.append(t)
        folded = [t for t in span if t.role != "system"]
        if not folded:
            return None
        summary = self.tiers.add_summary(folded)
        fields, vec = self.drafted(folded)
        fields = {**fields, "step_to": span[-1].step}
        return self.record(turn.scope, "compaction", fields, [t.id for t in folded], vec), summary

    def rebuild(self, episode: Episode, removed: set[int]) -> str:
        """An episode whose turns were forgotten: rebuilt from the rest, or deleted."""
        remaining = [i for i in episode.source_ids if i not in removed]
        turns = sorted(
            self.store.turns.get_turns(remaining).values(), key=lambda t: (t.session_id, t.step)
        )
        if not turns:
            self.store.episodes.delete_episode(episode.id)
            return "deleted"
        fields, vec = self.drafted(turns)
        if episode.kind == "task":
            fields = {**fields, "lessons": list(episode.lessons), "importance": episode.importance}
        self.store.episodes.update_episode(episode.id, fields, [t.id for t in turns])
        updated = self.store.episodes.get_episode(episode.id)
        if updated is not None:
            self._embed(updated, vec)
        return "rebuilt"

    def rank(
        self, scope: Scope, qvec: np.ndarray | None, k: int, now: float | None = None, until: float | None = None,
        signals: list[EpisodeSignal] | None = None,
    ) -> list[tuple[Episode, float, str]]:
        """Top-k episodes of the owner: similarity, recency (conversation time: ``now``, the
        store's ``conversation_now`` when the caller has read it), importance. ``until`` (epoch
        seconds): only episodes that had ended by then (one that goes on later tells of later turns).
        ``signals``: the owner's ``episode_signals`` for ``qvec``, when the caller has read them."""
        owner = scope.owner_scope()
        if signals is None:  # the episodes themselves: the top k only
            signals = self.store.episodes.episode_signals(owner, qvec)
        if until is not None:
            signals = [e for e in signals if e.ended <= until]
        if not signals:
            return []
        sims = {e.id: e.similarity for e in signals}
        unread = [e.id for e in signals if e.similarity is None] if qvec is not None else []
        for episode in self.store.episodes.get_episodes(unread):  # no vector of the query's size: a read writes nothing
            sims[episode.id] = float(self.tiers.embed.passages([episode_text(episode)], keep=False)[0] @ qvec)
        now = now or self.store.owners.conversation_now(owner) or max(e.ended for e in signals)
        s = self.settings
        weights = (s.episode_w_similarity, s.episode_w_recency, s.episode_w_importance)
        scored = []
        for e in signals:
            sim = float(np.clip(sims[e.id] or 0.0, 0.0, 1.0))
            rec = recency(now - e.ended, s.episode_recency_half_life_days)
            score = weighted_score(sim, rec, e.importance, weights)
            why = f"episode: similarity {sim:.2f}, recency {rec:.2f}, importance {e.importance:.2f}"
            scored.append((e.id, round(score, 6), why))
        scored.sort(key=lambda x: (-x[1], -x[0]))
        top = {e.id: e for e in self.store.episodes.get_episodes([i for i, _, _ in scored[:k]])}
        return [(top[i], score, why) for i, score, why in scored[:k] if i in top]


def episode_text(episode: Episode) -> str:
    parts = [episode.summary]
    if episode.topics:
        parts.append("topics: " + ", ".join(episode.topics))
    if episode.outcomes:
        parts.append("outcomes: " + "; ".join(episode.outcomes[:3]))
    if episode.lessons:
        parts.append("lessons: " + "; ".join(episode.lessons[:3]))
    return " | ".join(parts)
