// The memory blocks page: every block file of this key's tenant, with its size against its limit,
// whether the agent may edit it, whom it is for, its file, and plainly why a file cannot be used.

import { $, api, el, empty } from "./core.js";

export async function loadBlocks() {
  const { blocks } = await api("GET", "/v1/blocks");
  const ul = $("blocks");
  ul.replaceChildren(...blocks.map(blockItem));
  empty(ul, "No memory blocks: start the server with a blocks folder (PMEMO_BLOCKS_DIR) holding .md files.");
  const broken = blocks.filter((b) => b.problem).length;
  $("blocks-meta").textContent = `${blocks.length} block${blocks.length === 1 ? "" : "s"}` +
    (broken ? `, ${broken} with a problem (not in any context until fixed)` : ", all in use");
}

function forWhom(b) {
  const who = b.group ? `group ${b.group}` : b.user ? `user ${b.user}` : "every chat";
  const agent = b.agent ? ` of agent ${b.agent}` : "";
  return (b.tenant === "*" ? "every tenant, " : "") + who + agent;
}

function blockItem(b) {
  const full = b.chars / b.limit;
  return el("li", { class: "block" + (b.problem ? " broken" : ""), "data-label": b.label, "data-file": b.file },
    el("div", { class: "block-head" },
      el("strong", { class: "block-label" }, b.label),
      el("span", { class: "badge " + (b.editable ? "editable" : "read-only") }, b.editable ? "editable" : "read-only"),
      el("span", { class: "meta-inline block-size", title: "characters / limit" },
        ` ${b.chars} / ${b.limit} chars` + (full > 1 ? " (over its limit)" : full > 0.9 ? " (nearly full)" : "")),
      el("span", { class: "meta-inline" }, ` · for ${forWhom(b)} · file ${b.file}`)),
    b.description ? el("p", { class: "meta block-description" }, b.description) : null,
    b.problem ? el("p", { class: "block-problem", role: "alert" }, `Not used: ${b.problem}`) : null,
    el("pre", { class: "block-value" }, b.value || "(empty)"));
}
