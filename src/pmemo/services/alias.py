"""The facade's thin aliases: ``Memory.add_person`` is ``mem.registry.add_person``, typed and
with the signature of the service's method, so ``Memory`` keeps every documented call (and
satisfies ``MemoryAPI``) in one line each.

A service method that takes ``**scope`` names ``self`` positional-only (``self, /``): a
``Concatenate`` cannot type a ``self`` a keyword argument could also name. The alias shows it
as an ordinary ``self``, as the Protocol declares it.

>>> class Names:
...     async def shout(self, /, text: str) -> str:
...         return text.upper()
>>> class Facade:
...     def __init__(self) -> None:
...         self.names = Names()
...     shout = via("names", Names.shout)
>>> import asyncio, inspect
>>> asyncio.run(Facade().shout("hi")), str(inspect.signature(Facade.shout))
('HI', "(self, text: 'str') -> 'str'")
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")


def via(namespace: str, method: Callable[Concatenate[S, P], Coroutine[Any, Any, R]]
        ) -> Callable[Concatenate[Any, P], Coroutine[Any, Any, R]]:
    """An async method that calls ``method`` on the object at attribute ``namespace``."""
    name = method.__name__

    async def call(self: Any, /, *args: P.args, **kwargs: P.kwargs) -> R:
        bound: Callable[P, Coroutine[Any, Any, R]] = getattr(getattr(self, namespace), name)
        return await bound(*args, **kwargs)

    signature = inspect.signature(method)
    first, *rest = signature.parameters.values()
    call.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[first.replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD), *rest])
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"See {method.__qualname__} (``{namespace}.{name}``)."
    return call
