"""Attachments are metadata (text/attachments.py): indexed and embedded with the words, never text."""

from __future__ import annotations

import sqlite3

import pytest

from pmemo import SyncMemory, validate
from pmemo.errors import InvalidInput
from pmemo.retrieval.signals import asks
from pmemo.stores.sqlite.fts import META_KEY
from pmemo.stores.sqlite.store import DB_NAME
from pmemo.text.attachments import indexed

DOG = {"attachments": [{"type": "image", "caption": "a small dog running on grass"}]}


def test_a_caption_finds_its_turn_whose_content_stays_what_was_written(tmp_path):
    with SyncMemory.open(tmp_path, embedder="hashing") as mem:
        mem.add(user_id="u", session_id="s", content="Look who came home today!", metadata=DOG)
        mem.add(user_id="u", session_id="s", content="We cooked pasta for dinner.")
        mem.drain()
        (hit,) = mem.search("dog running on grass", user_id="u", limit=1)
    assert hit.text == "Look who came home today!"
    assert hit.sources[0].metadata == DOG


def test_the_caption_survives_a_reindex_on_open(tmp_path):
    """A store re-indexes its turns when segmentation changes: the captions come back from metadata."""
    with SyncMemory.open(tmp_path, embedder="hashing") as mem:
        mem.add(user_id="u", session_id="s", content="Look!", metadata=DOG)
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        conn.execute("UPDATE meta SET value='0' WHERE key=?", (META_KEY,))
    with SyncMemory.open(tmp_path, embedder="hashing") as mem:
        assert [h.text for h in mem.search("grass", user_id="u", limit=1)] == ["Look!"]
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        (body,) = conn.execute("SELECT body FROM turns_fts").fetchone()
    assert "grass" in body and "dog" in body


@pytest.mark.parametrize("bad", ["a dog", [{"caption": "a dog"}], [{"type": "image", "caption": 3}]])
def test_malformed_attachments_are_refused(bad):
    with pytest.raises(InvalidInput, match="attachment"):
        validate.metadata({"attachments": bad})


def test_the_question_signal_reads_the_words_not_the_caption():
    said = "Where did you go?"
    assert asks(said) and indexed(said, DOG) == "Where did you go? [image: a small dog running on grass]"
    assert indexed(said, {"attachments": [{"type": "file"}]}) == said  # nothing to index without a caption
