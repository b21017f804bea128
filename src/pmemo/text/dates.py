"""Calendar dates a query names, as time ranges (pure).

"What did Mei do on 25 February, 2022?" names one day; "in July 2023" a month; "2023年7月"
too. Turns from that time are then favoured (retrieval/signals.py ``in_ranges``).

>>> date_ranges("What did Jon find on 1 February, 2023 or in July 2023?")
[(datetime.date(2023, 2, 1), datetime.date(2023, 2, 1)), (datetime.date(2023, 7, 1), datetime.date(2023, 7, 31))]
>>> date_ranges("我们2024年3月5日的会议")
[(datetime.date(2024, 3, 5), datetime.date(2024, 3, 5))]
"""

from __future__ import annotations

import calendar
import re
from datetime import date

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}, sept=9)
_MON = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"

# each pattern names its groups: y (year), m (month number or name), d (day, optional)
_PATTERNS = [
    rf"\b(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m>{_MON})\.?,?\s+(?P<y>\d{{4}})\b",
    rf"\b(?P<m>{_MON})\.?\s+(?P<d>\d{{1,2}}){_ORD},?\s+(?P<y>\d{{4}})\b",
    rf"\b(?P<m>{_MON})\.?,?\s+(?P<y>\d{{4}})\b",
    r"\b(?P<y>\d{4})-(?P<m>\d{1,2})(?:-(?P<d>\d{1,2}))?\b",
    r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月(?:\s*(?P<d>\d{1,2})\s*[日号])?",
]


def _numbered(pattern: str, i: int) -> str:
    """Group names get the pattern's number: one regex may not repeat a name."""
    return re.sub(r"\(\?P<(\w)>", lambda m: f"(?P<{m.group(1)}{i}>", pattern)


_DATE = re.compile("|".join(f"(?:{_numbered(p, i)})" for i, p in enumerate(_PATTERNS)), re.IGNORECASE)


def date_ranges(text: str) -> list[tuple[date, date]]:
    """The days or months ``text`` names, each as an inclusive (first day, last day)."""
    found: list[tuple[date, date]] = []
    for match in _DATE.finditer(text):
        parts = {key.rstrip("0123456789"): value for key, value in match.groupdict().items() if value}
        y, m, d = parts.get("y"), parts.get("m"), parts.get("d")
        if y is None or m is None:
            continue
        month = int(m) if m.isdigit() else _MONTHS.get(m.lower().rstrip("."), 0)
        year = int(y)
        if not 1 <= month <= 12 or not 1900 <= year <= 2200:
            continue
        last = calendar.monthrange(year, month)[1]
        if d is not None and 1 <= int(d) <= last:
            day = date(year, month, int(d))
            found.append((day, day))
        else:
            found.append((date(year, month, 1), date(year, month, last)))
    return found
