"""Chinese: stop words, jieba words and character bigrams (FTS5's unicode61 does not split Chinese)."""

from __future__ import annotations

import logging
import re
import threading
from types import ModuleType

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")

# particles, pronouns and function verbs: general Chinese
STOPWORDS = frozenset(
    """的 了 是 在 我 你 他 她 它 我们 你们 他们 吗 呢 吧 啊 和 与 就 都 也 还 又 这 那 这个 那个 有 没有 一个
    什么 怎么 哪 哪里 多少 几 给 被 把 让 对 从 到 说 要 会 能 可以 很 太 得 地 着 过""".split()
)
# greetings, interjections and acknowledgements: a chat line made of these and stop words says
# nothing a memory could be about (text.dialogue skips it when it picks a dialogue's last say)
FILLER = frozenset(
    """嗯 嗯嗯 哦 噢 喔 哈 哈哈 哈哈哈 嘿 嘿嘿 呀 啦 嘛 哇 诶 欸 好 好的 好吧 行 行吧 对 对啊 对呀 是的 没错
    谢谢 多谢 感谢 你好 您好 早 早上好 晚安 拜拜 再见 嗯呢 收到 了解 明白 知道 ok 哟 呵呵 啊啊
    棒 太棒了 真棒 厉害""".split()
)

_lock = threading.Lock()
_jieba: ModuleType | None = None


def cut(run: str) -> list[str]:
    """jieba's words of a run of Chinese characters (loaded on first use: it takes ~1 s)."""
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return [w for w in _jieba.lcut(run) if w.strip()]


def warm(keywords: bool = False) -> None:
    """Load what jieba loads on first use, now: its dictionary (``cut``), its part-of-speech
    tags (people.resolve reads them on the first everyday alias met) and, with ``keywords``, its
    TF-IDF table (the diary's keywords). About 1-3 s on a loaded 2-core box, in the thread that
    calls it: a server and a worker call it off the event loop as they start, so that no first
    read (and no background step beside one) pays it.

    >>> warm()  # doctest: +SKIP
    """
    cut("人")
    import jieba.posseg  # noqa: F401 - its import reads the tag table and the HMM model

    if keywords:
        import jieba.analyse  # noqa: F401 - its import reads the IDF table


def bigrams(text: str) -> list[str]:
    """Character bigrams of the Chinese runs longer than two characters.

    jieba's words miss matches across different segmentations (预算案 / 预算); bigrams,
    indexed beside the words, catch them, as character n-grams do in Chinese IR.

    >>> bigrams("预算案 ok 好的")
    ['预算', '算案']
    """
    out: list[str] = []
    for run in CJK.findall(text):
        if len(run) > 2:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out
