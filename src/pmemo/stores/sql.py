"""What a port's SQL needs of a backend, written once: a dialect and a link (issue 45 §1).

A port written in SQL once (``graph_sql.py``) names its parameters ``:name`` and asks the
``Dialect`` for the few fragments the two databases spell apart: a list parameter, a table of
values, a case-blind comparison, a NULL-safe one, a typed parameter, the larger of two values.
The backend's ``Link`` runs it: ``read()`` gives an ``Exec`` for reads, ``write()`` one in a
transaction (the store's unit of work, when one is open, is that transaction). An ``Exec``
turns ``:name`` into its driver's placeholders and gives rows by column name.

>>> d = Dialect("{col} IN (SELECT value FROM json_each(:{name}))", "(SELECT value AS v FROM json_each(:{name}))",
...             "{col} = {value} COLLATE NOCASE", "{col} IS {value}", "{value}", "MAX", list)
>>> d.in_("t.id", "ids")
't.id IN (SELECT value FROM json_each(:ids))'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

Row = Mapping[str, Any]  # a row by column name (sqlite3.Row, psycopg's dict_row)
Args = Mapping[str, Any]
T = TypeVar("T")


@dataclass(frozen=True)
class Dialect:
    """How one database spells the fragments a shared query needs: templates over ``col``,
    ``name`` (a parameter's name), ``value`` (a parameter or column) and ``type`` (an SQL type
    of the target: bigint or text), and how a list parameter is passed."""

    in_list: str  # col is one of the list parameter name
    values: str  # the list parameter name as a table with one column, v
    nocase: str  # col equals value in any (ASCII) case
    same: str  # col equals value, NULL equal to NULL
    typed: str  # the parameter value of a type (a NULL needs one on Postgres)
    greatest: str  # the function giving the larger of two values
    pack: Callable[[list[Any]], Any]  # a list as the driver takes it for ``in_list`` / ``values``
    found: str = "instr({text}, {part})"  # where part is in text (1-based), 0 if it is not
    least: str = "MIN"  # the function giving the smaller of two values
    true: str = "1"  # a flag column's true, written as its partial indexes are (``WHERE open = 1``)
    member: str = "EXISTS(SELECT 1 FROM json_each({col}) WHERE value = :{name})"  # a JSON list col holds name
    json_field: str = "json_extract({col}, '$.{key}')"  # a JSON object col's text field key
    json_same: str = "{col} = :{name}"  # a JSON col equals the JSON text parameter name
    lock: str = ""  # after a SELECT: lock the rows it read until the transaction ends
    lower: str = "py_lower"  # text in lower case, every alphabet's (SQLite's lower() knows ASCII only)

    def position(self, text: str, part: str) -> str:
        return self.found.format(text=text, part=part)

    def holds(self, col: str, name: str) -> str:
        return self.member.format(col=col, name=name)

    def json_is(self, col: str, name: str) -> str:
        return self.json_same.format(col=col, name=name)

    def field(self, col: str, key: str) -> str:
        return self.json_field.format(col=col, key=key)

    def in_(self, col: str, name: str, type_: str = "bigint") -> str:
        return self.in_list.format(col=col, name=name, type=type_)

    def each(self, name: str, type_: str = "bigint") -> str:
        return self.values.format(name=name, type=type_)

    def same_text(self, col: str, value: str) -> str:
        return self.nocase.format(col=col, value=value)

    def is_(self, col: str, value: str, type_: str) -> str:
        return self.same.format(col=col, value=value, type=type_)

    def cast(self, value: str, type_: str) -> str:
        return self.typed.format(value=value, type=type_)

    def ids(self, values: Iterable[Any]) -> Any:
        """A list of ids as a parameter (numpy integers made plain)."""
        return self.pack([int(v) for v in values])

    def texts(self, values: Iterable[str]) -> Any:
        return self.pack([str(v) for v in values])


class Exec(Protocol):
    """Runs SQL with ``:name`` parameters on one connection."""

    def rows(self, sql: str, args: Args | None = None, binary: bool = False) -> list[Row]:
        """The rows of a read; ``binary``: rows of vectors, sent in the driver's binary form where it
        has one (no text to parse)."""
        ...

    def one(self, sql: str, args: Args | None = None) -> Row | None: ...
    def run(self, sql: str, args: Args | None = None) -> int:
        """A write; how many rows it changed."""
        ...

    def many(self, sql: str, rows: Sequence[Args]) -> None:
        """A write once for each of ``rows`` (sent together where the driver can)."""
        ...


class Link(Protocol):
    """A backend's connections: ``read()`` for reads, ``write()`` for one transaction."""

    def read(self) -> AbstractContextManager[Exec]: ...
    def write(self) -> AbstractContextManager[Exec]: ...


