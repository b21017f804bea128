"""The evaluation harness behind ``pmemo eval``: pmemo against plain baselines on public
long-conversation benchmarks (LoCoMo, LongMemEval, MADial-Bench), scored against the
human evidence labels.

>>> from pmemo.eval import evaluate  # doctest: +SKIP
>>> report = evaluate("locomo", "locomo_dev.json", out="eval_out", limit=1)  # doctest: +SKIP
"""

from __future__ import annotations

from .harness import evaluate

__all__ = ["evaluate"]
