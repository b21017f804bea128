"""Mid-term clustering policy (pure): join the nearest centroid above a threshold, or start
a new cluster; when a scope holds too many clusters, merge the closest pair."""

from __future__ import annotations

import dataclasses

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


def relabel_due(before: int, after: int) -> bool:
    """A cluster's label is made again when its size passes a power of two (a join, or a merge
    into the larger part: ``before`` is that part's size): amortised O(1) reads per member; in
    between it keeps the label it has."""
    return after.bit_length() > before.bit_length()


@dataclasses.dataclass
class Centroids:
    """A scope's clusters as read (ids, centroid rows, sizes), kept current with the writes
    made from it, so a batch of turns of one chat reads them once."""

    ids: list[int]
    matrix: np.ndarray
    sizes: list[int]

    def joined(self, k: int, centroid: np.ndarray) -> None:
        self.matrix[k] = centroid
        self.sizes[k] += 1

    def added(self, cid: int, centroid: np.ndarray) -> None:
        row = centroid[None, :].astype(np.float32)
        self.matrix = row if not self.ids else np.vstack([self.matrix, row])
        self.ids.append(cid)
        self.sizes.append(1)

    def merged(self, keep: int, gone: int, centroid: np.ndarray) -> None:
        self.matrix[keep] = centroid
        self.sizes[keep] += self.sizes[gone]
        self.matrix = np.delete(self.matrix, gone, axis=0)
        del self.ids[gone], self.sizes[gone]
