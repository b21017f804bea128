"""Loaders for LoCoMo, LongMemEval and MADial-Bench into one shape.

An ``Episode`` is what one memory holds (a LoCoMo conversation, one LongMemEval
question's haystack, one MADial user's memory bank) plus the probes asked of it.
Labels live only in ``Gold``; systems under test see ``Unit`` (no labels) and
``Query`` (no labels), so the harness cannot leak evidence into ingest or retrieval.
Dataset annotations (LoCoMo observations/summaries, LongMemEval ``has_answer`` and
session ids) are never copied into a ``Unit``.

>>> parse_evidence(["D8:6; D9:17", "D:11:26", "D30:05", "D"], {"D8:6", "D9:17", "D11:26"})
(['D8:6', 'D9:17', 'D11:26'], ['D30:5', 'D'])
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import InvalidInput
from ..text import attachments

LOCOMO_CATEGORIES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
KINDS = ("locomo", "longmemeval", "madial")
DEV_FILES = {
    "locomo": "locomo_dev.json",
    "longmemeval": "longmemeval_s_dev.json",
    "madial": "madial_dev.json",
}
_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_LOCOMO_DATE = re.compile(r"(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})", re.I)
_MADIAL_LINE = re.compile(r'^<([^>]+)>\s*[:：]\s*"?(.*?)"?\s*$', re.S)
TURN_SPACING = timedelta(seconds=30)


@dataclass(frozen=True)
class Unit:
    """One thing a memory stores and retrieval is scored on (a turn or a memory event)."""

    uid: str
    session: str
    role: str
    actor: str | None
    timestamp: datetime
    text: str
    # the turn's metadata as pmemo stores it: a shared picture is an attachment, not text
    metadata: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def indexed(self) -> str:
        """What a system indexes: the text and its attachments' captions, as pmemo's turns."""
        return attachments.indexed(self.text, self.metadata)


@dataclass(frozen=True)
class Query:
    """What a system under test is asked: text only, plus when it is asked."""

    text: str
    asked_at: datetime | None = None


@dataclass(frozen=True)
class Gold:
    """The labels, read only by the scorer."""

    evidence: tuple[str, ...]  # unit uids
    answer: str | None = None
    sessions: tuple[str, ...] = ()  # evidence sessions (session-level scoring)
    dropped: tuple[str, ...] = ()  # evidence ids that were malformed or unknown


@dataclass(frozen=True)
class Probe:
    qid: str
    category: str
    query: Query
    gold: Gold
    apart: str | None = None  # why it is reported apart: adversarial / no-evidence / abstention


@dataclass(frozen=True)
class Episode:
    eid: str
    owner: dict[str, str]  # scope kwargs: {"user_id": ...} or {"group_id": ...}
    units: tuple[Unit, ...]  # in ingest order
    probes: tuple[Probe, ...]


# -- evidence ids -------------------------------------------------------------------------


def parse_evidence(
    raw: Iterable[Any], valid: set[str] | None = None
) -> tuple[list[str], list[str]]:
    """Normalise LoCoMo evidence strings to ``D<s>:<t>``; return (kept, dropped).

    Handles several ids in one string, an extra colon, zero padding; drops strings with
    no id and ids not in ``valid`` (when given). Order is kept, duplicates removed.
    """
    kept: list[str] = []
    dropped: list[str] = []
    for item in raw:
        text = str(item)
        found = [f"D{int(s)}:{int(t)}" for s, t in _EVIDENCE.findall(text)]
        if not found:
            dropped.append(text.strip())
            continue
        for uid in found:
            if valid is not None and uid not in valid:
                dropped.append(uid)
            elif uid not in kept:
                kept.append(uid)
    return kept, dropped


# -- dates ----------------------------------------------------------------------------------


def parse_locomo_date(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` → datetime."""
    m = _LOCOMO_DATE.search(text)
    if not m:
        raise InvalidInput(f"unreadable LoCoMo date {text!r}")
    hour, minute, ampm, day, month, year = m.groups()
    h = int(hour) % 12 + (12 if ampm.lower() == "pm" else 0)
    month_no = datetime.strptime(month[:3].title(), "%b").month
    return datetime(int(year), month_no, int(day), h, int(minute))


def parse_lme_date(text: str) -> datetime:
    """``"2023/08/11 (Fri) 15:58"`` → datetime."""
    clean = re.sub(r"\([^)]*\)", " ", text).split()
    return datetime.strptime(" ".join(clean), "%Y/%m/%d %H:%M")


# -- loaders --------------------------------------------------------------------------------


