"""Statements, not patterns (issue 44 §1): what a clause says about a person, learned.

* ``generate``: the labelled clause set the model is trained on (``draw``: one clause from
  ``templates_*``, ``lexicon`` and ``shapes``; ``messages``: messages of several clauses from the
  third round's ``phrases_*``; ``hand``: the fourth round's messages written by hand, ``hand_*``),
  with a dev split of other templates, words and seed;
* ``clauses``: a message cut into the clauses the model reads (bounded);
* ``labels``: what a clause is read as: kind, subject, mode, polarity, change;
* ``features``, ``model`` and ``net``: the shipped weights read a clause (numpy only; a file may
  hold a hidden layer); ``load`` raises ``ModelFileError`` naming a missing or damaged file;
* ``kin``: who counts as a relative of the speaker.
"""

from __future__ import annotations

from .clauses import clauses
from .generate import Example, generate
from .labels import HEADS, KINDS, MODES, POLARITY, SUBJECTS, Label
from .model import Reading, StatementModel, load

__all__ = ["HEADS", "KINDS", "MODES", "POLARITY", "SUBJECTS", "Example", "Label", "Reading", "StatementModel",
           "clauses", "generate", "load"]
