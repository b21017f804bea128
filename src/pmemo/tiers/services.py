"""Tier operations over a store: mid-term clustering, long-term summaries, key promotion.

Policy is in the pure modules beside this one; this module only reads and writes.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from functools import partial

import numpy as np

from ..config import Settings
from ..decay import DAY, decayed
from ..embedders.cached import CachedEmbedder
from ..errors import LLMError
from ..llms.base import LLM
from ..models import Cluster, KeyLine, Scope, Summary, Turn
from ..ports.unit import unit_of
from ..prompts.key_line import KeyLineOut, key_prompt
from ..prompts.summary import SummaryOut, summary_prompt
from ..stores.base import Store
from ..text.filler import content_free
from . import mid_term
from .held import Held
from .long_term import central_sentence, extractive_summary
from .people import People

log = logging.getLogger("pmemo")
LABEL_CHARS = 120


class Tiers:
    def __init__(self, store: Store, embed: CachedEmbedder, llm: LLM | None, settings: Settings) -> None:
        self.store = store
        self.clusters = store.clusters
        self.summaries = store.summaries
        self.embed = embed
        self.llm = llm
        self.settings = settings
        self.people = People(store, per_chat=settings.aliases_per_chat,  # type: ignore[arg-type]
                             guesses=settings.alias_guesses)  # the SQLite store is a PeopleStore too
        own = getattr(embed.embedder, "cluster_threshold", 0.8)
        self.threshold = settings.cluster_threshold or own
        self._held = Held()

    # ---- mid-term -------------------------------------------------------------------
    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Within it, this thread's absorbs read a scope's centroids once and keep them current
        with their own writes (a chat's turn jobs run one at a time: no one else's meanwhile)."""
        return self._held.batch()

    def _centroids(self, scope: Scope) -> mid_term.Centroids:
        def read() -> mid_term.Centroids:
            ids, matrix, sizes = self.clusters.centroids(scope)
            return mid_term.Centroids(list(ids), matrix.copy(), list(sizes))  # the store's may be its cache's

        return self._held.get(("centroids", scope.key), read)

    def absorb(self, turn: Turn, vec: np.ndarray) -> int:
        """Put a turn that left short-term into the nearest cluster, or a new one."""
        scope = turn.scope.owner_scope()
        c = self._centroids(scope)
        best, sim = mid_term.nearest(vec, c.matrix)
        if best < 0 or sim < self.threshold:
            best = -1
            if len(c.ids) >= self.settings.max_clusters:
                # past the cap the two closest of the clusters and the new turn merge: when the
                # turn is one of them it joins the other, no cluster is made and dropped
                i, j = mid_term.closest_pair(np.vstack([c.matrix, vec[None, :]]))
                if j == len(c.ids):
                    best = i
                else:
                    self._merge(c, i, j)
            if best < 0:
                cid = self.clusters.add_cluster(scope, vec, [turn.id], turn.content[:LABEL_CHARS])
                c.added(cid, vec)
                return cid
        if self._join(c, best, turn, vec):
            return c.ids[best]
        # the cluster went meanwhile (another process rebuilt the scope's, after an embedder
        # change): read them again
        self._held.drop(("centroids", scope.key))
        return self.absorb(turn, vec)

    def _join(self, c: mid_term.Centroids, k: int, turn: Turn, vec: np.ndarray) -> bool:
        centroid = mid_term.joined(c.matrix[k], c.sizes[k], vec)
        label = None
        if mid_term.relabel_due(c.sizes[k], c.sizes[k] + 1):
            cluster = self.clusters.get_cluster(c.ids[k])
            label = self._label([*(cluster.member_ids if cluster else ()), turn.id], centroid)
        if not self.clusters.join_cluster(c.ids[k], turn.id, centroid, label):
            return False
        c.joined(k, centroid)
        return True

    def _merge(self, c: mid_term.Centroids, i: int, j: int) -> None:
        """Fold the smaller of clusters ``i`` and ``j`` into the larger, which keeps its label
        unless its size passes a power of two."""
        if c.sizes[i] < c.sizes[j]:
            i, j = j, i
        centroid = mid_term.centroid_of(np.stack([c.matrix[i] * c.sizes[i], c.matrix[j] * c.sizes[j]]))
        label = None
        if mid_term.relabel_due(c.sizes[i], c.sizes[i] + c.sizes[j]):
            keep, gone = self.clusters.get_cluster(c.ids[i]), self.clusters.get_cluster(c.ids[j])
            members = [*(keep.member_ids if keep else ()), *(gone.member_ids if gone else ())]
            label = self._label(members, centroid)
        self.clusters.merge_clusters(c.ids[i], c.ids[j], centroid, label)
        c.merged(i, j, centroid)

    def _label(self, member_ids: list[int], centroid: np.ndarray) -> str:
        vectors = self.store.vectors.get_vectors("turn", member_ids)
        present = [m for m in member_ids if m in vectors]
        if not present:
            return ""
        central = present[mid_term.most_central(np.stack([vectors[m] for m in present]), centroid)]
        turn = self.store.turns.get_turns([central]).get(central)
        return turn.content[:LABEL_CHARS] if turn else ""

    def rebuild_cluster(self, cluster: Cluster, removed: set[int]) -> str:
        members = [m for m in cluster.member_ids if m not in removed]
        vectors = self.store.vectors.get_vectors("turn", members)
        members = [m for m in members if m in vectors]
        if not members:
            self.clusters.delete_cluster(cluster.id)
            return "deleted"
        centroid = mid_term.centroid_of(np.stack([vectors[m] for m in members]))
        self.clusters.save_cluster(cluster.id, centroid, members, self._label(members, centroid))
        return "rebuilt"

    # ---- long-term --------------------------------------------------------------------
    def summarize(self, turns: list[Turn], known: Mapping[int, np.ndarray | None] | None = None,
                  ) -> tuple[str, str, np.ndarray | None]:
        """(text, method, vector): the LLM's summary (its vector None: the text is embedded
        with the batch's), or an extractive one offline / on failure, whose vector is the
        centroid of its turns' (its words are theirs: no second embedding). ``known``: the
        turns' ``turn_vectors`` by id, when the caller read them for several spans at once."""
        limit = self.settings.summary_max_chars
        turns = [t for t in turns if not content_free(t)] or turns  # "哈哈哈", "[图片]" are no summary's words
        prompt = summary_prompt(turns, limit, sift=self.settings.llm_prefilter)  # None: only filler, no call
        if self.llm is not None and prompt is not None:
            try:
                reply = self.llm.complete_json(*prompt, SummaryOut)
                return reply.summary.strip()[:limit], "llm", None
            except LLMError as exc:
                log.warning("summary fell back to extractive: %s", exc)
        vectors = self.turn_vectors(turns) if known is None else [known.get(t.id) for t in turns]
        present = [v for v in vectors if v is not None]
        centre = np.stack(present).mean(axis=0) if present else None
        centrality = [0.0 if v is None or centre is None else float(v @ centre) for v in vectors]
        pairs = [(t.actor or t.role, t.content) for t in turns]
        summary = extractive_summary(pairs, centrality, limit)
        return summary, "extractive", mid_term.centroid_of(np.stack(present)) if present else None

    def turn_vectors(self, turns: list[Turn]) -> list[np.ndarray | None]:
        """Each turn's vector: its embedding (from the cache: the worker made it), or with L2
        windows (issue 20) its stored one, its window's, None while that window is still open:
        a summary costs no embedding call per turn."""
        if not self.settings.window_tokens:
            return list(self.embed.passages([t.indexed for t in turns]))
        stored = self.store.vectors.get_vectors("turn", [t.id for t in turns])
        return [stored.get(t.id) for t in turns]

    def add_summary(self, turns: list[Turn]) -> Summary:
        return self.add_summaries([turns])[0][0]

    def add_summaries(self, spans: list[list[Turn]]) -> list[tuple[Summary, np.ndarray]]:
        """A summary of each span, with its vector; LLM texts are embedded in one batch."""
        made = [(span, *self.summarize(span)) for span in spans]
        vectors = self._embedded(made)  # before the transaction: it holds the writer only to write
        out = []
        with unit_of(self.store):  # the batch's summaries and their vectors in one commit
            for (span, text, method, _), vec in zip(made, vectors, strict=True):
                first = span[0]
                summary = self.summaries.add_summary(first.scope, first.step, span[-1].step, text, method,
                                                 [t.id for t in span])
                self.store.vectors.put_vectors("summary", [(summary.id, first.scope.key, vec)], self.embed.model_id)
                out.append((summary, vec))
        return out

    def _embedded(self, made: list[tuple[list[Turn], str, str, np.ndarray | None]]) -> list[np.ndarray]:
        """Each summary's vector: its own, or its text embedded (all such texts in one batch)."""
        texts = [text for _, text, _, vec in made if vec is None]
        fresh = iter(self.embed.passages(texts)) if texts else iter(())
        return [vec if vec is not None else next(fresh) for *_, vec in made]

    def summary_vector(self, summary: Summary) -> np.ndarray:
        """A stored summary's vector made anew (after an embedder change), as when it was made."""
        turns = self.store.turns.get_turns(summary.source_ids)
        vectors = ([v for v in self.turn_vectors(list(turns.values())) if v is not None]
                   if summary.method == "extractive" else [])
        if vectors:
            return mid_term.centroid_of(np.stack(vectors))
        return self.embed.passages([summary.text])[0]

    def rebuild_summary(self, summary: Summary, removed: set[int]) -> str:
        remaining = [i for i in summary.source_ids if i not in removed]
        turns = sorted(self.store.turns.get_turns(remaining).values(), key=lambda t: t.step)
        if not turns:
            self.summaries.delete_summary(summary.id)
            return "deleted"
        made = [(turns, *self.summarize(turns))]
        _, text, method, _ = made[0]
        self.summaries.update_summary(summary.id, text, method, [t.id for t in turns])
        self.store.vectors.put_vectors("summary", [(summary.id, turns[0].scope.key, self._embedded(made)[0])],
                               self.embed.model_id)
        return "rebuilt"

    # ---- key memory -------------------------------------------------------------------
    def count_hits(self, cluster_ids: list[int], at: float) -> list[int]:
        """A hit on each recalled cluster (decayed first); the ones that crossed the promotion
        threshold are queued for promotion. Run by the worker: a search writes nothing itself."""
        decay = partial(decayed, half_life_s=self.settings.hit_half_life_days * DAY)
        queued = []
        for cluster_id, hits in self.clusters.add_hits(cluster_ids, at, decay).items():
            # decay shaves a hair off
            if hits >= self.settings.promote_hits - 1e-6 and not self.clusters.is_promoted(cluster_id):
                self.store.jobs.enqueue("promote", {"cluster_id": cluster_id})
                queued.append(cluster_id)
        return queued

    def touch_episodes(self, ids: list[int], at: float) -> None:
        """Count an access of each episode a context showed (run by the worker)."""
        self.store.episodes.touch_episodes(ids, at)  # type: ignore[attr-defined]  # the SQLite store is a FullStore

    def promote(self, cluster_id: int) -> KeyLine | None:
        cluster = self.clusters.get_cluster(cluster_id)
        if cluster is None or self.clusters.is_promoted(cluster_id):
            return None
        turns = sorted(self.store.turns.get_turns(cluster.member_ids).values(), key=lambda t: t.timestamp)
        said = [t for t in turns if not content_free(t)]  # "[图片]", notices, "哈哈哈": never a key line
        if 2 * len(said) < len(turns) or not said:  # a cluster mostly of filler is hot with filler
            if turns:
                self.clusters.mark_promoted(cluster_id)  # done with: its hits never make it a line
            return None
        turns = said
        line = None
        if self.llm is not None:
            try:
                system, user = key_prompt(turns[-20:])
                line = self.llm.complete_json(system, user, KeyLineOut).line.strip()[:200]
            except LLMError as exc:
                log.warning("promotion fell back to the central sentence: %s", exc)
        if not line:
            # the members' stored vectors (a big cluster has thousands: no cache round trip)
            stored = self.store.vectors.get_vectors("turn", [t.id for t in turns])
            vectors = (np.stack([stored[t.id] for t in turns]) if len(stored) == len(turns)
                       else self.embed.passages([t.indexed for t in turns]))
            centroid = mid_term.centroid_of(vectors)
            line = central_sentence(turns[mid_term.most_central(vectors, centroid)].content)
        key = self.store.key_lines.add_key(cluster.scope, line, "promoted", list(cluster.member_ids))
        self.clusters.mark_promoted(cluster_id)
        return key
