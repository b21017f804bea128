-- Jobs that keep the memory blocks current (issue 20): a change to a group's facts, by any path
-- (extraction, a hand edit, forget, restore, purge, the sweeper), queues each job kind listed in
-- fact_job_kinds for the group, in the same transaction, once while one waits (enqueue_once).
-- BlockJobRows.queue_on_fact_change lists a kind: from then on, for every process on the
-- database (SQLite's TEMP triggers last a process; here the database is the one shared place).
CREATE TABLE fact_job_kinds(kind text PRIMARY KEY);

CREATE FUNCTION facts_queue_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed facts;
    job_kind text;
BEGIN
    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
    FOR job_kind IN SELECT kind FROM fact_job_kinds ORDER BY kind LOOP
        PERFORM enqueue_once(job_kind, jsonb_build_object('tenant', changed.tenant, 'agent', changed.agent,
                                                          'owner', changed.owner));
    END LOOP;
    RETURN NULL;
END $$;
CREATE TRIGGER facts_queue_jobs AFTER INSERT OR UPDATE ON facts
    FOR EACH ROW WHEN (NEW.owner LIKE 'g:%') EXECUTE FUNCTION facts_queue_jobs();
CREATE TRIGGER facts_queue_jobs_gone AFTER DELETE ON facts
    FOR EACH ROW WHEN (OLD.owner LIKE 'g:%') EXECUTE FUNCTION facts_queue_jobs();
