-- Evidence of a person's gender, for the name forms that fit them (people/guesses.py, issue 44 §6):
-- one row a turn that gave it (turn_id 0: the platform's word, once a value).
CREATE TABLE person_signs(
    tenant text COLLATE "C" NOT NULL, person text COLLATE "C" NOT NULL, source text NOT NULL, gender text NOT NULL,
    turn_id bigint NOT NULL, at double precision NOT NULL, PRIMARY KEY(tenant, person, source, gender, turn_id)
);
