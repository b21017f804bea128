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
    LLMError,
    NotFound,
    PMemoError,
    StoreCorrupt,
    StoreError,
    StoreLocked,
)
from .memory import Memory
from .models import (
    Cluster,
    ContextPack,
    Episode,
    Fact,
    Hit,
    KeyLine,
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
    "Memory",
    "NotFound",
    "PMemoError",
    "Record",
    "Scope",
    "Settings",
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
