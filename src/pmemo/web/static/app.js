// pmemo inspector: plain JS over the /v1 REST API. Data is always inserted as text, never HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { owner: null, session: "", turns: [], page: "memory", members: [], person: null };

// --- key handling: #key=... in the URL (from `pmemo serve`) or typed, kept in sessionStorage:
// it lasts while the tab is open and is never written to disk for other pages or later visits
const KEY = "pmemo.key";
function readKeyFromFragment() {
  // a key an older inspector left in localStorage moves to this tab's session, and is gone from disk
  const old = localStorage.getItem(KEY);
  if (old !== null) {
    if (!sessionStorage.getItem(KEY)) sessionStorage.setItem(KEY, old);
    localStorage.removeItem(KEY);
  }
  const m = location.hash.match(/(?:^#|&)key=([^&]+)/);
  if (m) {
    sessionStorage.setItem(KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
}
const apiKey = () => sessionStorage.getItem(KEY) || "";

function status(msg, isError = false) {
  const el = $("status");
  el.textContent = msg;
  el.className = isError ? "error" : "";
}

async function api(method, path, body) {
  const opts = { method, headers: { Authorization: "Bearer " + apiKey() } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  if (res.status === 204) return null;
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.detail || res.statusText || "request failed");
    err.status = res.status;
    throw err;
  }
  return data;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function ownerQuery() {
  const [kind, ...rest] = state.owner.split(":");
  const id = encodeURIComponent(rest.join(":"));
  return kind === "g" ? `group_id=${id}` : `user_id=${id}`;
}
function ownerBody() {
  const [kind, ...rest] = state.owner.split(":");
  return kind === "g" ? { group_id: rest.join(":") } : { user_id: rest.join(":") };
}
const fmtTime = (iso) => (iso ? new Date(iso).toLocaleString() : "");
const fmtDay = (iso) => (iso ? new Date(iso).toDateString() : "");
const isGroup = () => (state.owner || "").startsWith("g:");
function empty(list, text) { if (!list.children.length) list.append(el("li", { class: "empty" }, text)); }

// --- loading ------------------------------------------------------------
async function loadOwners() {
  const { owners } = await api("GET", "/v1/owners");
  const sel = $("owner");
  sel.replaceChildren(...owners.map((o) => el("option", { value: o }, o)));
  if (!owners.length) { state.owner = null; status("No memory yet for this key's tenant."); return; }
  const keep = owners.includes(state.owner) ? state.owner : owners[0];
  sel.value = keep;
  state.owner = keep;
  await loadSessions();
}

async function loadSessions() {
  const { sessions } = await api("GET", `/v1/sessions?${ownerQuery()}`);
  const sel = $("session");
  sel.replaceChildren(el("option", { value: "" }, "all sessions"),
    ...sessions.map((s) => el("option", { value: s.session_id }, `${s.session_id} (${s.turns})`)));
  if (!sessions.some((s) => s.session_id === state.session)) state.session = "";
  sel.value = state.session;
}

async function loadAll() {
  if (!apiKey()) { status("Enter an API key to start (make one with: pmemo keys create --tenant T).", true); return; }
  try {
    await loadOwners();
    if (!state.owner) return;
    await loadTiers();
    if (state.page === "people") await loadPeople();
    status(`Showing ${state.owner}${state.session ? " / " + state.session : ""}.`);
  } catch (e) {
    status(e.status === 401 ? "That key was refused: " + e.message : e.message, true);
  }
}

async function loadTiers() {
  const q = ownerQuery();
  const sq = state.session ? `&session_id=${encodeURIComponent(state.session)}` : "";
  const hist = $("profile-history").checked ? "&history=true" : "";
  const [key, sums, clus, turns, stats, prof, eps, people] = await Promise.all([
    api("GET", `/v1/key?${q}`),
    api("GET", `/v1/summaries?${q}${sq}`),
    api("GET", `/v1/clusters?${q}`),
    api("GET", `/v1/turns?${q}${sq}&limit=1000`),
    api("GET", "/v1/stats"),
    api("GET", `/v1/profile?${q}${hist}`),
    api("GET", `/v1/episodes?${q}${sq}&limit=100`),
    api("GET", `/v1/people?${q}`),
  ]);
  state.members = people.members;
  renderAsker(people.members);
  state.turns = turns.turns;
  state.snapshot = snapshot(key.lines, sums.summaries, clus.clusters, turns.turns, prof.facts,
    eps.episodes);
  renderKey(key.lines);
  renderSummaries(sums.summaries);
  renderClusters(clus.clusters);
  renderFacts(prof.facts);
  renderEpisodes(eps.episodes);
  renderShort(turns.turns.slice(-20));
  renderTimeline(turns.turns);
  $("stats").textContent = "Tenant " + stats.tenant + ": " +
    Object.entries(stats.stats).filter(([, v]) => typeof v !== "object").map(([k, v]) => `${k} ${v}`).join(" · ");
}

function snapshot(key, sums, clus, turns, facts = [], episodes = []) {
  return {
    facts: new Map(facts.filter((f) => f.status === "current")
      .map((f) => [f.id, `${f.category} · ${f.key}: ${f.value}`])),
    episodes: new Map(episodes.map((e) => [e.id, e.summary])),
    key: new Map(key.map((k) => [k.id, k.text])),
    summaries: new Map(sums.map((s) => [s.id, `steps ${s.step_from}-${s.step_to}: ${s.text}`])),
    clusters: new Map(clus.map((c) => [c.id, `${c.label} (${c.size} turns)`])),
    turns: new Map(turns.map((t) => [t.id, `#${t.step} ${t.role}: ${t.content}`])),
  };
}

// --- rendering ----------------------------------------------------------
function renderKey(lines) {
  const ul = $("key-lines");
  ul.replaceChildren(...lines.map((k) => {
    const text = el("span", { class: "key-text" }, k.text);
    const li = el("li", { "data-id": k.id }, text,
      el("span", { class: "meta" + (k.origin === "promoted" ? " origin-promoted" : "") },
        `${k.origin}${k.source_ids.length ? " · from turns " + k.source_ids.join(", ") : ""} `,
        el("button", { type: "button", class: "edit", onclick: () => editKey(li, k) }, "Edit"), " ",
        el("button", { type: "button", class: "danger", onclick: () => deleteKey(k) }, "Delete")));
    return li;
  }));
  empty(ul, "No key memory yet.");
}

function editKey(li, k) {
  const input = el("input", { class: "key-edit", value: k.text, size: 28 });
  const save = el("button", { type: "submit" }, "Save");
  const form = el("form", { class: "inline" }, input, save);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("PUT", `/v1/key/${k.id}`, { text: input.value });
      status("Key memory updated.");
      await loadTiers();
    } catch (e) { status(e.message, true); }
  });
  li.replaceChildren(form);
  input.focus();
}

async function deleteKey(k) {
  try { await api("DELETE", `/v1/key/${k.id}`); status("Key line deleted."); await loadTiers(); }
  catch (e) { status(e.message, true); }
}

function renderSummaries(rows) {
  const ul = $("summaries");
  ul.replaceChildren(...rows.map((s) => el("li", { "data-id": s.id },
    el("span", { class: "meta" }, `steps ${s.step_from}–${s.step_to}` +
      (s.session_id ? ` · ${s.session_id}` : "") + ` · ${s.method}`), s.text)));
  empty(ul, "No summaries yet.");
}

function renderClusters(rows) {
  const ul = $("clusters");
  ul.replaceChildren(...rows.map((c) => el("li", { "data-id": c.id },
    el("span", { class: "meta" }, `hits ${Number(c.hits).toFixed(1)} · ${c.size} turns`), c.label)));
  empty(ul, "No clusters yet (turns move here when short-term overflows).");
}

function renderFacts(facts) {
  const ul = $("facts");
  ul.replaceChildren(...facts.map((f) => el("li",
    { "data-id": f.id, class: "fact" + (f.status === "current" ? "" : " fact-old") },
    el("span", { class: "meta" }, (f.subject_id ? `about ${personName(f.subject_id)} · ` : "") +
      `${f.category} · confidence ${Number(f.confidence).toFixed(2)}` +
      ` · ${f.source}${f.source_ids.length ? " · from turns " + f.source_ids.join(", ") : ""}`,
      f.status === "current" ? "" : el("span", { class: "fact-status" }, ` · ${f.status}`)),
    el("span", { class: "fact-key" }, f.key), ": ", el("span", { class: "fact-value" }, f.value))));
  empty(ul, "No facts yet.");
}

function renderEpisodes(rows) {
  const ul = $("episodes");
  ul.replaceChildren(...rows.slice().reverse().map((e) => el("li", { "data-id": e.id, class: "episode" },
    el("span", { class: "meta" }, `${e.kind}${e.session_id ? " · " + e.session_id : ""} · ` +
      `${fmtTime(e.started_at)} – ${fmtTime(e.ended_at)} · importance ${Number(e.importance).toFixed(2)}`),
    e.summary,
    e.lessons.length ? el("span", { class: "meta" }, "lessons: " + e.lessons.join("; ")) : "")));
  empty(ul, "No episodes yet (a session becomes one when it ends).");
}

function turnItem(t) {
  return el("li", { "data-id": t.id, class: "turn role-" + t.role },
    el("span", { class: "meta" }, `#${t.step} · ${t.role}${t.actor ? " (" + t.actor + ")" : ""} · ` +
      `${t.session_id} · ${fmtTime(t.timestamp)} `,
      el("button", { type: "button", class: "danger delete-turn", title: "Forget this turn",
        onclick: () => deleteTurn(t) }, "Delete")),
    t.content);
}

function renderShort(turns) {
  const ul = $("short-turns");
  ul.replaceChildren(...turns.map(turnItem));
  empty(ul, "No turns.");
}

function renderTimeline(turns) {
  const ol = $("timeline");
  const items = [];
  let day = null;
  for (const t of turns) {
    const d = fmtDay(t.timestamp);
    if (d !== day) { items.push(el("li", { class: "day" }, d)); day = d; }
    items.push(turnItem(t));
  }
  ol.replaceChildren(...items);
  empty(ol, "No turns.");
}

// --- actions ------------------------------------------------------------
async function deleteTurn(t) {
  const before = state.snapshot;
  try {
    const { removed } = await api("DELETE", `/v1/turns/${t.id}`);
    await loadTiers();
    showRemoved(t, removed, before, state.snapshot);
    status(`Turn #${t.step} forgotten.`);
  } catch (e) { status(e.message, true); }
}

function showRemoved(turn, removed, before, after) {
  const box = $("removed");
  const rows = [];
  for (const tier of ["turns", "key", "summaries", "clusters", "facts", "episodes"]) {
    for (const [id, text] of before[tier]) {
      if (!after[tier].has(id)) rows.push(el("li", {}, `${tier} ${id} removed: ${text}`));
      else if (after[tier].get(id) !== text) rows.push(el("li", {}, `${tier} ${id} rebuilt: ${after[tier].get(id)}`));
    }
  }
  box.replaceChildren(
    el("h3", {}, `Forgot turn #${turn.step} and what was derived from it`),
    el("ul", {}, ...rows),
    el("details", {}, el("summary", {}, "Server report"), el("pre", {}, JSON.stringify(removed, null, 2))),
    el("button", { type: "button", onclick: () => { box.hidden = true; } }, "Close"));
  box.hidden = false;
}

async function runSearch(ev) {
  ev.preventDefault();
  const query = $("query").value.trim();
  if (!query || !state.owner) return;
  const body = { query, budget_tokens: Number($("budget").value) || 800, ...ownerBody() };
  if (state.session) body.session_id = state.session;
  if ($("asker").value) body.asker = $("asker").value;
  try {
    const pack = await api("POST", "/v1/context", body);
    $("context-meta").textContent = `${pack.items.length} items · ${pack.tokens} / ${pack.budget} tokens`;
    $("context-items").replaceChildren(...pack.items.map((h) => el("li", { class: "item tier-" + h.tier },
      el("span", { class: "badge " + h.tier }, h.tier.replace("_", "-")),
      el("span", { class: "score" }, h.score.toFixed(3)),
      el("span", {}, h.text), " ",
      el("span", { class: "why" }, "— " + h.why))));
    $("context-text").textContent = pack.text;
    $("context").hidden = false;
    status(`Context built for “${query}”.`);
    await loadTiers(); // hit counts change when clusters are read
  } catch (e) { status(e.message, true); }
}

// --- people -------------------------------------------------------------
// strongest source first: what a developer set, then what people were called, then guesses
const SOURCES = ["registered", "name", "learned", "mention", "generated"];
const SOURCE_TITLES = {
  registered: "registered by hand", name: "a display name seen on their messages",
  learned: "learned from a message", mention: "an @mention handle", generated: "generated from a name",
};

function personName(id) {
  const m = state.members.find((x) => x.person.id === id);
  if (m) return m.person.name || id;
  return id.startsWith("name:") ? id.slice(5) : id;
}

function renderAsker(members) {
  const sel = $("asker");
  const keep = sel.value;
  sel.replaceChildren(el("option", { value: "" }, "nobody in particular"),
    ...members.map((m) => el("option", { value: m.person.id }, m.person.name || m.person.id)));
  sel.value = members.some((m) => m.person.id === keep) ? keep : "";
}

function showPage(name) {
  state.page = name;
  $("page-memory").hidden = name !== "memory";
  $("page-people").hidden = name !== "people";
  for (const page of ["memory", "people"]) {
    $("tab-" + page).classList.toggle("active", page === name);
    $("tab-" + page).setAttribute("aria-selected", String(page === name));
  }
  if (name === "people" && state.owner) loadPeople().catch((e) => status(e.message, true));
}

async function loadPeople() {
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
    el("div", { class: "aliases" }, ...aliases.map((a) => aliasChip(p, a))),
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

async function loadPerson() {
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
  $("person-panel").hidden = false;
}

// a fact in words: the server's sentence, else its key and value made readable
function factWords(f) {
  if (f.sentence) return f.sentence;
  const [family, ...rest] = f.key.split(":");
  const what = family.replace(/_/g, " ") + (rest.length ? " (" + rest.join(":") + ")" : "");
  return `${what}: ${f.value}`;
}

function renderPersonFacts(facts, here) {
  const ul = $("person-facts");
  ul.replaceChildren(...facts.map((f) => el("li",
    { "data-id": f.id, class: "fact" + (f.status === "current" ? "" : " fact-old"), title: `${f.key} = ${f.value}` },
    el("span", { class: "fact-sentence" }, factWords(f)),
    el("span", { class: "meta" }, `${f.category} · confidence ${Number(f.confidence).toFixed(2)} · ` +
      `learned in ${f.learned_in}` +
      (f.mentioned.length ? ` · mentions ${f.mentioned.map(personName).join(", ")}` : "") +
      (f.status === "current" ? "" : ` · ${f.status}`)))));
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

// --- wiring -------------------------------------------------------------
readKeyFromFragment();
$("key").value = apiKey();
$("key-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  sessionStorage.setItem(KEY, $("key").value.trim());
  loadAll();
});
$("owner").addEventListener("change", async () => {
  state.owner = $("owner").value; state.session = ""; state.person = null;
  try {
    await loadSessions(); await loadTiers();
    if (state.page === "people") await loadPeople();
  } catch (e) { status(e.message, true); }
});
$("tab-memory").addEventListener("click", () => showPage("memory"));
$("tab-people").addEventListener("click", () => showPage("people"));
for (const id of ["profile-here", "profile-all"]) {
  $(id).addEventListener("change", () => loadPerson().catch((e) => status(e.message, true)));
}
$("session").addEventListener("change", async () => {
  state.session = $("session").value;
  try { await loadTiers(); } catch (e) { status(e.message, true); }
});
$("reload").addEventListener("click", loadAll);
$("profile-history").addEventListener("change", async () => {
  if (!state.owner) return;
  try { await loadTiers(); } catch (e) { status(e.message, true); }
});
$("search-form").addEventListener("submit", runSearch);
$("key-add").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("key-new").value.trim();
  if (!text || !state.owner) return;
  try {
    await api("POST", "/v1/key", { text, ...ownerBody() });
    $("key-new").value = "";
    status("Key memory added.");
    await loadTiers();
  } catch (e) { status(e.message, true); }
});
loadAll();
