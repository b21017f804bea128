"""Every example in the library's docstrings holds: they are documentation a reader trusts, and
an example that no test runs goes stale (a table's rows changed under one unseen)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pmemo

MODULES = sorted(m.name for m in pkgutil.walk_packages(pmemo.__path__, "pmemo."))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail"
