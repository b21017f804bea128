"""Lexical search on PostgreSQL: a tsvector over jieba-segmented words, as fts.py is on SQLite.

Each turn row keeps its segmented words (``words``: ``NewTurn.index_text``) and, as its
``context``, the segmented content of the turn before it in its session; the generated column
``lexemes`` weighs them A and B. The 'simple' configuration only lower-cases, so the tokens
``segment()`` made (Chinese words and bigrams, English stems) are the lexemes. One GIN index
over (scope_key, lexemes) holds a scope's postings together, as the scope token in every word
does on SQLite.

A query is an OR of its terms, each a quoted lexeme, so nothing in a term is query syntax.
Scores come from ``ts_rank`` with the context weighted ``CONTEXT_WEIGHT`` (bm25's column
weight on SQLite) and normalised by the log of the row's length: like bm25, more matched
terms and shorter rows rank higher, but ts_rank has no inverse document frequency, so a rare
term weighs no more than a common one.

>>> tsquery(["预算", "It's", "  "])
"'预算' | 'it''s'"
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from typing import Any

import psycopg

from ...text.segment import FTS_VERSION, segment
from ..sqlite.fts import CONTEXT_WEIGHT, turn_text

log = logging.getLogger("pmemo")
META_KEY = "fts_version"
# weights of D, C, B, A: the turn's words are A, the previous turn's B; 1 = by the log of the length
WEIGHTS = f"'{{0, 0, {CONTEXT_WEIGHT}, 1}}'"
RANK = f"ts_rank({WEIGHTS}, lexemes, %(q)s::tsquery, 1)"
BATCH = 1000


def tsquery(terms: Sequence[str]) -> str:
    """A tsquery text matching any of ``terms`` as whole lexemes ('' when none is left)."""
    quoted = ("'" + term.lower().replace("\\", "\\\\").replace("'", "''") + "'"
              for term in dict.fromkeys(terms) if term.strip())
    return " | ".join(quoted)


def rank(terms: Sequence[str]) -> tuple[str, dict[str, str]]:
    """The score of a row for ``terms`` (SQL, and its parameters besides ``q``): ``RANK``, plus
    for a term given n times n - 1 more times its own rank, since ts_rank reads a term given
    twice once, where bm25 on SQLite counts it twice (the query's term frequency).

    >>> rank(["奶奶", "画", "奶奶", "奶奶"])[1]
    {'r0': "'奶奶'"}
    """
    counts = Counter(t.lower() for t in terms if t.strip())
    more = [(term, n - 1) for term, n in counts.items() if n > 1]
    sql = RANK + "".join(f" + {n} * ts_rank({WEIGHTS}, lexemes, %(r{i})s::tsquery, 1)"
                         for i, (_, n) in enumerate(more))
    return sql, {f"r{i}": tsquery([term]) for i, (term, _) in enumerate(more)}


def context_of(before: str | None) -> str:
    """The context words of a turn whose session's previous turn said ``before``."""
    return segment(before) if before else ""


def following(cur: psycopg.Cursor[Any], ids: Sequence[int]) -> list[int]:
    """The turn after each of ``ids`` in its session: the turns whose context they are."""
    rows = cur.execute(
        "SELECT (SELECT n.id FROM turns n WHERE n.scope_key=t.scope_key AND n.session=t.session"
        " AND n.step>t.step ORDER BY n.step LIMIT 1) FROM turns t WHERE t.id = ANY(%s)", (list(ids),))
    return [r[0] for r in rows if r[0] is not None]


def reindex(cur: psycopg.Cursor[Any], ids: Sequence[int]) -> None:
    """Set the context of turns ``ids`` from the turn now before each in its session."""
    rows = cur.execute(
        "SELECT t.id, (SELECT p.content FROM turns p WHERE p.scope_key=t.scope_key AND p.session=t.session"
        " AND p.step<t.step ORDER BY p.step DESC LIMIT 1) FROM turns t WHERE t.id = ANY(%s)",
        (list(ids),)).fetchall()
    cur.executemany("UPDATE turns SET context=%s WHERE id=%s", [(context_of(r[1]), r[0]) for r in rows])


def ensure_current(conn: psycopg.Connection[Any]) -> int:
    """Rebuild every turn's words and context when another segmentation made them.

    One transaction (a crash leaves the old words and the old version); returns the number of
    turns re-indexed. The caller holds the migration lock.
    """
    row = conn.execute("SELECT value FROM meta WHERE key=%s", (META_KEY,)).fetchone()
    if row is not None and row[0] == str(FTS_VERSION):
        return 0
    count = 0
    with conn.transaction():
        last = 0
        while True:
            rows = conn.execute(
                "SELECT t.id, t.content, (SELECT p.content FROM turns p WHERE p.scope_key=t.scope_key"
                " AND p.session=t.session AND p.step<t.step ORDER BY p.step DESC LIMIT 1), t.metadata"
                " FROM turns t WHERE t.id > %s ORDER BY t.id LIMIT %s", (last, BATCH)).fetchall()
            if not rows:
                break
            if not count:
                log.warning("re-indexing the turns for lexical search (segmentation version %s)", FTS_VERSION)
            with conn.cursor() as cur:
                cur.executemany("UPDATE turns SET words=%s, context=%s WHERE id=%s",
                                [(turn_text(r[1], r[3]), context_of(r[2]), r[0]) for r in rows])
            count, last = count + len(rows), rows[-1][0]
        conn.execute("INSERT INTO meta(key, value) VALUES(%s, %s) ON CONFLICT(key) DO UPDATE SET value=EXCLUDED.value",
                     (META_KEY, str(FTS_VERSION)))
    return count
