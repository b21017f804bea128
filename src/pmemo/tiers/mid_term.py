"""Mid-term clustering policy (pure): join the nearest centroid above a threshold, or start
a new cluster; when a scope holds too many clusters, merge the closest pair."""

from __future__ import annotations

import numpy as np

from ..embedders.base import normalise


def nearest(vec: np.ndarray, centroids: np.ndarray) -> tuple[int, float]:
    """Index and cosine of the nearest centroid, or (-1, -1.0) when there is none."""
    if centroids.size == 0:
        return -1, -1.0
    sims = centroids @ vec
    best = int(np.argmax(sims))
    return best, float(sims[best])


def joined(centroid: np.ndarray, size: int, vec: np.ndarray) -> np.ndarray:
    """The centroid after one more member (running mean, re-normalised)."""
    return normalise(centroid * size + vec)


def centroid_of(vectors: np.ndarray) -> np.ndarray:
    return normalise(vectors.mean(axis=0))


def closest_pair(centroids: np.ndarray) -> tuple[int, int]:
    """The two most similar centroids (i < j): the pair to merge when over the cap."""
    sims = centroids @ centroids.T
    np.fill_diagonal(sims, -np.inf)
    flat = int(np.argmax(sims))
    i, j = divmod(flat, sims.shape[0])
    return (i, j) if i < j else (j, i)


def most_central(vectors: np.ndarray, centroid: np.ndarray) -> int:
    """Row of ``vectors`` closest to ``centroid``."""
    return int(np.argmax(vectors @ centroid))


def relabel_due(size: int) -> bool:
    """Recompute a cluster's label while small, then at each doubling (amortised O(1))."""
    return size <= 8 or size & (size - 1) == 0
