"""``generate``: the group-chat scenario built from the script in ``groupchat_data``.

Scripted messages (nickname introductions, facts in first and third person, dated plans,
renames, mentions of silent members) are drafted first, then filler small talk up to the
requested count; sorted by time they become the messages, and every check is read off
where each scripted draft landed. ``random.Random(seed)`` is the only source of variation.

>>> s = generate(0, messages=400)
>>> len(s.messages), s.messages[0].timestamp[:7], {q.kind for q in s.questions} >= {"who", "silent"}
(400, '2025-09', True)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pmemo.errors import InvalidInput

from . import groupchat_im
from .groupchat_data import (
    ACK,
    ACK_DM,
    AGENT,
    AGENT_QA,
    ALIAS_FORMS,
    ALIAS_MULTI,
    ALIAS_NEGATIVE,
    ALIAS_ONE,
    ASK,
    BY_ID,
    CAST,
    CHIME,
    COFFEE,
    CUES,
    DAYS,
    DM_SMALL,
    FACTS,
    FILLER,
    FOLLOW_Q,
    FOOD,
    GROUPS,
    HOBBY,
    INTRO_PHRASINGS,
    INTROS,
    KNOWN_NICK,
    LANG,
    LOOKALIKES,
    MENTION,
    PHRASINGS,
    PLANS,
    PRONOUN_LINES,
    REPLACED,
    SELF_LINES,
    START,
    STUDY,
    TOPIC,
    USED,
    USED_PHRASINGS,
    USES_FROM,
    WEEKDAY_LINES,
    WEEKDAYS,
    CastMember,
    ScriptFact,
    ScriptPlan,
)
from .groupchat_person import person_questions
from .groupchat_scenario import (
    AliasCheck,
    FollowUp,
    Group,
    LeakProbe,
    Message,
    Person,
    ProfileCheck,
    Question,
    Scenario,
    SubjectCheck,
)


@dataclass(frozen=True)
class _Draft:
    ts: datetime
    order: int  # creation order breaks timestamp ties, so sorting is deterministic
    scope: str  # a group id, or "dm:<person id>"
    speaker: str | None  # None: the agent
    text: str
    key: str = ""


def _day_of(ts: datetime) -> int:
    return (ts.date() - START.date()).days


def _iso(ts: datetime) -> str:
    return ts.isoformat()


def _name_at(pid: str, day: int) -> str:
    names = BY_ID[pid].names
    return [n for n, first in names if first <= day][-1]


def _pronouns(pid: str) -> dict[str, str]:
    if BY_ID[pid].gender == "f":
        return {"p": "她", "s": "she", "o": "her", "ps": "her"}
    return {"p": "他", "s": "he", "o": "him", "ps": "his"}


class _Builder:
    """Mutable state of one generation: the random stream, drafts and where each scripted one went."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.drafts: list[_Draft] = []
        self.stmts: dict[str, list[tuple[str, str, str]]] = {}  # fact key -> [(draft key, scope, subject)]
        self.intro_keys: dict[tuple[str, str], list[str]] = {}
        self.follow: list[tuple[str, str, datetime, str | None, str]] = []  # pid, group, at, expect, why

    # low level

    def moment(self, day: int, lo: int = 9, hi: int = 23) -> datetime:
        return START + timedelta(days=day, seconds=self.rng.randrange(lo * 3600, hi * 3600))

    def say(self, ts: datetime, scope: str, speaker: str | None, text: str, key: str = "") -> None:
        self.drafts.append(_Draft(ts, len(self.drafts), scope, speaker, text, key))

    def others(self, group: str, day: int, *exclude: str) -> list[str]:
        """Members who can speak in group on day (silent members stop after their last day)."""
        return [
            m.id
            for m in CAST
            if group in m.groups and m.id not in exclude and (m.silent_after is None or day <= m.silent_after)
        ]

    def call(self, pid: str, group: str, day: int) -> str:
        """How others refer to pid in group on day: the learned nickname or the current display name."""
        if (pid, group) in KNOWN_NICK and day >= USES_FROM and self.rng.random() < 0.6:
            return BY_ID[pid].nick
        return _name_at(pid, day)

    def maybe_ack(self, ts: datetime, group: str, speaker: str) -> None:
        # Someone reacts to a fact now and then, as people do; the fact stays one message.
        if self.rng.random() < 0.4:
            who = self.rng.choice(self.others(group, _day_of(ts), speaker))
            self.say(ts + timedelta(seconds=self.rng.randint(20, 240)), group, who, self.rng.choice(ACK[LANG[group]]))

    # scripted parts

    def intros(self) -> None:
        for pid, group, by, lo, hi in INTROS:
            day = self.rng.randint(lo, hi)
            lang = LANG[group]
            form = "1" if by == pid else "3"
            text = self.rng.choice(INTRO_PHRASINGS[(lang, form)])
            text = text.format(name=_name_at(pid, day), k=BY_ID[pid].nick, **_pronouns(pid))
            key = f"intro.{pid}.{group}"
            self.say(self.moment(day), group, by, text, key)
            self.intro_keys[(pid, group)] = [key]
            if BY_ID[pid].silent_after is None:  # then others use it (a silent member gets one late mention)
                for _ in range(2):
                    later = self.rng.randint(USES_FROM, DAYS - 1)
                    who = self.rng.choice(self.others(group, later, pid))
                    self.say(self.moment(later), group, who, self.rng.choice(MENTION[lang]).format(x=BY_ID[pid].nick))

    def facts(self) -> None:
        for fact in FACTS:
            if fact.scope == "dm":
                self.private_fact(fact)
                continue
            day = self.rng.randint(*fact.days)
            self.statement(fact, fact.pid, fact.scope, day, first=True)
            for speaker, group, lo, hi in fact.third:
                self.statement(fact, speaker, group, self.rng.randint(lo, hi), first=False)

    def statement(self, fact: ScriptFact, speaker: str, group: str, day: int, *, first: bool) -> None:
        lang = LANG[group]
        change = fact.key in REPLACED
        form = ("c" if change else "") + ("1" if first else "3")
        if first and fact.mention:
            form = "1m"
        slots = {"v": fact.value, "x": fact.extra, "old": fact.extra, **_pronouns(fact.pid)}
        slots["n"] = self.call(fact.pid, group, day)
        if fact.mention:
            slots["m"] = self.call(fact.mention, group, day)
        text = self.rng.choice(PHRASINGS[(fact.kind, lang, form)]).format(**slots)
        key = f"{fact.key}#{len(self.stmts.get(fact.key, []))}"
        ts = self.moment(day)
        self.say(ts, group, speaker, text, key)
        self.stmts.setdefault(fact.key, []).append((key, group, fact.pid))
        self.maybe_ack(ts, group, speaker)

    def private_fact(self, fact: ScriptFact) -> None:
        day = self.rng.randint(*fact.days)
        scope = f"dm:{fact.pid}"
        lang = BY_ID[fact.pid].lang
        ts = self.moment(day, 20, 23)
        self.dm_chat(ts, fact.pid, lang)
        key = f"{fact.key}#0"
        self.say(ts + timedelta(seconds=90), scope, fact.pid, self.rng.choice(fact.texts), key)
        self.say(ts + timedelta(seconds=110), scope, None, ACK_DM[lang])
        self.stmts[fact.key] = [(key, scope, fact.pid)]
        for _ in range(self.rng.randint(2, 4)):  # other private sessions: small talk only
            self.dm_chat(self.moment(self.rng.randrange(DAYS), 19, 23), fact.pid, lang, turns=self.rng.randint(1, 3))

    def dm_chat(self, ts: datetime, pid: str, lang: str, turns: int = 1) -> None:
        pairs = DM_SMALL[lang]
        for i in range(turns):
            said, reply = self.rng.choice(pairs[:3] if i == 0 else pairs[3:])
            self.say(ts, f"dm:{pid}", pid, said)
            self.say(ts + timedelta(seconds=self.rng.randint(5, 30)), f"dm:{pid}", None, reply)
            ts += timedelta(seconds=self.rng.randint(40, 300))

    def plans(self) -> None:
        for plan in PLANS:
            day = self.rng.randint(*plan.said)
            if plan.weekday is not None:
                day += (plan.weekday - (START + timedelta(days=day)).weekday()) % 7
            event = day + plan.event if plan.weekday is not None else plan.event
            ts = self.moment(day)
            self.say(ts, plan.group, plan.pid, self.rng.choice(plan.texts), plan.key)
            self.maybe_ack(ts, plan.group, plan.pid)
            if plan.cheer:
                who = self.rng.choice(self.others(plan.group, event - 1, plan.pid))
                text = plan.cheer.format(n=self.call(plan.pid, plan.group, event - 1))
                self.say(self.moment(event - 1, 12, 20), plan.group, who, text)
            self.plan_followups(plan, event)

    def plan_followups(self, plan: ScriptPlan, event: int) -> None:
        lang = LANG[plan.group]

        def check(day: int, hour: int, expect: str | None, why: str) -> None:
            at = START + timedelta(days=day, hours=hour, minutes=30)
            self.follow.append((plan.pid, plan.group, at, expect, why))

        check(event - 2, 22, plan.label, "two days before the plan")
        check(event + 1, 9, plan.label, "the day after, no outcome reported yet")
        if plan.outcome:
            # The outcome comes two days after the event, after the day-after check above.
            ts = self.moment(event + 2, 19, 22)
            self.say(ts, plan.group, plan.pid, self.rng.choice(plan.outcome), f"{plan.key}.outcome")
            check(event + 3, 10, None, "the outcome was reported")
        check(event + 21, 20, None, "three weeks past the plan")
        if lang == "zh":  # a member asks "did you finish?" before the outcome: a mention, not an outcome
            who = self.rng.choice(self.others(plan.group, event + 1, plan.pid))
            text = f"{self.call(plan.pid, plan.group, event + 1)}你考完了吗"
            self.say(self.moment(event + 1, 18, 21), plan.group, who, text)

    def renames(self) -> None:
        for m in CAST:
            for (old, _), (new, day) in zip(m.names, m.names[1:], strict=False):
                group = m.groups[0]
                lang = LANG[group]
                if m.id == "p_wangjing":  # announced by the person
                    self.say(self.moment(day), group, m.id, f"改了个群昵称，之前叫{old}哈")
                elif lang == "zh":  # noticed by someone else
                    who = self.rng.choice(self.others(group, day, m.id))
                    self.say(self.moment(day + 1), group, who, f"{m.nick or old}改名叫{new}了哈哈哈")
                # Tom's rename goes unannounced: only the display name on his messages changes.
                for name in (old, new):  # both names stay in use afterwards
                    later = self.rng.randint(day + 3, min(day + 40, DAYS - 1))
                    who = self.rng.choice(self.others(group, later, m.id))
                    self.say(self.moment(later), group, who, self.rng.choice(MENTION[lang]).format(x=name))

    def used_forms(self) -> None:
        """A form of a member's name the group calls them by (老张, 许工): said once so that it can
        be learned, then in passing."""
        for pid, group, form, lo, hi in USED:
            day = self.rng.randint(lo, hi)
            who = self.rng.choice(self.others(group, day, pid))
            text = self.rng.choice(USED_PHRASINGS).format(name=_name_at(pid, day), k=form, **_pronouns(pid))
            self.say(self.moment(day), group, who, text)
            for _ in range(2):
                later = self.rng.randint(day + 1, DAYS - 1)
                who = self.rng.choice(self.others(group, later, pid))
                self.say(self.moment(later), group, who, self.rng.choice(MENTION["zh"]).format(x=form))

    def gender_lines(self) -> None:
        """Each Chinese-speaking member is spoken of with 她 / 他 now and then, and some speak of themselves."""
        for m in CAST:
            if m.lang != "zh":
                continue
            group = m.groups[0]
            for _ in range(2):
                day = self.rng.randint(1, DAYS - 1)
                who = self.rng.choice(self.others(group, day, m.id))
                line = self.rng.choice(PRONOUN_LINES).format(n=self.call(m.id, group, day), **_pronouns(m.id))
                self.say(self.moment(day), group, who, line)
            last = DAYS - 1 if m.silent_after is None else m.silent_after
            if self.rng.random() < 0.5:
                self.say(self.moment(self.rng.randint(0, last)), group, m.id, self.rng.choice(SELF_LINES[m.gender]))

    def silent_mentions(self) -> None:
        for m in CAST:
            if m.silent_after is not None:
                group = m.groups[0]
                day = self.rng.randint(110, 140)
                who = self.rng.choice(self.others(group, day, m.id))
                text = "小雨好久没冒泡了" if LANG[group] == "zh" else f"haven't seen {m.names[0][0]} around in ages"
                self.say(self.moment(day), group, who, text)

    # filler

    def filler(self, count: int) -> None:
        """Bursts of small talk until count messages: a few chatty members, most rarely speak."""
        weights = {STUDY: 0.36, HOBBY: 0.32, COFFEE: 0.32}
        start = len(self.drafts)
        while len(self.drafts) - start < count:
            group = self.rng.choices(list(weights), list(weights.values()))[0]
            day = self.rng.randrange(DAYS)
            ts = self.moment(day, 7, 24)
            previous = ""
            for _ in range(min(self.rng.randint(2, 9), count - (len(self.drafts) - start))):
                ts += timedelta(seconds=self.rng.randint(5, 240))
                if _day_of(ts) >= DAYS:
                    break
                previous = self.filler_line(ts, group, previous)
            if self.rng.random() < 0.05 and len(self.drafts) - start + 2 <= count:
                self.agent_exchange(ts + timedelta(seconds=30), group)

    def filler_line(self, ts: datetime, group: str, previous: str) -> str:
        day = _day_of(ts)
        speakers = self.others(group, day)
        speaker = self.rng.choices(speakers, [BY_ID[p].activity for p in speakers])[0]
        lang = LANG[group]
        roll = self.rng.random()
        text = previous
        if roll < 0.08 and day >= USES_FROM:
            target = self.rng.choice([p for p in self.others(group, day, speaker) if BY_ID[p].silent_after is None])
            text = self.rng.choice(MENTION[lang]).format(x=self.call(target, group, day))
        elif roll < 0.1 and (ts.weekday(), lang) in WEEKDAY_LINES:
            text = WEEKDAY_LINES[(ts.weekday(), lang)]
        pool = FILLER[group] if roll < 0.4 else FILLER[lang]
        while text == previous:  # nobody repeats the line just said
            text = self.rng.choice(pool).format(food=self.rng.choice(FOOD[lang]), k=self.rng.randint(3, 12))
        self.say(ts, group, speaker, text)
        return text

    def agent_exchange(self, ts: datetime, group: str) -> None:
        lang = LANG[group]
        asker = self.rng.choice(self.others(group, _day_of(ts)))
        q, a = self.rng.choice(AGENT_QA[lang])
        self.say(ts, group, asker, f"@{AGENT[lang]} {q}")
        reply = a.format(weekday=WEEKDAYS[ts.weekday()])
        self.say(ts + timedelta(seconds=self.rng.randint(3, 20)), group, None, reply)

    # assembly

    def messages(self) -> tuple[tuple[Message, ...], dict[str, int]]:
        out: list[Message] = []
        where: dict[str, int] = {}
        for d in sorted(self.drafts, key=lambda d: (d.ts, d.order)):
            idx = len(out)
            if d.key:
                where[d.key] = idx
            day = d.ts.date().isoformat()
            if d.scope.startswith("dm:"):
                pid = d.scope[3:]
                group_id, user_id, session = None, pid, f"dm:{pid}:{day}"
            else:
                group_id, user_id, session = d.scope, None, f"{d.scope}:{day}"
            actor_id, role = groupchat_im.speaker_of(d.speaker)  # the agent, a member, or a system notice
            actor = _name_at(actor_id, _day_of(d.ts)) if actor_id else None
            out.append(Message(idx, group_id, user_id, session, actor_id, actor, role, d.text, _iso(d.ts)))
        return tuple(out), where


