"""Which earlier turn a new one answers (issue 44 §2): one policy for every store, run inside the
write's transaction so a reply to a message of the same batch finds it.

In order: a turn id the caller gave (it must be of the same chat); the platform's id of the
message it answers (``reply_message``: the ``message_id`` in an earlier turn's metadata, in the
batch first); the quote its text opens with (text/quotes.py), among the batch's earlier turns
and the chat's last ``RECENT`` before it; an answer that opens with "@提问的人" and quotes
nothing, that person's latest question among them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import NotFound
from ..models import Turn
from ..text.quotes import addressee, answered
from .base import NewTurn

RECENT = 50  # a quote answers one of the chat's last messages, not one of a year ago


def link(new: NewTurn, batch: Sequence[Turn], chat_of: Callable[[int], str | None],
         by_message: Callable[[str], int | None], recent: Callable[[], list[Turn]]) -> int | None:
    """The id of the turn ``new`` answers, or None. ``batch``: the write's turns stored before it;
    ``chat_of(id)``: a turn's scope key; ``by_message(mid)``: the chat's turn with that message id;
    ``recent()``: the chat's last turns before ``new``, oldest first."""
    chat = new.scope.key
    if new.reply_to is not None:
        if chat_of(new.reply_to) != chat and not any(t.id == new.reply_to and t.scope.key == chat for t in batch):
            raise NotFound(f"reply_to={new.reply_to}: no turn of this chat has that id")
        return new.reply_to
    if new.reply_message is not None:
        for t in reversed(batch):
            if t.scope.key == chat and t.metadata.get("message_id") == new.reply_message:
                return t.id
        return by_message(new.reply_message)
    if new.quote is not None or new.address is not None:
        earlier = [*recent(), *(t for t in batch if t.scope.key == chat)]
        i = answered(new.quote, earlier) if new.quote is not None else None
        if i is None and new.address is not None:
            earlier = earlier[-RECENT:]  # the index addressee gives is one into this list
            i = addressee(new.address, earlier)
        return earlier[i].id if i is not None else None
    return None
