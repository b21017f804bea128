"""The LLM Protocol: a prompt in, a validated pydantic object out (or LLMError)."""

from __future__ import annotations

from typing import Protocol, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


class LLM(Protocol):
    model_id: str

    def complete_json(self, system: str, user: str, schema: type[M]) -> M:
        """Answer as JSON matching ``schema``; raise ``pmemo.errors.LLMError`` on failure."""
        ...
