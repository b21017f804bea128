"""A service per concern, a small facade (issue 45 §2): ``Memory`` keeps its own calls (open,
close, add, add_many, search, context, drain) and shows each concern as a namespace; every
other documented call is an alias of a namespace's method, with its signature."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from pmemo import Memory, SyncMemory
from pmemo.errors import NotFound
from pmemo.services.blocks import BlocksService
from pmemo.services.people import PeopleService

OWN = {"open", "close", "drain", "add", "add_many", "search", "context", "on_embed"}


def aliases() -> dict[str, tuple[str, str]]:
    """Memory's aliases: name -> (namespace, the service method's name)."""
    out = {}
    for name, value in vars(Memory).items():
        if inspect.iscoroutinefunction(value) and value.__doc__ and value.__doc__.startswith("See "):
            namespace = value.__doc__.split("``")[1].split(".")[0]
            out[name] = (namespace, value.__name__)
    return out


def test_every_public_call_of_the_facade_is_its_own_or_an_alias() -> None:
    public = {n for n, v in vars(Memory).items() if callable(v) and not n.startswith("_")} | {"open"}
    assert public - OWN - set(aliases()) == set()
    assert len(aliases()) >= 55
    assert {ns for ns, _ in aliases().values()} == set(Memory.NAMESPACES)


def test_an_alias_has_the_signature_of_its_service_method() -> None:
    services = {"registry": PeopleService, "core_memory": BlocksService}
    for name, (namespace, method) in aliases().items():
        if namespace in services:
            theirs = inspect.signature(getattr(services[namespace], method))
            mine = inspect.signature(getattr(Memory, name))
            assert list(mine.parameters)[1:] == list(theirs.parameters)[1:], name
            assert mine.return_annotation == theirs.return_annotation, name


def test_no_namespace_hides_a_documented_call() -> None:
    for namespace in Memory.NAMESPACES:
        assert namespace not in vars(Memory), namespace


def test_the_facade_stays_small() -> None:
    source = Path(inspect.getfile(Memory)).read_text("utf-8")
    assert len(source.splitlines()) <= 300


async def test_a_namespace_and_its_alias_are_one_call(tmp_path: Path) -> None:
    async with await Memory.open(tmp_path, embedder="hashing") as mem:
        made = await mem.registry.add_person("p-ni", name="周霓", aliases=["霓霓"], group_id="study")
        assert made == await mem.person("p-ni")
        assert [m.person.id for m in await mem.people(group_id="study")] == ["p-ni"]
        assert [m.person.id for m in await mem.registry.members(group_id="study")] == ["p-ni"]
        key = await mem.add_key("预算不能超过10万元", user_id="alice")
        assert await mem.entries.key_line(key.id) == key
        with pytest.raises(NotFound):
            await mem.entries.key_line(key.id, tenant_id="other")  # another tenant's line is not there
        assert await mem.jobs.stats(tenant_id="default") == await mem.stats(tenant_id="default")


def test_the_blocking_memory_shows_the_namespaces_blocking(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path, embedder="hashing") as mem:
        turn = mem.add(group_id="study", content="周末一起去图书馆吧", actor_id="ni")
        assert [t.id for t in mem.entries.turns(group_id="study")] == [turn.id]
        assert mem.jobs.pending(group_id="study") == mem.pending(group_id="study")
        assert "turns" in dir(mem.entries)
        with pytest.raises(NotFound):
            mem.core_memory.append("notes", "x", group_id="study")  # no blocks_dir: no blocks
