"""The ranking recipe (retrieval/recipe.py): signals declared once, presets, their overrides."""

from __future__ import annotations

import dataclasses

import pytest

from pmemo import Settings, SyncMemory
from pmemo.errors import InvalidInput
from pmemo.eval.harness import SIGNALS
from pmemo.retrieval.recipe import PRESET_NAMES, PRESETS, preset_of, weights
from pmemo.retrieval.recipe import SIGNALS as RECIPE


def test_every_weight_setting_is_one_signal_of_the_recipe_with_its_reason():
    settings = {f.name for f in dataclasses.fields(Settings) if f.name.startswith("w_")}
    assert sorted(s.setting for s in RECIPE) == sorted(settings)
    assert all(s.reason and s.needs for s in RECIPE)
    assert SIGNALS == {s.name: s.setting for s in RECIPE}  # what `pmemo eval --ablate` turns off
    assert all(name in settings for preset in PRESETS.values() for name in preset)


def test_the_default_preset_is_the_defaults_and_a_set_weight_beats_a_preset():
    plain = Settings()
    assert weights(plain, "t|a|g:room") is plain  # nothing changes unless a preset is chosen
    group = weights(Settings(retrieval_preset="group"), "t|a|u:ann")
    assert (group.w_length, group.w_assistant, group.w_speaker) == (0.0, 0.0, plain.w_speaker)
    assert weights(Settings(retrieval_preset="assistant"), "t|a|u:ann").w_assistant == 0.0
    assert weights(Settings(retrieval_preset="group", w_length=0.1), "k").w_length == 0.1


def test_auto_picks_group_for_a_group_scope_only():
    auto = Settings(retrieval_preset="auto")
    assert preset_of(auto, "t|a|g:room") == "group" and preset_of(auto, "t|a|u:ann") == "chat"


def test_an_unknown_preset_is_refused_by_name():
    assert set(PRESET_NAMES) == {"chat", "assistant", "group", "auto"}
    with pytest.raises(InvalidInput, match="retrieval_preset"):
        Settings(retrieval_preset="groups")
    assert Settings.from_env({"PMEMO_RETRIEVAL_PRESET": "auto"}).retrieval_preset == "auto"


def test_the_group_preset_takes_the_length_bonus_off_in_a_search(tmp_path):
    """Two turns with the same content words (the rest are stop words, which no index keeps):
    the length bonus puts the long, older one first; the group preset the newer, short one."""
    long = "The picnic is at the lake, and it is for all of us, if we are there, as it was before"

    def top(preset: str) -> str:
        with SyncMemory.open(tmp_path / preset, settings=Settings(retrieval_preset=preset),
                             embedder="hashing") as mem:
            mem.add(group_id="g", session_id="a", actor="Bo", content=long)
            mem.add(group_id="g", session_id="b", actor="Mei", content="picnic lake!")
            mem.drain()
            return mem.search("picnic lake", group_id="g", limit=1)[0].text

    assert top("chat") == long
    assert top("group") == top("auto") == "picnic lake!"
