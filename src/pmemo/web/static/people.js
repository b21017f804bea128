// The people page: the members of a group or chat with the names they go by (and where each
// name came from), and one person's profile and agenda.

import { $, api, el, empty, isGroup, ownerQuery, personName, state, status } from "./core.js";
import { forgetPerson } from "./forget.js";
import { factKind, factOrigin, factStatus, fmtTime, sureness } from "./words.js";

// strongest source first: what a developer set, then what people were called, then guesses
const SOURCES = ["registered", "name", "learned", "mention", "generated"];
const SOURCE_TITLES = {
  registered: "registered by hand", name: "a display name seen on their messages",
  learned: "learned from a message", mention: "an @mention handle", generated: "generated from a name",
};

export async function loadPeople() {
  const { members } = await api("GET", `/v1/people?${ownerQuery()}`);
  state.members = members;
  $("people-owner").textContent = `of ${state.owner}, latest speaker first`;
  $("profile-here-label").textContent = isGroup() ? "learned in this group" : "learned in this chat";
  if (!members.some((m) => m.person.id === state.person)) state.person = members.length ? members[0].person.id : null;
  renderMembers(members);
  if (state.person) await loadPerson();
  else $("person-panel").hidden = true;
}

function renderMembers(members) {
  const ul = $("members");
  ul.replaceChildren(...members.map(memberItem));
  empty(ul, isGroup() ? "Nobody has spoken in this group yet." : "Nobody known in this chat yet.");
}

function memberItem(m) {
  const p = m.person;
  const formerly = p.names.filter((n) => n !== p.name);
  const aliases = p.aliases.slice().sort((a, b) =>
    SOURCES.indexOf(a.source) - SOURCES.indexOf(b.source) || a.alias.localeCompare(b.alias));
  // what people were called apart from what pmemo guessed from a name: a guess names them only
  // where the chat used it for them, or where it is theirs alone among the members and fits them
  const said = aliases.filter((a) => a.source !== "generated");
  const guessed = aliases.filter((a) => a.source === "generated");
  const input = el("input", { class: "alias-new", placeholder: "another name they go by", size: 18, maxlength: 64,
    "aria-label": `Add an alias for ${p.name || p.id}` });
  const form = el("form", { class: "inline alias-add" }, input, el("button", { type: "submit" }, "Add alias"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); addAlias(p, input.value.trim()); });
  const plural = m.messages === 1 ? "" : "s";
  return el("li", { class: "member" + (p.id === state.person ? " selected" : ""), "data-id": p.id },
    el("div", { class: "member-head" },
      el("button", { type: "button", class: "show-person", title: "Show profile and agenda",
        onclick: () => selectPerson(p.id) }, p.name || p.id),
      el("span", { class: "meta-inline" },
        ` id ${p.id}` + (formerly.length ? ` · formerly ${formerly.join(", ")}` : ""))),
    el("span", { class: "meta member-seen" }, `${m.messages} message${plural} here · ` +
      (m.messages ? `first seen ${fmtTime(m.first_seen)} · last seen ${fmtTime(m.last_seen)}` :
        `known since ${fmtTime(m.first_seen)}, not spoken yet`)),
    el("div", { class: "aliases" }, ...said.map((a) => aliasChip(p, a))),
    ...(guessed.length ? [el("div", { class: "aliases guessed",
      title: "Generated from the name. A guess names them here only once someone here used it for them, " +
        "or when no other member could be meant and it fits (no title like 老师 or 总 unless used; " +
        "no 哥 for a woman or 姐 for a man)." },
      el("span", { class: "meta-inline guessed-label" }, "guessed from the name:"),
      ...guessed.map((a) => aliasChip(p, a)))] : []),
    form);
}

function aliasChip(p, a) {
  const where = a.learned_in ? ` in ${a.learned_in}` : "";
  return el("span", { class: "alias", "data-alias": a.alias, "data-source": a.source,
    title: `${SOURCE_TITLES[a.source] || a.source}${where}, since ${fmtTime(a.first_seen)}` },
    a.alias, el("span", { class: "badge src " + a.source }, a.source),
    el("button", { type: "button", class: "remove-alias", title: `Remove “${a.alias}”`,
      "aria-label": `Remove alias ${a.alias}`, onclick: () => removeAlias(p, a.alias) }, "×"));
}

