"""pmemo: hierarchical memory for LLM agents, offline by default.

>>> from pmemo import SyncMemory
"""

from __future__ import annotations

from . import errors
from .config import Settings
from .errors import (
    AuthError,
    Conflict,
    EmbedderError,
    Forbidden,
    InvalidInput,
    LimitExceeded,
    LLMError,
    NotFound,
    PMemoError,
    QuotaExceeded,
    SizeQuotaExceeded,
    StoreCorrupt,
    StoreError,
    StoreLocked,
)
from .memory import Memory
from .models import (
    AgendaItem,
    Alias,
    Cluster,
    ContextPack,
    Episode,
    Fact,
    Hit,
    KeyLine,
    Member,
    Person,
    Record,
    Scope,
    Summary,
    Task,
    TaskStep,
    Turn,
)
from .sync import SyncMemory

__version__ = "0.1.0"

__all__ = [
    "AgendaItem",
    "Alias",
    "AuthError",
    "Cluster",
    "Conflict",
    "ContextPack",
    "EmbedderError",
    "Episode",
    "Fact",
    "Forbidden",
    "Hit",
    "InvalidInput",
    "KeyLine",
    "LLMError",
    "LimitExceeded",
    "Member",
    "Memory",
    "NotFound",
    "PMemoError",
    "Person",
    "QuotaExceeded",
    "Record",
    "Scope",
    "Settings",
    "SizeQuotaExceeded",
    "StoreCorrupt",
    "StoreError",
    "StoreLocked",
    "Summary",
    "SyncMemory",
    "Task",
    "TaskStep",
    "Turn",
    "errors",
]
