"""Context assembly (pure): ranked hits per section → one packed, ordered text within budget.

The sections are data (``SECTIONS``): name, header, budget share, and who gets unused budget
first; a new one is one entry. Order: memory blocks → key → people → agenda → profile →
long-term → mid-term → episodic → short-term → current input. Blocks and key lines are
``whole``: always in, never cut, whatever the budget; the other sections shrink around them.
Recalled turns (mid-term) are shown in time order, each day's date said where it is
cheapest (``_in_time_order``): the story reads in order, and dates cost few tokens.

The scaffolding (headers, "all said by", how often words were said) is written in the chat's
language (``WORDS``, one entry per language: "en", "zh"): a Chinese chat gets Chinese headers.
The sections that rarely change (blocks, key lines, people) come first, and nothing in them
depends on when the context is asked, so a provider's prompt cache reuses them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from ..models import ContextPack, Hit, Turn
from ..text.dates import resolve_relative
from .packing import Packed, Section, pack
from .relevance import repeats

UNDERFILL = 8  # tokens a pack may leave unused before assemble tries to fill them
DAY_LINE_AT = 4  # a day of this many recalled lines opens with its date; fewer carry it each
TURN_TIERS = ("mid_term", "short_term")  # the sections that show turns word for word


@dataclass(frozen=True)
class SectionSpec:
    """One section of the context: ``share`` names the setting with its budget share (None:
    what the others leave, short-term's); an ``optional`` one takes its share only when it has
    items. Unused budget goes to sections by ``leftover_rank`` (lower first). A ``whole``
    section is always packed in full, before the others (its share, if any, is the part of the
    budget the others plan to leave it: what it does not use goes to them by rank)."""

    name: str
    header: Mapping[str, str]  # language → the section's header
    share: str | None
    optional: bool = True
    leftover_rank: int = 2
    newest_last: bool = False
    whole: bool = False
    lead: bool = False  # its best item first, then all the others' shares leave (packing.Section)
    stable: bool = False  # changes only when what it says does: leads the context (a prompt cache's prefix)


def _said(en: str, zh: str) -> Mapping[str, str]:
    return {"en": en, "zh": zh}


SECTIONS = (
    SectionSpec("blocks", _said("## Core memory", "## 核心记忆"), None, whole=True, stable=True),  # issue 20
    SectionSpec("key", _said("## Key memory", "## 关键记忆"), "budget_key", optional=False, whole=True, stable=True),
    SectionSpec("people", _said("## People", "## 相关的人"), "budget_people", stable=True),
    SectionSpec("agenda", _said("## Coming up", "## 近期安排"), "budget_agenda"),
    SectionSpec("profile", _said("## About the user", "## 关于用户"), "budget_profile"),
    SectionSpec("long_term", _said("## Long-term summaries", "## 长期摘要"), "budget_long", optional=False),
    # unused budget goes first to relevant turns, then recent ones, then the rest
    SectionSpec("mid_term", _said("## Relevant memories", "## 相关记忆"), "budget_mid", optional=False,
                leftover_rank=0, lead=True),
    SectionSpec("episodic", _said("## Past episodes and tasks", "## 过往经历与任务"), "budget_episodic"),
    SectionSpec("graph", _said("## Related facts", "## 相关事实"), "budget_graph"),  # graph (issue 20)
    SectionSpec("short_term", _said("## Recent conversation", "## 最近的对话"), None, leftover_rank=1,
                newest_last=True),
)
LANGUAGES = ("en", "zh")
# the rest of the scaffolding, per language: the input's header, the header's note when one
# person said every recalled turn, a line's note when its words were said several times, and
# what a line's relative dates meant when said
WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"input": "## Current input", "one_speaker": " (all said by {who})", "repeats": " (×{n}: {who})",
           "and": ", ", "dated": " ({notes})", "notes": "; "},
    "zh": {"input": "## 当前消息", "one_speaker": "（都是{who}说的）", "repeats": "（说了{n}次：{who}）",
           "and": "、", "dated": "（{notes}）", "notes": "；"},
}
HEADERS_BY_LANGUAGE = {lang: {s.name: s.header[lang] for s in SECTIONS} | {"input": WORDS[lang]["input"]}
                       for lang in LANGUAGES}
HEADERS = HEADERS_BY_LANGUAGE["en"]
assert all(s.stable for s in SECTIONS[: sum(s.stable for s in SECTIONS)]), "the stable sections lead"


def leading(text: str) -> str:
    r"""The leading sections of a packed context's ``text``, the ones that rarely change (blocks,
    key lines, people): what a provider's prompt cache can reuse from one context to the next.

    >>> leading("## Key memory\n- budget 13k\n\n## Relevant memories\n- Mei: hi")
    '## Key memory\n- budget 13k'
    >>> leading("## 相关记忆\n- 小王: 周六见")
    ''
    """
    starts = [h for lang in LANGUAGES for s in SECTIONS if not s.stable
              for h in (s.header[lang], WORDS[lang]["input"])]
    cut = len(text)
    for header in starts:
        if text.startswith(header + "\n") or text.startswith(header + " ") or text.startswith(header + "（"):
            return ""
        at = text.find("\n\n" + header)
        if at >= 0:
            cut = min(cut, at)
    return text[:cut]


def shares(settings: object, tiers: dict[str, list[Hit]]) -> dict[str, float]:
    """Each section's budget share from the settings; short-term takes the rest."""
    out = {s.name: float(getattr(settings, s.share)) if s.share and (tiers.get(s.name) or not s.optional)
           else 0.0 for s in SECTIONS}
    out["short_term"] = max(0.0, 1.0 - sum(out.values()))
    return out


