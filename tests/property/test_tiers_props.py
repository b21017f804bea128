"""Mid-term policy (nearest, joined, closest_pair) and extractive long-term summaries."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pmemo.embedders.base import normalise
from pmemo.tiers import mid_term
from pmemo.tiers.long_term import central_sentence, extractive_summary, sentences

DIM = 8
rows = (
    st.integers(min_value=1, max_value=12)
    .flatmap(lambda n: hnp.arrays(np.float32, (n, DIM), elements=st.floats(-1, 1, width=32)))
    .filter(lambda m: bool((np.linalg.norm(m, axis=1) > 1e-3).all()))
    .map(normalise)
)
unit = (
    hnp.arrays(np.float32, (DIM,), elements=st.floats(-1, 1, width=32))
    .filter(lambda v: float(np.linalg.norm(v)) > 1e-3)
    .map(normalise)
)


@given(unit, rows)
def test_nearest_is_the_most_similar_centroid(vec, centroids):
    best, sim = mid_term.nearest(vec, centroids)
    sims = centroids @ vec
    assert 0 <= best < len(centroids)
    assert sim == float(sims[best]) == float(sims.max())
    assert -1.0 - 1e-5 <= sim <= 1.0 + 1e-5


def test_nearest_with_no_centroids():
    assert mid_term.nearest(normalise(np.ones(DIM)), np.zeros((0, 0), dtype=np.float32)) == (
        -1,
        -1.0,
    )


@given(unit, st.integers(min_value=1, max_value=50), unit)
def test_joined_is_the_normalised_running_mean(centroid, size, vec):
    out = mid_term.joined(centroid, size, vec)
    expected = centroid * size + vec
    if np.linalg.norm(expected) > 1e-3:
        assert abs(float(np.linalg.norm(out)) - 1.0) < 1e-4
        assert np.allclose(out, expected / np.linalg.norm(expected), atol=1e-5)
        # the new member pulls the centroid toward itself, never away
        assert float(out @ vec) >= float(centroid @ vec) - 1e-5


@given(rows.filter(lambda m: len(m) >= 2))
def test_closest_pair_is_the_most_similar_distinct_pair(centroids):
    i, j = mid_term.closest_pair(centroids)
    assert 0 <= i < j < len(centroids)
    sims = centroids @ centroids.T
    best = max(
        float(sims[a, b]) for a in range(len(centroids)) for b in range(len(centroids)) if a != b
    )
    assert float(sims[i, j]) >= best - 1e-6


@given(rows, unit)
def test_most_central_row(vectors, centroid):
    row = mid_term.most_central(vectors, centroid)
    sims = vectors @ centroid
    assert float(sims[row]) == float(sims.max())


# ---- extractive summaries -------------------------------------------------------------
sentence_text = st.text(
    alphabet=st.sampled_from(list("预算不能超过万元上线日期abcdefg xyz 0123。.!?！？\n")),
    max_size=300,
)
turn_lists = st.lists(sentence_text, min_size=1, max_size=12)
LINE = re.compile(r"(?:^| )S(\d+): ")


def parts_of(summary: str) -> list[tuple[int, str]]:
    """Split 'S0: text S3: text' back into (turn index, text)."""
    marks = list(LINE.finditer(summary))
    assert not summary or (marks and marks[0].start() == 0), summary
    out = []
    for n, m in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(summary)
        out.append((int(m.group(1)), summary[m.end() : end]))
    return out


@given(turn_lists, st.data(), st.integers(min_value=10, max_value=400))
def test_extractive_summary_never_exceeds_max_chars(texts, data, max_chars):
    centrality = data.draw(st.lists(st.floats(-1, 1), min_size=len(texts), max_size=len(texts)))
    out = extractive_summary([(f"S{i}", t) for i, t in enumerate(texts)], centrality, max_chars)
    assert len(out) <= max_chars


def test_extractive_summary_budget_after_a_cut_first_line():
    # regression: a first line cut to max_chars used to leave the budget unspent, so more
    # lines were appended after it (214 chars for a 200-char limit)
    out = extractive_summary([("A", "x" * 300), ("B", "short one.")], [1.0, 0.5], 200)
    assert len(out) <= 200


@given(turn_lists, st.data(), st.integers(min_value=10, max_value=400))
def test_extractive_summary_is_verbatim(texts, data, max_chars):
    centrality = data.draw(st.lists(st.floats(-1, 1), min_size=len(texts), max_size=len(texts)))
    out = extractive_summary([(f"S{i}", t) for i, t in enumerate(texts)], centrality, max_chars)
    parts = parts_of(out)
    assert [i for i, _ in parts] == sorted({i for i, _ in parts})  # conversation order, no repeats
    for i, body in parts:
        said = sentences(texts[i])
        if body.endswith("…") and body not in said:
            assert any(s.startswith(body[:-1]) for s in said)  # cut, never invented
        else:
            assert body in said  # a sentence exactly as it was said
            assert body in texts[i]
    if any(sentences(t) for t in texts):
        assert out  # something is always kept


def test_extractive_summary_prefers_what_is_told_over_greetings_and_questions():
    turns = [("Mel", "Hey Caroline! Thanks, that's great!"),
             ("Caroline", "Hi Mel! I went to an LGBTQ support group yesterday, it was so powerful."),
             ("Mel", "Wow, what did you do there?")]
    out = extractive_summary(turns, [0.9, 0.5, 0.9], 90)
    assert out == "Caroline: I went to an LGBTQ support group yesterday, it was so powerful."


def test_extractive_summary_picks_the_most_central_turns_in_order():
    turns = [
        ("Louis", "第一，项目总预算不能超过10万元人民币。这是硬上限。"),
        ("assistant", "好的。"),
        ("Louis", "Launch is on April 15. Please remember it!"),
    ]
    out = extractive_summary(turns, [0.9, 0.1, 0.8], 60)
    assert out == "Louis: 第一，项目总预算不能超过10万元人民币。 Louis: Launch is on April 15."


@given(sentence_text.filter(lambda t: t.strip()), st.integers(min_value=2, max_value=300))
def test_central_sentence_fits_and_is_verbatim(text, max_chars):
    line = central_sentence(text, max_chars)
    assert len(line) <= max_chars
    assert line in text or (line.endswith("…") and line[:-1] in text)
