"""What the statement model says about a clause: four small label sets (pure data).

* ``KINDS``: what a clause is about; ``none`` is small talk, a greeting, a plan for the group;
* ``SUBJECTS``: whom: the speaker, a person it names, a relative or friend of the speaker
  ("我妹妹…", "my sister…"), or someone nobody can tell (you, he, a stranger: ``other``);
* ``MODES``: how it is said: plainly, as a question, a wish or a condition, a joke, quoting or
  reporting someone else, or correcting what was said before ("不对，是下周三");
* ``POLARITY``: asserted or denied ("我没换工作", "那只狗不是我的"). A dislike is asserted: "我不吃
  香菜" states a diet, "我不过敏" denies an allergy.

>>> Label("work", "speaker", "plain", "asserted").states
True
>>> Label("work", "speaker", "question", "asserted").states
False
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("none", "name", "work", "study", "home", "family", "pet", "health", "like", "habit", "event", "opinion")
SUBJECTS = ("speaker", "named", "relative", "other")
MODES = ("plain", "question", "hypothetical", "joke", "report", "correction")
POLARITY = ("asserted", "denied")
CHANGE = ("same", "change")  # a change of job, home, school or partner said as one ("我换工作了")

HEADS = {"kind": KINDS, "subject": SUBJECTS, "mode": MODES, "polarity": POLARITY, "change": CHANGE}

# what a newer statement replaces: one job, one home, one school, one partner at a time
SUPERSEDING = frozenset({"work", "home", "study", "family"})


@dataclass(frozen=True)
class Label:
    """The model's reading of one clause (or the generator's truth about it)."""

    kind: str
    subject: str
    mode: str
    polarity: str
    change: str = "same"

    @property
    def states(self) -> bool:
        """Whether the clause states something durable or dated about a known person."""
        said = self.mode in ("plain", "correction") or (self.mode == "report" and self.subject == "named")
        return self.kind != "none" and self.subject != "other" and self.polarity == "asserted" and said

    def head(self, name: str) -> str:
        return str(getattr(self, name))