def line(hit: Hit, lang: str = "en") -> str:
    if hit.kind == "block":
        return f"### {hit.id.removeprefix('block:')}\n{hit.text}"
    if hit.tier in ("key", "input"):
        return hit.text if hit.tier == "input" else f"- {hit.text}"
    if hit.kind in ("summary", "fact", "episode", "task", "person", "agenda", "triple"):
        return f"- {hit.text}"
    if hit.kind == "window" and hit.sources:  # L2 windows (issue 20): one excerpt, its turns in order
        said = [f"{t.actor or t.role}: {t.indexed}{_dated(t, lang)}" for t in hit.sources]
        return "\n".join([f"- {said[0]}", *(f"  {line}" for line in said[1:])])
    turn = hit.sources[0] if hit.sources else None
    if turn is None:
        return f"- {hit.text}"
    who = turn.actor or turn.role
    if hit.tier == "short_term":
        return f"[{turn.timestamp:%Y-%m-%d %H:%M}] {who}: {turn.indexed}{_dated(turn, lang)}"
    return f"- {who}: {turn.indexed}{_dated(turn, lang)}{_repeated(hit, lang)}"


def _repeated(hit: Hit, lang: str) -> str:
    """How often a recalled line's words were said, and by whom (``relevance.once``)."""
    times, by = repeats(hit)
    words = WORDS[lang]
    return words["repeats"].format(n=times, who=words["and"].join(by[:5])) if times > 1 else ""


def _dated(turn: Turn, lang: str = "en") -> str:
    """What the turn's relative dates meant when it was said, after its words (which stay
    verbatim), in the chat's language: " (yesterday = 7 May 2023)", "（明天 = 2023年5月8日）"."""
    notes = resolve_relative(turn.content, turn.timestamp.date(), lang)
    if not notes:
        return ""
    words = WORDS[lang]
    return words["dated"].format(notes=words["notes"].join(f"{said} = {meant}" for said, meant in notes))


def _day(hit: Hit) -> str | None:
    turn = hit.sources[0] if hit.tier == "mid_term" and hit.kind in ("turn", "window") and hit.sources else None
    return f"{turn.timestamp:%Y-%m-%d}" if turn else None


