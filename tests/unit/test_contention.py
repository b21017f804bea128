"""Contention (the busy CPU share at this process's priority) and the e5 query's thread choice that uses it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from pmemo.embedders.contention import Contention, niced, read_at_our_priority, read_proc_stat


def readings(*values):
    it = iter(values)
    return lambda: next(it)


def test_busy_share_over_each_interval():
    # (all, busy) jiffies, this process's own among the busy ones
    c = Contention(window=0.0, read=readings((0, 0), (400, 200), (800, 200), (1200, 600)))
    assert c.busy() is None  # no interval yet
    assert c.busy() == pytest.approx(0.5)  # 200 busy out of 400, whoever's
    assert c.busy() == 0.0  # nothing busy
    assert c.busy() == 1.0  # every core


def test_readings_closer_than_the_window_repeat_the_last():
    clock = readings(0.0, 1.0, 1.1, 1.5)
    c = Contention(window=0.25, read=readings((0, 0), (100, 50), (200, 50)), clock=clock)
    assert c.busy() is None
    assert c.busy() == 0.5
    assert c.busy() == 0.5  # 0.1 s later: not read again
    assert c.busy() == 0.0


def test_unreadable_stat_means_unknown(tmp_path: Path):
    c = Contention(read=lambda: read_proc_stat(str(tmp_path / "missing")))
    assert c.busy() is None


def test_proc_stat_nice_counts_when_asked_steal_always(tmp_path: Path):
    stat = tmp_path / "stat"
    #                 user nice system idle iowait irq softirq steal guest guest_nice
    stat.write_text("cpu  10 500 20 1000 5 1 2 30 0 0\ncpu0 ...\n")
    assert read_proc_stat(str(stat)) == (1568, 63)
    assert read_proc_stat(str(stat), count_nice=True) == (1568, 563)


def test_niced_time_counts_when_this_process_is_niced():
    # a niced process gives its core back only to one that is not: at nice 10, another niced
    # process is as much in the query's way as one at full priority
    counted = niced()
    before = read_proc_stat(count_nice=counted)[1]
    total, busy = read_at_our_priority()
    after = read_proc_stat(count_nice=counted)[1]
    assert total > 0 and before <= busy <= after  # the counters only grow


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/stat is Linux's")
def test_proc_stat_is_read_here():
    total, busy = read_proc_stat()
    assert total > busy >= 0


class Crowded:
    def __init__(self, share):
        self.share = share

    def busy(self):
        return self.share


def test_e5_query_runs_on_one_thread_when_another_process_holds_a_core():
    from pmemo.embedders.e5 import E5Embedder

    e5 = E5Embedder()
    if e5._omp is None or e5._cores < 2:
        pytest.skip("one core, or no OpenMP runtime to set")
    alone = e5.embed_query("where did Mei go in May?")
    e5._contention = Crowded(1.0)
    crowded = e5.embed_query("where did Mei go in May?")
    assert e5._threads == 1
    assert np.allclose(alone, crowded, atol=1e-5)  # the same vector, one thread
    e5.embed_passages(["Mei went to Lisbon in May.", "Bo stayed home."])
    assert e5._threads == 1  # passages run on one thread always: the other cores are the readers'
    e5._contention = Crowded(0.0)
    e5.embed_query("where did Mei go in May?")
    assert e5._threads == e5._cores
