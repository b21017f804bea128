-- Workers wake on new jobs (issue 21): a NOTIFY on channel pmemo_jobs whenever jobs become
-- due to run, whoever queued them (JobRows.enqueue, add_turns, the diary, enqueue_once's SQL
-- function …): a trigger, so no path that inserts a job can forget to notify. A NOTIFY is
-- delivered when its transaction commits, so a worker never wakes before the job is visible,
-- and the notifies of one transaction fold into one. The payload is the jobs table's schema
-- (several pmemo stores may share one database), nothing about the job.
CREATE FUNCTION pmemo_jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('pmemo_jobs', TG_TABLE_SCHEMA);
    RETURN NULL;
END
$$;

CREATE TRIGGER jobs_queued AFTER INSERT ON jobs
    FOR EACH STATEMENT EXECUTE FUNCTION pmemo_jobs_notify();

-- a job due again at once (retry_dead, requeue_running); a retry waiting out its backoff
-- is found by the workers' slow poll (PMEMO_JOB_POLL_S) instead
CREATE TRIGGER jobs_requeued AFTER UPDATE OF status ON jobs
    FOR EACH ROW WHEN (NEW.status = 'pending' AND OLD.status <> 'pending'
                       AND NEW.run_after <= extract(epoch FROM statement_timestamp()))
    EXECUTE FUNCTION pmemo_jobs_notify();