async function selectPerson(id) {
  state.person = id;
  for (const li of $("members").querySelectorAll("li.member")) li.classList.toggle("selected", li.dataset.id === id);
  try { await loadPerson(); } catch (e) { status(e.message, true); }
}

async function addAlias(p, alias) {
  if (!alias) return;
  try {
    await api("PUT", `/v1/people/${encodeURIComponent(p.id)}`, { aliases: [alias] });
    status(`“${alias}” now names ${p.name || p.id}.`);
    await loadPeople();
  } catch (e) { status(e.message, true); }
}

async function removeAlias(p, alias) {
  if (!confirm(`Stop recognising “${alias}” as ${p.name || p.id}? pmemo will not learn it again.`)) return;
  try {
    await api("DELETE", `/v1/people/${encodeURIComponent(p.id)}/aliases/${encodeURIComponent(alias)}`);
    status(`“${alias}” no longer names ${p.name || p.id}.`);
    await loadPeople();
  } catch (e) { status(e.message, true); }
}

export async function loadPerson() {
  const id = state.person;
  const m = state.members.find((x) => x.person.id === id);
  if (!m) { $("person-panel").hidden = true; return; }
  const here = $("profile-here").checked;
  const pid = encodeURIComponent(id);
  const [prof, agenda] = await Promise.all([
    api("GET", `/v1/people/${pid}/profile` + (here ? `?${ownerQuery()}` : ""))
      .catch((e) => (e.status === 404 ? { facts: [] } : Promise.reject(e))),
    api("GET", `/v1/agenda?${ownerQuery()}&person_id=${pid}`),
  ]);
  if (state.person !== id) return; // another person was chosen meanwhile
  const p = m.person;
  $("person-name").textContent = p.name || id;
  $("person-id").textContent = id;
  $("person-meta").textContent = `${p.messages} message${p.messages === 1 ? "" : "s"} everywhere` +
    (p.last_seen ? ` · last seen ${fmtTime(p.last_seen)}` : "") +
    (p.names.length > 1 ? ` · display names over time: ${p.names.join(" → ")}` : "");
  renderPersonFacts(prof.facts, here);
  renderAgenda(agenda.items);
  $("forget-person-here").textContent = isGroup() ? "Forget in this group…" : "Forget in this chat…";
  $("forget-person-here").onclick = () => forgetPerson(p, true);
  $("forget-person-all").onclick = () => forgetPerson(p, false);
  $("person-panel").hidden = false;
}

function renderPersonFacts(facts, here) {
  const ul = $("person-facts");
  ul.replaceChildren(...facts.map((f) => el("li",
    { "data-id": f.id, class: "fact" + (f.status === "current" ? "" : " fact-old"), title: `${f.key} = ${f.value}` },
    el("span", { class: "fact-sentence" }, f.sentence),
    el("span", { class: "meta" }, [factKind(f), sureness(f.confidence), `learned in ${f.learned_in}`,
      f.mentioned.length ? `mentions ${f.mentioned.map(personName).join(", ")}` : "", factOrigin(f), factStatus(f)]
      .filter(Boolean).join(" · ")))));
  empty(ul, here ? "Nothing learned about them here yet." : "Nothing learned about them yet.");
}

const DAY_MS = 24 * 3600 * 1000;
function renderAgenda(items) {
  const ul = $("person-agenda");
  const today = new Date(); today.setHours(12, 0, 0, 0);
  ul.replaceChildren(...items.map((i) => {
    const day = new Date(i.day + "T12:00:00");
    const days = Math.round((day - today) / DAY_MS);
    const n = Math.abs(days), unit = n === 1 ? "day" : "days";
    const when = days === 0 ? "today" : days > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
    return el("li", { "data-id": i.id, class: "agenda-item status-" + i.status },
      el("span", { class: "agenda-day" }, `${day.toDateString()} (${when})`), " ",
      el("span", { class: "agenda-what" }, i.what), " ",
      el("span", { class: "badge status " + i.status }, i.status),
      i.outcome ? el("span", {}, ` — ${i.outcome}`) : "",
      el("span", { class: "meta" }, `said: “${i.text}”`));
  }));
  empty(ul, "No dated plans.");
}

