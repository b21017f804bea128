// What the stored numbers and codes mean, in words for the person who runs the bot.

import { personName, state } from "./core.js";

const LOCALE = undefined; // the browser's
export const fmtTime = (iso) => (iso ? new Date(iso).toLocaleString(LOCALE, {
  weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
}) : "");
export const fmtDay = (iso) => (iso ? new Date(iso).toLocaleDateString(LOCALE, {
  weekday: "long", year: "numeric", month: "long", day: "numeric",
}) : "");
const fmtClock = (iso) => new Date(iso).toLocaleTimeString(LOCALE, { hour: "2-digit", minute: "2-digit" });
export const times = (n, one = "once", many = "times") => (n === 1 ? one : `${n} ${many}`);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function span(fromIso, toIso) {
  const from = new Date(fromIso), to = new Date(toIso);
  const minutes = Math.round((to - from) / 60000);
  const long = minutes >= 120 ? `${Math.round(minutes / 60)} hours` : plural(minutes, "minute");
  if (from.toDateString() === to.toDateString()) return `${fmtTime(fromIso)}–${fmtClock(toIso)} (${long})`;
  return `${fmtTime(fromIso)} – ${fmtTime(toIso)}`;
}

// --- who said it -------------------------------------------------------------------------
export function speaker(t) {
  if (t.actor_id) return personName(t.actor_id);
  if (t.actor) return t.actor;
  return t.role === "assistant" ? "the assistant" : t.role === "user" ? "the user" : t.role;
}

/** The speakers of a hit's source turns, in order of first appearance. */
export function speakersOf(sources) {
  return [...new Set(sources.map(speaker))];
}

// --- profile facts -----------------------------------------------------------------------
// a key's family ("event" of "event:2024-03-08") as a label; the rest of the key is in the sentence
const FAMILY = {
  event: "plan", allergy: "allergy", diet: "food and drink", opinion: "likes and dislikes", favorite: "favourite",
  employer: "work", job: "work", work_status: "work", home_city: "home", school: "studies", major: "studies",
  pet: "pet", name: "name", preferred_name: "what to call them", tone: "how to answer", relationship: "relationship",
  family: "family", birthday: "birthday",
};
export function factKind(f) {
  const family = f.key.split(":")[0];
  return FAMILY[family] || family.replace(/_/g, " ");
}

export function sureness(confidence) {
  const pct = `${Math.round(confidence * 100)}%`;
  if (confidence >= 0.9) return `sure (${pct})`;
  if (confidence >= 0.7) return `fairly sure (${pct})`;
  return `unsure (${pct})`;
}

const turnList = (ids) => (ids.length === 1 ? `turn ${ids[0]}` : `turns ${ids.join(", ")}`);

/** Where a fact came from. "explicit" only means it was stated outright, not inferred: a fact
 * with source turns was extracted from those messages; without any, someone added it by hand. */
export function factOrigin(f) {
  const from = f.source_ids.length ? turnList(f.source_ids) : "";
  switch (f.source) {
    case "edited": return "corrected by hand" + (from ? `, first said in ${from}` : "");
    case "corrected": return from ? `a change they stated, learned from ${from}` : "a stated change";
    case "inferred": return from ? `inferred from ${from}` : "inferred";
    case "system": return "set by pmemo";
    default: return from ? `learned from what was said in ${from}` : "added by hand";
  }
}

export function factStatus(f) {
  switch (f.status) {
    case "current": return "";
    case "superseded": return `replaced${f.valid_to ? " on " + fmtTime(f.valid_to) : ""}`;
    case "conflict": return "contradicts the current value (kept aside until said again)";
    case "expired": return "past its date";
    default: return f.status;
  }
}

export function factMeta(f) {
  const said = f.mentions > 1 ? `said ${times(f.mentions)}` : "";
  const other = f.subject_id && state.owner !== `u:${f.subject_id}`; // a user's own facts need no "about"
  return [other ? `about ${personName(f.subject_id)}` : "", factKind(f),
    sureness(f.confidence), said, factOrigin(f), factStatus(f)].filter(Boolean).join(" · ");
}

// --- mid-term clusters and episodes --------------------------------------------------------
export function clusterWords(c) {
  // hits: how often searches recalled the topic lately (each recall counts 1, halving over weeks)
  const recalled = c.hits < 0.05 ? "not recalled by a search yet"
    : `recalled about ${times(Math.max(1, Math.round(c.hits)))} lately`;
  return `${plural(c.size, "turn")} on this topic · ${recalled}`;
}

const EPISODE_KIND = {
  session: (e) => `A conversation${e.session_id ? ` (session ${e.session_id})` : ""}`,
  compaction: (e) => `An earlier stretch of a long conversation${e.session_id ? ` (session ${e.session_id})` : ""}`,
  task: () => "A finished task",
};

export function episodeTitle(e) {
  return (EPISODE_KIND[e.kind] || (() => e.kind))(e) + `, ${span(e.started_at, e.ended_at)}`;
}

export function episodeWeight(e) {
  // importance: how much of it was decisions, dates and numbers (0.3 small talk … 1.0)
  const weight = e.importance >= 0.8 ? "holds decisions, dates or numbers: recalled first when it fits"
    : e.importance >= 0.5 ? "holds a few decisions or dates" : "mostly small talk: recalled last";
  const used = e.access_count ? `brought into a context ${times(e.access_count)}` : "not brought into a context yet";
  return `${weight} · ${used}`;
}

export const METHOD = { extractive: "key sentences picked from the turns", llm: "written by the language model" };
