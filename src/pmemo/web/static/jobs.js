// The background jobs page: the dead-letter list of this key's tenant (GET /v1/jobs/failed), each
// job with what it was for, how often it was tried and why it failed last, and a Retry button;
// Retry all queues every one again (POST /v1/jobs/retry), once what made them fail is fixed.

import { $, api, el, empty, status } from "./core.js";
import { fmtTime } from "./words.js";

const KINDS = {
  turns: "digest new turns (embed, topics, summaries, facts)",
  embed: "embed turns",
  promote: "promote a topic to key memory",
  hits: "count what a search recalled",
  touch: "mark episodes as recalled",
  reindex: "re-embed after an embedder change",
  diary: "write a diary entry",
  human_block: "rewrite a group's human block",
  insights: "infer insights about a person",
};

/** What a job was about, from its payload: turn ids, or the fields of an object. */
function about(job) {
  const p = job.payload;
  if (Array.isArray(p)) return p.length === 1 ? `turn ${p[0]}` : `turns ${p.join(", ")}`;
  if (p && typeof p === "object") return Object.entries(p).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(" · ");
  return JSON.stringify(p);
}

export async function loadJobs() {
  const { jobs } = await api("GET", "/v1/jobs/failed?limit=1000");
  const ul = $("failed-jobs");
  ul.replaceChildren(...jobs.map(jobItem));
  empty(ul, "No failed jobs: everything in the background went through.");
  $("jobs-retry-all").hidden = !jobs.length;
  $("jobs-meta").textContent = jobs.length ? `${jobs.length} job${jobs.length === 1 ? "" : "s"} failed every try` : "";
}

function jobItem(job) {
  return el("li", { class: "job", "data-job": job.id },
    el("div", { class: "job-head" },
      el("strong", {}, `Job ${job.id}`), " ",
      el("span", { class: "badge failed" }, "failed"), " ",
      el("span", { class: "meta-inline" }, `${KINDS[job.kind] || job.kind} · ${about(job)} · tried ` +
        `${job.attempts === 1 ? "once" : `${job.attempts} times`} · last ${fmtTime(job.updated_at)}`), " ",
      el("button", { type: "button", class: "retry", onclick: () => retry([job.id]) }, "Retry")),
    el("pre", { class: "job-error" }, job.error || "(no error text)"));
}

async function retry(ids) {
  try {
    const { retried } = await api("POST", "/v1/jobs/retry", ids ? { job_ids: ids } : {});
    status(`${retried} job${retried === 1 ? "" : "s"} queued again.`);
    await loadJobs();
  } catch (e) { status(e.message, true); }
}

export function wireJobs() {
  $("jobs-retry-all").addEventListener("click", () => retry(null));
}
