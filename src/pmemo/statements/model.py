"""The statement model at run time (numpy only): a clause → kind, subject, mode, polarity, change.

One linear softmax per head over the clause's lexical features (``features``) and, when the
memory's embedder is the bundled e5, its e5 vector; without e5 vectors (a hashing embedder in
tests, an OpenAI embedder) the lexical-only weights answer. The weights ship in the package as
``pmemo/data/statements.npz`` (rebuilt by ``bench/train_statements.py``, ``make statements``).

A missing or damaged file is a ``ModelFileError`` naming it, raised by ``load``; the caller
(``pipelines.extraction``) then extracts with the rules.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from ..errors import ModelFileError
from .features import DIM, VERSION, lexical
from .labels import HEADS, KINDS, MODES, POLARITY, SUBJECTS, Label
from .net import Net, from_arrays

FORMAT = 1
E5_MODEL_ID = "multilingual-e5-small-q4"  # the embedder whose vectors the dense weights read
# a fact no rule normalises (its value is the clause) asks this much of ``Reading.stating`` unless the
# file carries a threshold per kind (calibrated on the generator's dev split at training)
MIN_OWN = 0.5
# an optional sixth head, trained on ``Label.states`` itself: "does this clause state a fact?"
STATES = ("no", "yes")


def default_path() -> Path:
    return Path(str(resources.files("pmemo") / "data" / "statements.npz"))


@dataclass(frozen=True)
class Reading:
    """The model's label of a clause and how sure it is of each head (the top probability)."""

    label: Label
    sure: dict[str, float]
    stating: float = 0.0  # the chance that the clause states something about a known person
    threshold: float = MIN_OWN  # the ``stating`` a fact of this clause's kind asks for when no rule gives its value

    @property
    def confidence(self) -> float:
        """How sure it is that the clause states what its label says."""
        return min(self.sure["kind"], self.sure["subject"], self.sure["mode"], self.sure["polarity"])


class _Head:
    def __init__(self, classes: tuple[str, ...], lex: np.ndarray, dense: np.ndarray | None, bias: np.ndarray) -> None:
        self.classes, self.lex, self.dense, self.bias = classes, lex, dense, bias
        # cast once: a read multiplies by these for every clause
        self.lex_t = lex.T.astype(np.float32)
        self.dense_t = dense.T.astype(np.float32) if dense is not None else None


class StatementModel:
    """Loaded weights; ``read`` labels clauses.

    >>> m = load()
    >>> r = m.read(["我对花生过敏"], [()])[0]
    >>> r.label.kind, r.label.subject, r.label.mode, r.label.polarity
    ('health', 'speaker', 'plain', 'asserted')
    """

    def __init__(self, path: Path, heads: dict[str, _Head], dense_heads: dict[str, _Head], meta: dict[str, str],
                 mix: float = 0.0, own: dict[str, float] | None = None, features: int = 1, net: Net | None = None):
        self.path, self.meta = path, meta
        self.features = features  # the lexical feature set the file was trained with (``features.VERSION``)
        self._lexical, self._dense = heads, dense_heads
        self.net = net  # with e5 vectors, the hidden layer reads them when the file has one
        self.mix = mix  # how much ``stating`` leans on the states head (0: the five heads' product alone)
        self.own = own or {}

    def min_own(self, kind: str) -> float:
        """The ``stating`` a fact of ``kind`` whose value is its clause asks for."""
        return self.own.get(kind, MIN_OWN)

    def read(self, texts: Sequence[str], names: Sequence[Sequence[tuple[int, int]]],
             vectors: np.ndarray | None = None) -> list[Reading]:
        """A reading per clause; ``names``: each clause's name spans; ``vectors``: their e5 rows
        (L2-normalised, one per text), or None for the lexical-only weights."""
        if not texts:
            return []
        x = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, (text, spans) in enumerate(zip(texts, names, strict=True)):
            idx = lexical(text, spans, self.features)
            x[i, idx] = 1.0 / np.sqrt(max(len(idx), 1))
        out: dict[str, tuple[list[str], np.ndarray]] = {}
        probs = self._probs(x, vectors)
        for name, p in probs.items():
            classes = self._dense[name].classes
            best = p.argmax(axis=1)
            out[name] = ([classes[j] for j in best], p[np.arange(len(texts)), best])
        stating = _stating(probs)
        if "states" in probs and self.mix > 0:  # the geometric blend of the product and the direct head
            direct = probs["states"][:, STATES.index("yes")]
            stating = stating ** (1.0 - self.mix) * direct**self.mix
        labels = [Label(*(out[h][0][i] for h in HEADS)) for i in range(len(texts))]
        return [Reading(labels[i], {h: float(out[h][1][i]) for h in HEADS}, float(stating[i]),
                        self.min_own(labels[i].kind)) for i in range(len(texts))]


    def _probs(self, x: np.ndarray, vectors: np.ndarray | None) -> dict[str, np.ndarray]:
        """Each head's class probabilities: the five label heads, and the states head when the file
        has one. With vectors and a hidden layer, the net's and the linear weights' probabilities
        are averaged (``net.blend``: the net's share)."""
        linear = self._linear(x, vectors)
        if vectors is None or self.net is None:
            return linear
        net = self.net.probs(x, vectors)
        w = self.net.blend
        return {name: w * p + (1.0 - w) * linear[name] for name, p in net.items()}

    def _linear(self, x: np.ndarray, vectors: np.ndarray | None) -> dict[str, np.ndarray]:
        heads = self._dense if vectors is not None else self._lexical
        out = {}
        for name, head in heads.items():
            logits = x @ head.lex_t + head.bias
            if vectors is not None and head.dense_t is not None:
                logits += np.asarray(vectors, dtype=np.float32) @ head.dense_t
            out[name] = _softmax(logits)
        return out


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def _stating(p: dict[str, np.ndarray]) -> np.ndarray:
    """P(about someone, of some kind, said plainly or as a correction, asserted), the heads taken as
    independent: how sure the model is that a clause states a fact (``Label.states``)."""
    kind = 1.0 - p["kind"][:, KINDS.index("none")]
    whom = 1.0 - p["subject"][:, SUBJECTS.index("other")]
    said = p["mode"][:, MODES.index("plain")] + p["mode"][:, MODES.index("correction")]
    return kind * whom * said * p["polarity"][:, POLARITY.index("asserted")]


