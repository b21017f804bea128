"""Do the rules take linear time on any text? Ratios of time at 8n to time at n, in one run.

    python bench/rules_fuzz.py entries [N]       each rule entry point on adversarial texts
    python bench/rules_fuzz.py patterns [N]      each regex of the rule modules on its own
    python bench/rules_fuzz.py patterns 200 _TAIL _REPORT   only the patterns so named

``entries`` times each entry point of the rules (segmentation, attribution, facts, plans,
graph rules, aliases, dates) on long, repetitive and adversarial texts of N characters
(default 12,500) and of 8N (100,000: a key held down): a linear entry point takes ~8x as
long on the longer text, a quadratic one ~64x. ``patterns`` does the same for each regex
of the rule modules alone, on texts made of its own literals and classes (near misses
repeated), on N (default 250) and 8N characters. Each measurement runs in a child process
that is killed after ``TIMEOUT`` seconds: an exponential pattern shows as TIMEOUT instead of
hanging the run. Run it against another checkout with ``PYTHONPATH=<its src>`` to compare.

The collection of the patterns (``patterns_of``) and their adversarial texts
(``adversarial``) are also what tests/property/test_rules_fuzz.py checks the rules with.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import multiprocessing as mp
import re
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from pmemo.text.lazy_re import compiled

try:  # the parser of ``re`` (Python 3.11: re._parser; before: sre_parse)
    from re import _constants as sre_c  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

# the modules whose patterns read what people write (the background rules, and the text
# helpers the read path runs on turns and queries)
RULE_MODULES = (
    "pmemo.rules.agenda_rules", "pmemo.rules.attribution", "pmemo.rules.clauses", "pmemo.rules.extract_dates",
    "pmemo.rules.extract_life", "pmemo.rules.extract_rules", "pmemo.rules.sentences", "pmemo.rules.speaker",
    "pmemo.text.dates", "pmemo.text.dialogue", "pmemo.text.future", "pmemo.text.places", "pmemo.text.segment",
    "pmemo.text.slices", "pmemo.text.lang.zh", "pmemo.text.attachments", "pmemo.people.aliases",
    "pmemo.people.resolve", "pmemo.graph.rules", "pmemo.graph.sentences",
)  # fmt: skip
TIMEOUT = 20.0  # seconds one measurement may take before it counts as runaway
_REGEX_CALLS = ("search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split", "compile")


# ---- the patterns --------------------------------------------------------------------------
def patterns_of(modules: tuple[str, ...] = RULE_MODULES) -> list[tuple[str, re.Pattern[str]]]:
    """(where, pattern) of every regex of ``modules``: compiled at module level (also inside
    tuples and dicts), or written as a literal in a ``re.search(...)``-like call in a function."""
    found: dict[tuple[str, int], str] = {}
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:  # an older checkout, measured for comparison
            continue
        for key, value in vars(module).items():
            for where, lazy_or_not in _nested(key, value):
                item = compiled(lazy_or_not)
                if isinstance(item, re.Pattern) and isinstance(item.pattern, str):
                    found.setdefault((item.pattern, item.flags), f"{name}.{where}")
        for line, pattern in _literal_calls(module):
            found.setdefault((pattern.pattern, pattern.flags), f"{name}:{line}")
    return [(where, re.compile(text, flags)) for (text, flags), where in found.items()]


def _nested(key: str, value: Any) -> Iterator[tuple[str, Any]]:
    yield key, value
    if isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            yield from _nested(f"{key}[{i}]", item)
    elif isinstance(value, dict):
        for k, item in value.items():
            if isinstance(compiled(item), (re.Pattern, tuple)):
                yield from _nested(f"{key}[{k!r}]", item)


def _literal_calls(module: Any) -> Iterator[tuple[int, re.Pattern[str]]]:
    """The patterns written in ``re.<call>(pattern, ...)`` in the module's source, evaluated in
    its namespace (an f-string over module constants too)."""
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _REGEX_CALLS and node.args):
            continue
        try:
            text = eval(compile(ast.Expression(node.args[0]), "<pattern>", "eval"), vars(module))  # noqa: S307
            flags = 0
            for keyword in node.keywords:
                if keyword.arg == "flags":
                    flags = eval(compile(ast.Expression(keyword.value), "<flags>", "eval"), vars(module))  # noqa: S307
            if isinstance(text, str):
                yield node.lineno, re.compile(text, flags)
        except Exception:  # noqa: BLE001, S112 - a pattern built from a local: not a literal
            continue


def _inside(op: Any, av: Any) -> list[Any]:
    """The parsed parts a group, an alternation, a lookaround or a conditional holds (none for
    other nodes; repeats and atomic groups are each walker's own choice)."""
    if op is sre_c.SUBPATTERN:
        return [av[3]]
    if op is sre_c.BRANCH:
        return list(av[1])
    if op in (sre_c.ASSERT, sre_c.ASSERT_NOT):
        return [av[1]]
    if op is sre_c.GROUPREF_EXISTS:
        return [av[1], av[2]] if av[2] else [av[1]]
    return []


def atoms(pattern: re.Pattern[str] | None, items: Any = None) -> tuple[set[str], set[str]]:
    """The characters a pattern (or a parsed part of one) names, a sample of each class, and its literal runs."""
    chars: set[str] = set()
    runs: set[str] = set()
    category = {"CATEGORY_DIGIT": "1", "CATEGORY_SPACE": " ", "CATEGORY_WORD": "a"}

    def walk(items: Any) -> None:
        run: list[str] = []
        for op, av in items:
            if op is sre_c.LITERAL:
                run.append(chr(av))
                chars.add(chr(av))
                continue
            if len(run) >= 2:
                runs.add("".join(run))
            run = []
            if op is sre_c.IN:
                for o, a in av:
                    if o is sre_c.LITERAL:
                        chars.add(chr(a))
                    elif o is sre_c.RANGE:
                        chars.update((chr(a[0]), chr(min(a[1], a[0] + 1))))
                    elif o is sre_c.CATEGORY:
                        chars.add(category.get(str(a), "a"))
            elif op is sre_c.CATEGORY:
                chars.add(category.get(str(av), "a"))
            elif op is sre_c.ANY:
                chars.add("x")
            elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", None)):
                walk(av[2])
            elif op is getattr(sre_c, "ATOMIC_GROUP", None):
                walk(av)
            else:
                for part in _inside(op, av):
                    walk(part)
        if len(run) >= 2:
            runs.add("".join(run))

    if items is None:
        assert pattern is not None
        items = sre_parse.parse(pattern.pattern, pattern.flags)
    walk(items)
    return chars, runs


# what people type when they hold a key down, paste, or test a bot: repeated, mixed, near misses
BASE = ("a", "a ", " ", "哈", "哈 ", "我", "。", "，", "1", "@", "!", "😂", "[图片]", "我a1，😂", "a1.", "Ab ",
        "我在", "我喜欢", "我是", "叫我", "刚", "下周", "12月", "I ", "I like ", "I'm ", "my ", "call me ",
        "next ", "Dec ", " and ", "和", "她", "lol ", "\n")  # fmt: skip


def adversarial(pattern: re.Pattern[str], size: int) -> list[str]:
    """Texts of ``size`` characters made to slow ``pattern`` down: each of its characters and
    literal runs repeated (with the run's last character missing: a near miss), pairs of its
    characters alternating, and ``BASE``; each ends in a character nothing expects."""
    chars, runs = atoms(pattern)
    seeds = set(BASE) | chars | runs | {r[:-1] for r in runs if len(r) > 2} | {r + " " for r in runs}
    out = [s * max(1, size // len(s)) + "\x01" for s in sorted(seeds) if s]
    few = sorted(chars)[:12]
    out += [(a + b) * (size // 2) + "\x01" for a in few for b in few if a < b]
    return out


def exercise(pattern: re.Pattern[str], text: str, anchored: bool = False) -> None:
    """What the rules do with a pattern: every match (search, finditer, sub), and a match at the
    start; only the match at the start for one the rules only ever match at a given place."""
    if not anchored:
        for _ in pattern.finditer(text):
            pass
    pattern.match(text)


def anchored_patterns(modules: tuple[str, ...] = RULE_MODULES) -> set[str]:
    """The ``patterns_of`` names of the patterns the rules only call ``match``/``fullmatch`` on,
    at a place they chose ("_REPORT.match(clause, end)"): a search over a long run of spaces is
    quadratic for such a pattern, but nothing searches with it."""
    uses: dict[int, set[str]] = {}
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        tree = ast.parse(inspect.getsource(module))
        called = {id(node.func.value): node.func.attr for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and isinstance(node.func.value, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                    and isinstance(vars(module).get(node.id), re.Pattern):
                uses.setdefault(id(vars(module)[node.id]), set()).add(called.get(id(node), "other"))
    out = set()
    for where, pattern in patterns_of(modules):
        module_name, _, line = where.partition(":")
        if line:  # a literal in a re.<call>: anchored when that call is a match
            out |= {where} if _literal_call(module_name, int(line)) in ("match", "fullmatch") else set()
            continue
        module_name, _, key = where.rpartition(".")
        value = vars(importlib.import_module(module_name)).get(key)
        same = isinstance(value, re.Pattern) and (value.pattern, value.flags) == (pattern.pattern, pattern.flags)
        if same and uses.get(id(value), {"other"}) <= {"match", "fullmatch"}:
            out.add(where)
    return out


def _literal_call(module_name: str, line: int) -> str | None:
    module = importlib.import_module(module_name)
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Call) and node.lineno == line and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re":
            return node.func.attr
    return None


# ---- the shape that takes exponential time -------------------------------------------------
_PROBES = " \t\naAzZ1_-'.,:;!?@&()[]~～我你哈在刚族的了，。！？、😂\u200d\x01é"
_MANY = getattr(sre_c, "MAXREPEAT", 4294967295)


def ambiguous_repeats(pattern: re.Pattern[str]) -> list[str]:
    """The repeats of ``pattern`` that one stretch of text can fill in more than one way, the
    shape that makes the matcher try exponentially many splits when what follows fails:

    * a repeat whose body can end in a repeat of characters that can also start the body
      again: "(?:\\w+\\s?)+" splits "abc" as a|b|c, ab|c, a|bc…; "(?:\\s+a|\\s+)+";
    * alternatives inside a repeat where one is another followed by what the repeat matches:
      "(?:刚刚|刚)*" reads 刚刚 as one or two.

    Characters are judged on a sample (``_PROBES`` and the pattern's own): a check, not a proof.
    A possessive repeat or an atomic group gives nothing back, so it is never ambiguous.
    """
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    chars, _ = atoms(pattern)
    probes = sorted(set(_PROBES) | chars)
    out: list[str] = []

    def member(item: Any) -> set[str]:
        try:
            one = _compiled(parsed, [item])
        except Exception:  # noqa: BLE001 - an item that does not compile alone: judged by none
            return set()
        return {c for c in probes if one.fullmatch(c)}

    def nullable(seq: Any) -> bool:
        return all(nullable_item(item) for item in seq)

    def nullable_item(item: Any) -> bool:
        op, av = item
        if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", None)):
            return av[0] == 0 or nullable(av[2])
        if op is sre_c.SUBPATTERN:
            return nullable(av[3])
        if op is getattr(sre_c, "ATOMIC_GROUP", None):
            return nullable(av)
        if op is sre_c.BRANCH:
            return any(nullable(b) for b in av[1])
        return op in (sre_c.AT, sre_c.ASSERT, sre_c.ASSERT_NOT, sre_c.GROUPREF, sre_c.GROUPREF_EXISTS)

    def first(seq: Any) -> set[str]:
        found: set[str] = set()
        for item in seq:
            found |= first_item(item)
            if not nullable_item(item):
                break
        return found

    def first_item(item: Any) -> set[str]:
        op, av = item
        if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", None)):
            return first(av[2]) if av[1] else set()
        if op is sre_c.SUBPATTERN:
            return first(av[3])
        if op is getattr(sre_c, "ATOMIC_GROUP", None):
            return first(av)
        if op is sre_c.BRANCH:
            return set().union(*(first(b) for b in av[1]))
        if op in (sre_c.LITERAL, sre_c.NOT_LITERAL, sre_c.IN, sre_c.ANY, sre_c.CATEGORY):
            return member(item)
        return set()

    def tail(seq: Any) -> set[str]:
        """Characters a repeat at the end of ``seq`` (nothing but optional parts after it) may take more of."""
        found: set[str] = set()
        for item in reversed(seq):
            op, av = item
            if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) and av[1] > 1:
                found |= first(av[2]) | tail(av[2])
            elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
                found |= tail(av[2])
            elif op is sre_c.SUBPATTERN:
                found |= tail(av[3])
            elif op is sre_c.BRANCH:
                found |= set().union(*(tail(b) for b in av[1]))
            if not nullable_item(item):
                break
        return found

    def literal(seq: Any) -> str | None:
        if all(op is sre_c.LITERAL for op, _ in seq):
            return "".join(chr(av) for _, av in seq)
        return None

    def ends(seq: Any) -> Iterator[Any]:
        """The alternatives a sequence may end with: a branch with nothing but optional parts after it."""
        for item in reversed(seq):
            op, av = item
            if op is sre_c.BRANCH:
                yield av[1]
            elif op is sre_c.SUBPATTERN:
                yield from ends(av[3])
            if not nullable_item(item):
                return

    def walk(seq: Any) -> None:
        for item in seq:
            op, av = item
            if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) and av[1] > 1:
                body = av[2]
                shared = tail(body) & first(body)
                if shared:
                    out.append(f"repeat ending in a repeat of {''.join(sorted(shared))!r} that can start it again")
                again = _compiled(parsed, [(sre_c.MAX_REPEAT, (1, _MANY, body))])
                if av[1] >= 8 and (twice := _one_and_two(parsed, body)):  # "(?:.{1,4}?族)*": 族族族族
                    out.append(f"{twice!r} is one repeat and two")
                for branches in ends(body):  # "刚刚|刚", parsed as 刚(?:刚|): 刚刚 is also 刚 twice
                    words = [w for w in map(literal, branches) if w is not None]
                    for long in words:
                        for short in words:
                            if long != short and long.startswith(short) and again.fullmatch(long[len(short):]):
                                out.append(f"{long!r} at the end is {short!r} and then the repeat again")
                walk(body)
            elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
                walk(av[2])
            else:  # a possessive repeat or an atomic group gives nothing back: not walked
                for part in _inside(op, av):
                    walk(part)

    walk(parsed)
    return out


def _one_and_two(parsed: Any, body: Any) -> str | None:
    """A short text that ``body`` matches once and also twice in a row (None: none found among
    the texts of up to four of the characters it names)."""
    from itertools import product

    try:
        once, twice = _compiled(parsed, list(body)), _compiled(parsed, [*body, *body])
    except Exception:  # noqa: BLE001 - a body with a group reference does not compile alone
        return None
    named = sorted(atoms(None, body)[0])[:6]
    for size in range(2, 5):
        for chars in product(named, repeat=size):
            text = "".join(chars)
            if once.fullmatch(text) and twice.fullmatch(text):
                return text
    return None


def _compiled(parsed: Any, items: list[Any]) -> re.Pattern[str]:
    from re import _compiler  # type: ignore[attr-defined]

    return _compiler.compile(sre_parse.SubPattern(parsed.state, items), parsed.state.flags)


# ---- the entry points ----------------------------------------------------------------------
def entry_points() -> dict[str, Callable[[str], Any]]:
    """Each rule a turn's text goes through, as a function of that text."""
    from pmemo.graph.rules import origins, relations
    from pmemo.people.aliases import learned_aliases, mentions
    from pmemo.people.resolve import AliasEntry, AliasIndex
    from pmemo.rules.agenda_rules import outcome, plans
    from pmemo.rules.attribution import Mention, by_subject
    from pmemo.rules.extract_rules import extract
    from pmemo.text import dates, dialogue, future
    from pmemo.text.segment import segment

    index = AliasIndex([AliasEntry("周霓", "p1", "name"), AliasEntry("霓霓", "p1", "learned"),
                        AliasEntry("Neko", "p2", "registered"), AliasEntry("老王", "p3", "generated")])
    said = datetime(2024, 3, 4, 10)

    def attribution(text: str) -> Any:
        found = index.find(text)
        return by_subject(text, [Mention(m.start, m.end, m.person_ids[0]) for m in found if not m.ambiguous])

    def graph(text: str) -> Any:
        return relations(text, [(m.start, m.end, m.person_ids[0]) for m in index.find(text)], "me"), origins(text)

    return {
        "segment": segment,
        "resolve": index.find,
        "attribution": attribution,
        "extract": lambda text: extract(text, said),
        "plans": lambda text: plans(text, said),
        "outcome": outcome,
        "graph rules": graph,
        "learned_aliases": learned_aliases,
        "mentions": mentions,
        "date_ranges": dates.date_ranges,
        "resolve_relative": lambda text: dates.resolve_relative(text, said.date()),
        "day_mentioned": lambda text: future.day_mentioned(text, said.date()),
        "dialogue views": dialogue.views,
    }


TEXTS = ("a", "哈", " ", "a ", "哈 ", "我", "。", "1", "😂", "[图片]", "我a1，😂", "刚", "我在", "我喜欢", "叫我",
         "I like ", "I'm ", "call me ", "next ", "12月", "Dec 3 ", "霓霓对花生过敏，我不吃香菜。",
         "Neko and I are colleagues. ", "me: hi\n")  # fmt: skip


def text_of(seed: str, size: int) -> str:
    return (seed * (size // len(seed) + 1))[:size]


# ---- timing in a child process -------------------------------------------------------------
def _child(conn: Any) -> None:
    entries = entry_points()
    patterns = dict(patterns_of())
    anchored = anchored_patterns()
    conn.send("ready")  # the imports are not part of the first measurement's time
    while True:
        kind, name, text, repeat = conn.recv()
        start = time.perf_counter()
        for _ in range(repeat):
            if kind == "entry":
                entries[name](text)
            else:
                exercise(patterns[name], text, name in anchored)
        conn.send((time.perf_counter() - start) / repeat)


class Timer:
    """Times calls in a child process, killed (and restarted) when one runs past ``TIMEOUT``."""

    def __init__(self) -> None:
        self._start()

    def _start(self) -> None:
        self.conn, child = mp.Pipe()
        self.proc = mp.get_context("fork").Process(target=_child, args=(child,), daemon=True)
        self.proc.start()
        self.conn.recv()  # "ready"

    def seconds(self, kind: str, name: str, text: str, repeat: int = 1) -> float | None:
        """Seconds per call (best of three), or None when it ran past ``TIMEOUT``."""
        best = None
        for _ in range(3):
            self.conn.send((kind, name, text, repeat))
            if not self.conn.poll(TIMEOUT):
                self.proc.kill()
                self.proc.join()
                self._start()
                return None
            took = self.conn.recv()
            best = took if best is None else min(best, took)
        return best


def _ratio(small: float | None, large: float | None) -> str:
    if small is None or large is None:
        return "TIMEOUT"
    return f"{large / max(small, 1e-7):.1f}x"


def run_entries(size: int) -> None:
    """Per entry point: the text with the worst ratio (of those taking 5 ms or more at 8N),
    and the slowest text at 8N."""
    timer = Timer()
    print(f"{'entry point':<17} {'worst ratio':>11}  {'on':<16} {'slowest at ' + format(8 * size, ','):>20}  on")
    for name in entry_points():
        rows = []
        for seed in TEXTS:
            small_text, large_text = text_of(seed, size), text_of(seed, 8 * size)
            small = timer.seconds("entry", name, small_text)  # best of three: warm caches at both sizes
            large = None if small is None else timer.seconds("entry", name, large_text)
            rows.append((seed, small, large))
        runaway = [seed for seed, small, large in rows if small is None or large is None]
        timed = [(large / max(small, 1e-7), seed, large) for seed, small, large in rows
                 if small is not None and large is not None]
        telling = [row for row in timed if row[2] >= 0.005] or timed
        ratio, on, _ = max(telling)
        slowest, slow_on = max((large, seed) for _, seed, large in timed)
        worst = "TIMEOUT" if runaway else f"{ratio:.1f}x"
        on = runaway[0] if runaway else on
        print(f"{name:<17} {worst:>11}  {on[:14]!r:<16} {slowest * 1e3:>17.1f} ms  {slow_on[:14]!r}", flush=True)


def run_patterns(size: int, only: list[str]) -> None:
    timer = Timer()
    rows = []
    anchored = anchored_patterns()
    for where, pattern in patterns_of():
        if only and not any(where.endswith(o) or o in where for o in only):
            continue
        worst, text, runaway = -1.0, "", False
        for candidate in adversarial(pattern, size):
            took = timer.seconds("pattern", where, candidate)
            if took is None:
                worst, text, runaway = float("inf"), candidate, True
                break
            if took > worst:
                worst, text = took, candidate
        large_text = text_of(text[:-1], 8 * size) + "\x01" if text else ""
        large = None if runaway else timer.seconds("pattern", where, large_text)
        small = None if runaway else worst
        rows.append((float("inf") if large is None else (large / max(worst, 1e-7)), where, text, small, large))
        print(f"{_ratio(small, large):>8}  {where:<48} {text[:14]!r}{'  (match only)' if where in anchored else ''}",
              flush=True)
    print("\nsuper-linear (ratio above 20x, or TIMEOUT):")
    for ratio, where, text, small, large in sorted(rows, reverse=True):
        if ratio > 20:
            print(f"{_ratio(small, large):>8}  {where:<48} {text[:14]!r}  "
                  f"{'-' if large is None else f'{large * 1e3:.1f} ms at {8 * size}'}")


def main(argv: list[str]) -> None:
    mode = argv[0] if argv else "entries"
    size = int(argv[1]) if len(argv) > 1 else (12_500 if mode == "entries" else 250)
    if mode == "entries":
        run_entries(size)
    elif mode == "patterns":
        run_patterns(size, argv[2:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])


# ---- how much text each pattern reads ------------------------------------------------------
class _CountedMatch:
    """A match whose ``re`` is the counted pattern, so ``m.re is PATTERN`` holds as it did."""

    def __init__(self, match: re.Match[str], pattern: Counted) -> None:
        self._match, self.re = match, pattern

    def __getattr__(self, name: str) -> Any:
        return getattr(self._match, name)

    def __getitem__(self, group: Any) -> Any:
        return self._match[group]

    def __bool__(self) -> bool:
        return True


class Counted:
    """A compiled pattern that notes the longest text it was given (``seen[where]``)."""

    def __init__(self, pattern: re.Pattern[str], where: str, seen: dict[str, int]) -> None:
        self._pattern, self._where, self._seen = pattern, where, seen

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pattern, name)

    def _note(self, string: str, pos: int = 0, endpos: int | None = None) -> None:
        size = min(len(string), len(string) if endpos is None else endpos) - pos
        if size > self._seen.get(self._where, -1):
            self._seen[self._where] = size

    def _wrap(self, match: re.Match[str] | None) -> Any:
        return None if match is None else _CountedMatch(match, self)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._note(string, pos, endpos)
        return self._wrap(self._pattern.search(string, pos, endpos))

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._note(string, pos, endpos)
        return self._wrap(self._pattern.match(string, pos, endpos))

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._note(string, pos, endpos)
        return self._wrap(self._pattern.fullmatch(string, pos, endpos))

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[Any]:
        self._note(string, pos, endpos)
        return (self._wrap(m) for m in self._pattern.finditer(string, pos, endpos))

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        self._note(string, pos, endpos)
        return self._pattern.findall(string, pos, endpos)

    def sub(self, repl: Any, string: str, count: int = 0) -> str:
        self._note(string)
        return self._pattern.sub(repl, string, count)

    def subn(self, repl: Any, string: str, count: int = 0) -> tuple[str, int]:
        self._note(string)
        return self._pattern.subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[Any]:
        self._note(string)
        return self._pattern.split(string, maxsplit)


class _CountedRe:
    """The ``re`` module as a rule module sees it, its calls with a literal pattern counted."""

    def __init__(self, seen: dict[str, int], module: str) -> None:
        self._seen, self._module = seen, module

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    def _counted(self, pattern: Any, flags: int = 0) -> Counted:
        if isinstance(pattern, Counted):
            return pattern
        compiled = re.compile(pattern, flags)
        return Counted(compiled, f"{self._module}: {compiled.pattern[:40]!r}", self._seen)

    def search(self, pattern: Any, string: str, flags: int = 0) -> Any:
        return self._counted(pattern, flags).search(string)

    def match(self, pattern: Any, string: str, flags: int = 0) -> Any:
        return self._counted(pattern, flags).match(string)

    def fullmatch(self, pattern: Any, string: str, flags: int = 0) -> Any:
        return self._counted(pattern, flags).fullmatch(string)

    def finditer(self, pattern: Any, string: str, flags: int = 0) -> Any:
        return self._counted(pattern, flags).finditer(string)

    def findall(self, pattern: Any, string: str, flags: int = 0) -> Any:
        return self._counted(pattern, flags).findall(string)

    def sub(self, pattern: Any, repl: Any, string: str, count: int = 0, flags: int = 0) -> str:
        return self._counted(pattern, flags).sub(repl, string, count)

    def subn(self, pattern: Any, repl: Any, string: str, count: int = 0, flags: int = 0) -> Any:
        return self._counted(pattern, flags).subn(repl, string, count)

    def split(self, pattern: Any, string: str, maxsplit: int = 0, flags: int = 0) -> Any:
        return self._counted(pattern, flags).split(string, maxsplit)


def counting(modules: tuple[str, ...] = RULE_MODULES) -> tuple[dict[str, int], Callable[[], None]]:
    """Count, for every pattern of ``modules``, the longest text it is given from now on:
    ``(seen, undo)``; ``undo()`` puts the modules back as they were."""
    seen: dict[str, int] = {}
    counted: dict[int, Counted] = {}
    changes: list[tuple[Any, str, Any]] = []

    def swap(value: Any, where: str) -> Any:
        value = compiled(value)  # a pattern compiled on first use (text.lazy_re) is one too
        if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
            return counted.setdefault(id(value), Counted(value, where, seen))
        if isinstance(value, tuple):
            return tuple(swap(item, f"{where}[{i}]") for i, item in enumerate(value))
        return value

    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for key, value in list(vars(module).items()):
            new = _CountedRe(seen, name) if value is re else swap(value, f"{name}.{key}")
            if new is not value:
                changes.append((module, key, value))
                setattr(module, key, new)

    def undo() -> None:
        for module, key, value in reversed(changes):
            setattr(module, key, value)

    return seen, undo