def _read_json(path: str | Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InvalidInput(f"dataset file {path} does not exist") from exc
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"dataset file {path} is not valid JSON: {exc}") from exc


def _session_numbers(conv: dict[str, Any]) -> list[int]:
    return sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))


def locomo_metadata(turn: dict[str, Any]) -> dict[str, Any]:
    """A LoCoMo turn's shared picture as an attachment (its BLIP caption), not as text."""
    caption = turn.get("blip_caption")
    return {"attachments": [{"type": "image", "caption": str(caption)}]} if caption else {}


def load_locomo(path: str | Path, limit: int | None = None) -> list[Episode]:
    """One episode per conversation; one unit per turn (uid = ``dia_id``)."""
    episodes: list[Episode] = []
    for sample in _read_json(path)[:limit]:
        units = _locomo_units(sample["conversation"])
        valid = {u.uid for u in units}
        asked = units[-1].timestamp + timedelta(days=1) if units else None
        probes = [_locomo_probe(f"{sample['sample_id']}#{i}", qa, valid, asked)
                  for i, qa in enumerate(sample.get("qa", []))]
        episodes.append(
            Episode(
                str(sample["sample_id"]),
                {"group_id": _safe_id(sample["sample_id"])},
                tuple(units),
                tuple(probes),
            )
        )
    return episodes


def _locomo_units(conv: dict[str, Any]) -> list[Unit]:
    units: list[Unit] = []
    for n in _session_numbers(conv):
        start = parse_locomo_date(conv[f"session_{n}_date_time"])
        for j, turn in enumerate(conv[f"session_{n}"]):
            s_no, t_no = _EVIDENCE.findall(turn["dia_id"])[0]
            uid = f"D{int(s_no)}:{int(t_no)}"
            units.append(Unit(uid, f"session_{n}", "user", turn["speaker"], start + j * TURN_SPACING,
                              str(turn.get("text", "")), locomo_metadata(turn)))
    return units


def _locomo_probe(pid: str, qa: dict[str, Any], valid: set[str], asked: datetime | None) -> Probe:
    kept, dropped = parse_evidence(qa.get("evidence", []), valid)
    cat = LOCOMO_CATEGORIES.get(int(qa.get("category", 0)), str(qa.get("category")))
    answer = qa.get("answer")
    apart = "adversarial" if cat == "adversarial" else ("no-evidence" if not kept else None)
    return Probe(
        pid,
        cat,
        Query(str(qa["question"]), asked),
        Gold(
            tuple(kept),
            None if answer is None else str(answer),
            tuple(dict.fromkeys(f"session_{k[1:].split(':')[0]}" for k in kept)),
            tuple(dropped),
        ),
        apart,
    )


def load_longmemeval(path: str | Path, limit: int | None = None) -> list[Episode]:
    """One episode per question; sessions sorted by date, uids ``S<i>:T<j>`` (no upstream ids).
    A turn with no text (a few upstream) is left out: no memory stores an empty message."""
    episodes: list[Episode] = []
    for q in _read_json(path)[:limit]:
        units, evidence, ev_sessions = _lme_units(q)
        qid = str(q["question_id"])
        apart = "abstention" if qid.endswith("_abs") else (None if ev_sessions else "no-evidence")
        # The question follows its haystack (LongMemEval's premise), but upstream dates a few
        # sessions after it (9 of the 50 dev questions, by up to a day; 4 with evidence there):
        # it is asked at the later of its date and the last turn, or a search asked `at` its
        # date would rightly know nothing of those sessions.
        asked = max([parse_lme_date(q["question_date"]), *(u.timestamp for u in units)])
        probe = Probe(
            qid,
            str(q["question_type"]),
            Query(str(q["question"]), asked),
            Gold(tuple(evidence), str(q.get("answer")), tuple(ev_sessions)),
            apart,
        )
        episodes.append(Episode(qid, {"user_id": _safe_id(f"lme-{qid}")}, tuple(units), (probe,)))
    return episodes


def _lme_units(q: dict[str, Any]) -> tuple[list[Unit], list[str], list[str]]:
    """A question's haystack as units, its evidence turns and its evidence sessions."""
    sessions = sorted(
        zip(q["haystack_dates"], q["haystack_session_ids"], q["haystack_sessions"], strict=True),
        key=lambda s: parse_lme_date(s[0]),
    )
    answer_ids = set(q.get("answer_session_ids", []))
    units: list[Unit] = []
    evidence: list[str] = []
    ev_sessions: list[str] = []
    for i, (date, sid, turns) in enumerate(sessions, start=1):
        start = parse_lme_date(date)
        skey = f"S{i}"
        if sid in answer_ids:
            ev_sessions.append(skey)
        for j, turn in enumerate(turns, start=1):
            if not str(turn["content"]).strip():
                continue
            uid = f"{skey}:T{j}"
            units.append(Unit(uid, skey, str(turn["role"]), None, start + (j - 1) * TURN_SPACING,
                              str(turn["content"])))
            if turn.get("has_answer") is True:
                evidence.append(uid)
    return units, evidence, ev_sessions