def generate(seed: int = 0, *, messages: int = 3000, im: bool = False) -> Scenario:
    """Build the scenario for ``seed``: at least ``messages`` messages (the script alone is ~190).
    ``im``: with the shapes of real IM groups beside them (groupchat_im.py: replies several
    messages later, "@提问的人 …" answers, system notices, media placeholders, no session ids).

    Deterministic: the same seed gives the same scenario, byte for byte, in JSON.

    >>> a, b = generate(1, messages=300), generate(1, messages=300)
    >>> a == b and len(a.messages) >= 300
    True
    """
    if messages < 0:
        raise InvalidInput(f"messages: must be >= 0, got {messages}")
    b = _Builder(seed)
    b.intros()
    b.facts()
    b.plans()
    b.renames()
    b.used_forms()
    b.gender_lines()
    b.silent_mentions()
    b.filler(max(0, messages - len(b.drafts)))
    threads = groupchat_im.add(b, seed, _name_at, START) if im else []
    msgs, where = b.messages()
    if im:
        msgs = groupchat_im.finish(msgs, where, threads)
    end = _iso(START + timedelta(days=DAYS, hours=10))
    checks = _Checks(b, msgs, where, end)
    scenario = Scenario(
        seed=seed,
        people=_people(),
        groups=tuple(Group(gid, name, tuple(m.id for m in CAST if gid in m.groups)) for gid, name, _ in GROUPS),
        messages=msgs,
        questions=checks.questions(),
        profile_checks=checks.profiles(),
        followups=tuple(
            FollowUp(pid, g, _iso(at), b.rng.choice(FOLLOW_Q[LANG[g]]), expect, why)
            for pid, g, at, expect, why in sorted(b.follow, key=lambda f: f[2])
        ),
        alias_checks=checks.aliases(),
        subject_checks=checks.subjects(),
        leak_probes=checks.probes(),
        cues=checks.cues(),  # last: it draws from the random stream after every other check
        # a stream of their own: these questions change no other check (issue 44 §3)
        person_questions=person_questions(seed, {k: [s for _, s, _ in v] for k, v in b.stmts.items()}, end),
    )
    return _with_threads(scenario, threads, where, end) if im else scenario


