// The memory page: the tiers of one user or group (key lines, summaries, topics, profile,
// episodes, the latest turns), plain search and the packed context.

import { $, api, el, empty, ownerBody, ownerQuery, personName, refresh, state, status } from "./core.js";
import { deleteFact, eraseTurn, forgetTurn } from "./forget.js";
import {
  clusterWords, episodeTitle, episodeWeight, factMeta, fmtTime, METHOD, speaker, speakersOf,
} from "./words.js";

const SHORT_TERM = 20;
const RECENT = 1000; // the latest turns read for the short-term column and the timeline's speakers

let latest = 0; // the newest load: an answer to an older one (another owner meanwhile) is dropped

export async function loadTiers() {
  const mine = ++latest;
  const q = ownerQuery();
  const sq = state.session ? `&session_id=${encodeURIComponent(state.session)}` : "";
  const hist = $("profile-history").checked ? "&history=true" : "";
  const [key, sums, clus, stats, prof, eps, people, sessions] = await Promise.all([
    api("GET", `/v1/key?${q}`),
    api("GET", `/v1/summaries?${q}${sq}`),
    api("GET", `/v1/clusters?${q}`),
    api("GET", "/v1/stats"),
    api("GET", `/v1/profile?${q}${hist}`),
    api("GET", `/v1/episodes?${q}${sq}&limit=100`),
    api("GET", `/v1/people?${q}`),
    api("GET", `/v1/sessions?${q}`),
  ]);
  if (mine !== latest) return;
  state.members = people.members;
  // the latest turns (the API lists oldest first: start where the last RECENT begin)
  const total = sessions.sessions.filter((s) => !state.session || s.session_id === state.session)
    .reduce((n, s) => n + s.turns, 0);
  const { turns } = await api("GET", `/v1/turns?${q}${sq}&limit=${RECENT}&offset=${Math.max(0, total - RECENT)}`);
  if (mine !== latest) return;
  state.speakers = speakerOptions(people.members, turns);
  renderAsker(people.members);
  state.snapshot = snapshot(key.lines, sums.summaries, clus.clusters, prof.facts, eps.episodes);
  renderKey(key.lines);
  renderSummaries(sums.summaries);
  renderClusters(clus.clusters);
  renderFacts(prof.facts);
  renderEpisodes(eps.episodes);
  renderShort(turns.slice(-SHORT_TERM));
  $("stats").textContent = "Tenant " + stats.tenant + ": " +
    Object.entries(stats.stats).filter(([, v]) => typeof v !== "object").map(([k, v]) => `${k} ${v}`).join(" · ");
}

/** Who can be picked in the timeline's speaker filter: members by person id, then display
 * names seen on turns without an id (a private chat's speakers often have none). */
function speakerOptions(members, turns) {
  const out = members.map((m) => ({ value: "id:" + m.person.id, label: m.person.name || m.person.id }));
  const names = [...new Set(turns.filter((t) => !t.actor_id && t.actor).map((t) => t.actor))].sort();
  return out.concat(names.map((n) => ({ value: "name:" + n, label: n })));
}

function snapshot(key, sums, clus, facts, episodes) {
  return {
    facts: new Map(facts.filter((f) => f.status === "current").map((f) => [f.id, f.sentence])),
    episodes: new Map(episodes.map((e) => [e.id, e.summary])),
    key: new Map(key.map((k) => [k.id, k.text])),
    summaries: new Map(sums.map((s) => [s.id, `turns ${s.step_from}-${s.step_to}: ${s.text}`])),
    clusters: new Map(clus.map((c) => [c.id, `${c.label} (${c.size} turns)`])),
  };
}