def madial_lines(dialogue: list[str]) -> list[tuple[str, str]]:
    """(speaker, utterance) for each dialogue line; markers like ``<BOD>`` give ("BOD", "")."""
    out = []
    for line in dialogue:
        m = _MADIAL_LINE.match(line.strip())
        if m:
            out.append((m.group(1), m.group(2).strip()))
        else:
            out.append((line.strip().strip("<>"), ""))
    return out


def load_madial(
    path: str | Path, memories: str | Path | None = None, limit: int | None = None
) -> list[Episode]:
    """One episode per user: that user's memory events are the units; each dialogue before
    its first test turn is a query. ``memories`` defaults to ``<stem>_memories.json``, else
    ``madial_memories.json``, beside ``path``."""
    mem_path = Path(memories) if memories else _madial_memory_file(Path(path))
    events = _read_json(mem_path)
    dialogues = _read_json(path)[:limit]
    names = _madial_names(dialogues)
    by_user: dict[int, list[Unit]] = {}
    for ev in sorted(events, key=lambda e: (str(e.get("time")), str(e["id"]))):
        user = int(ev["user-id"])
        when = datetime.strptime(str(ev["time"]), "%Y-%m-%d")
        by_user.setdefault(user, []).append(
            Unit(
                str(ev["id"]),
                f"memory-{ev['id']}",  # independent events, not one dialogue
                "user",
                names.get(user, f"user{user}"),
                when,
                str(ev["event"]),
            )
        )
    probes_by_user: dict[int, list[Probe]] = {}
    for dia in dialogues:
        user = int(dia["user-id"])
        valid = {u.uid for u in by_user.get(user, [])}
        probes_by_user.setdefault(user, []).append(_madial_probe(dia, valid, names.get(user, f"user{user}")))
    return [
        Episode(
            f"madial-user{user}",
            {"user_id": _safe_id(names.get(user, f"user{user}"))},
            tuple(by_user.get(user, [])),
            tuple(probes),
        )
        for user, probes in sorted(probes_by_user.items())
    ]


def _madial_probe(dia: dict[str, Any], valid: set[str], name: str) -> Probe:
    """A dialogue before its first test turn, as a query for the user's memory events it names."""
    lines = madial_lines(dia["dialogue"])
    first = min(int(t) for t in dia["test-turn"])
    text = "\n".join(f"{who}: {said}" for who, said in lines[1:first] if said)
    ids = [str(r) for r in dia.get("relevant-id", [])]
    kept = [r for r in dict.fromkeys(ids) if r in valid]
    dropped = [r for r in ids if r not in valid]
    return Probe(
        f"madial-{dia['id']}",
        name,
        Query(text),
        Gold(tuple(kept), None, (), tuple(dropped)),
        None if kept else "no-evidence",
    )


def _madial_memory_file(path: Path) -> Path:
    own = path.with_name(f"{path.stem}_memories.json")
    return own if own.exists() else path.with_name("madial_memories.json")


def _madial_names(dialogues: list[dict[str, Any]]) -> dict[int, str]:
    """Each user's name: the speaker of their dialogues who is not the assistant."""
    names: dict[int, str] = {}
    for dia in dialogues:
        for who, said in madial_lines(dia["dialogue"]):
            if said and who.lower() != "assistant":
                names.setdefault(int(dia["user-id"]), who)
                break
    return names


def load(kind: str, path: str | Path, *, limit: int | None = None, **extra: Any) -> list[Episode]:
    """Dispatch on ``kind``: locomo, longmemeval or madial."""
    if kind == "locomo":
        return load_locomo(path, limit)
    if kind == "longmemeval":
        return load_longmemeval(path, limit)
    if kind == "madial":
        return load_madial(path, extra.get("memories"), limit)
    raise InvalidInput(f"unknown dataset kind {kind!r}: use one of {', '.join(KINDS)}")


def _safe_id(value: Any) -> str:
    return re.sub(r"[^A-Za-z0-9_.:@\-]", "-", str(value))[:128] or "x"
