// The diary page: one entry per day of the group or chat (GET /v1/diaries), newest first, each
// shown whole; a day can be looked up by date (GET /v1/diary) and written now (POST /v1/diary).

import { $, api, el, empty, ownerBody, ownerQuery, status } from "./core.js";
import { fmtTime } from "./words.js";

const METHOD = {
  llm: "written by the language model, in the agent's voice",
  digest: "a digest of what was said (topics, who said what, plans and dates)",
};
const view = { entries: [], day: null }; // the entries listed, and the day shown

/** A day ("2024-12-20") in words; days are calendar days, so no time zone moves them. */
const fmtDate = (day) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
  weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC",
});

export async function loadDiary() {
  const { entries } = await api("GET", `/v1/diaries?${ownerQuery()}`);
  view.entries = entries;
  renderDays();
  const shown = entries.find((e) => e.day === view.day) || entries[entries.length - 1];
  if (shown) show(shown);
  else none(view.day, "No diary entries yet: a day's entry is written once the day is over.");
}

function renderDays() {
  const ul = $("diary-days");
  ul.replaceChildren(...view.entries.slice().reverse().map((e) => el("li", { "data-day": e.day },
    el("button", { type: "button", class: "diary-day", onclick: () => show(e) }, fmtDate(e.day)),
    el("span", { class: "meta" }, e.method === "llm" ? "diary entry" : "digest"))));
  empty(ul, "No days yet.");
}

function show(entry) {
  view.day = entry.day;
  $("diary-day").value = entry.day;
  for (const li of $("diary-days").children) li.classList.toggle("selected", li.dataset.day === entry.day);
  $("diary-none").hidden = true;
  $("diary-entry").hidden = false;
  $("diary-entry").dataset.day = entry.day;
  $("diary-title").textContent = fmtDate(entry.day);
  const turns = entry.source_ids.length;
  $("diary-meta").textContent = [METHOD[entry.method] || entry.method,
    `from ${turns} message${turns === 1 ? "" : "s"}`, `written ${fmtTime(entry.updated_at)}`].join(" · ");
  $("diary-text").textContent = entry.text;
}

function none(day, text) {
  view.day = day;
  $("diary-entry").hidden = true;
  $("diary-none").hidden = false;
  $("diary-none").textContent = text;
}

/** The entry of the day in the date field, or why there is none. */
async function lookUp() {
  const day = $("diary-day").value;
  if (!day) return;
  try {
    show(await api("GET", `/v1/diary?${ownerQuery()}&day=${day}`));
  } catch (e) {
    if (e.status !== 404) throw e;
    none(day, `No entry for ${fmtDate(day)}. ${e.message}`);
  }
}

/** Write (or rewrite) the entry of the day in the date field (empty: today) now. */
async function writeNow() {
  const day = $("diary-day").value;
  const entry = await api("POST", "/v1/diary", { ...ownerBody(), ...(day ? { day } : {}) });
  view.day = entry.day;
  await loadDiary();
  status(`Diary entry of ${fmtDate(entry.day)} written.`);
}

export function wireDiary(onError) {
  $("diary-form").addEventListener("submit", (ev) => { ev.preventDefault(); lookUp().catch(onError); });
  $("diary-write").addEventListener("click", () => writeNow().catch(onError));
}
