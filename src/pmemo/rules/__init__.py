"""Rules that read a message (pure, zh/en): its sentences and clauses, whose statement each
is, the facts and dated plans it states, and the words they are told by.

No store, no model, no job: the extraction and agenda pipelines run them on each batch, and
retrieval, the graph and the diary use their vocabularies (an event word, a pet kind, a job
field) to say back what was learned. They sit below all of those, beside ``text``.
"""
