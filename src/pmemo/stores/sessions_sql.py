"""The sessions a new session closes as episodes: one query, the same on both stores but for
their parameter mark (``?`` on SQLite, ``%s`` on Postgres).

Parameters: the scope key twice, the episode kind, and the epoch before which a session must
have ended. Sessions come oldest first.
"""

from __future__ import annotations


def open_sessions(mark: str) -> str:
    return ("SELECT t.session FROM (SELECT session, MAX(step) last_step, MIN(ts) first, MAX(ts) last FROM turns"
            f" WHERE scope_key={mark} GROUP BY session) t LEFT JOIN (SELECT session, MAX(step_to) covered"
            f" FROM episodes WHERE scope_key={mark} AND kind={mark} GROUP BY session) e ON e.session = t.session"
            f" WHERE t.last < {mark} AND t.last_step > COALESCE(e.covered, 0) ORDER BY t.first, t.session")
