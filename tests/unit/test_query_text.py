"""How query and turn text become search terms, views and named speakers (pure parts)."""

from pmemo.pipelines.embedding import query_views
from pmemo.retrieval.signals import mentioned
from pmemo.text.segment import query_terms, segment


def test_english_words_are_stemmed_on_both_sides():
    assert set(query_terms("What did she paint?")) <= set(segment("Here are my paintings").split())
    assert query_terms("camping trips") == query_terms("camped trip")


def test_stopwords_stay_out_of_the_index_and_chinese_is_untouched():
    assert segment("What is the budget").split() == ["budget"]
    assert "预算" in segment("预算不能超过10万元").split()


def test_a_dialogue_query_is_also_embedded_by_its_last_line():
    assert query_views("one line") == ["one line"]
    assert query_views("A: hi\n\nB: the park?\n") == ["A: hi\n\nB: the park?\n", "B: the park?"]


def test_mentioned_speakers_are_whole_names_in_any_case_and_script():
    names = {"Mei", "Meiling", "李雷", "Jo"}
    assert mentioned(names, "what did MEI and 李雷说 say?") == {"Mei", "李雷"}
    assert mentioned(names, "Joanna's plans") == set()