def _in_time_order(hits: Sequence[Hit], line: Callable[[Hit], str] = line) -> list[str]:
    """Mid-term lines oldest first, dated as cheaply as they read: a day of DAY_LINE_AT lines
    or more opens with a date line ("[2024-03-05]", a transcript under it), a day of fewer
    dates each of its lines ("2024-03-05 Mei: ..."); the year is said at the first date and
    again where it changes ("03-07 ..." below "2024-03-05 ..."). A date costs ~3 tokens this
    way against ~7 for "- 2024-03-05 ", and recalled memories are often a day apart: on MADial
    dev a 1k context held 37 memories instead of 32.5 (plain dense, "Name: text": 37.5)."""
    days: list[tuple[str | None, list[Hit]]] = []
    for hit in sorted(hits, key=lambda h: (h.sources[0].timestamp, h.sources[0].id) if _day(h) else
                      (datetime.min.replace(tzinfo=UTC), 0)):
        day = _day(hit)
        if day is None or not days or days[-1][0] != day:
            days.append((day, []))
        days[-1][1].append(hit)
    lines: list[str] = []
    year = None
    for day, group in days:
        text = [line(h) for h in group]
        if day is None:
            lines.extend(text)
            continue
        said, year = (day if day[:4] != year else day[5:]), day[:4]
        if len(group) < DAY_LINE_AT and all(t.startswith("- ") for t in text):
            lines.extend(f"{said if n == 0 else day[5:]} {t[2:]}" for n, t in enumerate(text))
        else:
            lines.extend([f"[{said}]", *text])
    return lines


Writer = Callable[[Sequence[Hit]], str]  # a section written whole from its items, header and all


ONE_SPEAKER_MIN = 4  # the header's " (all said by Mei)" costs as much as three lines' "Mei: "


def _one_speaker(hits: Sequence[Hit]) -> str | None:
    """Who said every recalled turn, when that is one person (a user's own memories) and
    there are enough of them: the header names them once instead of every line."""
    said = {(t.actor or t.role) for h in hits if h.kind in ("turn", "window") for t in h.sources}
    turns_only = all(h.kind in ("turn", "window") and h.sources for h in hits)
    return next(iter(said)) if turns_only and len(said) == 1 and len(hits) >= ONE_SPEAKER_MIN else None


def render(packed: Sequence[Packed[Hit]], line: Callable[[Hit], str] = line,
           writers: Mapping[str, Writer] | None = None, lang: str = "en") -> str:
    """The sections with items, in order: each its header (in ``lang``) and one line per item,
    or what its ``writers`` entry makes of its items (the memory blocks in the MemGPT layout)."""
    headers = HEADERS_BY_LANGUAGE[lang]
    blocks = []
    for part in packed:
        if part.items and writers and part.name in writers:
            blocks.append(writers[part.name](part.items))
        elif part.items and part.name == "mid_term" and (who := _one_speaker(part.items)):
            def unlabelled(hit: Hit, label: str = f"- {who}: ") -> str:
                return line(hit).replace(label, "- ", 1).replace(f"\n  {label[2:]}", "\n  ")

            body = _in_time_order(part.items, unlabelled)
            blocks.append("\n".join([headers[part.name] + WORDS[lang]["one_speaker"].format(who=who), *body]))
        elif part.items:
            body = (_in_time_order(part.items, line) if part.name == "mid_term"
                    else [line(h) for h in part.items])
            blocks.append("\n".join([headers[part.name], *body]))
    return "\n\n".join(blocks)


def fit_input(query: str, budget: int, count: Callable[[str], int], lang: str = "en") -> str:
    """The query, cut to what the budget can hold (the input is always part of the pack)."""
    room = budget - count(HEADERS_BY_LANGUAGE[lang]["input"]) - 4
    if count(query) <= room:
        return query
    lo, hi = 0, len(query)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count(query[:mid] + "…") <= room:
            lo = mid
        else:
            hi = mid - 1
    return query[:lo] + "…" if lo else ""


