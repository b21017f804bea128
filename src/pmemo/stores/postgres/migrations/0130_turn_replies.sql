-- A reply is tied to what it answers (issue 44 §2): the turn id, and the platform's message id of
-- a turn (metadata message_id) found by an index, so a reply that names it finds it.
ALTER TABLE turns ADD COLUMN reply_to bigint;
CREATE INDEX turns_reply ON turns(reply_to) WHERE reply_to IS NOT NULL;
CREATE INDEX turns_message ON turns(scope_key, ((metadata::jsonb) ->> 'message_id'))
    WHERE (metadata::jsonb) ->> 'message_id' IS NOT NULL;
