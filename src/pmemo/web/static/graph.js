// The entities page (issue 20): one person, place, organisation or thing as this group or chat
// knows it, with what was said about it over time (each triple from when it held to when a newer
// one replaced it), and the entities it links to, each a link to its own page.

import { $, api, el, empty, ownerQuery, status } from "./core.js";
import { fmtTime } from "./words.js";

let shown = null; // the entity on the page (a person id or a name), kept across reloads

export function wireGraph(fail) {
  $("entity-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = $("entity-name").value.trim();
    if (name) showEntity(name).catch(fail);
  });
}

/** The page: the chat's people as starting points, and the entity shown, again. */
export async function loadGraph() {
  const { members } = await api("GET", `/v1/people?${ownerQuery()}`);
  const people = $("entity-people");
  people.replaceChildren(...members.map((m) => link(m.person.id, m.person.name || m.person.id)));
  if (!members.length) people.append(el("span", { class: "empty" }, "nobody yet"));
  if (shown) await showEntity(shown);
  else $("entity-panel").hidden = true;
}

function link(key, label) {
  return el("button", { type: "button", class: "entity-link", "data-key": key, title: `Show ${label}`,
    onclick: () => showEntity(key).catch((e) => status(e.message, true)) }, label);
}

const q = (name) => `entity=${encodeURIComponent(name)}&${ownerQuery()}`;

export async function showEntity(name) {
  shown = name;
  $("entity-name").value = name;
  let graph, history;
  try {
    [graph, history] = await Promise.all([
      api("GET", `/v1/graph?${q(name)}`),
      api("GET", `/v1/triples?subject=${encodeURIComponent(name)}&history=true&${ownerQuery()}`),
    ]);
  } catch (e) {
    if (e.status !== 404) throw e;
    $("entity-panel").hidden = true;
    status(`Nothing is known here about “${name}”.`, true);
    return;
  }
  if (shown !== name) return; // another entity was asked for meanwhile
  const { entity } = graph;
  $("entity-title").textContent = entity.name;
  $("entity-kind").textContent = entity.person_id ? `person · id ${entity.person_id}` : entity.kind;
  $("entity-meta").textContent = entity.aliases.length ? `also called ${entity.aliases.join(", ")}` : "";
  // its own triples over time, and the current ones naming it as their object
  const byId = new Map(history.triples.map((t) => [t.id, t]));
  for (const t of graph.triples) if (t.object === entity.key && t.object_kind) byId.set(t.id, t);
  const rows = [...byId.values()].sort((a, b) => a.valid_from.localeCompare(b.valid_from) || a.id - b.id);
  const ol = $("entity-triples");
  ol.replaceChildren(...rows.map(tripleItem));
  empty(ol, "Nothing said about it here yet.");
  const others = graph.nodes.filter((n) => n.key !== entity.key);
  const ul = $("entity-links");
  ul.replaceChildren(...others.map((n) => el("li", {}, link(n.key, n.name), el("span", { class: "meta-inline" },
    ` ${n.person_id ? "person" : n.kind}`))));
  empty(ul, "Linked to nothing here.");
  $("entity-panel").hidden = false;
  status(`Showing ${entity.name}: ${rows.length} triple${rows.length === 1 ? "" : "s"} over time.`);
}

function tripleItem(t) {
  const when = t.current ? `since ${fmtTime(t.valid_from)}` : `${fmtTime(t.valid_from)} → ${fmtTime(t.valid_to)}`;
  const turns = t.sources.length ? ` · said in turn${t.sources.length === 1 ? "" : "s"} ${t.sources.join(", ")}` : "";
  return el("li", { class: "triple" + (t.current ? "" : " closed"), "data-id": t.id, "data-predicate": t.predicate,
    title: `${t.subject} ${t.predicate} ${t.object}` },
    el("span", { class: "badge " + (t.current ? "current" : "closed") }, t.current ? "holds" : "replaced"),
    el("span", { class: "triple-sentence" }, t.sentence), " ",
    el("span", { class: "triple-when" }, when),
    el("span", { class: "meta" }, `${t.predicate} · learned in ${t.learned_in} · confidence ${Math.round(t.confidence * 100)}%` +
      turns));
}
