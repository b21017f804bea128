-- Whose a job is, found by key seeks (issue 21): 0010's job_scopes_of tested the clusters of
-- 'promote' and 'hits' jobs with one OR of two IN lists, which no index answers, so every such
-- job read the whole clusters table: a search queues a 'hits' job, and at 50k turns (35k
-- clusters) its insert took 25-40 ms, growing with the store, not the scope. One arm per kind,
-- each an IN list on the primary key, as turns and episodes already were; same rows as before.
CREATE OR REPLACE FUNCTION job_scopes_of(kind text, payload jsonb) RETURNS TABLE(tenant text, agent text, owner text)
LANGUAGE sql STABLE AS $$
    SELECT t.tenant, t.agent, t.owner FROM turns t
        WHERE kind IN ('turns', 'embed') AND t.id IN (SELECT json_ids(payload))
    UNION ALL SELECT c.tenant, c.agent, c.owner FROM clusters c
        WHERE job_scopes_of.kind = 'promote' AND c.id IN (SELECT json_ids(payload -> 'cluster_id'))
    UNION ALL SELECT c.tenant, c.agent, c.owner FROM clusters c
        WHERE job_scopes_of.kind = 'hits' AND c.id IN (SELECT json_ids(payload -> 'clusters'))
    UNION ALL SELECT e.tenant, e.agent, e.owner FROM episodes e  -- an episode has a kind of its own
        WHERE job_scopes_of.kind = 'touch' AND e.id IN (SELECT json_ids(payload -> 'episodes'))
    UNION ALL SELECT payload ->> 'tenant', payload ->> 'agent', payload ->> 'owner'
        WHERE jsonb_typeof(payload -> 'tenant') = 'string' AND jsonb_typeof(payload -> 'agent') = 'string'
          AND jsonb_typeof(payload -> 'owner') = 'string'
$$;

-- a payload lists a few ids: the planner's default guess for a set-returning function (1,000
-- rows) would make a hash join over a whole table look cheaper than that many seeks
ALTER FUNCTION json_ids(jsonb) ROWS 10;
