"""The shapes real QQ / WeChat groups have (issue 44 §2), added to a generated scenario when
``generate(..., im=True)``: questions answered several messages later by someone else while
another thread goes on — by a quoted reply (「群名片：原文」), by an answer that is only
"@提问的人 …", or by the platform's reply id; system notices (renames, a member who leaves and
comes back under a new card, recalls, 拍一拍, joins); media placeholders ("[图片]", "[语音] 8\\"");
and no session ids (the platform sends message ids instead).

Everything here is added beside the base scenario's messages, drawn from its own random stream,
so the base messages and checks are those of ``im=False``; each answer is the evidence of a
question of kind "reply" whose words are the question's, not the answer's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from .groupchat_data import BY_ID, CAST, COFFEE, DAYS, HOBBY, LANG, STUDY

# group, asker, answerer, question, answer, the question as asked later, a word of the answer, shape
THREADS: tuple[tuple[str, str, str, str, str, str, str, str], ...] = (
    (STUDY, "p_chenhao", "p_huangli", "有人有去年的政治真题吗？纸质版那种", "我有一套肖秀荣的，明天带给你",
     "谁有去年的政治真题", "肖秀荣", "at"),
    (STUDY, "p_zhouni", "p_xuwentao", "周末谁能帮我搬家？东西不多，从五道口搬到回龙观", "我可以，周六上午有空，我开车",
     "谁答应帮周霓搬家", "我开车", "at"),
    (STUDY, "p_huangli", "p_gaofeng", "图书馆几点关门来着", "十点半，周五提前到九点", "图书馆几点关门",
     "十点半", "quote"),
    (STUDY, "p_liuyang", "p_chenhao", "英语一的作文模板谁有推荐的吗", "王江涛的就行，背十篇够了",
     "英语作文模板推荐哪个", "王江涛", "reply_id"),
    (STUDY, "p_yangfan", "p_zhouni", "有人知道研招网什么时候开始网上确认吗", "11月初，学校官网会发通知",
     "网上确认什么时候开始", "11月初", "at"),
    (STUDY, "p_xuwentao", "p_huangli", "数学二考不考三重积分？", "不考，二重积分考", "数学二考三重积分吗",
     "二重积分", "quote"),
    (HOBBY, "p_zhaolei", "p_zhangwei", "这周六的场地订好了吗？", "订好了，三号场地，下午两点到四点",
     "周六的羽毛球场地订了没", "三号场地", "at"),
    (HOBBY, "p_zhouyi", "p_kk", "有没有人有多余的羽毛球拍可以借我一下", "我有一支闲置的尤尼克斯，拿去用",
     "谁能借周怡羽毛球拍", "尤尼克斯", "reply_id"),
    (HOBBY, "p_lijingyi", "p_zhaolei", "下次活动的AA费用是多少啊", "每人四十，场地加球", "羽毛球AA费多少钱",
     "四十", "at"),
    (HOBBY, "p_sunmeng", "p_zhouni", "附近哪里有穿线的店？", "体育馆东门那家，二十五一次", "哪里可以给球拍穿线",
     "东门", "quote"),
    (COFFEE, "p_priya", "p_alex", "Does anyone know a quiet cafe with good wifi near Jing'an?",
     "Try Seesaw on Yuyuan Road, plenty of sockets", "quiet cafe with wifi near Jing'an", "Seesaw", "at"),
    (COFFEE, "p_sam", "p_neko", "Who has a spare ticket for the PyCon meetup on Saturday?",
     "I do, my colleague dropped out, it's yours", "spare PyCon meetup ticket", "colleague dropped out", "reply_id"),
    (COFFEE, "p_david", "p_olivia", "Is the rooftop open on Sundays?", "Only until 6pm in winter",
     "rooftop open on Sundays", "6pm", "quote"),
    (COFFEE, "p_alex", "p_sam", "Anyone tried the new pour-over place on Wuding Road?",
     "Yes, their Yunnan beans are great but pricey", "new pour-over place on Wuding Road", "Yunnan beans", "at"),
)
# another thread that goes on between a question and its answer
SIDE = {
    "zh": [("今天食堂的麻辣烫还行", "明天去试试"), ("下午有人去自习室吗", "我三点到"), ("外面下雨了", "带伞了吗"),
           ("有人点奶茶吗", "我要一杯三分糖"), ("这周好累啊", "坚持住")],
    "en": [("it's pouring outside", "stay in, then"), ("anyone up for lunch?", "give me ten minutes"),
           ("the elevator is broken again", "stairs it is"), ("new laptop finally arrived", "nice, which one?")],
}
MEDIA = ("[图片]", "[语音] 8\"", "[表情]", "[动画表情]", "[链接]", "[图片][图片]", "[语音] 23\"", "[视频]")
MEDIA_EN = ("[Image]", "[Sticker]", "[Voice] 12\"", "[Link]")
LEAVE_AND_RETURN = "p_zhaolei"  # leaves under his first card, comes back as the second


class Builder(Protocol):
    """What this module needs of groupchat_gen's builder."""

    def say(self, ts: datetime, scope: str, speaker: str | None, text: str, key: str = "") -> None: ...
    def others(self, group: str, day: int, *exclude: str) -> list[str]: ...
    def moment(self, day: int, lo: int = 9, hi: int = 23) -> datetime: ...


