"""Which kind of statement a stored fact's key is, and which keys one change replaces (pure data).

The rules name values under their own keys (``employer``, ``home_city``, ``allergy:花生``);
the model names kinds (``labels.KINDS``). A rule's candidate is kept when a clause the model
reads as a statement of a compatible kind is there to carry it.

>>> sorted(kinds_of("allergy:花生")), slot_of("employer"), slot_of("job")
(['habit', 'health', 'like'], 'work', None)
"""

from __future__ import annotations

_BY_FAMILY: dict[str, frozenset[str]] = {
    "name": frozenset({"name"}), "preferred_name": frozenset({"name"}), "tone": frozenset({"name", "habit", "like"}),
    "employer": frozenset({"work"}), "job": frozenset({"work", "study"}), "work_status": frozenset({"work"}),
    "work": frozenset({"work"}), "home_city": frozenset({"home"}), "home": frozenset({"home"}),
    "school": frozenset({"study"}), "major": frozenset({"study"}), "study": frozenset({"study"}),
    "relationship": frozenset({"family"}), "family": frozenset({"family"}), "pet": frozenset({"pet"}),
    "allergy": frozenset({"health", "like", "habit"}), "diet": frozenset({"health", "like", "habit"}),
    "opinion": frozenset({"like", "habit", "opinion", "health"}), "favorite": frozenset({"like", "opinion"}),
    "birthday": frozenset({"event", "name"}), "event": frozenset({"event"}), "habit": frozenset({"habit", "like"}),
    "like": frozenset({"like", "habit"}), "health": frozenset({"health"}), "view": frozenset({"opinion", "like"}),
    "called": frozenset({"name"}), "pets": frozenset({"pet"}), "likes": frozenset({"like", "habit"}),
    "habits": frozenset({"habit", "like"}), "plans": frozenset({"event"}),
}  # fmt: skip
_ANY = frozenset({"name", "work", "study", "home", "family", "pet", "health", "like", "habit", "event", "opinion"})

# one value at a time: a change of any of these keys ends the others of its slot (a new job
# ends the employer said before, whether or not it names the new one)
SLOTS: dict[str, frozenset[str]] = {
    "work": frozenset({"employer", "work", "work_status"}),
    "home": frozenset({"home_city", "home"}),
    "study": frozenset({"school", "study"}),
    "family": frozenset({"relationship", "family:partner"}),
}


def kinds_of(key: str) -> frozenset[str]:
    """The model kinds a fact under ``key`` can be the statement of."""
    return _BY_FAMILY.get(key.partition(":")[0], _ANY)


def slot_of(key: str) -> str | None:
    """The slot whose one value ``key`` holds, or None (a person has many likes, pets, allergies)."""
    return next((slot for slot, keys in SLOTS.items() if key in keys), None)
