"""pmemo: hierarchical memory for LLM agents, offline by default.

>>> from pmemo import SyncMemory
"""

from __future__ import annotations

from . import errors
from .blocks import Block
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
    Diary,
    Entity,
    Episode,
    Fact,
    Graph,
    Hit,
    Insight,
    KeyLine,
    Member,
    Person,
    PersonSummary,
    Record,
    Scope,
    Summary,
    Task,
    TaskStep,
    Triple,
    Turn,
)
from .sync import SyncMemory

__version__ = "0.1.0"

__all__ = [
    "AgendaItem",
    "Alias",
    "AuthError",
    "Block",
    "Cluster",
    "Conflict",
    "ContextPack",
    "Diary",
    "EmbedderError",
    "Entity",
    "Episode",
    "Fact",
    "Forbidden",
    "Graph",
    "Hit",
    "Insight",
    "InvalidInput",
    "KeyLine",
    "LLMError",
    "LimitExceeded",
    "Member",
    "Memory",
    "NotFound",
    "PMemoError",
    "Person",
    "PersonSummary",
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
    "Triple",
    "Turn",
    "errors",
]
