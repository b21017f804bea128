-- Which user turns may hold a name (issue 43 §2): the character pairs of a turn's lowered text in a
-- GIN index, so turns_naming reads the turns that hold every pair of a name (then checks the name
-- itself) instead of every turn of the tenant. An expression index: the turn writers do nothing.
CREATE FUNCTION text_pairs(body text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS
$$ SELECT COALESCE(array_agg(DISTINCT substr(body, i, 2)), '{}') FROM generate_series(1, length(body) - 1) AS i $$;
CREATE INDEX turns_pairs ON turns USING gin (tenant, text_pairs(lower(content))) WHERE role = 'user';
