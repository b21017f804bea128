// The timeline page: every turn of the user or group, by day, filtered by speaker, session,
// date and text, a page at a time (GET /v1/turns with limit and offset).

import { $, api, el, empty, ownerQuery, state } from "./core.js";
import { turnItem } from "./memory.js";
import { fmtDay } from "./words.js";

/** The filter form as a query string (without limit and offset). */
function filters() {
  const parts = [ownerQuery()];
  const who = $("tl-speaker").value;
  if (who.startsWith("id:")) parts.push("actor_id=" + encodeURIComponent(who.slice(3)));
  else if (who.startsWith("name:")) parts.push("actor=" + encodeURIComponent(who.slice(5)));
  if (state.session) parts.push("session_id=" + encodeURIComponent(state.session));
  // the days are the browser's: from the start of the first to the end of the last
  if ($("tl-since").value) parts.push("since=" + encodeURIComponent(new Date($("tl-since").value + "T00:00:00").toISOString()));
  if ($("tl-until").value) parts.push("until=" + encodeURIComponent(new Date($("tl-until").value + "T23:59:59.999").toISOString()));
  const text = $("tl-text").value.trim();
  if (text) parts.push("text=" + encodeURIComponent(text));
  return parts.join("&");
}

export function renderSpeakers() {
  const sel = $("tl-speaker");
  const keep = sel.value;
  sel.replaceChildren(el("option", { value: "" }, "everyone"),
    ...state.speakers.map((s) => el("option", { value: s.value }, s.label)));
  sel.value = state.speakers.some((s) => s.value === keep) ? keep : "";
}

let latest = 0; // the newest load: an answer to an older one (filters changed meanwhile) is dropped

export async function loadTimeline() {
  const mine = ++latest;
  renderSpeakers();
  const size = Number($("tl-size").value) || 50;
  const offset = state.timeline.offset;
  // one more than a page: whether there is a next one
  const { turns } = await api("GET", `/v1/turns?${filters()}&limit=${size + 1}&offset=${offset}`);
  if (mine !== latest) return;
  const page = turns.slice(0, size);
  renderTimeline(page);
  $("tl-range").textContent = page.length ? `turns ${offset + 1}–${offset + page.length}` +
    (turns.length > size ? "" : " (the last)") : offset ? "no more turns" : "";
  $("tl-prev").disabled = offset === 0;
  $("tl-next").disabled = turns.length <= size;
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
  empty(ol, "No turns match.");
}

export function wireTimeline(onError) {
  const reload = () => loadTimeline().catch(onError);
  $("tl-form").addEventListener("submit", (ev) => { ev.preventDefault(); state.timeline.offset = 0; reload(); });
  for (const id of ["tl-speaker", "tl-since", "tl-until", "tl-size"]) {
    $(id).addEventListener("change", () => { state.timeline.offset = 0; reload(); });
  }
  $("tl-clear").addEventListener("click", () => {
    for (const id of ["tl-speaker", "tl-since", "tl-until", "tl-text"]) $(id).value = "";
    state.timeline.offset = 0;
    reload();
  });
  $("tl-prev").addEventListener("click", () => {
    state.timeline.offset = Math.max(0, state.timeline.offset - (Number($("tl-size").value) || 50));
    reload();
  });
  $("tl-next").addEventListener("click", () => {
    state.timeline.offset += Number($("tl-size").value) || 50;
    reload();
  });
}
