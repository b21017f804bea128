"""Where an alias was said, as the unique key of ``aliases`` holds it, on both stores: a
learned or @-mentioned alias is a row per chat (its ``owner``), the other sources one row per
person and alias. SQLite's index, Postgres' migration 0070 and its ``ON CONFLICT`` target
spell this one expression."""

ALIAS_OWNER = "CASE WHEN source IN ('learned', 'mention') THEN COALESCE(owner, '') ELSE '' END"
