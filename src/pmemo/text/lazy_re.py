"""Regular expressions compiled when first used (pure).

The rules modules hold a few hundred large patterns; compiling them all at import took about a
third of ``import pmemo`` (0.4 s of ~1.2 s on the shared 2-core box), a cost every CLI call and
server start paid for patterns only the worker's extraction reads. ``lazy`` returns an object that
compiles on first attribute access (``search``, ``match``, ``sub``, ``pattern``…) and then
delegates to the compiled pattern; two threads that race compile twice and keep one, harmlessly.

>>> import re
>>> p = lazy(r"\\d+")
>>> p.findall("a1b22"), p.sub("#", "x9"), p.pattern, p.flags & re.UNICODE != 0
(['1', '22'], 'x#', '\\\\d+', True)
"""

from __future__ import annotations

import re
from typing import Any, cast


class _Lazy:
    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern_now(), name)

    def pattern_now(self) -> re.Pattern[str]:
        """The compiled pattern, compiled now if it was not yet."""
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return self._compiled

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done when the pattern is first used."""
    return cast(re.Pattern[str], _Lazy(pattern, flags))


def compiled(value: Any) -> Any:
    """The compiled pattern behind a ``lazy`` one (compiling it now); anything else as it is: for
    tools that look for ``re.Pattern`` objects in a module (bench/rules_fuzz.py)."""
    return value.pattern_now() if isinstance(value, _Lazy) else value
