-- A fact keeps the clause it came from, in the person's words with its subject made explicit
-- ("周霓：花粉过敏，春天出门要戴口罩", issue 44 §1); facts stored before keep none.
ALTER TABLE facts ADD COLUMN said text NOT NULL DEFAULT '';
