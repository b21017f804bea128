"""Explicit forgetting: turns and everything derived from them leave every read path.

Soft (default): every row about to be deleted or rebuilt — the turns with their FTS
text and vectors, and the clusters, summaries, key lines, facts and episodes whose
provenance includes them — is snapshotted into a tombstone batch first; ``restore``
puts the batch back, ``purge`` makes it permanent. Hard: the same, then the batch is
purged at once, freed pages are zeroed and the FTS index merged (privacy).

A forget (of turns, or of a person with what is about them) and a restore are each one
transaction (``store.tx()``): a failure anywhere in one, the rebuilds of what was derived
included, leaves nothing of it; a hard one's scrub runs once it is committed.

Each of forget, restore, purge and delete is many store calls; each holds the owners it
touches in the store (``store.locks.hold``, exclusive) from its first read to its last write,
so that across processes (replicas, ``pmemo worker``) no two of them interleave on an owner,
and no background batch (which holds its owners shared) rebuilds a cluster, summary, window
or episode from turns a forget is removing. A restore or purge holds its batch's name too,
and reads the batch's status under it: of two at once, the second finds the batch done and
gets Conflict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..diary.writer import DiaryWriter
from ..embedders.cached import CachedEmbedder
from ..errors import Conflict, InvalidInput, NotFound
from ..models import Fact, Scope, Turn
from ..pipelines.forget import delete_turns
from ..rules.sentences import unnamed
from ..stores.base import FullStore
from ..stores.person_forget import PERSON_KIND
from ..text.segment import query_terms, tokens
from ..tiers.episodes import Episodes, episode_text
from ..tiers.services import Tiers

MATCH_LIMIT = 10_000_000  # a forget by query takes every turn that matches, as many as they are


class Forgetter:
    def __init__(
        self,
        store: FullStore,
        tiers: Tiers,
        embed: CachedEmbedder,
        episodes: Episodes,
        diary: DiaryWriter | None = None,
    ) -> None:
        self.store = store
        self.tiers = tiers
        self.embed = embed
        self.episodes = episodes
        self.diary = diary  # diary (issue 20): rewrites the days of forgotten and restored turns

    def forget(self, turn_ids: list[int], hard: bool, reason: str) -> dict[str, Any]:
        """Forget turns (soft: restorable as the returned batch), holding their owners."""
        with self._holding(lambda: self._owners(turn_ids)):
            return self._forget(turn_ids, hard, reason)

    def delete(self, turn_ids: list[int]) -> dict[str, Any]:
        """Delete turns and what was derived from them at once, with no batch to restore."""
        with self._holding(lambda: self._owners(turn_ids)):
            report = delete_turns(self.store, self.tiers, self.embed, turn_ids)
            report.update(self.derived(turn_ids))
            return report

    def _owners(self, turn_ids: Iterable[int]) -> set[str]:
        return {ref.scope_key for ref in self.store.turns.turn_refs(turn_ids).values()}

    def _batch_names(self, batch: int) -> set[str]:
        return {f"batch:{batch}", *self.store.batches.batch_owners(batch)}

    @contextmanager
    def _holding(self, names: Callable[[], set[str]]) -> Iterator[None]:
        """Hold the names ``names()`` gives, read before the hold and again under it until none
        is missing: meanwhile a restore may bring back a turn of another owner, and a forget
        still writing its batch names more owners once it holds them."""
        held = names()
        while True:
            with self.store.locks.hold(held):
                now = names()
                if now <= held:
                    yield
                    return
            held |= now

    def _forget(self, turn_ids: list[int], hard: bool, reason: str) -> dict[str, Any]:
        turns = self.store.turns.get_turns(turn_ids)
        ids = sorted(turns)
        if hard:
            self.store.forget.secure_delete()
        first = next(iter(turns.values())).scope if turns else None
        tenants = {t.scope.tenant_id for t in turns.values()}
        with self.store.tx():  # the batch, the turns, what was derived from them and the log: all or none
            batch = self.store.batches.new_batch("forget", "hard" if hard else "soft", first.key if first else None,
                                                 reason, tenants.pop() if len(tenants) == 1 else None)
            report = self._turns_out(batch, ids)
            report.update(batch=batch, mode="hard" if hard else "soft")
            self._close(batch, hard, report, _log_rows(report, turns, reason))
        if hard:
            self.store.forget.scrub()
        return report

    def _turns_out(self, batch: int, ids: list[int]) -> dict[str, Any]:
        """Snapshot turns into ``batch`` and delete them with what was derived from them."""
        texts = self._snapshot(batch, ids)
        report = delete_turns(self.store, self.tiers, self.embed, ids)
        report.update(self.derived(ids))
        self.embed.forget(texts)
        return report

    def _close(self, batch: int, hard: bool, report: dict[str, Any],
               log: list[tuple[str, str, int, str | None, str, dict[str, Any]]]) -> None:
        """Log the batch and keep ``report`` with it; a hard one is purged at once (the caller
        scrubs the store once the transaction is committed: a vacuum sees only what is)."""
        self.store.batches.log_actions(batch, log)
        self.store.batches.set_batch(batch, "active", report)
        if hard:
            self.store.forget.purge_batch(batch)
            self.store.batches.set_batch(batch, "purged")

    def forget_person(self, tenant: str, person: str, where: Scope | None, hard: bool, reason: str) -> dict[str, Any]:
        """Forget a person (issue 44 §7), everywhere in the tenant or in ``where``'s owner scope:
        their turns (with what was derived from them), the facts about them or naming them, their
        triples, agenda items and insights, and the registry rows (everywhere: the person, every
        alias and membership; in one chat: the membership there and the aliases learned or
        @-mentioned there). One batch, restorable unless ``hard``; the report and the log of a hard
        one keep ids only, never the person's id or names."""
        def names() -> set[str]:
            held = self.store.person_forget.person_rows(tenant, person, where)
            return {f"person:{tenant}:{person}", *held.scopes,
                    *self._owners([*self.store.turns_by(tenant, person, where), *held.notices])}

        with self._holding(names):
            return self._forget_person(tenant, person, where, hard, reason)

    def _forget_person(self, tenant: str, person: str, where: Scope | None, hard: bool,
                       reason: str) -> dict[str, Any]:
        mode, forget = "hard" if hard else "soft", self.store.person_forget
        before = forget.person_rows(tenant, person, where)
        # what they said, and the system notices about them ("周霓 修改群名片为 霓霓")
        turns = self.store.turns.get_turns([*self.store.turns_by(tenant, person, where), *before.notices])
        if hard:
            self.store.forget.secure_delete()
        facts = [f for f in map(self.store.profile.get_fact, before.facts) if f]
        with self.store.tx():  # one transaction: a failure anywhere in it leaves the person as they were
            batch = self.store.batches.new_batch("forget", mode, where.key if where else None, reason, tenant)
            # what is about them first, as it is; then what they said, and what was made from it
            held = forget.forget_person(batch, tenant, person, where)
            self.embed.forget([unnamed(f) for f in facts])  # their sentences' vectors (people_section.nearness)
            report: dict[str, Any] = {"turns": [], "clusters": {}, "summaries": {}, "key_lines": [], "facts": {},
                                      "episodes": {}, "agenda": [], "diaries": {}, "triples": {}, "insights": []}
            if turns:
                report.update(self._turns_out(batch, sorted(turns)))
            if hard and where is None:
                forget.scrub_mentions(tenant, person)
            report["facts"] = {**dict.fromkeys(held.facts, "deleted"), **report["facts"]}
            report["triples"] = {**dict.fromkeys(held.triples, "deleted"), **report["triples"]}
            report["agenda"] = sorted({*report["agenda"], *held.agenda})
            report["insights"] = sorted({*report["insights"], *held.insights})
            gone = {"entities": list(held.entities), "memberships": list(held.owners), "record": held.person,
                    "aliases": len(held.aliases)}
            report.update(batch=batch, mode=mode, **gone)
            log = [*_log_rows(report, turns, reason),
                   ("forget:deleted", PERSON_KIND, 0, where.key if where else None, reason, gone)]
            # what a hard forget keeps: ids and counts, not whom; a soft one says whom it can bring back
            self._close(batch, hard, report if hard else {**report, "person": person}, log)
        if hard:
            self.store.forget.scrub()
        return {**report, "person": person, "aliases": list(held.aliases)}

    def drop_fact(self, fact: Fact, hard: bool, reason: str) -> dict[str, Any]:
        """One fact deleted by hand, in a batch of its own (restorable unless ``hard``), with the
        triples that say it. Its turns stay, and so does its history: an older value is not made
        current again."""
        with self.store.locks.hold([fact.scope.key]):
            if self.store.profile.get_fact(fact.id) is None:  # dropped meanwhile, by another process
                raise NotFound(f"fact {fact.id} does not exist")
            return self._drop_fact(fact, hard, reason)

    def _drop_fact(self, fact: Fact, hard: bool, reason: str) -> dict[str, Any]:
        mode = "hard" if hard else "soft"
        if hard:
            self.store.forget.secure_delete()
        with self.store.tx():  # the fact, the triples that say it, the batch and its log: all or none
            batch = self.store.batches.new_batch("forget", mode, fact.scope.key, reason, fact.scope.tenant_id)
            self.store.forget.snapshot(batch, "fact", [fact.id])
            said = self.store.graph.fact_triples(fact.id)  # graph (issue 20): the triples that say it go too
            self.store.forget.snapshot(batch, "entity", self.store.graph.graph_entities_with(said))
            self.store.forget.snapshot(batch, "triple", said)
            self.store.profile.delete_fact(fact.id)
            self.embed.forget([unnamed(fact)])
            report: dict[str, Any] = {"turns": [], "facts": {fact.id: "deleted"}, "batch": batch, "mode": mode,
                                      "triples": self.store.graph.drop_triples(said)}
            self._close(batch, hard, report, [("forget:deleted", "fact", fact.id, fact.scope.key, reason,
                                               {"category": fact.category})])
        if hard:
            self.store.forget.scrub()
        return report

    def _snapshot(self, batch: int, ids: list[int]) -> list[str]:
        """Tombstone every row the forget will touch; returns derived texts to drop from the cache."""
        s = self.store
        summaries, clusters = s.summaries.summaries_with(ids), s.clusters.clusters_with(ids)
        keys = [k for k in s.key_lines.keys_with(ids) if k.origin == "promoted"]
        facts, episodes = s.profile.facts_with(ids), s.episodes.episodes_with(ids)
        chains = {(f.subject_id, f.category, f.key) for f in facts}
        related = {f.id for f in facts} | {
            f.id
            for scope in {f.scope for f in facts}
            for f in s.profile.facts(scope, history=True)
            if (f.subject_id, f.category, f.key) in chains
        }
        s.forget.snapshot(batch, "turn", ids)
        s.forget.snapshot(batch, "summary", [x.id for x in summaries])
        s.forget.snapshot(batch, "cluster", [x.id for x in clusters])
        s.forget.snapshot(batch, "key", [x.id for x in keys])
        s.forget.snapshot(batch, "fact", sorted(related))
        s.forget.snapshot(batch, "episode", [x.id for x in episodes])
        s.forget.snapshot(batch, "agenda", s.plans.agenda_with(ids))
        said = s.graph.triples_with(ids)  # graph (issue 20): what the turns said, the triples they closed
        s.forget.snapshot(batch, "entity", s.graph.graph_entities_with(said))
        s.forget.snapshot(batch, "triple", said)
        s.forget.snapshot(batch, "insight", s.graph.insights_with(ids))
        return (
            [x.text for x in summaries]
            + [x.text for x in keys]
            + [unnamed(f) for f in facts]  # their sentences' vectors (people_section.nearness)
            + [episode_text(e) for e in episodes]
        )

    def derived(self, ids: list[int]) -> dict[str, Any]:
        """After a delete of turns: their facts and episodes are deleted or rebuilt too, the plans
        they said go, and the plans whose outcome they reported are open again; so do their
        triples (one they closed is current again) and the insights inferred from them."""
        return {"facts": self._facts(ids), "episodes": self._episodes(ids),
                "agenda": self.store.plans.agenda_forget(ids),
                "diaries": self.diary.rebuild(ids) if self.diary is not None else {},  # diary (issue 20)
                # graph (issue 20): triples only they said go, the ones those closed reopen
                "triples": self.store.graph.triples_forget(ids), "insights": self.store.graph.insights_forget(ids)}

    def _facts(self, ids: list[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        removed = set(ids)
        for fact in self.store.profile.facts_with(ids):
            if set(fact.sources) - removed:
                self.store.profile.drop_fact_sources(fact.id, set(fact.sources) & removed)
                out[fact.id] = "rebuilt"
                continue
            self.store.profile.delete_fact(fact.id)
            out[fact.id] = "deleted"
            if fact.status == "current":
                history = self.store.profile.facts(fact.scope, history=True, subject=fact.subject_id)
                previous = _predecessor(fact, history)
                if previous is not None:
                    self.store.profile.reinstate_fact(previous.id)
                    out[previous.id] = "reinstated"
        return out

    def _episodes(self, ids: list[int]) -> dict[int, str]:
        removed = set(ids)
        return {e.id: self.episodes.rebuild(e, removed) for e in self.store.episodes.episodes_with(ids)}

    def restore(self, batch: int) -> dict[str, Any]:
        """Put an active batch back; Conflict when it is not (any more) active."""
        with self._holding(lambda: self._batch_names(batch)):
            return self._restore(batch)

    def _restore(self, batch: int) -> dict[str, Any]:
        # the rows, the batch's status and its log, the jobs and days it asks for: one transaction
        with self.store.tx():
            info = self.store.batches.get_batch(batch)
            if info["status"] != "active":
                raise Conflict(
                    f"batch {batch} is {info['status']}; only an active soft forget or "
                    "sweep can be restored"
                )
            if info["action"] == "sweep":
                return self._unsweep(batch)
            return self._put_back(batch, info)

    def _put_back(self, batch: int, info: dict[str, Any]) -> dict[str, Any]:
        restored = self.store.forget.restore_snapshot(batch)  # vectors too: the store's search has them again
        self.store.batches.set_batch(batch, "restored")
        self.store.batches.log_actions(
            batch, [("restore", k, r, None, "restore", {}) for k, r, _, _ in restored]
        )
        out: dict[str, Any] = {"batch": batch}
        for kind, ref, _, _ in restored:
            if kind == PERSON_KIND:  # a forgotten person's registry rows (the person-forget port)
                out.setdefault("people", []).append(info["report"].get("person"))
                continue
            out.setdefault(kind + "s", []).append(ref)
        # tombstones hold one vector a row: the second encoder's (setting second_encoder) is made
        # again, and a long turn's parts (stores/parts.py)
        again = out.get("turns", []) if self.embed.second is not None else self._pieced(out.get("turns", []))
        if again:
            self.store.jobs.enqueue("embed", again)
        if self.diary is not None and out.get("turns"):  # diary (issue 20): their days written again
            out["diaries"] = sorted(self.diary.restored(self.store.turns.get_turns(out["turns"]).values()))
        return out

    def _pieced(self, turn_ids: list[int]) -> list[int]:
        """Those of the turns the embedder reads in several pieces: they had parts."""
        if not turn_ids or not self.embed.splits:
            return []
        return [i for i, t in self.store.turns.get_turns(turn_ids).items() if len(self.embed.pieces(t.indexed)) > 1]

    def _unsweep(self, batch: int) -> dict[str, Any]:
        out: dict[str, Any] = {"batch": batch}
        for kind, ref in self.store.batches.batch_refs(batch, "soft_delete"):
            self.store.forget.undelete(kind, [ref])
            out.setdefault(kind + "s", []).append(ref)
        for _kind, ref in self.store.batches.batch_refs(batch, "expire"):
            self.store.profile.unexpire_fact(ref)
            out.setdefault("facts", []).append(ref)
        self.store.batches.set_batch(batch, "restored")
        self.store.batches.log_actions(
            batch,
            [
                ("restore", k[:-1], r, None, "restore", {})
                for k, refs in out.items()
                if k != "batch"
                for r in refs
            ],
        )
        return out

    def purge(self, batch: int) -> dict[str, Any]:
        """Make an active batch permanent; Conflict when it is not (any more) active."""
        with self._holding(lambda: self._batch_names(batch)):
            return self._purge(batch)

    def _purge(self, batch: int) -> dict[str, Any]:
        info = self.store.batches.get_batch(batch)
        if info["status"] != "active":
            raise Conflict(f"batch {batch} is {info['status']}; nothing to purge")
        self.store.forget.secure_delete()
        with self.store.tx():
            removed = self.store.forget.purge_batch(batch)
            report = info["report"] or {}
            if report.get("person"):  # a person forgotten softly: once purged, as if hard (_forget_person)
                if report.get("record") and info.get("tenant"):
                    self.store.person_forget.scrub_mentions(info["tenant"], report["person"])
                self.store.batches.set_batch(batch, "purged", {k: v for k, v in report.items() if k != "person"})
            self.store.batches.log_actions(batch, [("purge", "batch", batch, info["scope_key"], "purge", {})])
        self.store.forget.scrub()  # once committed: a vacuum sees only what is
        return {"batch": batch, "purged_rows": removed}

    def matching_turns(self, scope: Scope, query: str) -> list[int]:
        """The scope's turns that mention ``query``: the phrase itself (any case), or all its
        content words. The store finds both (a text filter, its word index); only the turns
        whose index holds every word are read, to check that their own words do."""
        terms = query_terms(query)
        if not terms and not query.strip():
            raise InvalidInput("forget(query=...) needs the words of what to forget")
        found = {t.id for t in self.store.turns.list_turns(scope, session_id=None, limit=MATCH_LIMIT, offset=0,
                                                      since=None, until=None, text=query.strip())}
        if terms:
            turns = self.store.turns
            maybe = turns.get_turns([i for i in turns.turns_with_terms(scope, terms) if i not in found])
            found |= {i for i, turn in maybe.items() if set(terms) <= set(tokens(turn.content))}
        return sorted(found)

def _predecessor(fact: Fact, history: list[Fact]) -> Fact | None:
    older = [
        f
        for f in history
        if f.category == fact.category
        and f.key == fact.key
        and f.status == "superseded"
        and f.id != fact.id
    ]
    return max(older, key=lambda f: (f.valid_to or f.valid_from, f.id), default=None)


def _log_rows(
    report: dict[str, Any], turns: dict[int, Turn], reason: str
) -> list[tuple[str, str, int, str | None, str, dict[str, Any]]]:
    rows: list[tuple[str, str, int, str | None, str, dict[str, Any]]] = []
    for tid, turn in turns.items():
        rows.append(
            (
                "forget",
                "turn",
                tid,
                turn.scope.key,
                reason,
                {"session": turn.session_id, "step": turn.step},
            )
        )
    for kind in ("clusters", "summaries", "facts", "episodes", "triples"):
        for ref, outcome in report.get(kind, {}).items():
            rows.append(
                (
                    f"forget:{outcome}",
                    kind[:-1] if kind != "summaries" else "summary",
                    int(ref),
                    None,
                    reason,
                    {},
                )
            )
    for ref in report.get("key_lines", []):
        rows.append(("forget:deleted", "key", int(ref), None, reason, {}))
    for ref in report.get("agenda", []):
        rows.append(("forget:deleted", "agenda", int(ref), None, reason, {}))
    for ref, outcome in report.get("diaries", {}).items():  # diary (issue 20): rebuilt or deleted
        rows.append((f"forget:{outcome}", "diary", int(ref), None, reason, {}))
    for ref in report.get("insights", []):
        rows.append(("forget:deleted", "insight", int(ref), None, reason, {}))
    return rows
