"""The graph of people and things (issue 20 §4): entities, triples with validity times, insights.

``predicates`` names what a triple can say and turns profile facts into triples; ``rules``
finds relations between people in a message (zh/en, offline); ``llm`` does the same with a
language model in one call per batch; ``learn`` records a batch's triples; ``read`` answers
``graph`` and ``triples``; ``section`` brings the facts of entities a query names into a
context; ``insights`` infers, with a language model only, what nobody stated.
"""
