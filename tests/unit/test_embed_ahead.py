"""Embedding ahead (``CachedEmbedder.ahead``): an embedder that runs apart from the interpreter
embeds a batch's texts on a thread of its own while the worker reads them; what the worker asks
for later is taken from there, never embedded twice, and the vectors are the ones it would have
embedded itself."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from pmemo.embedders.cached import CachedEmbedder
from pmemo.embedders.hashing import HashingEmbedder


class Shelf(dict):
    def cache_get(self, keys):
        return {k: self[k] for k in keys if k in self}

    def cache_put(self, rows):
        self.update(rows)

    def cache_delete(self, keys):
        for k in keys:
            self.pop(k, None)


class Apart(HashingEmbedder):
    """Runs apart; records each call's texts and thread, and can hold its calls at a gate."""

    runs_apart = True

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[list[str], str]] = []
        self.gate = threading.Event()
        self.gate.set()
        self.fail = False

    def embed_passages(self, texts):
        assert self.gate.wait(30)
        self.calls.append((list(texts), threading.current_thread().name))
        if self.fail:
            raise RuntimeError("the engine failed")
        return super().embed_passages(texts)


def test_what_was_embedded_ahead_is_taken_not_embedded_again() -> None:
    model, shelf = Apart(), Shelf()
    embed = CachedEmbedder(model, shelf, batch=2)
    texts = ["one", "two", "three", "one"]
    assert embed.ahead(texts)
    got = embed.passages(texts)
    assert np.array_equal(got, HashingEmbedder().embed_passages(texts))
    embedded = [t for call, _ in model.calls for t in call]
    assert sorted(embedded) == ["one", "three", "two"]  # each once, in calls of two
    assert all(name.startswith("pmemo-ahead") for _, name in model.calls)
    assert len(shelf) == 3  # written to the store's cache by the caller
    model.calls.clear()
    embed.passages(["two"])
    assert model.calls == []


def test_cached_texts_are_not_embedded_ahead_and_an_embedder_that_does_not_run_apart_is_left_alone() -> None:
    model, shelf = Apart(), Shelf()
    embed = CachedEmbedder(model, shelf)
    embed.passages(["known"])
    model.calls.clear()
    assert embed.ahead(["known", "new"])
    embed.passages(["known", "new"])
    assert [call for call, _ in model.calls] == [["new"]]
    plain = CachedEmbedder(HashingEmbedder(), Shelf())
    assert not plain.ahead(["anything"])


def test_a_failed_call_ahead_raises_where_its_vectors_are_asked_and_a_retry_embeds_again() -> None:
    model = Apart()
    embed = CachedEmbedder(model, Shelf())
    model.fail = True
    assert embed.ahead(["a", "b"])
    with pytest.raises(RuntimeError, match="engine failed"):
        embed.passages(["a", "b"])
    model.fail = False
    assert embed.passages(["a", "b"]).shape == (2, model.dim)


def test_a_read_does_not_wait_for_what_the_batch_embeds_ahead() -> None:
    model = Apart()
    embed = CachedEmbedder(HashingEmbedder(), Shelf())
    embed.embedder = model
    model.gate.clear()  # the call ahead is held ...
    assert embed.ahead(["batch text"])
    embed.embedder = HashingEmbedder()  # ... and a read embeds for itself, on an engine not held
    assert embed.passages(["batch text"], keep=False).shape == (1, model.dim)
    embed.embedder = model
    model.gate.set()


def test_forgetting_a_text_drops_it_from_what_is_embedded_ahead() -> None:
    model, shelf = Apart(), Shelf()
    embed = CachedEmbedder(model, shelf)
    model.gate.clear()  # the call ahead is held until the text is forgotten
    assert embed.ahead(["forget me"])
    embed.forget(["forget me"])
    model.gate.set()
    embed.passages(["forget me"])  # embedded again, not taken from the call ahead
    for _ in range(600):
        if len(model.calls) == 2:
            break
        threading.Event().wait(0.05)
    assert [call for call, _ in model.calls] == [["forget me"], ["forget me"]]
    assert sorted(name[:11] for _, name in model.calls) == ["MainThread"[:11], "pmemo-ahead"]
