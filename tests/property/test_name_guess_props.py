"""Names read in a chat (issue 44 §6), over random registries, chats and genders: a generated
form never names someone outside the chat's members, a title never names anyone unless it was
said, a 哥 / 姐 form never names someone of the other sex, a nickname said in another chat
never counts, and two members a guess fits stay ambiguous."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pmemo.people.aliases import generated_aliases
from pmemo.people.guesses import form_kind
from pmemo.people.resolve import AliasEntry, AliasIndex, Chat

NAMES = ("王磊", "王静", "张伟", "张敏", "周霓", "周怡", "刘洋", "黄丽", "李娜", "陈浩")
CHATS = ("g:a", "g:b")
FORMS = sorted({f for n in NAMES for f in generated_aliases(n)} | {"霓霓子"})


@st.composite
def worlds(draw: st.DrawFn) -> tuple[AliasIndex, Chat, dict[tuple[str, str], set[str]]]:
    people = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6, unique=True))
    entries, said = [], {}
    for name in people:
        entries.append(AliasEntry(name, name, "name"))
        entries += [AliasEntry(f, name, "generated") for f in generated_aliases(name)]
        for form, chat in draw(st.lists(st.tuples(st.sampled_from(FORMS), st.sampled_from(CHATS)), max_size=3)):
            entries.append(AliasEntry(form, name, draw(st.sampled_from(("learned", "mention"))), chat))
            said.setdefault((form, name), set()).add(chat)
    members = frozenset(draw(st.lists(st.sampled_from(people), unique=True)))
    genders = {p: g for p in people if (g := draw(st.sampled_from(("f", "m", None)))) is not None}
    return AliasIndex(entries), Chat(frozenset({"g:a"}), members, genders), said


@settings(max_examples=150, deadline=None)
@given(worlds(), st.sampled_from(FORMS))
def test_a_form_names_only_whom_the_chat_allows(world: tuple[AliasIndex, Chat, dict], form: str) -> None:
    index, chat, said = world
    for match in index.find(f"{form}，今天来吗", chat=chat):
        if match.alias != form:
            continue  # a display name found inside the text, not the form
        used = [p for p in match.person_ids if "g:a" in said.get((form, p), set())]
        guessed = [p for p in match.person_ids if p not in used]
        for person in guessed:
            assert chat.members is not None and person in chat.members, (form, person)
            assert form_kind(form) != "title", (form, person)
            assert form_kind(form) in ("", chat.genders.get(person, form_kind(form))), (form, person, chat.genders)
        if len(match.person_ids) == 1 and not used:
            fitting = [p for p in chat.members or () if form in generated_aliases(p)
                       and form_kind(form) in ("", chat.genders.get(p, form_kind(form)))]
            assert fitting == list(match.person_ids), (form, fitting)
