// pmemo inspector: plain JS modules over the /v1 REST API (no build step). This one wires the
// header, the pages and the reloads; each page has its own module.

import {
  $, api, apiKey, el, onRefresh, ownerBody, ownerQuery, ownerWords, readKeyFromFragment, setKey, state, status,
} from "./core.js";
import { loadBlocks } from "./blocks.js";
import { loadDiary, wireDiary } from "./diary.js";
import { loadForgetLog } from "./forget.js";
import { loadGraph, wireGraph } from "./graph.js";
import { loadJobs, wireJobs } from "./jobs.js";
import { loadTiers, runSearch } from "./memory.js";
import { loadPeople, loadPerson } from "./people.js";
import { loadTimeline, wireTimeline } from "./timeline.js";

const PAGES = ["memory", "timeline", "people", "forget", "blocks", "graph", "diary", "jobs"];
const TENANT_WIDE = ["forget", "blocks", "jobs"]; // pages shown without an owner
const fail = (e) => status(e.status === 401 ? "That key was refused: " + e.message : e.message, true);

function showing() {
  return `Showing ${ownerWords()}` + (state.session ? `, session ${state.session}` : ", all sessions") + ".";
}

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
  if (!sessions.some((s) => s.session_id === state.session)) state.session = "";
  for (const id of ["session", "tl-session"]) {
    const sel = $(id);
    sel.replaceChildren(el("option", { value: "" }, "all sessions"),
      ...sessions.map((s) => el("option", { value: s.session_id }, `${s.session_id} (${s.turns} turns)`)));
    sel.value = state.session;
  }
}

/** The tiers, and the page in view (its data may have changed with them). */
async function refresh() {
  if (!state.owner) return;
  await loadTiers();
  if (state.page === "timeline") await loadTimeline();
  if (state.page === "people") await loadPeople();
  if (state.page === "forget") await loadForgetLog();
  if (state.page === "blocks") await loadBlocks();
  if (state.page === "graph") await loadGraph();
  if (state.page === "diary") await loadDiary();
  if (state.page === "jobs") await loadJobs();
}
onRefresh(refresh);

async function loadAll() {
  if (!apiKey()) { status("Enter an API key to start (make one with: pmemo keys create --tenant T).", true); return; }
  try {
    await loadOwners();
    if (!state.owner) return;
    await refresh();
    status(showing());
  } catch (e) { fail(e); }
}

function showPage(name) {
  state.page = name;
  for (const page of PAGES) {
    $("page-" + page).hidden = page !== name;
    $("tab-" + page).classList.toggle("active", page === name);
    $("tab-" + page).setAttribute("aria-selected", String(page === name));
  }
  if (!state.owner && !TENANT_WIDE.includes(name)) return;
  const load = { memory: loadTiers, timeline: loadTimeline, people: loadPeople, forget: loadForgetLog,
    blocks: loadBlocks, graph: loadGraph, diary: loadDiary, jobs: loadJobs }[name];
  load().catch(fail);
}

/** A new owner or session: everything shown is of it, and the status line says so. */
async function switched(what) {
  state.timeline.offset = 0;
  try {
    if (what === "owner") await loadSessions();
    await refresh();
    status(showing());
  } catch (e) { fail(e); }
}

// --- wiring --------------------------------------------------------------------------------
readKeyFromFragment();
$("key").value = apiKey();
$("key-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  setKey($("key").value.trim());
  loadAll();
});
$("owner").addEventListener("change", () => {
  state.owner = $("owner").value; state.session = ""; state.person = null;
  switched("owner");
});
for (const id of ["session", "tl-session"]) {
  $(id).addEventListener("change", () => {
    state.session = $(id).value;
    for (const other of ["session", "tl-session"]) $(other).value = state.session;
    switched("session");
  });
}
for (const page of PAGES) $("tab-" + page).addEventListener("click", () => showPage(page));
for (const id of ["profile-here", "profile-all"]) $(id).addEventListener("change", () => loadPerson().catch(fail));
$("reload").addEventListener("click", loadAll);
$("profile-history").addEventListener("change", () => { if (state.owner) loadTiers().catch(fail); });
$("search-form").addEventListener("submit", runSearch);
$("key-add").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("key-new").value.trim();
  if (!text || !state.owner) return;
  try {
    await api("POST", "/v1/key", { text, ...ownerBody() });
    $("key-new").value = "";
    status("Key memory added.");
    await refresh();
  } catch (e) { fail(e); }
});
wireTimeline(fail);
wireGraph(fail);
wireDiary(fail);
wireJobs();
loadAll();
