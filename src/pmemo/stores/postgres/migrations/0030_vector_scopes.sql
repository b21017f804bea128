-- Vector search per scope size (issue 21 §1, vectors.py): a scope is searched exactly through
-- vectors_scope until it has had ANN_MIN_ROWS rows; then its rows are marked `ann` and enter an
-- HNSW index of their dimension (vectors_ann_<dim>, made by the store when a first scope of that
-- dimension gets there: an index needs a fixed dimension, and the column holds any). Only large
-- scopes' rows are in it: bench/pg_vectors.py measured an HNSW index over every row making each
-- insert ~250x dearer (8.5 ms a row against 0.03).
ALTER TABLE vectors ADD COLUMN ann boolean NOT NULL DEFAULT false;
-- `rows`: the rows written to the scope (put_vectors), a hint for the choice: re-embeddings count
-- again and deletions are not taken off, so a scope goes approximate no later than it should
CREATE TABLE vector_scopes(
    kind text NOT NULL, model text NOT NULL, scope_key text COLLATE "C" NOT NULL,
    rows bigint NOT NULL, ann boolean NOT NULL DEFAULT false, PRIMARY KEY(kind, model, scope_key)
);
CREATE INDEX vector_scopes_ann ON vector_scopes(kind, model) WHERE ann;
INSERT INTO vector_scopes(kind, model, scope_key, rows)
    SELECT kind, model, scope_key, count(*) FROM vectors GROUP BY kind, model, scope_key;
