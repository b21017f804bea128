"""A deterministic hashing embedder for tests: fast, no model, stable across runs.

Words (and Chinese character bigrams) are hashed into a signed bag-of-features vector,
so texts sharing words are similar, as with a real embedder, only cruder.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..text.segment import has_cjk, tokens
from .base import normalise


class HashingEmbedder:
    cluster_threshold = 0.25
    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.model_id = f"hashing-{dim}"

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        feats = tokens(text)
        if has_cjk(text):
            chars = [c for c in text if has_cjk(c)]
            feats += [a + b for a, b in zip(chars, chars[1:], strict=False)]
        for feat in feats:
            digest = hashlib.blake2b(feat.encode(), digest_size=8).digest()
            idx = int.from_bytes(digest[:4], "little") % self.dim
            vec[idx] += 1.0 if digest[4] & 1 else -1.0
        if not feats:
            vec[0] = 1.0
        return vec

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise(np.stack([self._vector(t) for t in texts]))

    def embed_query(self, text: str) -> np.ndarray:
        return normalise(self._vector(text))