// --- key memory --------------------------------------------------------------------------
function renderKey(lines) {
  const ul = $("key-lines");
  ul.replaceChildren(...lines.map((k) => {
    const li = el("li", { "data-id": k.id }, el("span", { class: "key-text" }, k.text),
      el("span", { class: "meta" + (k.origin === "promoted" ? " origin-promoted" : "") },
        (k.origin === "promoted" ? "promoted: a topic recalled often" : "set by hand") +
        (k.source_ids.length ? ` · from turns ${k.source_ids.join(", ")} ` : " "),
        el("button", { type: "button", class: "edit", onclick: () => editKey(li, k) }, "Edit"), " ",
        el("button", { type: "button", class: "danger delete-key", onclick: () => deleteKey(k) }, "Delete…")));
    return li;
  }));
  empty(ul, "No key memory yet.");
}

function editKey(li, k) {
  const input = el("input", { class: "key-edit", value: k.text, size: 28, "aria-label": "Key line" });
  const form = el("form", { class: "inline" }, input, el("button", { type: "submit" }, "Save"),
    el("button", { type: "button", onclick: () => refresh() }, "Cancel"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("PUT", `/v1/key/${k.id}`, { text: input.value, version: k.version });
      status("Key memory updated.");
    } catch (e) { status(conflictWords(e, "key line"), true); }
    await refresh();
  });
  li.replaceChildren(form);
  input.focus();
}

async function deleteKey(k) {
  if (!confirm(`Delete this key line for good?\n\n“${k.text}”`)) return;
  try { await api("DELETE", `/v1/key/${k.id}`); status("Key line deleted."); await refresh(); }
  catch (e) { status(e.message, true); }
}

const conflictWords = (e, what) => (e.status === 409
  ? `Someone changed this ${what} since it was shown (now version ${e.body.current_version}): here it is again; edit it once more.`
  : e.message);

// --- summaries, topics, episodes -------------------------------------------------------------
function renderSummaries(rows) {
  const ul = $("summaries");
  ul.replaceChildren(...rows.map((s) => el("li", { "data-id": s.id },
    el("span", { class: "meta" }, `turns ${s.step_from}–${s.step_to}` +
      (s.session_id ? ` of session ${s.session_id}` : "") + ` · ${METHOD[s.method] || s.method}`), s.text)));
  empty(ul, "No summaries yet.");
}

function renderClusters(rows) {
  const ul = $("clusters");
  ul.replaceChildren(...rows.map((c) => el("li", { "data-id": c.id, class: "cluster" },
    el("span", { class: "meta" }, clusterWords(c)), c.label)));
  empty(ul, "No topics yet (turns move here when short-term overflows).");
}

function renderEpisodes(rows) {
  const ul = $("episodes");
  ul.replaceChildren(...rows.slice().reverse().map((e) => el("li", { "data-id": e.id, class: "episode" },
    el("span", { class: "episode-title" }, episodeTitle(e)),
    el("span", { class: "meta" }, episodeWeight(e)),
    el("span", { class: "episode-summary" }, e.summary),
    e.topics.length ? el("span", { class: "meta" }, "Topics: " + e.topics.join(", ")) : "",
    e.lessons.length ? el("span", { class: "meta" }, "Lessons: " + e.lessons.join("; ")) : "")));
  empty(ul, "No episodes yet (a session becomes one when it ends).");
}

// --- the profile ---------------------------------------------------------------------------
function renderFacts(facts) {
  const ul = $("facts");
  ul.replaceChildren(...facts.map((f) => {
    const current = f.status === "current";
    const li = el("li", { "data-id": f.id, class: "fact" + (current ? "" : " fact-old"), title: `${f.key} = ${f.value}` },
      el("span", { class: "fact-sentence" }, f.sentence),
      el("span", { class: "meta" }, factMeta(f) + " ",
        current ? el("button", { type: "button", class: "edit edit-fact", onclick: () => editFact(li, f) }, "Edit") : "",
        " ",
        current ? el("button", { type: "button", class: "danger delete-fact", onclick: () => deleteFact(f) }, "Delete") : ""));
    return li;
  }));
  empty(ul, "No facts yet.");
}

