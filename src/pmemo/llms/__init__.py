"""LLMs: an OpenAI-compatible chat client and a scripted fake; none configured = offline."""

from __future__ import annotations

from typing import Any

from ..config import Settings
from .base import LLM

__all__ = ["LLM", "make_llm"]


def make_llm(spec: Any, settings: Settings) -> LLM | None:
    """The LLM object given, or one built from settings, or None (offline fallbacks)."""
    if spec is not None:
        return spec
    if not settings.llm_model:
        return None
    from .openai_compat import OpenAIChat

    return OpenAIChat(settings.llm_model, settings.llm_base_url, settings.llm_api_key,
                      settings.llm_timeout_s, settings.llm_retries)
