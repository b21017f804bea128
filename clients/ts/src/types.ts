// The request and response shapes of the REST API, named. Every one is read from the
// generated src/schema.d.ts (openapi-typescript over openapi.json), so a change of the
// API shows up here at the next `npm run gen`; only the body rules JSON Schema states as
// `anyOf` (which owner, which of two fields) are written by hand, as `Owner` and friends.
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];

/** The query parameters of one operation, as the document declares them. */
export type QueryOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

/** Whose memory: exactly one of `user_id` (a private chat) or `group_id` (a group). */
export type Owner =
  | { user_id: string; group_id?: null }
  | { group_id: string; user_id?: null };

/** No owner (everywhere) or exactly one. */
export type MaybeOwner = Owner | { user_id?: null; group_id?: null };

type WithOwner<T> = Omit<T, "user_id" | "group_id"> & Owner;
type WithMaybeOwner<T> = Omit<T, "user_id" | "group_id"> & MaybeOwner;

// bodies ----------------------------------------------------------------------------------
export type TurnIn = WithOwner<Schemas["TurnIn"]>;
export type SearchIn = WithOwner<Schemas["SearchIn"]>;
export type ContextIn = WithOwner<Schemas["ContextIn"]>;
export type KeyIn = WithOwner<Schemas["KeyIn"]>;
export type KeyUpdate = Schemas["KeyUpdate"];
type ForgetCommon = Pick<Schemas["ForgetIn"], "hard" | "reason">;
/** By `turn_ids`, or by `query` within one owner's memory. */
export type ForgetIn =
  | (ForgetCommon & { turn_ids: number[]; query?: null; user_id?: null; group_id?: null })
  | (ForgetCommon & Owner & { query: string; agent_id?: string; turn_ids?: null });
/** The `batch` a forget or sweep returned, or the forgotten `turn_ids`. */
export type RestoreIn = { batch: number; turn_ids?: null } | { turn_ids: number[]; batch?: null };
export type PurgeIn = Schemas["PurgeIn"];
export type SweepIn = Schemas["SweepIn"];
export type FactUpdate = Schemas["FactUpdate"];
export type PersonIn = WithMaybeOwner<Schemas["PersonIn"]>;
export type ResolveIn = WithOwner<Schemas["ResolveIn"]>;
export type TenantIn = Schemas["TenantIn"];
export type BlockAppendIn = WithMaybeOwner<Schemas["BlockAppendIn"]>;
export type BlockReplaceIn = WithMaybeOwner<Schemas["BlockReplaceIn"]>;
export type DiaryIn = WithOwner<Schemas["DiaryIn"]>;
export type RetryIn = Schemas["RetryIn"];

// query strings ---------------------------------------------------------------------------
export type ListTurnsQuery = WithOwner<QueryOf<"/v1/turns", "get">>;
export type OwnerQuery = WithOwner<QueryOf<"/v1/sessions", "get">>;
export type OwnersQuery = QueryOf<"/v1/owners", "get">;
export type SummariesQuery = WithOwner<QueryOf<"/v1/summaries", "get">>;
export type StatsQuery = QueryOf<"/v1/stats", "get">;
export type ProfileQuery = WithOwner<QueryOf<"/v1/profile", "get">>;
export type EpisodesQuery = WithOwner<QueryOf<"/v1/episodes", "get">>;
export type TasksQuery = WithOwner<QueryOf<"/v1/tasks", "get">>;
export type DeleteFactQuery = QueryOf<"/v1/facts/{fact_id}", "delete">;
export type ForgetLogQuery = QueryOf<"/v1/forget-log", "get">;
export type ForgetPersonQuery = WithMaybeOwner<QueryOf<"/v1/people/{person_id}", "delete">>;
export type PersonProfileQuery = WithMaybeOwner<QueryOf<"/v1/people/{person_id}/profile", "get">>;
export type AgendaQuery = WithMaybeOwner<QueryOf<"/v1/agenda", "get">>;
export type DiaryQuery = WithOwner<QueryOf<"/v1/diary", "get">>;
export type DiariesQuery = WithOwner<QueryOf<"/v1/diaries", "get">>;
export type GraphQuery = WithOwner<QueryOf<"/v1/graph", "get">>;
export type TriplesQuery = WithOwner<QueryOf<"/v1/triples", "get">>;
export type InsightsQuery = WithOwner<QueryOf<"/v1/insights", "get">>;
export type BlocksQuery = WithMaybeOwner<QueryOf<"/v1/blocks", "get">>;
export type FailedJobsQuery = QueryOf<"/v1/jobs/failed", "get">;
export type ApiKeysQuery = QueryOf<"/v1/admin/keys", "get">;

// answers ---------------------------------------------------------------------------------
export type Turn = Schemas["TurnOut"];
export type Turns = Schemas["TurnsOut"];
export type Hit = Schemas["HitOut"];
export type Hits = Schemas["HitsOut"];
export type Context = Schemas["ContextOut"];
export type Removed = Schemas["Removed"];
export type Sessions = Schemas["SessionsOut"];
export type Owners = Schemas["OwnersOut"];
export type KeyLine = Schemas["KeyLineOut"];
export type KeyLines = Schemas["KeyLinesOut"];
export type Summaries = Schemas["SummariesOut"];
export type Clusters = Schemas["ClustersOut"];
export type Stats = Schemas["StatsOut"];
export type Fact = Schemas["FactOut"];
export type Facts = Schemas["FactsOut"];
export type Episodes = Schemas["EpisodesOut"];
export type Tasks = Schemas["TasksOut"];
export type Forgotten = Schemas["ForgetOut"];
export type Restored = Schemas["RestoredOut"];
export type Purged = Schemas["PurgedOut"];
export type ForgetLog = Schemas["ForgetLogOut"];
export type Swept = Schemas["SweepOut"];
export type Person = Schemas["PersonOut"];
export type Members = Schemas["MembersOut"];
export type PersonForgotten = Schemas["PersonForgetOut"];
export type Matches = Schemas["MatchesOut"];
export type Agenda = Schemas["AgendaOut"];
export type Diary = Schemas["DiaryOut"];
export type Diaries = Schemas["DiariesOut"];
export type Graph = Schemas["GraphOut"];
export type Triples = Schemas["TriplesOut"];
export type Insights = Schemas["InsightsOut"];
export type Block = Schemas["BlockOut"];
export type Blocks = Schemas["BlocksOut"];
export type FailedJob = Schemas["FailedJobOut"];
export type FailedJobs = Schemas["FailedJobsOut"];
export type Retried = Schemas["RetriedOut"];
export type Tenants = Schemas["TenantsOut"];
export type KeyCreated = Schemas["KeyCreated"];
export type ApiKey = Schemas["ApiKeyOut"];
export type ApiKeys = Schemas["ApiKeysOut"];
export type Problem = Schemas["Problem"];
