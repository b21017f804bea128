"""How people really type in IM groups, as transforms of a clean clause (pure, seeded).

An opener glued on with no punctuation ("哈哈我下个月换工作了", "lol i quit"), emoji and
stickers at the end, "[图片]", a typo, no closing mark, lower case, a word of the other
script. Each takes the ``random.Random`` of the generator, so a seed gives the same clauses.
"""

from __future__ import annotations

import random
import re

OPENERS_ZH = ("哈哈", "哈哈哈", "诶", "对了", "话说", "卧槽", "害", "啊", "emm", "我跟你们说", "好消息", "告诉大家",
              "哦对", "嗯嗯", "hhh", "笑死", "唉", "家人们", "说个事", "各位")
OPENERS_EN = ("lol ", "omg ", "btw ", "haha ", "ok so ", "guess what ", "update: ", "ngl ", "fyi ", "so ", "ugh ",
              "yo ", "hey all, ", "news: ", "ha ")
TAILS_ZH = ("😂", "🤣", "👍", "🙏", "😭", "🎉", "✨", "[图片]", "~", "！！", "啦", "哈哈", "hhh", "233", "[捂脸]", "。",
            "！", "～～", " [表情]", "呢", "了")
TAILS_EN = ("😂", "👍", "🎉", "🙏", " lol", "!!", " haha", " :)", ".", "!", " [image]", " 😅", "...", " xD", " tbh")
_TYPO_ZH = {"在": "再", "的": "得", "了": "啦", "么": "嘛", "吗": "嘛", "他": "她", "做": "作", "那": "哪", "友": "有",
            "已": "以", "到": "道", "像": "象", "账": "帐", "带": "代", "想": "相", "候": "后", "作": "做", "是": "事"}
# the chat spellings of English: "im", "u", "ur", "dont"
_SLANG_EN = ((r"\bI'm\b", "im"), (r"\byou\b", "u"), (r"\byour\b", "ur"), (r"\bdon't\b", "dont"), (r"\bI've\b", "ive"),
             (r"\bcan't\b", "cant"), (r"\bgoing to\b", "gonna"), (r"\bright now\b", "rn"), (r"\bbecause\b", "cuz"))
# chatter glued on after the statement with no mark between
FILLERS_ZH = (" 哈哈哈哈", "好开心", " 累死了", "哈哈", " 冲", " 嘿嘿", "呜呜", " 绝了", " 救命", "嘻嘻")
FILLERS_EN = (" so yeah", " anyway", " lol", " haha", " ngl", " tbh", " fml", " yay", " finally")
_MIX = ("哈哈", "真的", "[图片]", "ok", "emmm", "lol")
_CONTRACTIONS = ((r"\bI am\b", "I'm"), (r"\bI have\b", "I've"), (r"\bdo not\b", "don't"), (r"\bdoes not\b", "doesn't"),
                 (r"\bis not\b", "isn't"), (r"\bare not\b", "aren't"), (r"\b(she|he|it) is\b", r"\1's"),
                 (r"\byou are\b", "you're"), (r"\bI will\b", "I'll"))


def typo_zh(rng: random.Random, text: str) -> str:
    spots = [i for i, ch in enumerate(text) if ch in _TYPO_ZH]
    if not spots:
        return text
    i = rng.choice(spots)
    return text[:i] + _TYPO_ZH[text[i]] + text[i + 1 :]


def typo_en(rng: random.Random, text: str) -> str:
    words = text.split(" ")
    longs = [i for i, w in enumerate(words) if len(w) > 4 and w.isalpha()]
    if not longs:
        return text
    i = rng.choice(longs)
    w = words[i]
    j = rng.randrange(1, len(w) - 1)
    words[i] = w[:j] + w[j + 1 :] if rng.random() < 0.5 else w[: j - 1] + w[j] + w[j - 1] + w[j + 1 :]
    return " ".join(words)


def im_shape(rng: random.Random, text: str, lang: str) -> str:
    """``text`` as a chat member might type it: each shape with its own chance."""
    zh = lang == "zh"
    if rng.random() < 0.25:
        text = rng.choice(OPENERS_ZH if zh else OPENERS_EN) + text
    if rng.random() < 0.12:
        text = typo_zh(rng, text) if zh else typo_en(rng, text)
    if not zh and rng.random() < 0.5:  # chats contract: "I'm", "I've", "don't"
        for full, short in _CONTRACTIONS:
            text = re.sub(full, short, text)
        if rng.random() < 0.3:
            for full, short in _SLANG_EN:
                text = re.sub(full, short, text)
    if not zh and rng.random() < 0.12 and re.match(r"I (?!am\b)\w", text):  # "started at Stripe monday"
        text = text[2:]
    if rng.random() < 0.08:
        text += rng.choice(FILLERS_ZH if zh else FILLERS_EN)
    if not zh:
        r = rng.random()
        text = text.lower() if r < 0.35 else (text[:1].upper() + text[1:] if r < 0.7 else text)
    if rng.random() < 0.35:
        text += rng.choice(TAILS_ZH if zh else TAILS_EN)
    if rng.random() < 0.04:
        text = f"{text} {rng.choice(_MIX)}" if zh else f"{text} {rng.choice(('哈哈', '真的', '[图片]'))}"
    if rng.random() < 0.05:
        text = "[图片]" + text if zh else "[image] " + text
    return text
