-- A long turn keeps a vector per piece the embedder read (kind 'part', stores/parts.py: ref = turn
-- id * 65536 + index, so a turn's parts are one range of the vectors key): a deleted turn takes
-- them along, by whatever path it goes.
CREATE FUNCTION turns_parts_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM vectors WHERE kind = 'part' AND ref BETWEEN OLD.id * 65536 AND OLD.id * 65536 + 65535;
    RETURN NULL;
END $$;
CREATE TRIGGER turns_parts_gone AFTER DELETE ON turns FOR EACH ROW EXECUTE FUNCTION turns_parts_gone();
