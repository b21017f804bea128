"""``pmemo eval llmcost`` (issue 44 §8): the scripted LLM answers exactly the facts (and, to the
graph's triples prompt, the links) of the lines it is sent, and the replay counts calls and
tokens of both modes in one run: the facts call, the graph's, and the other prompts."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from pmemo.cli import eval_cmd
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.llm_cost import _SAID_TWICE, LINKS, Truth, TruthLLM, replay_cost, table, truths
from pmemo.graph.llm import CHATS_SYSTEM as TRIPLES_CHATS
from pmemo.graph.llm import CLAUSES_SYSTEM as TRIPLES_CLAUSES
from pmemo.graph.llm import SYSTEM as TRIPLES_SYSTEM
from pmemo.prompts.facts import CHATS_SYSTEM, CLAUSES_SYSTEM, MESSAGES_SYSTEM
from pmemo.prompts.summary import SUMMARY_SYSTEM

ALLERGY = Truth(7, "哈哈，提醒一下，周霓对花生过敏，点菜注意", "2025-09-10", "花生", "allergy", "周霓", "p_zhouni")
PLAN = Truth(9, "周六我去杭州出差", "2025-09-10", "出差", "plan", "", "p_hexin")


def facts_of(llm: TruthLLM, system: str, user: str) -> list[dict[str, object]]:
    return list(json.loads(llm._answer(system, user))["facts"])


def test_the_scripted_llm_answers_the_facts_of_the_lines_it_is_sent() -> None:
    llm = TruthLLM([ALLERGY])
    sent = "(context) 2025-09-10 Bo: 今天吃什么\n[3] 2025-09-10 黄丽: 周霓对花生过敏，"
    [fact] = facts_of(llm, CLAUSES_SYSTEM, sent)
    assert (fact["clause"], fact["value"], fact["about"]) == (3, "花生", "周霓") and llm.seen == {7}
    other = TruthLLM([ALLERGY])
    assert facts_of(other, CLAUSES_SYSTEM, "[0] 2025-09-10 黄丽: 点菜注意") == []  # a clause without the fact
    assert facts_of(other, CLAUSES_SYSTEM, "(context) 2025-09-10 黄丽: 哈哈，提醒一下，周霓对花生过敏，点菜注意") == []
    assert facts_of(other, CLAUSES_SYSTEM, "[0] 2025-09-11 黄丽: 周霓对花生过敏，") == []  # another day's
    assert other.seen == set()
    whole = TruthLLM([ALLERGY])
    [fact] = facts_of(whole, MESSAGES_SYSTEM, "[5] 2025-09-10 黄丽: 哈哈，提醒一下，周霓对花生过敏，点菜注意")
    assert fact["message"] == 5
    written = json.loads(whole._answer(SUMMARY_SYSTEM, "At most 200 characters.\n\n[5] 2025-09-10 黄丽: x"))
    assert written["summary"] == written["entry"] == "[5] 2025-09-10 黄丽: x"  # another prompt: a short text


def test_the_scripted_llm_answers_each_chat_section_with_its_chat() -> None:
    llm = TruthLLM([ALLERGY, PLAN])
    sent = "\n".join(["## chat 1", "[0] 2025-09-10 黄丽: 周霓对花生过敏，", "## chat 2",
                      "(context) 2025-09-10 Bo: 今天吃什么", "[1] 2025-09-10 何欣: 周六我去杭州出差"])
    facts = facts_of(llm, CHATS_SYSTEM, sent)
    assert [(f["clause"], f["chat"], f["value"]) for f in facts] == [(0, 1, "花生"), (1, 2, "出差")]
    [triple] = json.loads(llm._answer(TRIPLES_CHATS, sent))["triples"]
    assert (triple["clause"], triple["chat"], triple["object"]) == (0, 1, "花生")
    alone = facts_of(TruthLLM([ALLERGY]), CLAUSES_SYSTEM, "[0] 2025-09-10 黄丽: 周霓对花生过敏，")
    assert [f["chat"] for f in alone] == [None]  # a prompt of one chat has no sections


def test_the_scripted_llm_answers_the_links_of_the_lines_it_is_sent() -> None:
    llm = TruthLLM([ALLERGY, PLAN])
    sent = "\n".join(["(context) 2025-09-10 Bo: 今天吃什么", "[3] 2025-09-10 黄丽: 周霓对花生过敏，",
                      "[4] 2025-09-10 何欣: 周六我去杭州出差"])
    [triple] = json.loads(llm._answer(TRIPLES_CLAUSES, sent))["triples"]
    said = (triple["clause"], triple["subject"], triple["predicate"], triple["object"])
    assert said == (3, "周霓", "allergic_to", "花生")
    assert llm.linked == {7} and llm.seen == set()  # a plan is no link; the facts call was not asked
    whole = TruthLLM([ALLERGY])
    whole_message = "[5] 2025-09-10 黄丽: 哈哈，提醒一下，周霓对花生过敏，点菜注意"
    [triple] = json.loads(whole._answer(TRIPLES_SYSTEM, whole_message))["triples"]
    assert triple["message"] == 5
    assert json.loads(whole._answer(TRIPLES_CLAUSES, "(context) 2025-09-10 黄丽: 周霓对花生过敏"))["triples"] == []


def test_the_truth_is_every_scripted_statement() -> None:
    s = generate(0, messages=300)
    known = truths(s)
    assert len(known) == len(s.subject_checks) and {t.kind for t in known} >= {"allergy", "employer", "plan"}
    assert all(t.value.casefold() in t.text.casefold() or t.kind in ("private", "plan") for t in known)
    assert {t.kind for t in known if t.kind in LINKS} >= {"employer", "city", "pet"}
    assert all(t.subject.startswith("p_") for t in known)


def test_both_modes_in_one_run_with_calls_and_tokens(tmp_path: Path) -> None:
    report = replay_cost(generate(0, messages=300), embedder="hashing", data_dir=tmp_path, drain_every=1)
    pre, every = report["prefilter"], report["every message"]
    assert every["sent"] == every["recall"] == 1.0  # sent everything, the scripted LLM misses nothing
    assert 0.9 <= pre["sent"] <= 1.0 and pre["recall"] <= pre["sent"]
    assert pre["calls"] < every["calls"] and pre["prompt_tokens"] < every["prompt_tokens"]
    assert report["prompt_tokens_ratio"] > 1 and pre["completion_tokens"] > 0
    # the graph's triples call: fewer calls and tokens with the pre-filter, its links recalled
    assert every["links_sent"] == every["link_recall"] == 1.0
    assert 0.9 <= pre["links_sent"] <= 1.0 and pre["link_recall"] <= 1.0
    assert pre["graph_calls"] < every["graph_calls"] and pre["graph_prompt_tokens"] < every["graph_prompt_tokens"]
    assert abs(pre["both_prompt_tokens"] - pre["prompt_tokens"] - pre["graph_prompt_tokens"]) <= 1  # rounded apart
    assert report["both_prompt_tokens_ratio"] > 1 and 0 < pre["shared_call_saves_at_most"] < pre["graph_prompt_tokens"]
    assert all(sentence in TRIPLES_SYSTEM for sentence in _SAID_TWICE)  # what a shared call would not repeat
    assert abs(pre["all_prompt_tokens"] - pre["both_prompt_tokens"] - pre["other_prompt_tokens"]) <= 1
    # the diary, summary and episode prompts: no filler, a repeated line once (prompts.sift)
    assert pre["other_prompt_tokens"] < every["other_prompt_tokens"] and report["other_prompt_tokens_ratio"] > 1
    assert set(pre["other_by_prompt"]) == set(every["other_by_prompt"])
    assert "calls (prefilter)" in table({"runs": [report]})
    assert not any(name.startswith(("You extract facts", "You extract a graph")) for name in pre["other_by_prompt"])
    assert sum(k["n"] for k in pre["per_kind"].values()) == report["statements"]
    assert "| 1 | prefilter |" in table({"runs": [report]}) and "facts + graph" in table({"runs": [report]})


def test_the_command_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "out"
    app = typer.Typer()
    app.callback()(lambda: None)  # a group: the command is "eval", as in pmemo
    eval_cmd.register(app)
    result = CliRunner().invoke(app, ["eval", "llmcost", "--messages", "0", "--embedder", "hashing", "--drains", "50",
                                      "--data", str(tmp_path / "data"), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "llmcost.json").read_text(encoding="utf-8"))
    assert [r["drain_every"] for r in report["runs"]] == [50]
    assert "prefilter" in (out / "llmcost.md").read_text(encoding="utf-8")


def test_the_phrasing_set_shows_what_the_prefilter_sends() -> None:
    from pmemo.config import Settings
    from pmemo.embedders.hashing import HashingEmbedder
    from pmemo.eval.embedcache import FileCachedEmbedder
    from pmemo.eval.llm_cost import phrasing_sent

    found = phrasing_sent(FileCachedEmbedder(HashingEmbedder(), ":memory:"), Settings(embedder="hashing"))
    assert found["reader"] == "model (lexical) + rules"  # no e5 vectors: the lexical weights and the rules
    assert set(found["sent"]) == {"zh", "en"} and all(0 < v < 1 for v in found["sent"].values())
    assert found["per_kind"]["zh"]["health"]["n"] > 0
    neg = found["negatives_sent"]["en"]
    assert 0 <= neg["sent"] < neg["n"] / 2  # most questions, jokes and small talk are never sent
    assert all(m["lang"] in ("zh", "en") for m in found["misses"])
