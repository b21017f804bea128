// The client: one method per REST operation (src/routes.ts says which), over global fetch.
import { errorOf, networkError } from "./errors.js";
import { ROUTES, type MethodName } from "./routes.js";
import type * as T from "./types.js";

export interface PMemoOptions {
  /** Where the server is, e.g. `http://127.0.0.1:8765` (a path prefix is kept). */
  baseUrl: string;
  /** A tenant key (`pmemo keys create --tenant T`) or, for the admin methods, an admin key. */
  apiKey?: string;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Give up on a request after this many milliseconds (PMemoError, code `timeout`). */
  timeoutMs?: number;
}

/** What every method takes last. */
export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface AddOptions extends CallOptions {
  /**
   * Any unique string, e.g. the chat message's id: a retry with the same key and body
   * stores nothing twice and returns the first answer; the same key with another body is 409.
   */
  idempotencyKey?: string;
  /** Answer only once the background work on these turns is done (so a search finds them). */
  wait?: boolean;
  /** How long `wait` may take, in seconds (the server's default is 30). */
  waitSeconds?: number;
}

export interface IfMatchOptions extends CallOptions {
  /** The version you read, sent as `If-Match: "<version>"` (or the ETag as it came). */
  ifMatch?: number | string;
}

type Params = Record<string, string | number>;
type Query = Record<string, string | number | boolean | null | undefined>;

interface Call {
  path?: Params;
  query?: object | undefined;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A pmemo server over HTTP. Field names are the API's own (`user_id`, `session_id` …); each
 * method returns the JSON body the server sends (undefined for a 204), and throws
 * `PMemoError` for anything but a 2xx.
 *
 * @example
 * const pm = new PMemo({ baseUrl: "http://127.0.0.1:8765", apiKey: process.env.PMEMO_API_KEY });
 * await pm.add({ user_id: "alice", session_id: "s1", content: "I moved to Lisbon." });
 * const { text } = await pm.context({ user_id: "alice", query: "where do I live?" });
 */
export class PMemo {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number | undefined;

  constructor(options: PMemoOptions) {
    if (!options?.baseUrl) throw new TypeError("PMemo needs a baseUrl, e.g. http://127.0.0.1:8765");
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function") throw new TypeError("no fetch: use Node 18+ or pass options.fetch");
    this.#fetch = (input, init) => f(input, init); // never called as a method of this object
    this.#headers = { ...options.headers };
    this.#timeoutMs = options.timeoutMs;
  }

  // turns -------------------------------------------------------------------------------
  /** Store one turn. `actor_id` names the speaker (a person id), `actor` their display name. */
  add(turn: T.TurnIn, options: AddOptions = {}): Promise<T.Turn> {
    return this.#call("add", addCall(turn, options), options);
  }

  /** Store many turns in one call, in order (at most the server's batch limit, 500). */
  addMany(turns: T.TurnIn[], options: AddOptions = {}): Promise<T.Turns> {
    return this.#call("addMany", addCall({ turns }, options), options);
  }

  /** Raw turns of one owner, oldest first, by session, time range and text. */
  listTurns(query: T.ListTurnsQuery, options?: CallOptions): Promise<T.Turns> {
    return this.#call("listTurns", { query }, options);
  }

  getTurn(turnId: number, options?: CallOptions): Promise<T.Turn> {
    return this.#call("getTurn", { path: { turn_id: turnId } }, options);
  }

  /** Forget one turn and what was derived from it, for good. */
  deleteTurn(turnId: number, options?: CallOptions): Promise<T.Removed> {
    return this.#call("deleteTurn", { path: { turn_id: turnId } }, options);
  }

  // retrieval ---------------------------------------------------------------------------
  /** Ranked items from every tier, best first, without packing. */
  search(body: T.SearchIn, options?: CallOptions): Promise<T.Hits> {
    return this.#call("search", { body }, options);
  }

  /**
   * The packed context for a message within a token budget; `text` is ready for a prompt.
   * In a group, `asker` (a person id) and `recent` (the last messages) bring in the people.
   */
  context(body: T.ContextIn, options?: CallOptions): Promise<T.Context> {
    return this.#call("context", { body }, options);
  }

  // sessions and owners -----------------------------------------------------------------
  listSessions(query: T.OwnerQuery, options?: CallOptions): Promise<T.Sessions> {
    return this.#call("listSessions", { query }, options);
  }

  deleteSession(sessionId: string, query: T.OwnerQuery, options?: CallOptions): Promise<T.Removed> {
    return this.#call("deleteSession", { path: { session_id: sessionId }, query }, options);
  }

