-- A person's turns through the speaker index every turn already writes (scope, display name,
-- person), not a second index: one B-tree write per turn with a speaker id instead of two.
DROP INDEX IF EXISTS turns_person;
DROP INDEX IF EXISTS turns_actor;
CREATE INDEX turns_actor ON turns(scope_key, actor, actor_id);
