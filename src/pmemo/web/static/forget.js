// Forgetting from the inspector: a turn or a fact goes softly, with an Undo (the batch the
// server returns is restored); erasing for good asks first; the forget log lists every batch
// with Restore and Erase buttons while it can still be restored.

import { $, api, el, empty, ownerQuery, ownerWords, refresh, state, status } from "./core.js";
import { fmtTime, speaker } from "./words.js";

const snippet = (text, n = 60) => (text.length > n ? text.slice(0, n - 1) + "…" : text);

export async function forgetTurn(t) {
  const before = state.snapshot;
  try {
    const out = await api("POST", "/v1/forget", { turn_ids: [t.id], reason: "forgotten in the inspector" });
    await refresh();
    showOutcome(`Forgot turn #${t.step} (${speaker(t)}) and what was derived from it`,
      changes(t, out.turns, before, state.snapshot), out.removed, out.batch);
    status(`Turn #${t.step} forgotten: Undo brings it back.`);
  } catch (e) { status(e.message, true); }
}

export async function eraseTurn(t) {
  const ask = `Erase turn #${t.step} for good?\n\n${speaker(t)}: “${snippet(t.content)}”\n\n` +
    "It and everything derived from it are deleted now and cannot be restored.";
  if (!confirm(ask)) return;
  const before = state.snapshot;
  try {
    const out = await api("POST", "/v1/forget", { turn_ids: [t.id], hard: true, reason: "erased in the inspector" });
    await refresh();
    showOutcome(`Erased turn #${t.step} (${speaker(t)}) for good, and what was derived from it`,
      changes(t, out.turns, before, state.snapshot), out.removed, null);
    status(`Turn #${t.step} erased for good.`);
  } catch (e) { status(e.message, true); }
}

export async function deleteFact(f) {
  try {
    const out = await api("DELETE", `/v1/facts/${f.id}`);
    await refresh();
    showOutcome(`Deleted the fact: ${f.sentence}`, [el("li", {}, `fact ${f.id} deleted; the turns it came from stay`)],
      out.removed, out.batch);
    status("Fact deleted: Undo brings it back.");
  } catch (e) { status(e.message, true); }
}

/**
 * Forget a person (issue 44 §7), in this chat (`here`) or everywhere: a dry run says what would
 * go, a confirmation asks, and the outcome box offers Undo (the batch is restored).
 */
export async function forgetPerson(p, here) {
  const name = p.name || p.id;
  const path = `/v1/people/${encodeURIComponent(p.id)}` + (here ? `?${ownerQuery()}` : "");
  const where = here ? `in ${ownerWords()}` : "everywhere";
  try {
    const plan = await api("DELETE", path + (here ? "&" : "?") + "dry_run=true");
    const count = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
    const ask = `Forget ${name} ${where}?\n\n` +
      `${count(plan.turns.length, "message")} they wrote, ${count(plan.facts.length, "fact")} about them, ` +
      `${count(plan.agenda.length, "plan")} and ${count(plan.aliases.length, "name")} ` +
      `(${plan.aliases.join(", ") || "none"}) go` +
      (plan.record ? ", and the person record itself." : `; they stay known elsewhere.`) +
      "\n\nUndo brings all of it back.";
    if (!confirm(ask)) return;
    const out = await api("DELETE", path);
    if (!here || state.person === p.id) state.person = null;
    await refresh();
    const rows = [
      el("li", {}, `${count(out.turns.length, "message")} forgotten`),
      el("li", {}, `${count(out.facts.length, "fact")} about them, ${count(out.triples.length, "graph link")} ` +
        `and ${count(out.agenda.length, "plan")} gone`),
      el("li", {}, `names that no longer find them: ${out.aliases.join(", ") || "none"}`),
      el("li", {}, out.record ? "the person record is gone" : `no longer a member of ${out.memberships.join(", ")}`),
    ];
    showOutcome(`Forgot ${name} ${where}`, rows, out.removed, out.batch);
    status(`${name} forgotten ${where}: Undo brings them back.`);
  } catch (e) { status(e.message, true); }
}

/** What a forget changed: the turns, then each derived row removed or rebuilt (from the tiers before and after). */
function changes(turn, turnIds, before, after) {
  const rows = turnIds.map((id) => el("li", {},
    `turn ${id} removed: ` + (id === turn.id ? `#${turn.step} ${speaker(turn)}: ${turn.content}` : "")));
  for (const tier of ["key", "summaries", "clusters", "facts", "episodes"]) {
    for (const [id, text] of before[tier]) {
      if (!after[tier].has(id)) rows.push(el("li", {}, `${tier} ${id} removed: ${text}`));
      else if (after[tier].get(id) !== text) rows.push(el("li", {}, `${tier} ${id} rebuilt: ${after[tier].get(id)}`));
    }
  }
  return rows;
}