  /** Users (`u:<id>`) and groups (`g:<id>`) with memory under an agent. */
  listOwners(query: T.OwnersQuery = {}, options?: CallOptions): Promise<T.Owners> {
    return this.#call("listOwners", { query }, options);
  }

  /** Everything of one user or group: turns, tiers, key memory. */
  deleteOwner(query: T.OwnerQuery, options?: CallOptions): Promise<T.Removed> {
    return this.#call("deleteOwner", { query }, options);
  }

  // key memory --------------------------------------------------------------------------
  listKeyLines(query: T.OwnerQuery, options?: CallOptions): Promise<T.KeyLines> {
    return this.#call("listKeyLines", { query }, options);
  }

  addKeyLine(body: T.KeyIn, options?: CallOptions): Promise<T.KeyLine> {
    return this.#call("addKeyLine", { body }, options);
  }

  /** One key line; its `version` is what `updateKeyLine` takes back. */
  getKeyLine(keyId: number, options?: CallOptions): Promise<T.KeyLine> {
    return this.#call("getKeyLine", { path: { key_id: keyId } }, options);
  }

  /**
   * Change a key line's text. With the version you read (`body.version`, or
   * `options.ifMatch`), a line changed since is left alone: PMemoError 409 whose
   * `currentVersion` is the version that won.
   */
  updateKeyLine(keyId: number, body: T.KeyUpdate, options: IfMatchOptions = {}): Promise<T.KeyLine> {
    return this.#call("updateKeyLine", { path: { key_id: keyId }, body, headers: ifMatch(options) }, options);
  }

  deleteKeyLine(keyId: number, options?: CallOptions): Promise<void> {
    return this.#call("deleteKeyLine", { path: { key_id: keyId } }, options);
  }

  // tiers -------------------------------------------------------------------------------
  listSummaries(query: T.SummariesQuery, options?: CallOptions): Promise<T.Summaries> {
    return this.#call("listSummaries", { query }, options);
  }

  /** Delete one long-term summary (its turns stay). */
  deleteSummary(summaryId: number, options?: CallOptions): Promise<void> {
    return this.#call("deleteSummary", { path: { summary_id: summaryId } }, options);
  }

  listClusters(query: T.OwnerQuery, options?: CallOptions): Promise<T.Clusters> {
    return this.#call("listClusters", { query }, options);
  }

  /** Counts per tier and of background jobs, for the tenant or narrowed to an owner. */
  stats(query: T.StatsQuery = {}, options?: CallOptions): Promise<T.Stats> {
    return this.#call("stats", { query }, options);
  }

  /** Current facts about a user or group; `history: true` adds superseded ones. */
  profile(query: T.ProfileQuery, options?: CallOptions): Promise<T.Facts> {
    return this.#call("profile", { query }, options);
  }

  /** One fact, current or history; its `version` is what `updateFact` takes back. */
  getFact(factId: number, options?: CallOptions): Promise<T.Fact> {
    return this.#call("getFact", { path: { fact_id: factId } }, options);
  }

  /**
   * Correct a current fact's value by hand (its source becomes `edited`, the old value stays
   * in its history). With the version you read, a fact changed since is left alone (409).
   */
  updateFact(factId: number, body: T.FactUpdate, options: IfMatchOptions = {}): Promise<T.Fact> {
    return this.#call("updateFact", { path: { fact_id: factId }, body, headers: ifMatch(options) }, options);
  }

  /** Delete one fact; soft unless `hard: true` (the returned `batch` can be restored). */
  deleteFact(factId: number, query: T.DeleteFactQuery = {}, options?: CallOptions): Promise<T.Forgotten> {
    return this.#call("deleteFact", { path: { fact_id: factId }, query }, options);
  }

  episodes(query: T.EpisodesQuery, options?: CallOptions): Promise<T.Episodes> {
    return this.#call("episodes", { query }, options);
  }

  tasks(query: T.TasksQuery, options?: CallOptions): Promise<T.Tasks> {
    return this.#call("tasks", { query }, options);
  }

  // forgetting --------------------------------------------------------------------------
  /** Forget turns (soft by default: the `batch` can be restored), by ids or by a query. */
  forget(body: T.ForgetIn, options?: CallOptions): Promise<T.Forgotten> {
    return this.#call("forget", { body }, options);
  }

  /** Undo a soft forget or a sweep. */
  restore(body: T.RestoreIn, options?: CallOptions): Promise<T.Restored> {
    return this.#call("restore", { body }, options);
  }