# ---- provenance: the source turns of derived rows (table ``sources``) -----------------------
def sources_of(x: Exec, d: Dialect, kind: str, refs: list[int]) -> dict[int, tuple[int, ...]]:
    """The source turns of each of ``refs`` (rows of one ``kind``), in one query, in turn order."""
    if not refs:
        return {}
    found: dict[int, list[int]] = {}
    for r in x.rows(f"SELECT ref, turn_id FROM sources WHERE kind=:kind AND {d.in_('ref', 'refs')} ORDER BY turn_id",
                    {"kind": kind, "refs": d.ids(refs)}):
        found.setdefault(r["ref"], []).append(r["turn_id"])
    return {ref: tuple(ids) for ref, ids in found.items()}


def with_sources(x: Exec, d: Dialect, kind: str, rows: Sequence[Row],
                 build: Callable[[Row, tuple[int, ...]], T]) -> list[T]:
    """Each of ``rows`` (of ``kind``) built with its source turns, read in one more query."""
    found = sources_of(x, d, kind, [r["id"] for r in rows])
    return [build(r, found.get(r["id"], ())) for r in rows]


def by_id(x: Exec, d: Dialect, table: str, kind: str, ids: Sequence[int], build: Callable[[Row, tuple[int, ...]], T],
          where: str = "") -> list[T]:
    """The rows of ``table`` with ``ids`` (and ``where``, e.g. `` AND deleted IS NULL``) in ``ids``'
    order, each built with its source turns (``kind``), in two queries however many."""
    if not ids:
        return []
    rows = {r["id"]: r for r in x.rows(f"SELECT * FROM {table} WHERE {d.in_('id', 'ids')}{where}", {"ids": d.ids(ids)})}
    return with_sources(x, d, kind, [rows[i] for i in ids if i in rows], build)


def count_reads(x: Exec, d: Dialect, table: str, ids: list[int], now: float) -> None:
    """The rows of ``table`` with ``ids`` were read at ``now``: each one's ``access_count`` grows by
    how many times its id is there (an id twice counts twice), in one statement."""
    if ids:
        x.run(f"UPDATE {table} SET access_count = access_count + n.reads, accessed=:now"
              f" FROM (SELECT e.v AS id, COUNT(*) AS reads FROM {d.each('ids')} AS e GROUP BY e.v) AS n"
              f" WHERE {table}.id = n.id", {"now": now, "ids": d.ids(ids)})


def drop(x: Exec, table: str, kind: str, ref: int, vector: bool = False) -> None:
    """Row ``ref`` of ``table`` goes, with its source turns (as a row of ``kind``) and, with ``vector``,
    its vector (of that kind)."""
    x.run(f"DELETE FROM {table} WHERE id=:id", {"id": ref})
    x.run("DELETE FROM sources WHERE kind=:kind AND ref=:id", {"kind": kind, "id": ref})
    if vector:
        x.run("DELETE FROM vectors WHERE kind=:kind AND ref=:id", {"kind": kind, "id": ref})


def refs_with(x: Exec, d: Dialect, kind: str, turn_ids: list[int]) -> list[int]:
    """The rows of ``kind`` one of ``turn_ids`` is a source of, by id."""
    if not turn_ids:
        return []
    return [r["ref"] for r in x.rows(f"SELECT DISTINCT ref FROM sources WHERE kind=:kind AND"
                                     f" {d.in_('turn_id', 'turns')} ORDER BY ref",
                                     {"kind": kind, "turns": d.ids(turn_ids)})]


def set_sources(x: Exec, d: Dialect, kind: str, ref: int, turn_ids: Iterable[int]) -> None:
    """The source turns of row ``ref`` of ``kind`` become ``turn_ids``."""
    x.run("DELETE FROM sources WHERE kind=:kind AND ref=:ref", {"kind": kind, "ref": ref})
    add_sources(x, d, kind, ref, turn_ids)


def add_sources(x: Exec, d: Dialect, kind: str, ref: int, turn_ids: Iterable[int]) -> None:
    """``turn_ids`` are sources of row ``ref`` of ``kind`` too (one already is stays once)."""
    turns = [int(t) for t in turn_ids]
    if len(turns) == 1:  # a triple's one turn: no list to unpack
        x.run("INSERT INTO sources(kind, ref, turn_id) VALUES(:kind, :ref, :turn) ON CONFLICT DO NOTHING",
              {"kind": kind, "ref": ref, "turn": turns[0]})
    elif turns:
        x.run(f"INSERT INTO sources(kind, ref, turn_id) SELECT :kind, :ref, e.v FROM {d.each('turns')} AS e"
              " WHERE TRUE ON CONFLICT DO NOTHING", {"kind": kind, "ref": ref, "turns": d.pack(turns)})
