"""One typed API (issue 45 §5): ``Memory`` satisfies ``MemoryAPI``, the adapters are typed with
it, and the CLI's remote client serves every call of ``CliAPI``, the blocking subset the CLI makes.

mypy checks the same statically (``as_api`` below, and in src wherever a ``Memory`` is handed
to ``create_app`` or ``build_server``); these tests check it at run time, parameter by parameter,
so a method dropped or reshaped on either side fails here too.
"""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import httpx

from pmemo.api import CliAPI, MemoryAPI
from pmemo.cli.remote import RemoteMemory
from pmemo.config import Settings
from pmemo.memory import Memory
from pmemo.server import deps

SRC = Path(__file__).resolve().parents[2] / "src" / "pmemo"
ADAPTERS = ("server", "mcp", "schemas")  # the modules that take the facade as a parameter


def as_api(memory: Memory) -> MemoryAPI:
    """mypy rejects this return if ``Memory`` lacks a call of ``MemoryAPI`` or has another shape."""
    return memory


def calls(protocol: type) -> dict[str, typing.Any]:
    """The methods a Protocol declares, by name (its own, not ``object``'s)."""
    return {n: v for n, v in vars(protocol).items() if inspect.isfunction(v) and not n.startswith("_")}


def params(fn: typing.Any) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(fn).parameters.values() if p.name != "self"]


def lacks(cls: type, protocol: type = CliAPI) -> list[str]:
    """What ``cls`` fails to serve of ``protocol``: a method it does not define itself (the
    Protocol's own stub does not count), one that is async where a blocking call is wanted, or
    a parameter of the Protocol it would not take (by name and kind, or through ``**kwargs``),
    or one it requires that the Protocol does not give."""
    problems = []
    for name, wanted in calls(protocol).items():
        have = getattr(cls, name, None)
        if have is None or have is wanted:
            problems.append(f"{name}: missing")
            continue
        if inspect.iscoroutinefunction(have) != inspect.iscoroutinefunction(wanted):
            problems.append(f"{name}: async where the API's is not, or the other way")
            continue
        given = {p.name: p for p in params(have)}
        absorbs = any(p.kind is p.VAR_KEYWORD for p in given.values())
        for p in params(wanted):
            found = given.get(p.name)
            if found is not None and found.kind is p.kind:
                continue
            if found is None and absorbs and p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD):
                continue
            problems.append(f"{name}: does not take {p.name} ({p.kind.description})")
        names = {p.name for p in params(wanted)}
        problems += [f"{name}: requires {p.name}, which the API does not give" for p in given.values()
                     if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                     and p.name not in names]
    return problems


def test_memory_has_every_call_of_the_api_with_its_exact_signature() -> None:
    declared = calls(MemoryAPI)
    assert len(declared) >= 50  # every call the routes, the tools and the CLI make
    for name, wanted in declared.items():
        have = getattr(Memory, name)
        assert inspect.iscoroutinefunction(have) == inspect.iscoroutinefunction(wanted), name
        assert inspect.signature(have) == inspect.signature(wanted), name


async def test_a_memory_answers_through_the_api(tmp_path: Path) -> None:
    api = as_api(await Memory.open(tmp_path, embedder="hashing"))
    try:
        turn = await api.add(user_id="u1", session_id="s1", content="预算不能超过10万元")
        assert [t.id for t in await api.turns(user_id="u1")] == [turn.id]
        assert (await api.stats(tenant_id="default"))["turns"] == 1
    finally:
        await api.close()


def test_the_cli_api_is_a_blocking_subset_of_the_memory_api() -> None:
    full = calls(MemoryAPI)
    for name, wanted in calls(CliAPI).items():
        assert name in full, f"{name} is not a call of MemoryAPI"
        assert not inspect.iscoroutinefunction(wanted), name
        mine = {p.name: p for p in params(wanted)}
        theirs = {p.name: p for p in params(full[name])}
        for p in mine.values():
            assert p.name in theirs and theirs[p.name].kind is p.kind, (name, p.name)
            if p.default is not p.empty:  # the same default as the library's own call
                assert theirs[p.name].default == p.default, (name, p.name)
        required = [p for p in theirs.values() if p.default is p.empty and p.kind is not p.VAR_KEYWORD]
        assert all(p.name in mine for p in required), name
        assert inspect.signature(wanted).return_annotation == inspect.signature(full[name]).return_annotation, name
    assert CliAPI.__annotations__["settings"] == "Settings"


def test_the_remote_client_serves_every_call_of_the_cli_api() -> None:
    assert lacks(RemoteMemory) == []
    client = httpx.Client(base_url="http://127.0.0.1:9")  # never asked: nothing here sends a request
    try:
        assert isinstance(RemoteMemory(client, "t1", Settings()).settings, Settings)
    finally:
        client.close()


def test_every_call_a_command_makes_on_its_memory_is_in_the_cli_api() -> None:
    """A command's ``mem`` is a ``SyncMemory`` or, beside a server, a ``RemoteMemory``: a call
    left out of ``CliAPI`` would be one the remote client need not serve."""
    used: dict[str, set[str]] = {}
    for path in sorted(set((SRC / "cli").glob("*.py")) - {SRC / "cli" / "remote.py"}):  # its own mem
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "mem":
                used.setdefault(node.attr, set()).add(path.name)
    remote_only = {"tenant", "url"}  # RemoteMemory's own, read after target.is_remote(mem)
    served = set(calls(CliAPI)) | set(CliAPI.__annotations__)
    assert {name: files for name, files in used.items() if name not in served | remote_only} == {}
    assert served - set(used) == set()  # and no call the CLI no longer makes


def test_a_remote_client_without_a_call_or_a_parameter_fails_the_check() -> None:
    own = {n: v for n, v in vars(RemoteMemory).items() if inspect.isfunction(v)}
    stripped = type("Stripped", (CliAPI,), {n: v for n, v in own.items() if n != "delete_key"})
    assert lacks(stripped) == ["delete_key: missing"]

    def search(self: object, query: str, *, limit: int = 10) -> list[object]:
        return []

    narrow = type("Narrow", (CliAPI,), {**own, "search": search})
    assert lacks(narrow) == [f"search: does not take {p}" for p in
                             ("session_id (keyword-only)", "at (keyword-only)", "asker (keyword-only)",
                              "scope (variadic keyword)")]

    async def pending(self: object, **scope: object) -> int:
        return 0

    assert lacks(type("Async", (CliAPI,), {**own, "pending": pending})) == [
        "pending: async where the API's is not, or the other way"]


def test_no_adapter_takes_the_facade_as_any() -> None:
    assert typing.get_args(deps.Mem)[0] is MemoryAPI  # every route's ``memory: Mem``
    untyped = []
    for package in ADAPTERS:
        for path in sorted((SRC / package).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    for arg in node.args.args + node.args.kwonlyargs:
                        typed = ast.unparse(arg.annotation) if arg.annotation else ""
                        if arg.arg == "memory" and typed not in ("MemoryAPI", "Mem"):  # Mem: deps.Mem
                            untyped.append(f"{path.name}:{node.lineno} {node.name}: {typed or 'none'}")
    assert untyped == []
