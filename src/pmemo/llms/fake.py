"""A scripted LLM for tests: replies from a list or a function; can time out or talk garbage.
It records every call (``calls``) and its estimated tokens (``usage``, by ``pmemo.tokens``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

from ..errors import LLMError
from ..tokens import estimate_tokens
from .openai_compat import parse_json

M = TypeVar("M", bound=BaseModel)

TIMEOUT = object()  # put this in the script to simulate a timeout


class ScriptedLLM:
    """``ScriptedLLM(["{...}", TIMEOUT, "garbage"])`` replies in order, then repeats the last."""

    model_id = "scripted"

    def __init__(self, replies: list[object] | Callable[[str, str], str], delay_s: float = 0.0) -> None:
        self.replies = replies
        self.delay_s = delay_s
        self.calls: list[tuple[str, str]] = []
        self.usage: list[tuple[int, int]] = []  # per call: (prompt tokens, completion tokens), estimated

    def complete_json(self, system: str, user: str, schema: type[M]) -> M:
        self.calls.append((system, user))
        self.usage.append((estimate_tokens(system) + estimate_tokens(user), 0))
        if self.delay_s:
            time.sleep(self.delay_s)
        if callable(self.replies):
            reply: object = self.replies(system, user)
        else:
            reply = self.replies[min(len(self.calls), len(self.replies)) - 1]
        if reply is TIMEOUT:
            raise LLMError("scripted LLM timed out")
        self.usage[-1] = (self.usage[-1][0], estimate_tokens(str(reply)))
        return parse_json(str(reply), schema)
