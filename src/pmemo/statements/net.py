"""The statement model's hidden layer (numpy only): ReLU units over a clause's e5 vector (and,
when the file has them, its lexical features), a softmax per head over them plus a linear term
from the lexical features straight to the head. A file may hold several such members trained
from other seeds (``net.``, ``net1.``, …): their probabilities are averaged. Trained by
``bench/statements_net.py``.

>>> import numpy as np
>>> m = Member.of(np.zeros((3, 2), np.float32), None, np.ones(2, np.float32),
...               {"kind": (np.ones((2, 2), np.float32), np.zeros(2, np.float32), None)})
>>> Net((m,), 1.0).probs(np.zeros((1, 4), np.float32), np.zeros((1, 3), np.float32))["kind"].tolist()
[[0.5, 0.5]]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

Head = tuple[np.ndarray, np.ndarray, np.ndarray | None]  # hidden → classes, bias, lexical → classes (or None)
MAX_MEMBERS = 8


@dataclass(frozen=True)
class Member:
    """One network: ``h_e5`` (e5 dims × units), ``h_lex`` (lexical dims × units, or None), the units'
    bias, and the heads' weights side by side (two products a read, not two per head): ``w``
    (units × all classes), ``b``, ``wide`` (lexical dims × all classes, or None); ``heads`` names
    them and says how many classes each has, in order."""

    h_e5: np.ndarray
    h_lex: np.ndarray | None
    h_b: np.ndarray
    heads: tuple[tuple[str, int], ...]
    w: np.ndarray
    b: np.ndarray
    wide: np.ndarray | None

    @classmethod
    def of(cls, h_e5: np.ndarray, h_lex: np.ndarray | None, h_b: np.ndarray, heads: Mapping[str, Head]) -> Member:
        wides = [wide for _, _, wide in heads.values()]
        if any(w is None for w in wides) and any(w is not None for w in wides):
            raise ValueError("a lexical term for some heads only")
        return cls(h_e5, h_lex, h_b, tuple((n, len(b)) for n, (_, b, _) in heads.items()),
                   np.hstack([w for w, _, _ in heads.values()]), np.concatenate([b for _, b, _ in heads.values()]),
                   np.hstack([w for w in wides if w is not None]) if wides[0] is not None else None)

    def logits(self, x: np.ndarray, vectors: np.ndarray) -> dict[str, np.ndarray]:
        z = vectors @ self.h_e5 + self.h_b
        if self.h_lex is not None:
            z = z + x @ self.h_lex
        out = np.maximum(z, 0.0) @ self.w + self.b
        if self.wide is not None:
            out = out + x @ self.wide
        cuts = np.cumsum([n for _, n in self.heads])[:-1]
        return {name: part for (name, _), part in zip(self.heads, np.split(out, cuts, axis=1), strict=True)}


@dataclass(frozen=True)
class Net:
    """The members, the scale the vectors were multiplied by at training, and the net's share of
    the probabilities beside the linear weights' (``blend``)."""

    members: tuple[Member, ...]
    scale: float
    blend: float = 1.0

    def probs(self, x: np.ndarray, vectors: np.ndarray) -> dict[str, np.ndarray]:
        """Each head's probabilities for lexical rows ``x`` and e5 rows ``vectors``: the members' mean."""
        v = np.asarray(vectors, dtype=np.float32) * self.scale
        out: dict[str, np.ndarray] = {}
        for member in self.members:
            for name, z in member.logits(x, v).items():
                e = np.exp(z - z.max(axis=1, keepdims=True))
                out[name] = out.get(name, 0.0) + e / e.sum(axis=1, keepdims=True) / len(self.members)
        return out


def from_arrays(data: Mapping[str, np.ndarray], heads: Mapping[str, int], dim: int) -> Net | None:
    """The net a model file holds (``net.*`` keys), or None when it has none; ValueError when its
    arrays do not fit (``heads``: the classes each head has; ``dim``: the lexical dims)."""
    if "net.h.b" not in data:
        return None
    prefixes = ["net."] + [f"net{k}." for k in range(1, MAX_MEMBERS) if f"net{k}.h.b" in data]
    members = tuple(_member(data, p, heads, dim) for p in prefixes)
    blend = float(data["net.blend"]) if "net.blend" in data else 1.0
    if not 0.0 <= blend <= 1.0:
        raise ValueError(f"net: blend {blend} outside [0, 1]")
    return Net(members, float(data["net.scale"]), blend)


def _member(data: Mapping[str, np.ndarray], prefix: str, heads: Mapping[str, int], dim: int) -> Member:
    f32 = np.float32
    h_b = data[f"{prefix}h.b"].astype(f32)
    units = len(h_b)
    h_e5 = data[f"{prefix}h.e5"].astype(f32)
    h_lex = data[f"{prefix}h.lex"].astype(f32) if f"{prefix}h.lex" in data else None
    if h_e5.shape[1] != units or (h_lex is not None and h_lex.shape != (dim, units)):
        raise ValueError(f"{prefix}: hidden weights of shape {h_e5.shape}")
    out: dict[str, Head] = {}
    for name, n in heads.items():
        if f"{prefix}{name}.w" not in data:
            continue
        w, b = data[f"{prefix}{name}.w"].astype(f32), data[f"{prefix}{name}.b"].astype(f32)
        wide = data[f"{prefix}{name}.lex"].astype(f32) if f"{prefix}{name}.lex" in data else None
        if w.shape != (units, n) or b.shape != (n,) or (wide is not None and wide.shape != (dim, n)):
            raise ValueError(f"{prefix}: head {name} has weights of shape {w.shape}")
        out[name] = (w, b, wide)
    arrays = [h_e5, h_b, *(a for head in out.values() for a in head if a is not None)]
    if h_lex is not None:
        arrays.append(h_lex)
    if not all(np.isfinite(a).all() for a in arrays):
        raise ValueError(f"{prefix}: weights not finite")
    return Member.of(h_e5, h_lex, h_b, out)