  /** Make a soft forget or sweep permanent: its `batch` can no longer be restored. */
  purge(body: T.PurgeIn, options?: CallOptions): Promise<T.Purged> {
    return this.#call("purge", { body }, options);
  }

  forgetLog(query: T.ForgetLogQuery = {}, options?: CallOptions): Promise<T.ForgetLog> {
    return this.#call("forgetLog", { query }, options);
  }

  /** Fade out weak memories; `dry_run` (the default) only lists what would go. */
  sweep(body: T.SweepIn = {}, options?: CallOptions): Promise<T.Swept> {
    return this.#call("sweep", { body }, options);
  }

  // people ------------------------------------------------------------------------------
  /** Register or update a person (aliases are merged); with an owner, also a member there. */
  putPerson(personId: string, body: T.PersonIn = {}, options?: CallOptions): Promise<T.Person> {
    return this.#call("putPerson", { path: { person_id: personId }, body }, options);
  }

  getPerson(personId: string, options?: CallOptions): Promise<T.Person> {
    return this.#call("getPerson", { path: { person_id: personId } }, options);
  }

  /** The members of a group or private chat, latest speaker first. */
  listPeople(query: T.OwnerQuery, options?: CallOptions): Promise<T.Members> {
    return this.#call("listPeople", { query }, options);
  }

  /** Stop resolving `alias` to the person; returns the person as they are now. */
  removeAlias(personId: string, alias: string, options?: CallOptions): Promise<T.Person> {
    return this.#call("removeAlias", { path: { person_id: personId, alias } }, options);
  }

  /**
   * Forget a person: their turns, the facts about them (whoever said them), their triples and
   * plans, and their record with every alias; with `group_id`/`user_id` only in that chat (their
   * membership and the nicknames learned there). Soft by default: `restore({ batch })` brings
   * it all back; `hard: true` erases; `dry_run: true` lists what would go. 404 names the id.
   */
  forgetPerson(personId: string, query: T.ForgetPersonQuery = {}, options?: CallOptions): Promise<T.PersonForgotten> {
    return this.#call("forgetPerson", { path: { person_id: personId }, query }, options);
  }

  /** The people a text names, members of the chat first. */
  resolvePeople(body: T.ResolveIn, options?: CallOptions): Promise<T.Matches> {
    return this.#call("resolvePeople", { body }, options);
  }

  /** What is known about a person: in one chat (`group_id`/`user_id`) or everywhere. */
  personProfile(personId: string, query: T.PersonProfileQuery = {}, options?: CallOptions): Promise<T.Facts> {
    return this.#call("personProfile", { path: { person_id: personId }, query }, options);
  }

  /** Dated plans people mentioned; with `at`, only the open ones near that time. Without
   * `group_id`/`user_id`: every chat's, each item with its own, to bring a plan up unasked. */
  agenda(query: T.AgendaQuery = {}, options?: CallOptions): Promise<T.Agenda> {
    return this.#call("agenda", { query }, options);
  }

  // diary -------------------------------------------------------------------------------
  /** A chat's diary entry of one day (`day`: YYYY-MM-DD); PMemoError 404 when it has none. */
  diary(query: T.DiaryQuery, options?: CallOptions): Promise<T.Diary> {
    return this.#call("diary", { query }, options);
  }

  /** A chat's diary entries from `start` to `end` (each optional), oldest first. */
  diaries(query: T.DiariesQuery, options?: CallOptions): Promise<T.Diaries> {
    return this.#call("diaries", { query }, options);
  }

  /** Write (or rewrite) a day's entry now (default `day`: today in the diary's time zone). */
  writeDiary(body: T.DiaryIn, options?: CallOptions): Promise<T.Diary> {
    return this.#call("writeDiary", { body }, options);
  }

  // graph -------------------------------------------------------------------------------
  /** An entity (person id or name) and the triples within `hops` (1 or 2) of it, as a chat knows it. */
  graph(query: T.GraphQuery, options?: CallOptions): Promise<T.Graph> {
    return this.#call("graph", { query }, options);
  }

  /** A chat's triples, oldest first: now, at `at`, or every one ever said (`history`). */
  triples(query: T.TriplesQuery, options?: CallOptions): Promise<T.Triples> {
    return this.#call("triples", { query }, options);
  }

  /** What a language model inferred about a person (`subject`) in a chat: never facts. */
  insights(query: T.InsightsQuery, options?: CallOptions): Promise<T.Insights> {
    return this.#call("insights", { query }, options);
  }

