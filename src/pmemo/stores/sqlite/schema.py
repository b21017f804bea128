"""SQLite schema, as an ordered list of migrations (user_version counts the applied ones)."""

from __future__ import annotations

import sqlite3

from ..alias_key import ALIAS_OWNER


def _pairs(row: str) -> str:
    """The ``turn_pairs`` text of a turn (``row``: the table or trigger row it is read from)."""
    tenant, content = f"hex({row}.tenant)", f"{row}.content"
    return (f"(SELECT COALESCE(group_concat({tenant} || 'x' || hex(substr(lower({content}), n, 2)), ' '), '')"
            f" FROM pair_at WHERE n < length({content}))"
            f" || CASE WHEN length({content}) > 100001 THEN ' ' || {tenant} || 'xlong' ELSE '' END")


MIGRATIONS: list[str] = [
    """
    CREATE TABLE turns(
        id INTEGER PRIMARY KEY,
        scope_key TEXT NOT NULL, tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        session TEXT NOT NULL, step INTEGER NOT NULL,
        role TEXT NOT NULL, actor TEXT, content TEXT NOT NULL,
        ts REAL NOT NULL, tz TEXT, metadata TEXT NOT NULL DEFAULT '{}', created REAL NOT NULL,
        UNIQUE(scope_key, session, step)
    );
    CREATE INDEX turns_tenant ON turns(tenant, agent, owner);
    CREATE VIRTUAL TABLE turns_fts USING fts5(scope, body, tokenize='unicode61');
    CREATE TABLE vectors(
        kind TEXT NOT NULL, ref INTEGER NOT NULL, scope_key TEXT NOT NULL,
        model TEXT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(kind, ref)
    );
    CREATE INDEX vectors_model ON vectors(kind, model);
    CREATE TABLE embed_cache(key TEXT PRIMARY KEY, vec BLOB NOT NULL);
    CREATE TABLE clusters(
        id INTEGER PRIMARY KEY, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        centroid BLOB NOT NULL, size INTEGER NOT NULL, label TEXT NOT NULL,
        hits REAL NOT NULL DEFAULT 0, hits_at REAL NOT NULL DEFAULT 0,
        promoted INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL
    );
    CREATE INDEX clusters_scope ON clusters(scope_key);
    CREATE TABLE cluster_members(turn_id INTEGER PRIMARY KEY, cluster_id INTEGER NOT NULL);
    CREATE INDEX members_cluster ON cluster_members(cluster_id);
    CREATE TABLE summaries(
        id INTEGER PRIMARY KEY, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, session TEXT NOT NULL,
        step_from INTEGER NOT NULL, step_to INTEGER NOT NULL, text TEXT NOT NULL,
        method TEXT NOT NULL, created REAL NOT NULL
    );
    CREATE INDEX summaries_scope ON summaries(scope_key, session);
    CREATE TABLE key_lines(
        id INTEGER PRIMARY KEY, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        text TEXT NOT NULL, origin TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL
    );
    CREATE INDEX keys_scope ON key_lines(scope_key);
    -- provenance: which turns each derived record came from
    CREATE TABLE sources(kind TEXT NOT NULL, ref INTEGER NOT NULL, turn_id INTEGER NOT NULL,
        PRIMARY KEY(kind, ref, turn_id));
    CREATE INDEX sources_turn ON sources(turn_id);
    CREATE TABLE jobs(
        id INTEGER PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT, created REAL NOT NULL, updated REAL NOT NULL
    );
    CREATE INDEX jobs_status ON jobs(status, id);
    """,
    """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # issue 5: profile facts, episodes, tasks, records, forgetting. Turns and the derived
    # tables are rebuilt with AUTOINCREMENT so a soft-forgotten row's id is never reused
    # and a restore puts it back under the same id.
    """
    CREATE TABLE turns_v3(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        scope_key TEXT NOT NULL, tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        session TEXT NOT NULL, step INTEGER NOT NULL,
        role TEXT NOT NULL, actor TEXT, content TEXT NOT NULL,
        ts REAL NOT NULL, tz TEXT, metadata TEXT NOT NULL DEFAULT '{}', created REAL NOT NULL,
        UNIQUE(scope_key, session, step)
    );
    INSERT INTO turns_v3 SELECT id, scope_key, tenant, agent, owner, session, step, role, actor,
        content, ts, tz, metadata, created FROM turns;
    DROP TABLE turns;
    ALTER TABLE turns_v3 RENAME TO turns;
    CREATE INDEX turns_tenant ON turns(tenant, agent, owner);
    CREATE TABLE clusters_v3(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        centroid BLOB NOT NULL, size INTEGER NOT NULL, label TEXT NOT NULL,
        hits REAL NOT NULL DEFAULT 0, hits_at REAL NOT NULL DEFAULT 0,
        promoted INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL
    );
    INSERT INTO clusters_v3 SELECT id, scope_key, tenant, agent, owner, centroid, size, label,
        hits, hits_at, promoted, updated FROM clusters;
    DROP TABLE clusters;
    ALTER TABLE clusters_v3 RENAME TO clusters;
    CREATE INDEX clusters_scope ON clusters(scope_key);
    CREATE TABLE summaries_v3(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, session TEXT NOT NULL,
        step_from INTEGER NOT NULL, step_to INTEGER NOT NULL, text TEXT NOT NULL,
        method TEXT NOT NULL, created REAL NOT NULL
    );
    INSERT INTO summaries_v3 SELECT id, scope_key, tenant, agent, owner, session, step_from,
        step_to, text, method, created FROM summaries;
    DROP TABLE summaries;
    ALTER TABLE summaries_v3 RENAME TO summaries;
    CREATE INDEX summaries_scope ON summaries(scope_key, session);
    CREATE TABLE key_lines_v3(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        text TEXT NOT NULL, origin TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL
    );
    INSERT INTO key_lines_v3 SELECT id, scope_key, tenant, agent, owner, text, origin, created,
        updated FROM key_lines;
    DROP TABLE key_lines;
    ALTER TABLE key_lines_v3 RENAME TO key_lines;
    CREATE INDEX keys_scope ON key_lines(scope_key);

    -- profile facts: one row per value; a superseded value keeps its row (valid_to set)
    CREATE TABLE facts(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        category TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
        confidence REAL NOT NULL, importance REAL NOT NULL DEFAULT 0.5,
        mentions INTEGER NOT NULL DEFAULT 1,
        first_seen REAL NOT NULL, last_seen REAL NOT NULL,
        valid_from REAL NOT NULL, valid_to REAL, expires REAL,
        source TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'current',
        version INTEGER NOT NULL DEFAULT 1, created REAL NOT NULL, updated REAL NOT NULL,
        deleted REAL, deleted_reason TEXT
    );
    CREATE INDEX facts_scope ON facts(scope_key, category, key);
    CREATE TABLE episodes(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, session TEXT NOT NULL,
        kind TEXT NOT NULL, summary TEXT NOT NULL,
        topics TEXT NOT NULL DEFAULT '[]', actions TEXT NOT NULL DEFAULT '[]',
        outcomes TEXT NOT NULL DEFAULT '[]', lessons TEXT NOT NULL DEFAULT '[]',
        importance REAL NOT NULL, started REAL NOT NULL, ended REAL NOT NULL,
        step_from INTEGER NOT NULL DEFAULT 0, step_to INTEGER NOT NULL DEFAULT 0,
        access_count INTEGER NOT NULL DEFAULT 0, accessed REAL,
        created REAL NOT NULL, deleted REAL, deleted_reason TEXT
    );
    CREATE INDEX episodes_scope ON episodes(scope_key, session);
    CREATE TABLE tasks(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, session TEXT NOT NULL,
        goal TEXT NOT NULL, steps TEXT NOT NULL DEFAULT '[]', scratchpad TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'running', feedback TEXT, episode_id INTEGER,
        version INTEGER NOT NULL DEFAULT 1, created REAL NOT NULL, updated REAL NOT NULL,
        deleted REAL
    );
    CREATE INDEX tasks_scope ON tasks(scope_key, status);
    -- long-term records with the full envelope; access control is checked on every read
    CREATE TABLE records(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, user_id TEXT NOT NULL,
        type TEXT NOT NULL DEFAULT 'note', visibility TEXT NOT NULL DEFAULT 'private',
        content TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '', structured TEXT NOT NULL DEFAULT '{}',
        embedding_model TEXT, importance REAL NOT NULL DEFAULT 0.5, confidence REAL NOT NULL DEFAULT 1.0,
        tags TEXT NOT NULL DEFAULT '[]', source TEXT NOT NULL DEFAULT 'explicit',
        version INTEGER NOT NULL DEFAULT 1, created REAL NOT NULL, updated REAL NOT NULL,
        accessed REAL NOT NULL, access_count INTEGER NOT NULL DEFAULT 0,
        decay_score REAL NOT NULL DEFAULT 1.0, relations TEXT NOT NULL DEFAULT '[]',
        allowed_users TEXT NOT NULL DEFAULT '[]', allowed_roles TEXT NOT NULL DEFAULT '[]',
        deleted REAL, deleted_reason TEXT
    );
    CREATE INDEX records_owner ON records(tenant, agent, user_id);
    CREATE INDEX records_visibility ON records(tenant, agent, visibility);
    -- forgetting: a batch per forget or sweep, a log line per action, and the tombstones
    -- (row snapshots) that make a soft forget restorable until it is purged
    CREATE TABLE forget_batches(
        id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, action TEXT NOT NULL,
        mode TEXT NOT NULL, scope_key TEXT, reason TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'active', report TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE forget_log(
        id INTEGER PRIMARY KEY AUTOINCREMENT, batch INTEGER, at REAL NOT NULL,
        action TEXT NOT NULL, kind TEXT NOT NULL, ref INTEGER NOT NULL, scope_key TEXT,
        reason TEXT NOT NULL DEFAULT '', detail TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX forget_log_batch ON forget_log(batch);
    CREATE TABLE tombstones(
        batch INTEGER NOT NULL, kind TEXT NOT NULL, ref INTEGER NOT NULL,
        data TEXT NOT NULL, PRIMARY KEY(batch, kind, ref)
    );
    """,
    # the lexical index keeps each word's scope in the word itself (fts.py); emptied here and
    # refilled from the turns on open, since its words come from segment()
    """
    DROP TABLE turns_fts;
    CREATE VIRTUAL TABLE turns_fts USING fts5(body, tokenize='unicode61');
    DELETE FROM meta WHERE key='fts_version';
    """,
    # a second column: the previous turn's words, as the turn's context (fts.py)
    """
    DROP TABLE turns_fts;
    CREATE VIRTUAL TABLE turns_fts USING fts5(body, context, tokenize='unicode61');
    DELETE FROM meta WHERE key='fts_version';
    """,
    # a scope's speakers, read by every search (SQLiteStore.actors)
    """
    CREATE INDEX turns_actor ON turns(scope_key, actor);
    """,
    # issue 17: people with stable ids per tenant, the names they go by, where they speak;
    # facts know whom they are about; dated plans become agenda items
    """
    ALTER TABLE turns ADD COLUMN actor_id TEXT;
    CREATE INDEX turns_person ON turns(tenant, actor_id) WHERE actor_id IS NOT NULL;
    CREATE TABLE people(
        tenant TEXT NOT NULL, person TEXT NOT NULL, name TEXT,
        created REAL NOT NULL, updated REAL NOT NULL, PRIMARY KEY(tenant, person)
    );
    -- every name a person goes by; 'removed' keeps a removed alias from being learned again
    CREATE TABLE aliases(
        tenant TEXT NOT NULL, person TEXT NOT NULL, alias TEXT NOT NULL, source TEXT NOT NULL,
        owner TEXT, first_seen REAL NOT NULL, last_seen REAL NOT NULL, turn_id INTEGER,
        removed REAL, PRIMARY KEY(tenant, person, alias, source)
    );
    CREATE INDEX aliases_alias ON aliases(tenant, alias);
    -- where a person speaks: one row per owner scope (a group or a private chat)
    CREATE TABLE members(
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, person TEXT NOT NULL,
        first_seen REAL NOT NULL, last_seen REAL NOT NULL, messages INTEGER NOT NULL,
        PRIMARY KEY(tenant, agent, owner, person)
    );
    CREATE INDEX members_person ON members(tenant, person);
    ALTER TABLE facts ADD COLUMN subject TEXT;
    ALTER TABLE facts ADD COLUMN mentioned TEXT NOT NULL DEFAULT '[]';
    CREATE INDEX facts_subject ON facts(tenant, subject);
    CREATE TABLE agenda(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, person TEXT,
        day TEXT NOT NULL, what TEXT NOT NULL, text TEXT NOT NULL, turn_id INTEGER,
        status TEXT NOT NULL DEFAULT 'open', outcome_turn INTEGER, outcome TEXT,
        created REAL NOT NULL, updated REAL NOT NULL, deleted REAL,
        UNIQUE(turn_id, what, day)
    );
    CREATE INDEX agenda_scope ON agenda(scope_key, person, day);
    """,
    # how each member talks in each group: characters, messages mostly in Chinese, questions
    """
    ALTER TABLE members ADD COLUMN chars INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE members ADD COLUMN han INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE members ADD COLUMN asks INTEGER NOT NULL DEFAULT 0;
    """,
    # issue 18 §7: whose rows each job is about, so that stats count a tenant's (or an owner
    # scope's) jobs and never another's. A trigger fills it from the ids each kind's payload
    # names (turns for 'turns'/'embed', clusters for 'promote'/'hits', episodes for 'touch');
    # a job that names no owned row (a store-wide 'reindex', a kind added later) is nobody's.
    # UNION ALL in the view so that the trigger's WHERE job=? reaches each arm (with a plain
    # UNION SQLite would scan every job on every insert); INSERT OR IGNORE drops the repeats.
    """
    CREATE TABLE job_scopes(
        job INTEGER NOT NULL, tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        PRIMARY KEY(job, tenant, agent, owner)
    ) WITHOUT ROWID;
    CREATE INDEX job_scopes_owner ON job_scopes(tenant, agent, owner, job);
    CREATE VIEW job_rows(job, tenant, agent, owner) AS
        SELECT j.id, t.tenant, t.agent, t.owner FROM jobs j
            JOIN json_each(CASE WHEN j.kind IN ('turns', 'embed') THEN j.payload ELSE '[]' END) e
            JOIN turns t ON t.id = e.value
        UNION ALL SELECT j.id, c.tenant, c.agent, c.owner FROM jobs j
            JOIN json_each(CASE WHEN j.kind = 'promote' THEN json_array(json_extract(j.payload, '$.cluster_id'))
                                WHEN j.kind = 'hits' THEN json_extract(j.payload, '$.clusters') ELSE '[]' END) e
            JOIN clusters c ON c.id = e.value
        UNION ALL SELECT j.id, p.tenant, p.agent, p.owner FROM jobs j
            JOIN json_each(CASE WHEN j.kind = 'touch' THEN json_extract(j.payload, '$.episodes') ELSE '[]' END) e
            JOIN episodes p ON p.id = e.value;
    INSERT OR IGNORE INTO job_scopes SELECT * FROM job_rows;
    CREATE TRIGGER jobs_scoped AFTER INSERT ON jobs BEGIN
        INSERT OR IGNORE INTO job_scopes SELECT * FROM job_rows WHERE job = NEW.id;
    END;
    CREATE TRIGGER jobs_unscoped AFTER DELETE ON jobs BEGIN
        DELETE FROM job_scopes WHERE job = OLD.id;
    END;
    """,
    # issue 18 §1: key lines carry a version, so an update can say which one it read
    """
    ALTER TABLE key_lines ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
    """,
    # issue 18 §13: whose each forget batch is, so restore, purge and the log are scoped in the
    # query; an old batch is its tenant's when every scope its lines name is of that tenant
    """
    ALTER TABLE forget_batches ADD COLUMN tenant TEXT;
    UPDATE forget_batches SET tenant = (
        SELECT CASE WHEN COUNT(DISTINCT substr(l.scope_key, 1, instr(l.scope_key, '|') - 1)) = 1
                    THEN MIN(substr(l.scope_key, 1, instr(l.scope_key, '|') - 1)) END
        FROM forget_log l WHERE l.batch = forget_batches.id AND l.scope_key IS NOT NULL);
    CREATE INDEX forget_batches_tenant ON forget_batches(tenant, id);
    """,
    # issue 18 §2: what each tenant holds, for its quotas (pmemo/quota.py): turns, UTF-8 bytes
    # of their content and metadata ('{}' counts nothing), owner scopes holding turns. Triggers
    # keep it on every insert, delete and update of a turn, so a quota check reads one row;
    # a scope is new (or gone) when no other turn has its scope_key (an index seek)
    """
    CREATE TABLE tenant_usage(
        tenant TEXT PRIMARY KEY, turns INTEGER NOT NULL DEFAULT 0,
        bytes INTEGER NOT NULL DEFAULT 0, scopes INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO tenant_usage(tenant, turns, bytes, scopes)
        SELECT tenant, COUNT(*), SUM(length(CAST(content AS BLOB))
            + CASE WHEN metadata = '{}' THEN 0 ELSE length(CAST(metadata AS BLOB)) END),
            COUNT(DISTINCT scope_key) FROM turns GROUP BY tenant;
    CREATE TRIGGER turns_usage_in AFTER INSERT ON turns BEGIN
        INSERT OR IGNORE INTO tenant_usage(tenant) VALUES(NEW.tenant);
        UPDATE tenant_usage SET turns = turns + 1,
            bytes = bytes + length(CAST(NEW.content AS BLOB))
                + CASE WHEN NEW.metadata = '{}' THEN 0 ELSE length(CAST(NEW.metadata AS BLOB)) END,
            scopes = scopes + NOT EXISTS(SELECT 1 FROM turns WHERE scope_key = NEW.scope_key AND id <> NEW.id)
        WHERE tenant = NEW.tenant;
    END;
    CREATE TRIGGER turns_usage_out AFTER DELETE ON turns BEGIN
        UPDATE tenant_usage SET turns = turns - 1,
            bytes = bytes - length(CAST(OLD.content AS BLOB))
                - CASE WHEN OLD.metadata = '{}' THEN 0 ELSE length(CAST(OLD.metadata AS BLOB)) END,
            scopes = scopes - NOT EXISTS(SELECT 1 FROM turns WHERE scope_key = OLD.scope_key)
        WHERE tenant = OLD.tenant;
    END;
    CREATE TRIGGER turns_usage_edit AFTER UPDATE OF content, metadata ON turns BEGIN
        UPDATE tenant_usage SET bytes = bytes
            - length(CAST(OLD.content AS BLOB))
            - CASE WHEN OLD.metadata = '{}' THEN 0 ELSE length(CAST(OLD.metadata AS BLOB)) END
            + length(CAST(NEW.content AS BLOB))
            + CASE WHEN NEW.metadata = '{}' THEN 0 ELSE length(CAST(NEW.metadata AS BLOB)) END
        WHERE tenant = NEW.tenant;
    END;
    """,
    # issue 18 §2: a scope's vectors are read when it is first searched (vector_index.py)
    """
    CREATE INDEX vectors_scope ON vectors(kind, scope_key, model);
    """,
    # issue 18 §14: idempotency keys of writes, so a retried add stores nothing twice
    """
    CREATE TABLE idempotency(
        tenant TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, turns TEXT NOT NULL,
        created REAL NOT NULL, PRIMARY KEY(tenant, key)
    ) WITHOUT ROWID;
    CREATE INDEX idempotency_age ON idempotency(created);
    """,
    # issue 20 §2: one diary entry per owner scope and local day, its source turns in `sources`
    # (kind 'diary') and its vector in `vectors`; a day's turns are read by time (turns_time).
    # A job whose payload is an object naming tenant, agent and owner (a 'diary' job) is that
    # owner's in job_scopes, so drain and stats of a tenant count it (jobs_unscoped clears it).
    """
    CREATE TABLE diaries(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, day TEXT NOT NULL,
        text TEXT NOT NULL, method TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
        UNIQUE(tenant, agent, owner, day)
    );
    CREATE INDEX diaries_scope ON diaries(scope_key, day);
    CREATE INDEX turns_time ON turns(scope_key, ts);
    -- the days the schedule saw turns of before they were due (a chat's today), with when they are
    -- and the last turn seen, so that no turn is read twice to find them again
    CREATE TABLE diary_waiting(
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, day TEXT NOT NULL,
        due REAL NOT NULL, last INTEGER NOT NULL, PRIMARY KEY(tenant, agent, owner, day)
    ) WITHOUT ROWID;
    CREATE INDEX diary_waiting_due ON diary_waiting(due);
    CREATE TRIGGER jobs_owner_scoped AFTER INSERT ON jobs
        WHEN json_type(NEW.payload, '$.tenant') = 'text' AND json_type(NEW.payload, '$.agent') = 'text'
            AND json_type(NEW.payload, '$.owner') = 'text'
    BEGIN
        INSERT OR IGNORE INTO job_scopes VALUES(NEW.id, json_extract(NEW.payload, '$.tenant'),
            json_extract(NEW.payload, '$.agent'), json_extract(NEW.payload, '$.owner'));
    END;
    """,
    # issue 20 §4: the graph. Entities per tenant and agent (a person's row points at the
    # registry, whose aliases name them; others keep their names in entity_aliases, the name
    # itself included); triples learned in an owner scope, closed (valid_to, closed_by) when a
    # newer statement replaces them; their source turns in `sources` (kind 'triple'). Insights
    # are inferences about a person, apart from facts, their evidence in `sources` ('insight').
    """
    CREATE TABLE entities(
        id INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, agent TEXT NOT NULL,
        kind TEXT NOT NULL, name TEXT NOT NULL, person TEXT, created REAL NOT NULL
    );
    CREATE INDEX entities_name ON entities(tenant, agent, kind, name);
    CREATE INDEX entities_person ON entities(tenant, agent, person) WHERE person IS NOT NULL;
    CREATE TABLE entity_aliases(
        entity INTEGER NOT NULL, alias TEXT NOT NULL, source TEXT NOT NULL, PRIMARY KEY(entity, alias)
    ) WITHOUT ROWID;
    CREATE INDEX entity_aliases_alias ON entity_aliases(alias COLLATE NOCASE);
    CREATE TABLE triples(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        subject INTEGER NOT NULL, predicate TEXT NOT NULL, object INTEGER, value TEXT NOT NULL,
        qualifier TEXT, valid_from REAL NOT NULL, valid_to REAL, closed_by INTEGER,
        confidence REAL NOT NULL, fact INTEGER, created REAL NOT NULL
    );
    CREATE INDEX triples_subject ON triples(subject, predicate);
    CREATE INDEX triples_object ON triples(object) WHERE object IS NOT NULL;
    CREATE INDEX triples_scope ON triples(scope_key, predicate);
    CREATE INDEX triples_closer ON triples(closed_by) WHERE closed_by IS NOT NULL;
    CREATE TABLE insights(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL, person TEXT NOT NULL,
        text TEXT NOT NULL, confidence REAL NOT NULL, created REAL NOT NULL
    );
    CREATE INDEX insights_person ON insights(scope_key, person);
    """,
    # issue 20 §3: L2 windows, runs of consecutive turns of one user or group embedded as one
    # unit (the vector in `vectors`, kind 'window'). Its members are the owner scope's turns with
    # an id in [turn_from, turn_to], read by turns_scope_id; an open window (open=1) is still
    # growing and has no vector yet; text_hash is that of the text its vector was made from.
    """
    CREATE TABLE windows(
        id INTEGER PRIMARY KEY AUTOINCREMENT, scope_key TEXT NOT NULL,
        tenant TEXT NOT NULL, agent TEXT NOT NULL, owner TEXT NOT NULL,
        turn_from INTEGER NOT NULL, turn_to INTEGER NOT NULL, open INTEGER NOT NULL DEFAULT 0,
        text_hash TEXT NOT NULL DEFAULT '', created REAL NOT NULL, updated REAL NOT NULL
    );
    CREATE INDEX windows_scope ON windows(scope_key, turn_to);
    CREATE INDEX windows_open ON windows(updated) WHERE open = 1;
    CREATE INDEX turns_scope_id ON turns(scope_key, id);
    """,
    # issue 21 §0: jobs shared by worker processes. A claim holds a job for its `owner` (a
    # worker process) until `lease_until`; a job failed with retry is due again at `run_after`.
    # No index is added: a claim reads the due pending jobs oldest first by jobs_status(status,
    # id), stopping after its limit, and the expired leases among the few running jobs by the same
    # (an index on run_after would read every due job of a backlog to sort them by id).
    """
    ALTER TABLE jobs ADD COLUMN owner TEXT;
    ALTER TABLE jobs ADD COLUMN lease_until REAL;
    ALTER TABLE jobs ADD COLUMN run_after REAL NOT NULL DEFAULT 0;
    """,
    # tasks have a `deleted` column but lacked the `deleted_reason` the soft delete writes
    # (forget_sql.SOFT), so soft_delete("task", ...) failed (issue 21 §0, the contract suite)
    """
    ALTER TABLE tasks ADD COLUMN deleted_reason TEXT;
    """,
    # a person's turns through the speaker index every turn already writes (scope, display name,
    # person), not a second index: one B-tree write per turn with a speaker id instead of two
    # (issue 17's ingest ratio). turns_by reads a person's turns in a scope index-only from it.
    """
    DROP INDEX turns_person;
    DROP INDEX turns_actor;
    CREATE INDEX turns_actor ON turns(scope_key, actor, actor_id);
    """,
    # a nickname learned (or @-mentioned) in two groups is a row in each: each group's card shows
    # it and cites the turn that taught it there. The key of a learned or mention alias holds its
    # owner; the other sources stay one row per person and alias (SQLite cannot change a primary
    # key: the table is made again, its rows kept)
    f"""
    CREATE TABLE aliases_new(
        tenant TEXT NOT NULL, person TEXT NOT NULL, alias TEXT NOT NULL, source TEXT NOT NULL,
        owner TEXT, first_seen REAL NOT NULL, last_seen REAL NOT NULL, turn_id INTEGER, removed REAL
    );
    INSERT INTO aliases_new SELECT tenant, person, alias, source, owner, first_seen, last_seen, turn_id, removed
        FROM aliases;
    DROP TABLE aliases;
    ALTER TABLE aliases_new RENAME TO aliases;
    CREATE INDEX aliases_alias ON aliases(tenant, alias);
    CREATE UNIQUE INDEX aliases_key ON aliases(tenant, person, alias, source, ({ALIAS_OWNER}));
    """,
    # fair claims and the pending cap: the turns each tenant has waiting for the background
    # (PMEMO_MAX_PENDING_TURNS, backlog.py), kept by triggers as 'turns' jobs come, fail for good
    # (the dead-letter list is not a backlog), are retried and end, so a check reads one row.
    # A 'turns' job names its tenant (add_turns sets it: a big write's jobs are of one chat each; a
    # small one mixing tenants counts on its first turn's); jobs queued before this count nothing.
    """
    ALTER TABLE jobs ADD COLUMN tenant TEXT;
    CREATE TABLE tenant_backlog(tenant TEXT PRIMARY KEY, turns INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
    CREATE TRIGGER jobs_backlog_in AFTER INSERT ON jobs WHEN NEW.tenant IS NOT NULL AND NEW.status <> 'failed'
    BEGIN
        INSERT INTO tenant_backlog(tenant, turns) VALUES(NEW.tenant, json_array_length(NEW.payload))
            ON CONFLICT(tenant) DO UPDATE SET turns = turns + excluded.turns;
    END;
    CREATE TRIGGER jobs_backlog_out AFTER DELETE ON jobs WHEN OLD.tenant IS NOT NULL AND OLD.status <> 'failed'
    BEGIN
        UPDATE tenant_backlog SET turns = turns - json_array_length(OLD.payload) WHERE tenant = OLD.tenant;
    END;
    CREATE TRIGGER jobs_backlog_dead AFTER UPDATE OF status ON jobs
        WHEN NEW.tenant IS NOT NULL AND (OLD.status = 'failed') <> (NEW.status = 'failed')
    BEGIN
        INSERT INTO tenant_backlog(tenant) VALUES(NEW.tenant) ON CONFLICT(tenant) DO NOTHING;
        UPDATE tenant_backlog SET turns = turns + CASE WHEN NEW.status = 'failed'
            THEN -json_array_length(NEW.payload) ELSE json_array_length(NEW.payload) END
        WHERE tenant = NEW.tenant;
    END;
    """,
    # a long turn keeps a vector per piece the embedder read (kind 'part', stores/parts.py: ref =
    # turn id * 65536 + index): a deleted turn takes them along, by whatever path it goes
    """
    CREATE TRIGGER turns_parts_gone AFTER DELETE ON turns BEGIN
        DELETE FROM vectors WHERE kind = 'part' AND ref BETWEEN OLD.id * 65536 AND OLD.id * 65536 + 65535;
    END;
    """,
    # evidence of a person's gender, for the name forms that fit them (people/guesses.py, issue 44
    # §6): one row a turn that gave it (turn_id 0: the platform's word, once a value)
    """
    CREATE TABLE person_signs(
        tenant TEXT NOT NULL, person TEXT NOT NULL, source TEXT NOT NULL, gender TEXT NOT NULL,
        turn_id INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY(tenant, person, source, gender, turn_id)
    ) WITHOUT ROWID;
    """,
    # a fact keeps the clause it came from, in the person's words with its subject made explicit
    # ("周霓：花粉过敏，春天出门要戴口罩", issue 44 §1); facts stored before keep none
    """
    ALTER TABLE facts ADD COLUMN said TEXT NOT NULL DEFAULT '';
    """,
    # a reply is tied to what it answers (issue 44 §2): the turn id, and the platform's message id
    # of a turn (metadata message_id) found by an index, so a reply that names it finds it
    """
    ALTER TABLE turns ADD COLUMN reply_to INTEGER;
    CREATE INDEX turns_reply ON turns(reply_to) WHERE reply_to IS NOT NULL;
    CREATE INDEX turns_message ON turns(scope_key, json_extract(metadata, '$.message_id'))
        WHERE json_extract(metadata, '$.message_id') IS NOT NULL;
    """,
    # issue 43 §2: which user turns may hold a name (turns_naming): each character pair of a turn's
    # lowered text as a token <hex(tenant)>x<hex(pair)> in a contentless FTS5 table, written by
    # triggers (the turn writers do nothing); a text past pair_at's 100,000 pairs is marked 'long'
    # (its later pairs are not indexed: a search takes such turns as they are)
    f"""
    CREATE TABLE pair_at(n INTEGER PRIMARY KEY);
    INSERT INTO pair_at(n) WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < 100000)
        SELECT n FROM i;
    CREATE VIRTUAL TABLE turn_pairs USING fts5(body, content='', tokenize='unicode61');
    INSERT INTO turn_pairs(rowid, body) SELECT id, {_pairs("turns")} FROM turns WHERE role = 'user';
    CREATE TRIGGER turn_pairs_added AFTER INSERT ON turns WHEN new.role = 'user' BEGIN
        INSERT INTO turn_pairs(rowid, body) VALUES(new.id, {_pairs("new")});
    END;
    CREATE TRIGGER turn_pairs_deleted AFTER DELETE ON turns WHEN old.role = 'user' BEGIN
        INSERT INTO turn_pairs(turn_pairs, rowid, body) VALUES('delete', old.id, {_pairs("old")});
    END;
    CREATE TRIGGER turn_pairs_gone AFTER UPDATE OF tenant, role, content ON turns WHEN old.role = 'user' BEGIN
        INSERT INTO turn_pairs(turn_pairs, rowid, body) VALUES('delete', old.id, {_pairs("old")});
    END;
    CREATE TRIGGER turn_pairs_changed AFTER UPDATE OF tenant, role, content ON turns WHEN new.role = 'user' BEGIN
        INSERT INTO turn_pairs(rowid, body) VALUES(new.id, {_pairs("new")});
    END;
    """,
]


def migrate(conn: sqlite3.Connection) -> int:
    """Apply pending migrations in one transaction each; returns the schema version."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        raise RuntimeError(
            f"database schema version {version} is newer than this pmemo ({len(MIGRATIONS)}); upgrade pmemo"
        )
    for number in range(version, len(MIGRATIONS)):
        conn.executescript("BEGIN;" + MIGRATIONS[number] + f"; PRAGMA user_version={number + 1}; COMMIT;")
    return len(MIGRATIONS)
