"""Scope isolation of the graph, property-style: people say things in random groups and private
chats, each statement carrying a marker word of its chat; every read path of every chat
(triples, graph in two hops, the context) returns no marker of another chat. From a group, a
person's own private chat is seen only when the tenant allows it (``private_facts_in_groups``),
and then only what they said about themselves."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pmemo import NotFound, SyncMemory

from .conftest import open_mem

PEOPLE = ("p0", "p1", "p2")
NAMES = {"p0": "Alpha", "p1": "Bravo", "p2": "Charlie"}
GROUPS = ("g0", "g1", "g2")
CHATS = (*(f"g:{g}" for g in GROUPS), "u:p0", "u:p1")
TEMPLATES = ("I work at {m}", "I live in {m}", "I have a cat named {m}", "I love {m}", "{other} is my friend, {m}")

statement = st.tuples(st.integers(0, len(CHATS) - 1), st.sampled_from(PEOPLE), st.integers(0, len(TEMPLATES) - 1),
                      st.sampled_from(PEOPLE))


def where(chat: str) -> dict[str, str]:
    return {"group_id": chat[2:]} if chat.startswith("g:") else {"user_id": chat[2:]}


def fill(m: SyncMemory, said: list[tuple[int, str, int, str]]) -> dict[str, str]:
    """Say each statement; returns marker → the chat it was said in."""
    for pid in PEOPLE:
        m.add_person(pid, name=NAMES[pid])
    markers: dict[str, str] = {}
    for n, (c, who, t, other) in enumerate(said):
        chat = CHATS[c]
        speaker = chat[2:] if chat.startswith("u:") else who  # a private chat is its owner's
        marker = f"Mk{chat[0]}{chat[2:]}x{n}y"
        markers[marker.lower()] = chat
        m.add(session_id="s", content=TEMPLATES[t].format(m=marker, other=NAMES[other]), actor_id=speaker,
              actor=NAMES[speaker], timestamp=f"2026-01-01T10:{n:02d}:00+00:00", **where(chat))
    m.drain()
    return markers


def reads(m: SyncMemory, chat: str, markers: dict[str, str]) -> list[str]:
    """Every text a chat's reads of the graph give back."""
    scope = where(chat)
    out: list[str] = []

    def triples(found: Any) -> None:
        out.extend(f"{t.subject} {t.object} {t.subject_name} {t.object_name}" for t in found)

    triples(m.triples(history=True, **scope))
    for name in [*PEOPLE, *NAMES.values(), *markers]:
        try:
            triples(m.triples(name, history=True, **scope))
            graph = m.graph(name, hops=2, **scope)
        except NotFound:
            continue
        triples(graph.triples)
        out.extend(f"{n.name} {' '.join(n.aliases)}" for n in graph.nodes)
    query = "Who works where? " + " ".join(markers) + " " + " ".join(NAMES.values())
    pack = m.context(query, budget_tokens=4000, **scope)
    out.extend(h.text for h in pack.items if h.tier != "input")
    return out


def allowed(chat: str, origin: str, private: bool) -> bool:
    """May a marker said in ``origin`` show in ``chat``? Its own; from a group, with ``private``,
    a private chat's (each statement there is its owner's about themselves, or about a friend,
    which stays out: checked by the triple's subject below)."""
    return origin == chat or (private and chat.startswith("g:") and origin.startswith("u:"))


@settings(max_examples=12)
@given(said=st.lists(statement, min_size=1, max_size=8), private=st.booleans())
def test_no_read_of_a_chat_returns_another_chats_graph(said: list[tuple[int, str, int, str]], private: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        m = open_mem(Path(tmp), private_facts_in_groups=private)
        try:
            markers = fill(m, said)
            for chat in CHATS:
                texts = " ".join(reads(m, chat, markers)).lower()
                leaked = [mk for mk, origin in markers.items() if mk in texts and not allowed(chat, origin, private)]
                assert leaked == [], (chat, leaked)
                if private and chat.startswith("g:"):  # a private chat's link to another person stays out
                    for t in m.triples(history=True, **where(chat)):
                        assert t.learned_in == chat or t.learned_in == f"u:{t.subject}", t
        finally:
            m.close()


def test_private_chat_triples_reach_groups_only_when_allowed(tmp_path: Path) -> None:
    for private, folder in zip((False, True), itertools.count(), strict=False):
        m = open_mem(tmp_path / str(folder), private_facts_in_groups=private)
        try:
            m.add(user_id="p0", session_id="dm", actor_id="p0", actor="Alpha", content="I work at Zentrix",
                  timestamp="2026-01-01T10:00:00+00:00")
            m.add(group_id="g0", session_id="s", actor_id="p0", actor="Alpha", content="hello all",
                  timestamp="2026-01-01T11:00:00+00:00")
            m.drain()
            seen = [t.object for t in m.triples("p0", group_id="g0")]
            assert seen == (["Zentrix"] if private else [])
            assert [t.object for t in m.triples("p0", user_id="p0")] == ["Zentrix"]
            assert [t.object for t in m.triples("p0", user_id="p1")] == []  # another's private chat: never
        finally:
            m.close()
