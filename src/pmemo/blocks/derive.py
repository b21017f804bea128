"""Derived blocks: a read-only ``human`` block per group, written by pmemo from what was learned
about the group's people there, so an agent that reads only the block files knows them too.

The file is ``derived/human+<tenant>+<agent>+<group>.md`` in the blocks folder, scoped to that
tenant, agent and group. It is rewritten by a background job whenever the group's facts change
(the store queues it, once per burst: ``queue_on_fact_change``), and only when its text
changes. It holds the group's view of each person (``profile_view``): never what was learned
in another group, nor from a private chat unless ``PMEMO_PRIVATE_FACTS_IN_GROUPS`` allows it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..config import Settings
from ..files import private_dir
from ..models import Scope
from ..people.identity import identity_line
from ..rules.sentences import fact_sentence
from ..stores.base import FullStore
from ..tiers.people import profile_view
from .folder import BlockFolder
from .model import DEFAULT_LIMIT, HUMAN_JOB
from .write import replace_file

SUBFOLDER = "derived"
NOTE_ROOM = 120  # characters kept for the line that says who did not fit


class HumanBlocks:
    """The job that writes the groups' ``human`` blocks (blocking; run by the worker)."""

    def __init__(self, store: FullStore, folder: BlockFolder, settings: Settings) -> None:
        self.store = store
        self.folder = folder
        self.settings = settings

    def start(self) -> None:
        """Queue the job on every change of a group's facts, and once now for every group."""
        self.store.jobs.queue_on_fact_change(HUMAN_JOB)
        self.store.jobs.enqueue_once(HUMAN_JOB, {"all": True})

    def run(self, payload: dict[str, Any]) -> None:
        if payload.get("all"):
            groups = list(self.store.jobs.fact_groups())
        else:
            groups = [(payload["tenant"], payload["agent"], str(payload["owner"]).removeprefix("g:"))]
        for tenant, agent, group in groups:
            self.write(tenant, agent, group)

    def write(self, tenant: str, agent: str, group: str) -> bool:
        """Write the group's block if its text changed; True if the file was written."""
        path = path_of(self.folder.root, tenant, agent, group)
        people = self._people(Scope(tenant, agent, f"g:{group}"))
        data = human_file(tenant, agent, group, human_body(people, DEFAULT_LIMIT - NOTE_ROOM)).encode("utf-8")
        try:
            if path.read_bytes() == data:
                return False
        except FileNotFoundError:
            if not people:
                return False  # nothing known, and no file saying older things
        private_dir(path.parent)
        replace_file(path, data)
        self.folder.refresh({path})
        return True

    def _people(self, scope: Scope) -> list[tuple[str, list[str]]]:
        """Each person with facts in the group (members latest speaker first, then the others the
        facts are about): who they are and the facts, as sentences."""
        members = self.store.members(scope)
        known = {m.person.id: m.person for m in members}
        subjects = sorted({f.subject_id for f in self.store.profile.facts(scope) if f.subject_id} - set(known))
        known.update(self.store.get_people(scope.tenant_id, subjects))
        out = []
        for pid in [*(m.person.id for m in members), *subjects]:
            facts = profile_view(self.store, scope.tenant_id, scope.agent_id, pid, scope.owner, False,
                                 self.settings.private_facts_in_groups)
            if not facts:
                continue
            person = known.get(pid)
            name = person.name or pid if person else pid.removeprefix("name:")
            who = f"{identity_line(person, None, scope.owner)}, id {pid}" if person else name
            out.append((who, [fact_sentence(name, f.category, f.key, f.value) for f in facts]))
        return out


def file_name(tenant: str, agent: str, group: str) -> str:
    """``human+<tenant>+<agent>+<group>.md`` ("+" is in no id); hashed when too long for a name."""
    name = f"human+{tenant}+{agent}+{group}.md"
    if len(name.encode("utf-8")) <= 200:
        return name
    return f"human+{hashlib.sha256(name.encode('utf-8')).hexdigest()[:32]}.md"


def human_body(people: Sequence[tuple[str, list[str]]], room: int) -> str:
    """One section per person, as many as ``room`` characters hold, then how many did not fit."""
    parts: list[str] = []
    used = 0
    for n, (who, said) in enumerate(people):
        part = "\n".join([f"{who}:", *(f"- {s}" for s in said)])
        if used + len(part) + 2 > room:
            parts.append(f"({len(people) - n} more people with facts are not shown: over the block's limit)")
            break
        parts.append(part)
        used += len(part) + 2
    return "\n\n".join(parts) if parts else "Nothing is known about the people of this group yet."


def human_file(tenant: str, agent: str, group: str, body: str) -> str:
    """The file: a note that it is generated, the front matter that scopes it, the body."""
    def q(text: str) -> str:
        return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML string

    about = f"The people of group {group} and what was learned about them there"
    return ("---\n"
            f"# written by pmemo from what was learned in group {group}: rewritten whenever that changes,\n"
            "# so edits here are lost (set PMEMO_BLOCKS_DERIVE_HUMAN=false to stop it)\n"
            f"label: human\ndescription: {q(about)}\nread_only: true\nlimit: {DEFAULT_LIMIT}\n"
            f"tenant: {q(tenant)}\nagent: {q(agent)}\ngroup: {q(group)}\n---\n\n{body}\n")


def path_of(folder: Path, tenant: str, agent: str, group: str) -> Path:
    """Where the group's derived ``human`` block is."""
    return folder / SUBFOLDER / file_name(tenant, agent, group)