def _once(hits: Sequence[Hit], text: Callable[[Hit], str]) -> list[Hit]:
    """``hits`` without the repeats of a line already there (the same words on the same day,
    stored twice): a reader learns nothing from the second, and it costs as much again."""
    seen: set[tuple[str, str | None]] = set()
    out = []
    for hit in hits:
        if (key := (text(hit), _day(hit))) not in seen:
            seen.add(key)
            out.append(hit)
    return out


def assemble(query: str, tiers: dict[str, list[Hit]], shares: dict[str, float], budget: int,
             count: Callable[[str], int], writers: Mapping[str, Writer] | None = None,
             with_input: bool = True, restates: Mapping[str, frozenset[int]] | None = None,
             lang: str = "en", fill: bool = True, told: frozenset[int] = frozenset()) -> ContextPack:
    """Pack the tiers' hits into ``budget`` tokens. The ``whole`` sections (memory blocks, key
    lines) come in full whatever the budget, and the input and the other sections pack into
    what they leave; the pack never exceeds the budget, unless the whole sections alone do:
    then it is only they, with ``over_budget`` set and a ``note`` that says so. Without
    ``with_input`` the query ranks the rest but is not written in.

    ``restates``: hit id → the turns a summary, episode or diary day was made from. One whose
    turns the pack shows every one of, word for word, tells the reader nothing more: it goes,
    and what it took is packed again for other memories (on MADial a one-memory session's
    episode repeated its memory in the same context). ``lang``: the chat's language ("en",
    "zh"), the scaffolding's. ``fill``: unused budget goes to any section with items left
    (the setting context_fill=budget); without, only the relevant memories (the lead section)
    take more than their share, and the pack ends where its items do (issue 44 §5). ``told``:
    turns that need no restating beside those shown (recalled, and judged not worth a line)."""
    restates = restates or {}
    pack = _assemble(query, tiers, shares, budget, count, writers, with_input, lang, fill)
    for _ in range(len(restates)):  # each round drops one at least; mostly there is none
        shown = told | {t.id for h in pack.items if h.tier in TURN_TIERS for t in h.sources}
        gone = {h.id for h in pack.items if (ids := restates.get(h.id)) and ids <= shown}
        if not gone:
            break
        tiers = {name: [h for h in hits if h.id not in gone] for name, hits in tiers.items()}
        pack = _assemble(query, tiers, shares, budget, count, writers, with_input, lang, fill)
    return pack


class _Lines:
    """The lines of one assembly, each made and counted once, and the sections written with them."""

    def __init__(self, count: Callable[[str], int], writers: Mapping[str, Writer] | None, lang: str) -> None:
        self.count, self.writers, self.lang = count, writers, lang
        self._made: dict[tuple[str, str], tuple[str, int]] = {}

    def _line(self, hit: Hit) -> tuple[str, int]:
        if (hit.tier, hit.id) not in self._made:
            text = line(hit, self.lang)
            self._made[hit.tier, hit.id] = text, self.count(text) + 1
        return self._made[hit.tier, hit.id]

    def text(self, hit: Hit) -> str:
        return self._line(hit)[0]

    def cost(self, hit: Hit) -> int:
        return self._line(hit)[1]

    def render(self, parts: list[Packed[Hit]]) -> str:
        return render(parts, self.text, self.writers, self.lang)


@dataclass(frozen=True)
class _Plan:
    """What an assembly packs around the sections that always come whole (``whole``): the other
    sections, the input (``input_hit``, None without one) and the tokens reserved for it."""

    query: str
    whole: list[Packed[Hit]]
    sections: list[Section[Hit]]
    input_hit: Hit | None
    reserve: int
    budget: int
    fill: bool

    @property
    def inputs(self) -> list[Hit]:
        return [self.input_hit] if self.input_hit is not None else []