def _with_threads(scenario: Scenario, threads: list[groupchat_im.Thread], where: dict[str, int],
                  end: str) -> Scenario:
    """The scenario with a question for each IM thread. A thread said twice (on two days) is asked
    once, both answers its evidence."""
    same: dict[tuple[str, str], list[groupchat_im.Thread]] = {}
    for t in threads:
        same.setdefault((t.group, t.query), []).append(t)
    asked = tuple(Question(f"q{len(scenario.questions) + i:03d}", ts[0].query, ts[0].group, None, ts[0].asker, end,
                           tuple(sorted(where[t.key] for t in ts)), "reply", ts[0].answer)
                  for i, ts in enumerate(same.values()))
    return dataclasses.replace(scenario, questions=scenario.questions + asked)


def _people() -> tuple[Person, ...]:
    out = []
    for m in CAST:
        names = tuple((n, (START + timedelta(days=d)).date().isoformat()) for n, d in m.names)
        out.append(Person(m.id, names, (m.nick,) if m.nick else (), m.lang, m.groups))
    return tuple(out)


class _Checks:
    """Questions and checks read off the script and where its messages landed."""

    def __init__(self, b: _Builder, msgs: Sequence[Message], where: dict[str, int], end: str) -> None:
        self.b, self.msgs, self.where, self.end = b, msgs, where, end
        self.rng = b.rng
        self.qs: list[Question] = []

    def ev(self, fact: ScriptFact, scope: str) -> tuple[int, ...]:
        return tuple(sorted(self.where[k] for k, s, _ in self.b.stmts[fact.key] if s == scope))

    def ask(self, query: str, scope: str, subject: str, ev: tuple[int, ...], kind: str, answer: str) -> None:
        if scope.startswith("dm:"):
            group_id, user_id, asker = None, subject, subject
        else:
            group_id, user_id = scope, None
            asker = self.rng.choice(self.b.others(scope, DAYS, subject))
        self.qs.append(Question(f"q{len(self.qs):03d}", query, group_id, user_id, asker, self.end, ev, kind, answer))

    def questions(self) -> tuple[Question, ...]:
        for fact in FACTS:
            if fact.key.endswith(".old"):
                continue  # only the current value is asked for
            if fact.kind == "private":
                self.ask(fact.ask, f"dm:{fact.pid}", fact.pid, self.ev(fact, f"dm:{fact.pid}"), "fact", fact.value)
                continue
            for scope in dict.fromkeys(s for _, s, _ in self.b.stmts[fact.key]):
                self.fact_questions(fact, scope)
        for (pid, group), keys in self.b.intro_keys.items():
            tmpl = "你认识{k}吗" if LANG[group] == "zh" else "do you know {k}?"
            ev = tuple(self.where[k] for k in keys)
            self.ask(tmpl.format(k=BY_ID[pid].nick), group, pid, ev, "who", BY_ID[pid].names[0][0])
        for plan in PLANS:
            if plan.ask:
                query = plan.ask.format(n=_name_at(plan.pid, DAYS))
                self.ask(query, plan.group, plan.pid, (self.where[plan.key],), "fact", plan.answer)
        return tuple(self.qs)

    def cues(self) -> tuple[Question, ...]:
        """Each group fact's cue in each group it was said in: the chat's last lines, in which a
        member names its person on a topic the fact bears on, without its words (``CUES``); the
        evidence is that person's current facts on the topic in that group."""
        out: list[Question] = []
        for fact in FACTS:
            if fact.key.endswith(".old") or fact.kind == "private":
                continue
            topic = TOPIC.get(fact.kind, fact.kind)
            related = [f for f in FACTS if f.pid == fact.pid and TOPIC.get(f.kind, f.kind) == topic
                       and not f.key.endswith(".old")]
            for scope in dict.fromkeys(s for _, s, _ in self.b.stmts[fact.key]):
                ev = tuple(sorted({i for f in related for i in self.ev(f, scope)}))
                asker, chat = self.cue_chat(fact, scope)
                out.append(Question(f"c{len(out):03d}", chat, scope, None, asker, self.end, ev, "cue", fact.value))
        return tuple(out)

    def cue_chat(self, fact: ScriptFact, scope: str) -> tuple[str, str]:
        """Who gives the cue, and the chat: one or two lines of small talk, the cue, and now and
        then a chime after it."""
        lang, rng = LANG[scope], self.rng
        talk = self.b.others(scope, DAYS, fact.pid)
        lines = [(rng.choice(talk), rng.choice(FILLER[lang]).format(food=rng.choice(FOOD[lang]), k=rng.randint(3, 12)))
                 for _ in range(rng.randint(1, 2))]
        asker = rng.choice(talk)
        lines.append((asker, rng.choice(CUES[(fact.kind, lang)]).format(n=self.b.call(fact.pid, scope, DAYS))))
        if rng.random() < 0.5:
            lines.append((rng.choice(talk), rng.choice(CHIME[lang])))
        return asker, "\n".join(f"{_name_at(who, DAYS)}: {text}" for who, text in lines)

    def fact_questions(self, fact: ScriptFact, scope: str) -> None:
        m = BY_ID[fact.pid]
        lang = LANG[scope]
        change = fact.key in REPLACED
        tmpl = ASK[(fact.kind + (".now" if change else ""), lang)]
        ev = self.ev(fact, scope)
        said_as = self.msgs[ev[0]].actor if self.msgs[ev[0]].actor_id == fact.pid else None
        said_day = _day_of(datetime.fromisoformat(self.msgs[ev[0]].timestamp))
        if m.silent_after is not None:
            kind, name = "silent", _name_at(m.id, DAYS)
        elif len(m.names) > 1:
            # Ask with the name the fact was not said under: the new one for old facts, and back.
            shown = said_as or _name_at(m.id, said_day)
            kind, name = "rename", next(n for n, _ in reversed(m.names) if n != shown)
        else:
            kind, name = ("job_change" if change and fact.kind == "employer" else "fact"), m.names[-1][0]
        self.ask(tmpl.format(n=name), scope, m.id, ev, kind, fact.value)
        if (m.id, scope) in KNOWN_NICK:
            nick_kind = "silent" if kind == "silent" else "job_change" if kind == "job_change" else "nickname"
            self.ask(tmpl.format(n=m.nick), scope, m.id, ev, nick_kind, fact.value)

    def probes(self) -> tuple[LeakProbe, ...]:
        out: list[LeakProbe] = []
        for fact in FACTS:
            if fact.key.endswith(".old"):
                continue
            m = BY_ID[fact.pid]
            said = {s for _, s, _ in self.b.stmts[fact.key]}
            for group in m.groups:
                if group not in said:
                    name = m.nick if (m.id, group) in KNOWN_NICK else _name_at(m.id, DAYS)
                    out.append(LeakProbe(group, self.probe_query(fact, group, name), self.outside(fact, group)))
            for other in CAST:  # the same nickname means someone else in the other person's groups
                if other.id != m.id and other.nick and other.nick == m.nick:
                    for group in other.groups:
                        if (other.id, group) in KNOWN_NICK and group not in said:
                            query = self.probe_query(fact, group, m.nick)
                            out.append(LeakProbe(group, query, self.outside(fact, group)))
        return tuple(out)

    def probe_query(self, fact: ScriptFact, group: str, name: str) -> str:
        if fact.kind == "private":
            return fact.leak.format(n=name)
        return ASK[(fact.kind, LANG[group])].format(n=name)

    def outside(self, fact: ScriptFact, group: str) -> tuple[int, ...]:
        return tuple(sorted(self.where[k] for k, s, _ in self.b.stmts[fact.key] if s != group))

    def profiles(self) -> tuple[ProfileCheck, ...]:
        out: list[ProfileCheck] = []
        for m in CAST:
            mine = [f for f in FACTS if f.pid == m.id]
            if not mine:
                continue
            for view in (*m.groups, None):
                check = self.profile(m, mine, view)
                if check.present or check.absent:
                    out.append(check)
        return tuple(out)

    def profile(self, m: CastMember, mine: list[ScriptFact], view: str | None) -> ProfileCheck:
        present: list[str] = []
        absent: list[tuple[str, str]] = []
        for f in mine:
            values = (f.value, f.extra) if f.kind == "school" else (f.value,)
            said = {s for _, s, _ in self.b.stmts[f.key]}
            if f.key.endswith(".old"):
                absent += [(v, "replaced") for v in values]
            elif f.kind == "private":
                if view is not None:  # the global view's policy on private facts is not ours to pin
                    absent += [(v, "said in a private chat") for v in values]
            elif view is None or view in said:
                present += values
            else:
                absent += [(v, "said only in another group") for v in values]
        for a, b, why in LOOKALIKES:
            if m.id in (a, b):
                other = b if m.id == a else a
                owner = f"belongs to {BY_ID[other].names[0][0]} ({why})"
                absent += [(f.value, owner) for f in FACTS if f.pid == other and f.kind != "private"]
        kept = [(v, w) for v, w in absent if not any(v in p or p in v for p in present)]
        why = "; ".join([f"{view or 'global'} view", *dict.fromkeys(f"{v}: {w}" for v, w in kept)])
        return ProfileCheck(m.id, view, tuple(present), tuple(dict.fromkeys(v for v, _ in kept)), why)

    def subjects(self) -> tuple[SubjectCheck, ...]:
        out = []
        for fact in FACTS:
            for key, _, subject in self.b.stmts[fact.key]:
                out.append(SubjectCheck(self.where[key], subject, fact.value))
        for plan in PLANS:
            out.append(SubjectCheck(self.where[plan.key], plan.pid, plan.label))
        return tuple(sorted(out, key=lambda c: c.message_idx))

    def aliases(self) -> tuple[AliasCheck, ...]:
        out: list[AliasCheck] = []
        for pid, group, *_ in INTROS:
            tmpl = self.rng.choice(ALIAS_ONE[LANG[group]])
            out.append(AliasCheck(tmpl.format(x=BY_ID[pid].nick), group, (pid,)))
        for m in CAST:
            if len(m.names) > 1:
                for name, _ in m.names:  # old and new display names both still name them
                    tmpl = self.rng.choice(ALIAS_ONE[LANG[m.groups[0]]])
                    out.append(AliasCheck(tmpl.format(x=name), m.groups[0], (m.id,)))
            elif not m.nick and m.silent_after is None:
                group = m.groups[-1]
                first = m.names[0][0].split()[0]  # an English first name names them too
                tmpl = self.rng.choice(ALIAS_ONE[LANG[group]])
                out.append(AliasCheck(tmpl.format(x=first), group, (m.id,)))
        out += [AliasCheck(t, g, e) for t, g, e in ALIAS_MULTI]
        out += [AliasCheck(t, g, e) for t, g, e in ALIAS_FORMS]
        out += [AliasCheck(t, g, ()) for t, g in ALIAS_NEGATIVE]
        return tuple(out)
