"""A small network for the statement model, trained with numpy alone (``bench/train_statements.py``).

One hidden layer of ReLU units over the clause's lexical features and its e5 vector, shared by
every head (kind, subject, mode, polarity, change, states), and a softmax per head over it. The
forward pass the package runs is ``pmemo.statements.net``; this module fits the weights.

Deterministic: a seeded generator orders the batches and draws the dropout masks, and the
arithmetic is float32 numpy. Adam with decoupled weight decay; the epoch kept is the one whose
dev loss is lowest (the dev draw chooses; the report's second dev draw does not).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import sparse


@dataclass
class NetConfig:
    hidden: int = 256
    epochs: int = 30
    batch: int = 128
    lr: float = 2e-3
    decay: float = 1e-4  # decoupled weight decay per step, times lr
    dropout: float = 0.3  # on the hidden units
    drop_lex: float = 0.1  # on the lexical input features (a word a template list happens to hold)
    seed: int = 0
    lex_hidden: bool = True  # the lexical features feed the hidden units too (else only the wide part)
    wide: bool = False  # a linear term from the lexical features straight to each head
    head_weight: dict[str, float] = field(default_factory=dict)


def _param_init(rng: np.random.Generator, d_lex: int, d_dense: int, hidden: int,
                heads: dict[str, int], wide: bool) -> dict[str, np.ndarray]:
    # inputs are unit rows (lexical) and scaled unit rows (e5): about unit pre-activations
    p = {
        "h.lex": (rng.standard_normal((d_lex, hidden)) * 0.5).astype(np.float32),
        "h.e5": (rng.standard_normal((d_dense, hidden)) * 0.5).astype(np.float32),
        "h.b": np.zeros(hidden, dtype=np.float32),
    }
    for name, n in heads.items():
        p[f"{name}.w"] = (rng.standard_normal((hidden, n)) * np.sqrt(2.0 / hidden) * 0.5).astype(np.float32)
        p[f"{name}.b"] = np.zeros(n, dtype=np.float32)
        if wide:
            p[f"{name}.lex"] = np.zeros((d_lex, n), dtype=np.float32)
    return p


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class Net:
    """The fitted weights; ``probs`` reads a batch."""

    def __init__(self, params: dict[str, np.ndarray], heads: dict[str, tuple[str, ...]]) -> None:
        self.p, self.heads = params, heads

    def hidden(self, lex: sparse.csr_matrix, dense: np.ndarray) -> np.ndarray:
        z = np.asarray(lex @ self.p["h.lex"]) + dense @ self.p["h.e5"] + self.p["h.b"]
        return np.maximum(z, 0.0)

    def probs(self, lex: sparse.csr_matrix, dense: np.ndarray) -> dict[str, np.ndarray]:
        h = self.hidden(lex, dense)
        out = {}
        for name in self.heads:
            z = h @ self.p[f"{name}.w"] + self.p[f"{name}.b"]
            if f"{name}.lex" in self.p:
                z = z + np.asarray(lex @ self.p[f"{name}.lex"])
            out[name] = _softmax(z)
        return out


def _targets(labels: dict[str, list[str]], heads: dict[str, tuple[str, ...]]) -> dict[str, np.ndarray]:
    return {h: np.array([heads[h].index(v) for v in labels[h]], dtype=np.int64) for h in heads}


def loss(net: Net, lex: sparse.csr_matrix, dense: np.ndarray, labels: dict[str, list[str]]) -> float:
    y = _targets(labels, net.heads)
    p = net.probs(lex, dense)
    n = lex.shape[0]
    return float(sum(-np.log(p[h][np.arange(n), y[h]] + 1e-9).mean() for h in net.heads))


def train(lex: sparse.csr_matrix, dense: np.ndarray, labels: dict[str, list[str]], heads: dict[str, tuple[str, ...]],
          cfg: NetConfig, dev: tuple[sparse.csr_matrix, np.ndarray, dict[str, list[str]]] | None = None,
          log: bool = True) -> Net:
    """Fit the network on (``lex``, ``dense``) → ``labels`` (per head, a class name per row); the
    epoch kept is the one with the lowest loss on ``dev``."""
    rng = np.random.default_rng(cfg.seed)
    n = lex.shape[0]
    lex, dense = lex.tocsr().astype(np.float32), dense.astype(np.float32)
    p = _param_init(rng, lex.shape[1], dense.shape[1], cfg.hidden, {h: len(c) for h, c in heads.items()}, cfg.wide)
    if not cfg.lex_hidden:
        p["h.lex"][:] = 0.0
    adam = _Adam(p, cfg)
    y = _targets(labels, heads)
    best: tuple[float, dict[str, np.ndarray]] | None = None
    for epoch in range(cfg.epochs):
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, cfg.batch):
            idx = order[start : start + cfg.batch]
            xl = lex[idx]
            if cfg.drop_lex > 0:
                xl = xl.copy()
                xl.data = xl.data * (rng.random(len(xl.data)) >= cfg.drop_lex) / (1 - cfg.drop_lex)
            cost, grads = _gradients(p, xl, dense[idx], {h: y[h][idx] for h in heads}, cfg, rng)
            total += cost
            adam.step(p, grads)
        net = Net({k: v.copy() for k, v in p.items()}, heads)
        line = f"  epoch {epoch + 1}: train loss {total / n:.3f}"
        if dev is not None:
            dl = loss(net, *dev)
            line += f"  dev loss {dl:.3f}"
            if best is None or dl < best[0]:
                best = (dl, net.p)
        if log:
            print(line, flush=True)
    return Net(best[1], heads) if best is not None else Net(p, heads)


def _gradients(p: dict[str, np.ndarray], xl: sparse.csr_matrix, xd: np.ndarray, y: dict[str, np.ndarray],
               cfg: NetConfig, rng: np.random.Generator) -> tuple[float, dict[str, np.ndarray]]:
    """The batch's summed loss and the gradients of its mean loss (dropout on the hidden units)."""
    k = xl.shape[0]
    z = (np.asarray(xl @ p["h.lex"]) if cfg.lex_hidden else 0.0) + xd @ p["h.e5"] + p["h.b"]
    keep = (rng.random(z.shape) >= cfg.dropout).astype(np.float32) / (1 - cfg.dropout)
    hd = np.maximum(z, 0.0) * keep
    grads: dict[str, np.ndarray] = {}
    dh = np.zeros_like(hd)
    total = 0.0
    for name, target in y.items():
        weight = cfg.head_weight.get(name, 1.0)
        zo = hd @ p[f"{name}.w"] + p[f"{name}.b"]
        if cfg.wide:
            zo = zo + np.asarray(xl @ p[f"{name}.lex"])
        q = _softmax(zo)
        total += weight * float(-np.log(q[np.arange(k), target] + 1e-9).sum())
        q[np.arange(k), target] -= 1.0
        q *= weight / k
        grads[f"{name}.w"], grads[f"{name}.b"] = hd.T @ q, q.sum(axis=0)
        if cfg.wide:
            grads[f"{name}.lex"] = np.asarray(xl.T @ q)
        dh += q @ p[f"{name}.w"].T
    dz = dh * keep * (z > 0)
    if cfg.lex_hidden:
        grads["h.lex"] = np.asarray(xl.T @ dz)
    grads["h.e5"], grads["h.b"] = xd.T @ dz, dz.sum(axis=0)
    return total, grads


class _Adam:
    """Adam with decoupled weight decay (none on biases)."""

    def __init__(self, p: dict[str, np.ndarray], cfg: NetConfig) -> None:
        self.m = {k: np.zeros_like(v) for k, v in p.items()}
        self.v = {k: np.zeros_like(v) for k, v in p.items()}
        self.cfg, self.t = cfg, 0

    def step(self, p: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        b1, b2, eps, lr = 0.9, 0.999, 1e-8, self.cfg.lr
        self.t += 1
        for key, g in grads.items():
            self.m[key] = b1 * self.m[key] + (1 - b1) * g
            self.v[key] = b2 * self.v[key] + (1 - b2) * g * g
            update = (self.m[key] / (1 - b1**self.t)) / (np.sqrt(self.v[key] / (1 - b2**self.t)) + eps)
            if not key.endswith(".b"):
                update = update + self.cfg.decay * p[key]
            p[key] -= lr * update
