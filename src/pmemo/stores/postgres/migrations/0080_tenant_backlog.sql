-- Fair claims and the pending cap (fair_share.py, backlog.py): the turns each tenant has waiting
-- for the background (PMEMO_MAX_PENDING_TURNS), kept by triggers as 'turns' jobs come, fail for
-- good (the dead-letter list is not a backlog), are retried and end, so a check reads one row.
-- A 'turns' job names its tenant (add_turns sets it: a big write's jobs are of one chat each; a
-- small one mixing tenants counts on its first turn's); jobs queued before this count nothing. A write of a tenant already holds its tenant_usage
-- row to its commit (0010), so this row adds no wait between writers; a worker's finish waits
-- at most for one write of that tenant to commit.
ALTER TABLE jobs ADD COLUMN tenant text COLLATE "C";
CREATE TABLE tenant_backlog(tenant text COLLATE "C" PRIMARY KEY, turns bigint NOT NULL DEFAULT 0);

CREATE FUNCTION jobs_backlog() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO tenant_backlog AS b(tenant, turns) VALUES(NEW.tenant, jsonb_array_length(NEW.payload))
            ON CONFLICT(tenant) DO UPDATE SET turns = b.turns + excluded.turns;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE tenant_backlog SET turns = turns - jsonb_array_length(OLD.payload) WHERE tenant = OLD.tenant;
    ELSE  -- failed for good, or retried from the dead-letter list
        INSERT INTO tenant_backlog AS b(tenant, turns)
            VALUES(NEW.tenant, CASE WHEN NEW.status = 'failed' THEN -1 ELSE 1 END * jsonb_array_length(NEW.payload))
            ON CONFLICT(tenant) DO UPDATE SET turns = b.turns + excluded.turns;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER jobs_backlog_in AFTER INSERT ON jobs FOR EACH ROW
    WHEN (NEW.tenant IS NOT NULL AND NEW.status <> 'failed') EXECUTE FUNCTION jobs_backlog();
CREATE TRIGGER jobs_backlog_out AFTER DELETE ON jobs FOR EACH ROW
    WHEN (OLD.tenant IS NOT NULL AND OLD.status <> 'failed') EXECUTE FUNCTION jobs_backlog();
CREATE TRIGGER jobs_backlog_dead AFTER UPDATE OF status ON jobs FOR EACH ROW
    WHEN (NEW.tenant IS NOT NULL AND (OLD.status = 'failed') <> (NEW.status = 'failed'))
    EXECUTE FUNCTION jobs_backlog();
