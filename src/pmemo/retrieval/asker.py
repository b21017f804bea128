"""The asker in a query: first-person words mean the one who asks (pure).

"我上次说的那家店叫什么" asked by a member is about what that member said, as "what did 王磊
say" is about 王磊: the asker joins the people the query names for the speaker signal
(``pool.rank``), a ranking, never a filter. A query without such words ranks as if nobody
asked.
"""

from __future__ import annotations

import re

from ..text import dialogue
from .signals import unquoted

# the asker themself: 我 / 俺 (not 我们, 我俩: a group that holds others too; not 自我, "self"), 本人;
# I, me, my, mine, myself (I'm, I've: the apostrophe ends the word)
_FIRST_PERSON = re.compile(r"(?<!自)[我俺](?![们們俩倆])|本人|\b(?:i|me|my|mine|myself)\b", re.IGNORECASE)


def first_person(query: str) -> bool:
    """Whether a query speaks of the one who asks it ("我上次说的那家店叫什么", "what did I say
    about the trip?"): then the asker is who it is about, as a person it names would be. Words
    in quotes are someone else's, and in a dialogue each line's "I" is its speaker's.

    >>> first_person("我上次说的那家店叫什么"), first_person("what did I say about the trip?")
    (True, True)
    >>> first_person("我们周末去哪？"), first_person("where is the trip?"), first_person('他说"我不去"')
    (False, False, False)
    >>> first_person("Mei: I went\\nBo: I did too"), first_person("他的自我介绍写了什么")
    (False, False)
    """
    if dialogue.lines(query):
        return False
    return bool(_FIRST_PERSON.search(unquoted(query)))