def _assemble(query: str, tiers: dict[str, list[Hit]], shares: dict[str, float], budget: int,
              count: Callable[[str], int], writers: Mapping[str, Writer] | None,
              with_input: bool, lang: str = "en", fill: bool = True) -> ContextPack:
    lines = _Lines(count, writers, lang)
    headers = HEADERS_BY_LANGUAGE[lang]
    whole = [Packed(s.name, list(tiers.get(s.name, [])), 0) for s in SECTIONS if s.whole]
    fixed_text = lines.render(whole)
    fixed = count(fixed_text) + 2 if fixed_text else 0  # with the blank line before what follows
    pinned = tuple(h for part in whole for h in part.items)
    if fixed - 2 > budget:
        return ContextPack(query, fixed_text, pinned, count(fixed_text), budget, over_budget=True,
                           note=f"the memory blocks and key lines alone take {fixed - 2} tokens, over the"
                                f" budget of {budget}: nothing else is in the context (raise the budget or"
                                " shorten the blocks)")
    text_in = fit_input(query, budget - fixed, count, lang) if with_input else ""
    sections = [Section(s.name, _once(tiers.get(s.name, []), lines.text), shares.get(s.name, 0.0),
                        s.newest_last, s.leftover_rank, s.lead) for s in SECTIONS if not s.whole]
    # the input is reserved next: every other section packs around it
    plan = _Plan(query, whole, sections, Hit("input:0", "turn", "input", text_in, 1.0, "the current input", ())
                 if text_in else None, count(headers["input"]) + count(text_in) + 4 if text_in else 0, budget, fill)
    best = _packed(plan, lines, budget - fixed)
    if best is not None:
        return best
    just_input = lines.render([*whole, Packed("input", plan.inputs, 0)])
    if count(just_input) <= budget:
        return ContextPack(query, just_input, (*pinned, *plan.inputs), count(just_input), budget)
    return ContextPack(query, fixed_text, pinned, count(fixed_text), budget)


def _packed(plan: _Plan, lines: _Lines, room: int) -> ContextPack | None:
    """The fullest pack within the budget, or None when not even the first fits: the plan counts
    each line, not what the whole adds (the date lines of recalled turns), so the room that fills
    the budget is searched for, first by the gap, then by halves."""
    headers, budget = HEADERS_BY_LANGUAGE[lines.lang], plan.budget
    everything = sum(len(p.items) for p in plan.whole) + sum(len(s.items) for s in plan.sections) + len(plan.inputs)
    best: ContextPack | None = None
    fits, over = None, None  # the largest room known to fit, the smallest known to overflow
    cut = 0
    for _ in range(12):
        packed = {p.name: p for p in [*plan.whole, *pack(plan.sections, max(room - plan.reserve, 0), lines.cost,
                                                          lambda name: lines.count(headers[name]) + 2, plan.fill)]}
        parts = [*(packed[s.name] for s in SECTIONS), Packed("input", plan.inputs, plan.reserve)]
        text = lines.render(parts)
        tokens = lines.count(text)
        if tokens <= budget:
            if best is not None and tokens <= best.tokens and over is None:
                break  # more room took nothing more: every item is in
            if best is None or tokens > best.tokens:
                best = ContextPack(plan.query, text, tuple(h for part in parts for h in part.items), tokens, budget)
            if budget - tokens <= UNDERFILL or sum(len(p.items) for p in parts) == everything:
                break
            if not plan.fill and over is None:
                break  # the shares as planned: more room would only give the other sections more
            fits = room
        else:
            over = room
        if over is None:
            room += budget - tokens
        elif fits is None:  # a cut that changed nothing (the next item is bigger) doubles
            cut = max(tokens - budget, 2 * cut)
            room -= cut
        elif over - fits > 1:
            room = (fits + over) // 2
        else:
            break
    return best
