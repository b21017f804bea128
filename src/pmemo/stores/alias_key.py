"""Where an alias was said, as the unique key of ``aliases`` holds it, on both stores: a
learned or @-mentioned alias is a row per chat (its ``owner``), the other sources one row per
person and alias. SQLite's index, Postgres' migration 0070 and its ``ON CONFLICT`` target
spell this one expression."""

ALIAS_OWNER = "CASE WHEN source IN ('learned', 'mention') THEN COALESCE(owner, '') ELSE '' END"

# An alias met again keeps its earliest sighting (where, when and in which turn it was first
# said), whichever worker filed which turn first: ``{old}`` is the stored row, ``{new}`` the one
# met again. The owner breaks a tie of times, so that every order of filing ends the same.
EARLIER_WHERE = ("({new}.first_seen < {old}.first_seen OR ({new}.first_seen = {old}.first_seen"
                 " AND COALESCE({new}.owner, '') < COALESCE({old}.owner, '')))")
EARLIER_SET = "owner=EXCLUDED.owner, first_seen=EXCLUDED.first_seen, turn_id=EXCLUDED.turn_id"
