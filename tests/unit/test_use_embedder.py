"""The bundled USE embedder (embedders/use.py) on the real model the package ships."""

from __future__ import annotations

import numpy as np

from pmemo.config import Settings
from pmemo.embedders import Embedder, make_embedder
from pmemo.embedders.use import USEEmbedder


def test_use_is_an_embedder_by_name_with_unit_rows_of_its_size():
    use = make_embedder("use", Settings())
    assert isinstance(use, USEEmbedder) and isinstance(use, Embedder)
    assert (use.model_id, use.dim) == ("use-multilingual-v3", 512)
    rows = use.embed_passages(["the cat sleeps on the sofa", "我明天要考试"])
    assert rows.shape == (2, 512) and rows.dtype == np.float32
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    assert use.embed_passages([]).shape == (0, 512)


def test_a_query_and_the_same_text_as_a_passage_agree():
    use = USEEmbedder()
    text = "where did we go hiking last summer?"
    assert float(use.embed_query(text) @ use.embed_passages([text])[0]) > 0.999


def test_meaning_across_words_and_languages_beats_the_cluster_threshold():
    use = USEEmbedder()
    pet, cat, tax, cn_pet = use.embed_passages(
        ["I adopted a kitten last week", "my new cat is very playful", "the quarterly tax filing is due",
         "我上周领养了一只小猫"])
    assert float(pet @ cat) > use.cluster_threshold > float(pet @ tax)
    assert float(pet @ cn_pet) > use.cluster_threshold  # multilingual: one space for both
