-- A nickname learned (or @-mentioned) in two groups is a row in each: each group's card shows it
-- and cites the turn that taught it there. The key of a learned or mention alias holds its owner;
-- the other sources stay one row per person and alias (the expression is ALIAS_OWNER, stores/alias_key.py).
ALTER TABLE aliases DROP CONSTRAINT aliases_pkey;
CREATE UNIQUE INDEX aliases_key ON aliases(tenant, person, alias, source,
    (CASE WHEN source IN ('learned', 'mention') THEN COALESCE(owner, '') ELSE '' END));