function showOutcome(title, rows, report, batch) {
  const box = $("removed");
  box.replaceChildren(
    el("h3", {}, title),
    el("ul", {}, ...rows),
    el("details", {}, el("summary", {}, "Server report"), el("pre", {}, JSON.stringify(report, null, 2))),
    batch ? el("button", { type: "button", class: "undo", onclick: () => undo(batch, title) }, "Undo")
      : el("p", { class: "meta" }, "Erased for good: this cannot be undone."),
    " ",
    el("button", { type: "button", class: "close", onclick: () => { box.hidden = true; } }, "Close"));
  box.dataset.batch = batch || "";
  box.hidden = false;
}

async function undo(batch, what) {
  try {
    await restoreBatch(batch);
    const box = $("removed");
    box.replaceChildren(el("h3", { class: "restored" }, `Undone: ${what.replace(/^\w+/, (w) => w.toLowerCase())}`),
      el("p", {}, `Batch ${batch} is restored: it is all back.`),
      el("button", { type: "button", class: "close", onclick: () => { box.hidden = true; } }, "Close"));
  } catch (e) { status(e.message, true); }
}

async function restoreBatch(batch) {
  const out = await api("POST", "/v1/restore", { batch });
  const back = Object.entries(out.restored).map(([kind, refs]) => `${refs.length} ${kind}`).join(", ");
  await refresh();
  status(`Restored batch ${batch}${back ? ": " + back : ""}.`);
}

// --- the forget log page -------------------------------------------------------------------
const STATUS_WORDS = { active: "can be restored", restored: "restored", purged: "erased for good" };

export async function loadForgetLog() {
  const { entries } = await api("GET", "/v1/forget-log?limit=1000");
  const batches = new Map();
  for (const e of entries) {  // newest first
    if (!batches.has(e.batch)) batches.set(e.batch, []);
    batches.get(e.batch).push(e);
  }
  const ul = $("batches");
  ul.replaceChildren(...[...batches].map(([batch, lines]) => batchItem(batch, lines.slice().reverse())));
  empty(ul, "Nothing has been forgotten in this tenant.");
}

function batchItem(batch, lines) {
  const first = lines.find((l) => l.action !== "restore" && l.action !== "purge") || lines[0];
  const st = first.batch_status || "active";
  const owners = [...new Set(lines.map((l) => l.scope_key).filter(Boolean).map((k) => k.split("|").slice(2).join("|")))];
  const mode = first.batch_mode === "hard" ? "erased at once" : first.action === "soft_delete" || first.action === "expire"
    ? "faded out by the sweeper" : "forgotten softly";
  const buttons = st === "active" ? [
    el("button", { type: "button", class: "restore", onclick: () => restoreFromLog(batch) }, "Restore"), " ",
    el("button", { type: "button", class: "danger purge", onclick: () => purge(batch) }, "Erase for good…"),
  ] : [];
  return el("li", { class: "batch status-" + st, "data-batch": batch },
    el("div", { class: "batch-head" },
      el("strong", {}, `Batch ${batch}`), " ",
      el("span", { class: "badge batch-status " + st }, STATUS_WORDS[st] || st), " ",
      el("span", { class: "meta-inline" }, `${mode} · ${fmtTime(new Date(first.at * 1000).toISOString())}` +
        (owners.length ? ` · ${owners.join(", ")}` : "") + (first.reason ? ` · “${first.reason}”` : "")),
      " ", ...buttons),
    el("ul", { class: "batch-lines" }, ...lines.map((l) => el("li", {}, lineWords(l)))));
}

function lineWords(l) {
  const what = `${l.kind} ${l.ref}`;
  if (l.kind === "person") {  // a forgotten person's names and memberships (ids only are logged)
    const d = l.detail || {};
    const verb = l.action === "restore" ? "restored" : "deleted";
    return `a person's ${d.aliases ?? 0} names and ${(d.memberships || []).length} memberships` +
      (d.record ? " and their record" : "") + ` ${verb}`;
  }
  switch (l.action) {
    case "forget": return l.kind === "turn" && l.detail.session
      ? `turn ${l.ref} (session ${l.detail.session}, #${l.detail.step}) forgotten` : `${what} forgotten`;
    case "forget:rebuilt": return `${what} rebuilt without it`;
    case "forget:deleted": return `${what} deleted`;
    case "forget:reinstated": return `${what} made current again`;
    case "soft_delete": return `${what} faded out (${l.reason})`;
    case "expire": return `${what} expired (${l.reason})`;
    case "restore": return `${what} restored`;
    case "purge": return "erased for good";
    default: return `${what}: ${l.action}`;
  }
}

async function restoreFromLog(batch) {
  try { await restoreBatch(batch); await loadForgetLog(); } catch (e) { status(e.message, true); }
}

async function purge(batch) {
  if (!confirm(`Erase batch ${batch} for good?\n\nWhat it forgot can then never be restored.`)) return;
  try {
    const out = await api("POST", "/v1/purge", { batch });
    status(`Batch ${batch} erased for good (${out.purged_rows} rows).`);
    await loadForgetLog();
  } catch (e) { status(e.message, true); }
}
