"""The PostgreSQL + pgvector store (``store.PostgresStore``); needs the ``postgres`` extra."""
