"""The lexical index: one FTS5 table whose words carry their scope.

Each word of a turn is indexed as ``<scope token><word>``, the scope token being a
fixed-width hash of the owner scope, so a query term's posting list holds only its own
scope's rows and a query is a plain OR of terms. (Indexing the scope as a column of its
own and ANDing it into every query made each query walk that token's posting list, which
in a one-scope store is every row: 6.4 ms against 1.5 ms at 100k turns.) With one scope per
store bm25 scores are unchanged; with several, a term's document frequency is its scope's.

Each row has two columns: the turn's own words (``body``) and, as its ``context``, the
words of the turn before it in its session, weighted lower (``CONTEXT_WEIGHT``). A reply
("Yes! I also like holding them.") is found by the words of what it answers ("…your
turtles?"). A turn's words therefore live in two rows: deleting or restoring a turn
re-indexes the turn after it (``reindex``, ``following``).

The indexed words come from ``segment()``; when its output changes (``FTS_VERSION``), or
the layout here changes (a migration empties the table), the index is rebuilt from the
turns on open.

>>> body("k" + "0" * 20, "预算 budget")
'k00000000000000000000预算 k00000000000000000000budget'
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3

from ...text import attachments
from ...text.segment import FTS_VERSION, segment

log = logging.getLogger("pmemo")
META_KEY = "fts_version"
# bm25 weight of the previous turn's words, below the turn's own (1.0); LoCoMo dev R@10 and
# context recall: 0.25-1.5 measured, 0.8-1.0 best
CONTEXT_WEIGHT = 0.8
# the score, as a call: ORDER BY it is ~30% quicker than ranking by a `rank MATCH` setting,
# with the same scores and order
BM25 = f"bm25(turns_fts, 1.0, {CONTEXT_WEIGHT})"

# each turn with the content of the turn before it in its session (NULL for the first)
_ROWS = ("SELECT t.id, t.scope_key, t.content, (SELECT p.content FROM turns p"
         " WHERE p.scope_key=t.scope_key AND p.session=t.session AND p.step<t.step"
         " ORDER BY p.step DESC LIMIT 1), t.metadata FROM turns t")


def scope_token(scope_key: str) -> str:
    """The owner scope as a fixed-width token prefix (80 bits of hash: no collisions)."""
    return "k" + hashlib.sha1(scope_key.encode()).hexdigest()[:20]


def turn_text(content: str, metadata: str | None = None) -> str:
    """What a turn contributes to the index: its segmented words and attachment captions
    (``metadata`` as stored, JSON); the speaker is data, not words."""
    return segment(attachments.indexed(content, json.loads(metadata) if metadata else {}))


def body(token: str, text: str) -> str:
    return " ".join(token + word for word in text.split())


def match(token: str, terms: list[str]) -> str:
    """An FTS5 query: any of ``terms`` in the scope. Terms are quoted, so never syntax."""
    return " OR ".join('"' + (token + t).replace('"', '""') + '"' for t in terms)


def insert(conn: sqlite3.Connection, turn_id: int, scope_key: str, text: str,
           before: str | None) -> None:
    """Index one new turn: its segmented ``text`` and the content of the turn ``before`` it."""
    _put(conn, [_row(turn_id, scope_key, text, before)])


def _row(turn_id: int, scope_key: str, text: str, before: str | None) -> tuple[int, str, str]:
    token = scope_token(scope_key)
    return turn_id, body(token, text), body(token, segment(before)) if before else ""


def _from_turns(rows: list[sqlite3.Row]) -> list[tuple[int, str, str]]:
    """Index rows for rows of ``_ROWS``."""
    return [_row(r[0], r[1], turn_text(r[2], r[4]), r[3]) for r in rows]


def _put(conn: sqlite3.Connection, rows: list[tuple[int, str, str]]) -> None:
    conn.executemany("INSERT INTO turns_fts(rowid, body, context) VALUES(?,?,?)", rows)


def reindex(conn: sqlite3.Connection, ids: list[int]) -> None:
    """Rewrite the rows of these turns from the turns table (ids no longer there are dropped)."""
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        conn.executemany("DELETE FROM turns_fts WHERE rowid=?", [(i,) for i in chunk])
        rows = conn.execute(f"{_ROWS} WHERE t.id IN ({','.join('?' * len(chunk))})", chunk)
        _put(conn, _from_turns(rows.fetchall()))


def following(conn: sqlite3.Connection, ids: list[int]) -> list[int]:
    """The turn after each given one in its session: the turns whose context they are."""
    out = []
    for turn_id in ids:
        row = conn.execute(
            "SELECT n.id FROM turns t JOIN turns n ON n.scope_key=t.scope_key AND n.session=t.session"
            " AND n.step>t.step WHERE t.id=? ORDER BY n.step LIMIT 1", (turn_id,)).fetchone()
        if row:
            out.append(row[0])
    return out


def ensure_current(conn: sqlite3.Connection) -> int:
    """Rebuild the index from the turns when it was built by another segmentation or layout.

    Runs in one transaction (a crash leaves the old index and the old version); returns the
    number of turns re-indexed.
    """
    row = conn.execute("SELECT value FROM meta WHERE key=?", (META_KEY,)).fetchone()
    if row is not None and row[0] == str(FTS_VERSION):
        return 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("DELETE FROM turns_fts")
        rows = conn.execute(_ROWS).fetchall()
        if rows:
            log.warning("re-indexing %d turns for lexical search (segmentation version %s)",
                        len(rows), FTS_VERSION)
        _put(conn, _from_turns(rows))
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?,?)",
                     (META_KEY, str(FTS_VERSION)))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return len(rows)