function editFact(li, f) {
  const input = el("input", { class: "fact-edit", value: f.value, size: 24, "aria-label": "New value" });
  const form = el("form", { class: "inline fact-form" }, el("span", { class: "meta-inline" }, "value: "), input,
    el("button", { type: "submit" }, "Save"), el("button", { type: "button", onclick: () => refresh() }, "Cancel"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const out = await api("PUT", `/v1/facts/${f.id}`, { value: input.value, version: f.version });
      status(`Fact corrected: ${out.sentence}. The old value stays in its history.`);
    } catch (e) { status(conflictWords(e, "fact"), true); }
    await refresh();
  });
  li.replaceChildren(el("span", { class: "fact-sentence" }, f.sentence), form);
  input.focus();
}

// --- the latest turns ------------------------------------------------------------------------
export function turnItem(t) {
  return el("li", { "data-id": t.id, class: "turn role-" + t.role },
    el("span", { class: "meta" }, el("strong", { class: "speaker" }, speaker(t)),
      ` · #${t.step} · session ${t.session_id} · ${fmtTime(t.timestamp)} `,
      el("button", { type: "button", class: "forget-turn", title: "Forget this turn (Undo brings it back)",
        onclick: () => forgetTurn(t) }, "Forget"), " ",
      el("button", { type: "button", class: "danger erase-turn", title: "Erase this turn for good",
        onclick: () => eraseTurn(t) }, "Erase…")),
    t.content);
}

function renderShort(turns) {
  const ul = $("short-turns");
  ul.replaceChildren(...turns.map(turnItem));
  empty(ul, "No turns.");
}

// --- search and context ------------------------------------------------------------------------
function renderAsker(members) {
  const sel = $("asker");
  const keep = sel.value;
  sel.replaceChildren(el("option", { value: "" }, "nobody in particular"),
    ...members.map((m) => el("option", { value: m.person.id }, m.person.name || m.person.id)));
  sel.value = members.some((m) => m.person.id === keep) ? keep : "";
}

/** One ranked item: its tier, score, text, who said it and when, and why it was chosen. */
function hitItem(h) {
  const who = speakersOf(h.sources);
  const first = h.sources[0];
  const said = !who.length ? "" : h.kind === "turn" && first
    ? `${who[0]} · ${fmtTime(first.timestamp)} · session ${first.session_id} #${first.step}`
    : `from what ${who.join(", ")} said`;
  return el("li", { class: "item hit tier-" + h.tier, "data-id": h.id },
    el("span", { class: "badge " + h.tier }, h.tier.replace("_", "-")),
    el("span", { class: "score" }, h.score.toFixed(3)),
    el("span", { class: "hit-text" }, h.text), " ",
    said ? el("span", { class: "speakers" }, said) : "",
    el("span", { class: "why" }, "— " + h.why));
}

export async function runSearch(ev) {
  ev.preventDefault();
  const query = $("query").value.trim();
  if (!query || !state.owner) return;
  const packed = ev.submitter && ev.submitter.id === "context-btn";
  const body = { query, ...ownerBody() };
  if (state.session) body.session_id = state.session;
  try {
    if (packed) {
      body.budget_tokens = Number($("budget").value) || 800;
      if ($("asker").value) body.asker = $("asker").value;
      const pack = await api("POST", "/v1/context", body);
      $("context-meta").textContent = `${pack.items.length} items · ${pack.tokens} of ${pack.budget} tokens` +
        (body.asker ? ` · asked by ${personName(body.asker)}` : "");
      $("context-items").replaceChildren(...pack.items.map(hitItem));
      $("context-text").textContent = pack.text;
      status(`Context built for “${query}”.`);
    } else {
      body.limit = Number($("limit").value) || 10;
      const { hits } = await api("POST", "/v1/search", body);
      $("hits-meta").textContent = `${hits.length} result${hits.length === 1 ? "" : "s"} for “${query}”, best first`;
      $("hits").replaceChildren(...hits.map(hitItem));
      empty($("hits"), "Nothing found.");
      status(`Searched for “${query}”.`);
    }
    $("context").hidden = !packed;
    $("search-results").hidden = packed;
    await refresh(); // recall counts change when topics are read
  } catch (e) { status(e.message, true); }
}
