"""Who a person is, in one line (pure): their name, the other names an agent may meet, and how
they talk in this group. The people section of a context and the derived core-memory blocks
both open with it.
"""

from __future__ import annotations

from ..models import SAID_IN_A_CHAT, Member, Person


def identity_line(person: Person, here: Member | None, owner: str | None = None) -> str:
    """"周霓 (also 霓霓, Neko; last spoke here 2026-06-01; 120 messages here: short messages, in
    Chinese)": the names an agent may meet, and how they talk in this group (``here``). A
    nickname learned in another group (``owner`` is this one) is what was said there: not shown."""
    others = list(dict.fromkeys(
        a.alias for a in person.aliases if a.alias != person.name and a.source != "generated"
        and (a.source not in SAID_IN_A_CHAT or owner is None or a.learned_in == owner)))
    name = person.name or person.id
    extra = [f"also {', '.join(others[:5])}"] if others else []
    if here is not None and here.messages:
        said = f"{here.messages} message{'s' if here.messages != 1 else ''}"
        extra.append(f"last spoke here {here.last_seen:%Y-%m-%d}; {said} here: {here.style}")
    return f"{name} ({'; '.join(extra)})" if extra else name
