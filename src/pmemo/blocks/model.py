"""What a memory block is, and which blocks a scope sees (pure, no I/O).

A block is one markdown file: front matter says its label, limit, whether the agent may edit
it and whom it is for (a tenant, or ``*`` for every tenant; optionally one agent, one group or
one user); the body is its text. For one chat, the blocks that apply are those of its
tenant (or every tenant's) whose agent, group and user are unset or its own; of several with
one label, the most specific wins (a group's own ``persona`` over the agent-wide one).

>>> b = Block("persona", tenant="*", value="I am Momo.")
>>> applies(b, Where("t1", "default", "g1", None)), applies(b, Where("t1", "bot", None, "ann"))
(True, True)
>>> applies(Block("notes", group="g1"), Where("default", "default", None, "ann"))
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInput
from ..models import check_id

ANY_TENANT = "*"
DEFAULT_LIMIT = 5000
MAX_LIMIT = 1_000_000  # characters: a block is always whole in every context
LABEL = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
HUMAN_JOB = "human_block"  # the background job that rewrites a group's derived ``human`` block


@dataclass(frozen=True)
class Block:
    """One block. ``value`` is the body text (what goes in the context), ``limit`` its most
    characters, ``path`` the file relative to the blocks folder, ``version`` a number that
    changes whenever the file's bytes do (send it back to edit safely). ``problem``: why the
    file cannot be used (then the block is listed but never in a context)."""

    label: str
    description: str = ""
    limit: int = DEFAULT_LIMIT
    read_only: bool = True
    order: int = 0
    tenant: str = "default"
    agent: str | None = None
    group: str | None = None
    user: str | None = None
    value: str = ""
    path: str = ""
    version: int = 0
    problem: str | None = None

    @property
    def chars(self) -> int:
        return len(self.value)

    @property
    def editable(self) -> bool:
        """The agent's tools may change it: marked ``read_only: false``, for one tenant, usable."""
        return not self.read_only and self.tenant != ANY_TENANT and self.problem is None

    @property
    def scope(self) -> tuple[str, str | None, str | None, str | None]:
        return (self.tenant, self.agent, self.group, self.user)


@dataclass(frozen=True)
class Where:
    """Whose blocks: a tenant and agent, and a group or a user (neither: the whole agent's,
    every group's and user's blocks, as a listing)."""

    tenant: str
    agent: str
    group: str | None = None
    user: str | None = None

    @property
    def listing(self) -> bool:
        return self.group is None and self.user is None


def where_of(scope: Mapping[str, Any]) -> Where:
    """``Where`` from a call's scope arguments (``tenant_id``, ``agent_id``, and at most one of
    ``group_id`` / ``user_id``), checked as every scope is."""
    unknown = set(scope) - {"tenant_id", "agent_id", "group_id", "user_id"}
    if unknown:
        raise InvalidInput(f"unknown argument(s): {', '.join(sorted(unknown))}")
    group, user = scope.get("group_id"), scope.get("user_id")
    if group is not None and user is not None:
        raise InvalidInput("give at most one of group_id or user_id")
    return Where(check_id("tenant_id", scope.get("tenant_id", "default")),
                 check_id("agent_id", scope.get("agent_id", "default")),
                 None if group is None else check_id("group_id", group),
                 None if user is None else check_id("user_id", user))


def check_label(value: object, name: str = "label") -> str:
    if not isinstance(value, str) or not LABEL.match(value):
        shown = value[:40] if isinstance(value, str) else type(value).__name__
        raise InvalidInput(f"{name} {shown!r} is invalid: use 1-64 letters, digits, _ or -")
    return value


def applies(block: Block, where: Where) -> bool:
    """``block`` is for ``where``: its tenant (or every tenant), its agent (or any); in a
    listing any group or user, else its group or user (or none)."""
    if block.tenant not in (where.tenant, ANY_TENANT) or block.agent not in (None, where.agent):
        return False
    if where.listing:
        return True
    return block.group in (None, where.group) and block.user in (None, where.user)


def specificity(block: Block) -> int:
    """How narrowly a block is scoped: its own tenant, an agent, a group or user each count."""
    return (block.tenant != ANY_TENANT) + (block.agent is not None) + (block.group is not None
                                                                        or block.user is not None)


def ordered(blocks: Iterable[Block]) -> list[Block]:
    """Blocks as the context shows them: by ``order``, then label, then file."""
    return sorted(blocks, key=lambda b: (b.order, b.label, b.path))


def in_context(blocks: Sequence[Block], where: Where) -> list[Block]:
    """The usable blocks ``where`` sees, one per label (the most specific; of equals, the
    first file), in context order."""
    best: dict[str, Block] = {}
    for block in blocks:
        if block.problem is None and applies(block, where):
            held = best.get(block.label)
            if held is None or (specificity(block), held.path) > (specificity(held), block.path):
                best[block.label] = block
    return ordered(best.values())


def visible(blocks: Sequence[Block], where: Where) -> list[Block]:
    """What ``blocks(**scope)`` lists: for one chat, the blocks in its context and the broken
    ones meant for it; in a listing, every block of the tenant and agent."""
    if where.listing:
        return ordered(b for b in blocks if applies(b, where))
    usable = in_context(blocks, where)
    return ordered([*usable, *(b for b in blocks if b.problem is not None and applies(b, where))])


def target(blocks: Sequence[Block], label: str, where: Where) -> Block | None:
    """The block an edit of ``label`` in ``where`` means: the one its context shows; in a
    listing, the only block with that label (several: InvalidInput, name the chat)."""
    if not where.listing:
        found = [b for b in in_context(blocks, where) if b.label == label]
        return found[0] if found else None
    found = [b for b in blocks if b.label == label and b.problem is None and applies(b, where)]
    if len(found) > 1:
        scopes = ", ".join(sorted(f"group {b.group}" if b.group else f"user {b.user}" if b.user else "everyone"
                                  for b in found))
        raise InvalidInput(f"{len(found)} blocks are labelled {label!r} ({scopes}): give group_id or user_id")
    return found[0] if found else None
