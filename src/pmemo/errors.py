"""pmemo's one exception tree.

    PMemoError
    ├── InvalidInput          bad argument: empty/oversized content, bad scope id, wrong type
    ├── NotFound              an id that does not exist in the scope you asked for
    ├── Conflict              a concurrent update won (version check failed)
    ├── StoreError            the database cannot be used
    │   ├── StoreCorrupt      the file is not a pmemo database / is damaged
    │   ├── StoreLocked       another process holds the write lock
    │   └── Unavailable       the database server cannot be reached now (adapters: 503, Retry-After)
    ├── EmbedderError         the embedder failed or is misconfigured
    ├── ModelFileError        the statement model's file is missing or damaged (extraction uses the rules)
    ├── LLMError              the LLM failed (callers fall back offline; turns are never lost)
    ├── AuthError             missing or wrong API key (adapters: 401)
    ├── Forbidden             a key used outside its tenant (adapters: 403)
    └── LimitExceeded         a configured limit was reached (``setting`` names it)
        ├── QuotaExceeded     a tenant's quota of turns or scopes (adapters: 429)
        │   └── SizeQuotaExceeded   its quota of stored bytes (adapters: 413)
        ├── TooLarge          a batch or request body over its cap (adapters: 413)
        └── RateLimited       too many requests with one key (adapters: 429, Retry-After)
            └── BacklogFull   a tenant's turns waiting for the background passed their cap

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
    """``current_version``: the version that won, for the caller to read and retry with."""

    code = "conflict"

    def __init__(self, message: str, *, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class StoreError(PMemoError):
    code = "store_error"


class StoreCorrupt(StoreError):
    code = "store_corrupt"


class StoreLocked(StoreError):
    code = "store_locked"


class Unavailable(StoreError):
    """The database server went away (a restart, a failover, the network): nothing of the
    call is known to be done, and the same call may succeed in ``retry_after`` seconds."""

    code = "unavailable"

    def __init__(self, message: str, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class EmbedderError(PMemoError):
    code = "embedder_error"


class ModelFileError(PMemoError):
    """The statement model's file (``statements.model``) is missing or damaged; the message names
    it. Memory logs it at open and extracts facts with the rules instead."""


class LLMError(PMemoError):
    code = "llm_error"


class AuthError(PMemoError):
    code = "unauthorized"


class Forbidden(PMemoError):
    code = "forbidden"


class LimitExceeded(PMemoError):
    """A configured limit: ``setting`` is the ``PMEMO_*`` variable that sets it, ``limit`` its value."""

    code = "limit_exceeded"

    def __init__(self, message: str, *, setting: str = "", limit: int | str = 0) -> None:
        super().__init__(message)
        self.setting, self.limit = setting, limit


class QuotaExceeded(LimitExceeded):
    code = "quota_exceeded"


class SizeQuotaExceeded(QuotaExceeded):
    """The quota of stored bytes: a request that would pass it is too large to take."""


class TooLarge(LimitExceeded):
    code = "too_large"


class RateLimited(LimitExceeded):
    """``retry_after``: whole seconds until the key may send again."""

    code = "rate_limited"

    def __init__(self, message: str, *, setting: str = "", limit: int | str = 0, retry_after: int = 1) -> None:
        super().__init__(message, setting=setting, limit=limit)
        self.retry_after = retry_after


class BacklogFull(RateLimited):
    """A tenant has more turns waiting for the background (embedding and the rest) than
    ``PMEMO_MAX_PENDING_TURNS``: nothing of the write was stored; ``retry_after`` estimates the
    seconds until the worker has caught up enough to take it."""

    code = "backlog_full"