  // memory blocks -----------------------------------------------------------------------
  /** The memory blocks of a chat (`group_id`/`user_id`: what its context shows), or all of them. */
  listBlocks(query: T.BlocksQuery = {}, options?: CallOptions): Promise<T.Blocks> {
    return this.#call("listBlocks", { query }, options);
  }

  /** Add `text` as a new line at the end of an editable block; its file is written back. */
  appendBlock(label: string, body: T.BlockAppendIn, options?: CallOptions): Promise<T.Block> {
    return this.#call("appendBlock", { path: { label }, body }, options);
  }

  /**
   * Replace `old` (once in the block) by `new`. With the version you read (`body.version`, or
   * `options.ifMatch`), a file changed since is left alone: PMemoError 409 with `currentVersion`.
   */
  replaceBlock(label: string, body: T.BlockReplaceIn, options: IfMatchOptions = {}): Promise<T.Block> {
    return this.#call("replaceBlock", { path: { label }, body, headers: ifMatch(options) }, options);
  }

  // background jobs ---------------------------------------------------------------------
  /** The dead-letter list: background jobs that failed every try, newest first, with their errors. */
  failedJobs(query: T.FailedJobsQuery = {}, options?: CallOptions): Promise<T.FailedJobs> {
    return this.#call("failedJobs", { query }, options);
  }

  /** Queue failed jobs again (`job_ids`, or with none all of this tenant's), tries counted from zero. */
  retryJobs(body: T.RetryIn = {}, options?: CallOptions): Promise<T.Retried> {
    return this.#call("retryJobs", { body }, options);
  }

  // admin -------------------------------------------------------------------------------
  listTenants(options?: CallOptions): Promise<T.Tenants> {
    return this.#call("listTenants", {}, options);
  }

  /** A new key for a tenant (made if new); `key` is shown only here. */
  createApiKey(body: T.TenantIn, options?: CallOptions): Promise<T.KeyCreated> {
    return this.#call("createApiKey", { body }, options);
  }

  listApiKeys(query: T.ApiKeysQuery = {}, options?: CallOptions): Promise<T.ApiKeys> {
    return this.#call("listApiKeys", { query }, options);
  }

  revokeApiKey(keyId: string, options?: CallOptions): Promise<T.ApiKey> {
    return this.#call("revokeApiKey", { path: { key_id: keyId } }, options);
  }

  /** Revoke every key of a tenant (its memory stays). */
  revokeTenant(tenant: string, options?: CallOptions): Promise<T.Removed> {
    return this.#call("revokeTenant", { path: { tenant } }, options);
  }

  // health ------------------------------------------------------------------------------
  /** The process is up. */
  health(options?: CallOptions): Promise<{ status: string }> {
    return this.#call("health", {}, options);
  }

  /** The stores answer (PMemoError 503 when not). */
  ready(options?: CallOptions): Promise<{ status: string }> {
    return this.#call("ready", {}, options);
  }

  // transport ---------------------------------------------------------------------------
  async #call<R>(name: MethodName, call: Call, options: CallOptions = {}): Promise<R> {
    const [method, template] = ROUTES[name].split(" ") as [string, string];
    const path = fillPath(template, call.path ?? {});
    const url = this.baseUrl + path + queryString((call.query ?? {}) as Query);
    const headers: Record<string, string> = { Accept: "application/json", ...this.#headers };
    if (this.#apiKey) headers.Authorization = `Bearer ${this.#apiKey}`;
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    Object.assign(headers, call.headers, options.headers);
    const request = `${method} ${path}`;
    let response: Response;
    try {
      response = await this.#fetch(url, {
        method,
        headers,
        body: call.body === undefined ? null : JSON.stringify(call.body),
        signal: this.#signal(options.signal),
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause; // the caller's own abort stays theirs
      throw networkError(cause, request);
    }
    if (!response.ok) throw await errorOf(response, request);
    if (response.status === 204) return undefined as R;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as R;
  }

  #signal(signal: AbortSignal | undefined): AbortSignal | null {
    if (this.#timeoutMs === undefined) return signal ?? null;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    return signal ? AbortSignal.any([signal, timeout]) : timeout;
  }
}

function addCall(body: unknown, options: AddOptions): Call {
  const headers: Record<string, string> = {};
  if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
  const query = { wait: options.wait, wait_seconds: options.waitSeconds };
  return { body, headers, query };
}

function ifMatch(options: IfMatchOptions): Record<string, string> {
  const version = options.ifMatch;
  if (version === undefined) return {};
  return { "If-Match": typeof version === "number" ? `"${version}"` : version };
}

function fillPath(template: string, params: Params): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Query): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
