// Which REST operation each client method calls: the one place a method meets a route.
// test/parity.test.mjs holds this table to openapi.json (every operation has a method, no
// method names a route the API lacks) and to the table in README.md.

export const ROUTES = {
  // turns
  add: "POST /v1/turns",
  addMany: "POST /v1/turns",
  listTurns: "GET /v1/turns",
  getTurn: "GET /v1/turns/{turn_id}",
  deleteTurn: "DELETE /v1/turns/{turn_id}",
  // retrieval
  search: "POST /v1/search",
  context: "POST /v1/context",
  // sessions and owners
  listSessions: "GET /v1/sessions",
  deleteSession: "DELETE /v1/sessions/{session_id}",
  listOwners: "GET /v1/owners",
  deleteOwner: "DELETE /v1/owners",
  // key memory
  listKeyLines: "GET /v1/key",
  addKeyLine: "POST /v1/key",
  getKeyLine: "GET /v1/key/{key_id}",
  updateKeyLine: "PUT /v1/key/{key_id}",
  deleteKeyLine: "DELETE /v1/key/{key_id}",
  // tiers
  listSummaries: "GET /v1/summaries",
  deleteSummary: "DELETE /v1/summaries/{summary_id}",
  listClusters: "GET /v1/clusters",
  stats: "GET /v1/stats",
  profile: "GET /v1/profile",
  getFact: "GET /v1/facts/{fact_id}",
  updateFact: "PUT /v1/facts/{fact_id}",
  deleteFact: "DELETE /v1/facts/{fact_id}",
  episodes: "GET /v1/episodes",
  tasks: "GET /v1/tasks",
  // forgetting
  forget: "POST /v1/forget",
  restore: "POST /v1/restore",
  purge: "POST /v1/purge",
  forgetLog: "GET /v1/forget-log",
  sweep: "POST /v1/sweep",
  // people
  putPerson: "PUT /v1/people/{person_id}",
  getPerson: "GET /v1/people/{person_id}",
  listPeople: "GET /v1/people",
  removeAlias: "DELETE /v1/people/{person_id}/aliases/{alias}",
  forgetPerson: "DELETE /v1/people/{person_id}",
  resolvePeople: "POST /v1/people/resolve",
  personProfile: "GET /v1/people/{person_id}/profile",
  agenda: "GET /v1/agenda",
  // diary
  diary: "GET /v1/diary",
  diaries: "GET /v1/diaries",
  writeDiary: "POST /v1/diary",
  // graph
  graph: "GET /v1/graph",
  triples: "GET /v1/triples",
  insights: "GET /v1/insights",
  // memory blocks
  listBlocks: "GET /v1/blocks",
  appendBlock: "POST /v1/blocks/{label}/append",
  replaceBlock: "POST /v1/blocks/{label}/replace",
  // background jobs
  failedJobs: "GET /v1/jobs/failed",
  retryJobs: "POST /v1/jobs/retry",
  // admin (an admin key)
  listTenants: "GET /v1/admin/tenants",
  createApiKey: "POST /v1/admin/keys",
  listApiKeys: "GET /v1/admin/keys",
  revokeApiKey: "DELETE /v1/admin/keys/{key_id}",
  revokeTenant: "DELETE /v1/admin/tenants/{tenant}",
  // health (no key)
  health: "GET /healthz",
  ready: "GET /readyz",
} as const;

export type MethodName = keyof typeof ROUTES;