@dataclass(frozen=True)
class Thread:
    key: str  # the answer's draft key
    question_key: str
    group: str
    asker: str
    query: str
    answer: str
    shape: str


SYSTEM = "system"  # a draft's speaker for a system notice


def add(b: Builder, seed: int, name_at: Any, start: datetime) -> list[Thread]:
    """Draft the IM shapes beside the base scenario; returns the question-and-answer threads."""
    rng = random.Random(seed * 7919 + 44)
    threads = []
    for n, (group, asker, answerer, question, answer, query, word, shape) in enumerate(THREADS * 2):
        day = rng.randint(30, DAYS - 5)
        ts = start + timedelta(days=day, seconds=rng.randrange(10 * 3600, 21 * 3600))
        qkey, akey = f"im.q{n}", f"im.a{n}"
        b.say(ts, group, asker, question, qkey)
        lang = LANG[group]
        side = [p for p in b.others(group, day, asker, answerer)]
        a_, c_ = rng.sample(side, 2)
        for line, reply in rng.sample(SIDE[lang], rng.randint(1, 2)):  # another thread meanwhile
            ts += timedelta(seconds=rng.randint(20, 90))
            b.say(ts, group, a_, line)
            ts += timedelta(seconds=rng.randint(10, 60))
            b.say(ts, group, c_, reply)
        ts += timedelta(seconds=rng.randint(30, 600))
        asked_by = name_at(asker, day)
        text = {"at": f"@{asked_by} {answer}", "quote": f"「{asked_by}：{question}」{answer}",
                "reply_id": answer}[shape]
        b.say(ts, group, answerer, text, akey)
        threads.append(Thread(akey, qkey, group, asker, query, word, shape))
    _notices(b, rng, name_at, start)
    _media(b, rng, start)
    return threads


def _notices(b: Builder, rng: random.Random, name_at: Any, start: datetime) -> None:
    for m in CAST:
        group = m.groups[0]
        for (old, _), (new, day) in zip(m.names, m.names[1:], strict=False):
            at = start + timedelta(days=day, hours=8, minutes=rng.randint(0, 50))
            if m.id == LEAVE_AND_RETURN:  # leaves, comes back two days later under the new card
                b.say(at - timedelta(days=2), group, SYSTEM, f"{old} 退出了群聊")
                b.say(at, group, SYSTEM, f"{new} 加入了群聊", f"im.join.{m.id}")
            elif LANG[group] == "zh":
                b.say(at, group, SYSTEM, f"{old} 修改群名片为 {new}")
            else:
                b.say(at, group, SYSTEM, f"{old} changed {'her' if m.gender == 'f' else 'his'} group nickname to {new}")
    for _ in range(40):  # recalls and pokes, now and then
        m = rng.choice([c for c in CAST if c.silent_after is None])
        group = rng.choice(m.groups)
        day = rng.randint(1, DAYS - 1)
        other = rng.choice(b.others(group, day, m.id))
        zh = LANG[group] == "zh"
        text = rng.choice([f"{name_at(m.id, day)} 撤回了一条消息", f"{name_at(m.id, day)} 拍了拍 {name_at(other, day)}"]
                          if zh else [f"{name_at(m.id, day)} recalled a message",
                                      f"{name_at(m.id, day)} nudged {name_at(other, day)}"])
        b.say(b.moment(day), group, SYSTEM, text)


def _media(b: Builder, rng: random.Random, start: datetime) -> None:
    for _ in range(150):  # pictures, voice notes, stickers and links with no words
        group = rng.choice([STUDY, HOBBY, COFFEE])
        day = rng.randint(0, DAYS - 1)
        who = rng.choice(b.others(group, day))
        b.say(b.moment(day), group, who, rng.choice(MEDIA if LANG[group] == "zh" else MEDIA_EN))


def finish(messages: tuple[Any, ...], where: dict[str, int], threads: list[Thread]) -> tuple[Any, ...]:
    """The messages as a platform sends them: no session ids, a message id on each, the reply id
    on each answer of shape "reply_id"."""
    replies = {where[t.key]: where[t.question_key] for t in threads if t.shape == "reply_id"}
    out = []
    for m in messages:
        meta: dict[str, Any] = {"message_id": f"m{m.idx}"}
        if m.idx in replies:
            meta["reply_to_message"] = f"m{replies[m.idx]}"
        out.append(replace(m, session_id="", metadata=meta))
    return tuple(out)


def speaker_of(pid: str | None) -> tuple[str | None, str]:
    """A draft speaker's (actor id, role)."""
    if pid is None:
        return None, "assistant"
    if pid == SYSTEM:
        return None, SYSTEM
    return pid, "user" if pid in BY_ID else SYSTEM
