"""pmemo's one exception tree.

    PMemoError
    ├── InvalidInput          bad argument: empty/oversized content, bad scope id, wrong type
    ├── NotFound              an id that does not exist in the scope you asked for
    ├── Conflict              a concurrent update won (version check failed)
    ├── StoreError            the database cannot be used
    │   ├── StoreCorrupt      the file is not a pmemo database / is damaged
    │   └── StoreLocked       another process holds the write lock
    ├── EmbedderError         the embedder failed or is misconfigured
    ├── LLMError              the LLM failed (callers fall back offline; turns are never lost)
    ├── AuthError             missing or wrong API key (adapters: 401)
    └── Forbidden             a key used outside its tenant (adapters: 403)

Every message names what to fix. Adapters (REST, MCP, CLI) map this tree once each.
"""

from __future__ import annotations


class PMemoError(Exception):
    """Base of every error pmemo raises on purpose."""

    code = "pmemo_error"


class InvalidInput(PMemoError, ValueError):
    code = "invalid_input"


class NotFound(PMemoError, LookupError):
    code = "not_found"


class Conflict(PMemoError):
    code = "conflict"


class StoreError(PMemoError):
    code = "store_error"


class StoreCorrupt(StoreError):
    code = "store_corrupt"


class StoreLocked(StoreError):
    code = "store_locked"


class EmbedderError(PMemoError):
    code = "embedder_error"


class LLMError(PMemoError):
    code = "llm_error"


class AuthError(PMemoError):
    code = "unauthorized"


class Forbidden(PMemoError):
    code = "forbidden"