def load(path: Path | None = None) -> StatementModel:
    """The model in ``path`` (default: the one shipped in the package); ``ModelFileError`` naming
    the file when it is missing, unreadable or not a statement model of this format."""
    path = path or default_path()
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except FileNotFoundError as exc:
        raise ModelFileError(f"the statement model file {path} is missing: reinstall pmemo or rebuild it with "
                             "`make statements`; facts are extracted with the rules meanwhile") from exc
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise ModelFileError(f"the statement model file {path} is damaged ({exc}): rebuild it with "
                             "`make statements`; facts are extracted with the rules meanwhile") from exc
    try:
        if int(data["format"]) != FORMAT or int(data["dim"]) != DIM:
            raise ValueError(f"format {int(data['format'])}, dim {int(data['dim'])}; this pmemo reads "
                             f"format {FORMAT}, dim {DIM}")
        lex, dense = {}, {}
        for name, classes in HEADS.items():
            if tuple(str(c) for c in data[f"{name}.classes"]) != classes:
                raise ValueError(f"head {name} has other classes than {classes}")
            lex[name] = _Head(classes, data[f"lex.{name}.w"], None, data[f"lex.{name}.b"].astype(np.float32))
            w = data[f"e5.{name}.w"]
            dense[name] = _Head(classes, w[:, :DIM], w[:, DIM:], data[f"e5.{name}.b"].astype(np.float32))
            for head in (lex[name], dense[name]):
                if head.lex.shape != (len(classes), DIM) or not np.isfinite(head.lex).all():
                    raise ValueError(f"head {name}: weights of shape {head.lex.shape} or not finite")
        if "lex.states.w" in data:  # optional: files before it read ``stating`` from the five heads alone
            lex["states"] = _Head(STATES, data["lex.states.w"], None, data["lex.states.b"].astype(np.float32))
            w = data["e5.states.w"]
            dense["states"] = _Head(STATES, w[:, :DIM], w[:, DIM:], data["e5.states.b"].astype(np.float32))
        mix = float(data["stating.mix"]) if "stating.mix" in data else 0.0
        features = int(data["features"]) if "features" in data else 1
        if not 1 <= features <= VERSION:
            raise ValueError(f"features {features}; this pmemo reads up to {VERSION}")
        own = {}
        if "own.min" in data:
            own = {k: float(v) for k, v in zip(KINDS, data["own.min"], strict=True)}
            if not all(0.0 <= v <= 1.0 for v in own.values()):
                raise ValueError("thresholds outside [0, 1]")
        net = from_arrays(data, {name: len(head.classes) for name, head in dense.items()}, DIM)
        meta = {k[5:]: str(v) for k, v in data.items() if k.startswith("meta.")}
    except (KeyError, ValueError, IndexError) as exc:
        raise ModelFileError(f"the statement model file {path} is not a statement model pmemo can read ({exc}): "
                             "rebuild it with `make statements`; facts are extracted with the rules meanwhile"
                             ) from exc
    return StatementModel(path, lex, dense, meta, mix, own, features, net)
