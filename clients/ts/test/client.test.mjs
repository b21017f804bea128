// Every client method against a real `pmemo serve`: the happy paths, and a 401, 403, 404,
// 409 (a stale key-line version, a reused idempotency key) and 422 with its detail.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { PMemo, PMemoError, ROUTES } from "pmemo-client";
import { startServer } from "./server.mjs";

const GROUP = "study";

/** A blocks folder for the server: t1's editable notes for the group, and a read-only persona. */
function blocksFolder() {
  const root = mkdtempSync(join(tmpdir(), "pmemo-ts-blocks-"));
  writeFileSync(join(root, "notes.md"),
    "---\nlabel: notes\nread_only: false\ntenant: t1\ngroup: study\n---\nNi likes tea.\n");
  writeFileSync(join(root, "persona.md"), "---\nlabel: persona\ntenant: t1\n---\nI am Momo.\n");
  return root;
}
const CHAT = "study-chat";
const called = new Set();

/** The client, noting which of its methods the tests call (the last test needs them all). */
function client(options) {
  const pm = new PMemo(options);
  return new Proxy(pm, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      if (Object.hasOwn(ROUTES, name)) called.add(name);
      return value.bind(target);
    },
  });
}

/** The PMemoError a promise rejects with (and that it does). */
async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PMemoError, `not a PMemoError: ${error}`);
    return error;
  }
  assert.fail("the call succeeded");
}

describe("pmemo-client against pmemo serve", () => {
  let server, pm, admin, blocks;

  before(async () => {
    blocks = blocksFolder();
    server = await startServer({ env: { PMEMO_BLOCKS_DIR: blocks } });
    pm = client({ baseUrl: server.url, apiKey: server.key });
    admin = client({ baseUrl: server.url, apiKey: server.adminKey });
  });

  after(async () => {
    const stopped = await server?.stop();
    if (blocks) rmSync(blocks, { recursive: true, force: true });
    if (stopped) assert.equal(stopped.code, 0, stopped.output);
  });

  test("memory blocks: list, append, replace with If-Match, 409 and 403", async () => {
    const { blocks } = await pm.listBlocks({ group_id: GROUP });
    assert.deepEqual(blocks.map((b) => [b.label, b.editable]), [["notes", true], ["persona", false]]);
    const appended = await pm.appendBlock("notes", { group_id: GROUP, text: "Wt works at Tencent." });
    assert.equal(appended.value, "Ni likes tea.\nWt works at Tencent.");
    const replaced = await pm.replaceBlock("notes", { group_id: GROUP, old: "Tencent", new: "Alibaba" },
      { ifMatch: appended.version });
    assert.match(replaced.value, /Alibaba/);
    const stale = await failure(pm.replaceBlock("notes", { group_id: GROUP, old: "Alibaba", new: "x",
      version: appended.version }));
    assert.equal(stale.status, 409);
    assert.equal(stale.currentVersion, replaced.version);
    const readOnly = await failure(pm.appendBlock("persona", { text: "x" }));
    assert.equal(readOnly.status, 403);
    assert.match(readOnly.detail, /read_only: false/);
  });

  test("health and readiness need no key", async () => {
    const anon = client({ baseUrl: server.url + "/" });
    assert.deepEqual(await anon.health(), { status: "ok" });
    assert.deepEqual(await anon.ready(), { status: "ready" });
  });

  test("people: register, read, list, resolve, remove an alias", async () => {
    const wt = await pm.putPerson("wt", { name: "王婷", aliases: ["婷婷"], group_id: GROUP });
    assert.equal(wt.id, "wt");
    await pm.putPerson("ni", { name: "周霓", aliases: ["霓霓", "Neko", "AC/DC"], group_id: GROUP });
    const ni = await pm.getPerson("ni");
    assert.equal(ni.name, "周霓");
    assert.ok(ni.aliases.some((a) => a.alias === "霓霓"));

    const members = await pm.listPeople({ group_id: GROUP });
    assert.deepEqual(members.members.map((m) => m.person.id).sort(), ["ni", "wt"]);

    const found = await pm.resolvePeople({ group_id: GROUP, text: "你认识霓霓吗？" });
    assert.deepEqual(found.matches.map((m) => [m.alias, m.person_ids]), [["霓霓", ["ni"]]]);

    const after = await pm.removeAlias("ni", "Neko");
    assert.ok(!after.aliases.some((a) => a.alias === "Neko"));
    const slash = await pm.removeAlias("ni", "AC/DC"); // a "/" in an alias is one path segment
    assert.ok(!slash.aliases.some((a) => a.alias === "AC/DC"));
    const gone = await failure(pm.removeAlias("ni", "Neko"));
    assert.equal(gone.status, 404);
  });

  test("a group's turns: a batch with an idempotency key, retried, then reused (409)", async () => {
    const messages = [
      ["wt", "王婷", "今天谁去图书馆？"],
      ["ni", "周霓", "我下午去，12月23日考研，最近压力好大"],
      ["wt", "王婷", "霓霓加油！I will bring coffee."],
      ["ni", "周霓", "I'm allergic to peanuts, by the way."],
    ];
    const turns = messages.map(([id, name, content], i) => ({
      group_id: GROUP,
      session_id: CHAT,
      actor_id: id,
      actor: name,
      content,
      timestamp: `2026-12-01T10:0${i}:00+08:00`,
    }));
    const first = await pm.addMany(turns, { idempotencyKey: "batch-1", wait: true });
    assert.equal(first.turns.length, 4);
    assert.equal(first.turns[1].actor_id, "ni");
    assert.equal(first.turns[1].group_id, GROUP);

    const again = await pm.addMany(turns, { idempotencyKey: "batch-1" });
    assert.deepEqual(again.turns.map((t) => t.id), first.turns.map((t) => t.id));

    const reused = await failure(pm.addMany(turns.slice(1), { idempotencyKey: "batch-1" }));
    assert.equal(reused.status, 409);
    assert.equal(reused.code, "conflict");
    assert.match(reused.detail, /batch-1/);

    const listed = await pm.listTurns({ group_id: GROUP, session_id: CHAT, limit: 10 });
    assert.equal(listed.turns.length, 4);
    const hers = await pm.listTurns({ group_id: GROUP, actor_id: "ni", limit: 1, offset: 1 });
    assert.deepEqual(hers.turns.map((t) => t.id), [first.turns[3].id]);
    const one = await pm.getTurn(first.turns[0].id);
    assert.equal(one.content, "今天谁去图书馆？");
  });

  test("one turn, retried with its idempotency key, is stored once", async () => {
    const turn = { user_id: "alice", session_id: "s1", content: "I moved to Lisbon last spring." };
    const a = await pm.add(turn, { idempotencyKey: "msg-1", wait: true, waitSeconds: 10 });
    const b = await pm.add(turn, { idempotencyKey: "msg-1" });
    assert.equal(a.id, b.id);
    assert.equal(a.role, "user");
    const turns = await pm.listTurns({ user_id: "alice" });
    assert.equal(turns.turns.length, 1);
  });

  test("search and context, with asker and recent in the group", async () => {
    const hits = await pm.search({ user_id: "alice", query: "where do I live?", limit: 3 });
    assert.ok(hits.hits.some((h) => h.text.includes("Lisbon")));

    const ctx = await pm.context({
      group_id: GROUP,
      session_id: CHAT,
      query: "你认识霓霓吗？",
      asker: "wt",
      recent: ["霓霓加油！I will bring coffee."],
      at: "2026-12-20T09:00:00+08:00",
      budget_tokens: 800,
    });
    assert.ok(ctx.tokens <= ctx.budget);
    assert.match(ctx.text, /周霓/);
    assert.match(ctx.text, /peanuts/);
    assert.ok(ctx.items.length > 0);
  });

  test("profile, person profile, agenda, stats, sessions, owners", async () => {
    const facts = await pm.profile({ group_id: GROUP });
    assert.ok(facts.facts.some((f) => f.subject_id === "ni" && f.key.includes("peanut")));
    const ni = await pm.personProfile("ni", { group_id: GROUP });
    assert.ok(ni.facts.some((f) => f.sentence.includes("周霓")));
    const everywhere = await pm.personProfile("ni", {}, {});
    assert.ok(everywhere.facts.length >= ni.facts.length);
    const nobody = await failure(pm.personProfile("nobody"));
    assert.equal(nobody.status, 404);

    const agenda = await pm.agenda({ group_id: GROUP });
    assert.ok(agenda.items.some((i) => i.person_id === "ni" && i.day === "2026-12-23"));
    const near = await pm.agenda({ group_id: GROUP, person_id: "ni", at: "2026-12-20T09:00:00+08:00" });
    assert.ok(near.items.every((i) => i.person_id === "ni"));
    // every chat's plans at once, each with the chat it was said in (an agent's evening round)
    const everywhereDue = await pm.agenda({ at: "2026-12-22T20:00:00+08:00" });
    assert.ok(everywhereDue.items.some((i) => i.group_id === GROUP && i.person_id === "ni" && i.day === "2026-12-23"));
    assert.ok(everywhereDue.items.every((i) => i.status === "open"));

    const stats = await pm.stats();
    assert.equal(stats.tenant, "t1");
    assert.equal(stats.stats.turns, 5);
    assert.equal((await pm.stats({ group_id: GROUP })).stats.turns, 4);

    const sessions = await pm.listSessions({ group_id: GROUP });
    assert.deepEqual(sessions.sessions.map((s) => [s.session_id, s.turns]), [[CHAT, 4]]);
    const owners = await pm.listOwners();
    assert.deepEqual(owners.owners.sort(), ["g:study", "u:alice"]);
    assert.deepEqual((await pm.listOwners({ agent_id: "other" })).owners, []);
  });

  test("graph: an entity's neighbourhood, triples over time, insights; 404", async () => {
    const g = await pm.graph({ group_id: GROUP, entity: "霓霓", hops: 1 });
    assert.equal(g.entity.person_id, "ni");
    assert.ok(g.triples.some((t) => t.predicate === "allergic_to" && t.object === "peanuts" && t.current));
    const { triples } = await pm.triples({ group_id: GROUP, subject: "ni", predicate: "allergic_to", history: true });
    assert.deepEqual(triples.map((t) => [t.subject, t.object, t.valid_to]), [["ni", "peanuts", null]]);
    assert.deepEqual((await pm.insights({ group_id: GROUP, subject: "ni" })).insights, []);
    const unknown = await failure(pm.graph({ group_id: GROUP, entity: "nobody-here" }));
    assert.equal(unknown.status, 404);
    assert.match(unknown.detail, /nobody-here/);
  });

  test("diary: a day written now, read by day and by range; 404 and 422", async () => {
    const where = { group_id: "diary-group" };
    await pm.addMany([
      { ...where, session_id: "s", actor_id: "ni", actor: "周霓", content: "下周三考高数，最近压力好大",
        timestamp: "2024-12-20T10:00:00Z" },
      { ...where, session_id: "s", actor_id: "bo", actor: "Bo", content: "霓霓加油！多做真题",
        timestamp: "2024-12-20T10:05:00Z" },
    ]);
    const written = await pm.writeDiary({ ...where, day: "2024-12-20" });
    assert.equal(written.day, "2024-12-20");
    assert.equal(written.source_ids.length, 2);
    assert.match(written.text, /下周三考高数/);
    const read = await pm.diary({ ...where, day: "2024-12-20" });
    assert.equal(read.id, written.id);
    const { entries } = await pm.diaries({ ...where, start: "2024-12-01", end: "2024-12-31" });
    assert.deepEqual(entries.map((e) => e.day), ["2024-12-20"]);
    const missing = await failure(pm.diary({ ...where, day: "2024-12-21" }));
    assert.equal(missing.status, 404);
    const bad = await failure(pm.diary({ ...where, day: "20.12.2024" }));
    assert.equal(bad.status, 422);
    assert.match(bad.detail, /^day/);
  });

  test("a fact: read, corrected by version and If-Match (a stale one is 409), deleted, restored", async () => {
    const { facts } = await pm.profile({ group_id: GROUP });
    const allergy = facts.find((f) => f.subject_id === "ni" && f.key.includes("peanut"));
    const read = await pm.getFact(allergy.id);
    assert.equal(read.value, allergy.value);

    const edited = await pm.updateFact(allergy.id, { value: "allergic (severe)", version: read.version });
    assert.equal(edited.source, "edited");
    assert.equal(edited.version, read.version + 1);
    const stale = await failure(pm.updateFact(allergy.id, { value: "lost", version: read.version }));
    assert.equal(stale.status, 409);
    assert.equal(stale.currentVersion, edited.version);
    const again = await pm.updateFact(allergy.id, { value: "allergic" }, { ifMatch: edited.version });
    assert.equal(again.value, "allergic");

    const deleted = await pm.deleteFact(allergy.id);
    assert.equal(deleted.mode, "soft");
    assert.equal((await failure(pm.getFact(allergy.id))).status, 404);
    await pm.restore({ batch: deleted.batch });
    assert.equal((await pm.getFact(allergy.id)).value, "allergic");
    assert.equal((await failure(pm.getFact(10 ** 12))).code, "not_found");
  });

  test("summaries, clusters, episodes and tasks of a longer chat", async () => {
    const turns = Array.from({ length: 12 }, (_, i) => ({
      user_id: "bob",
      session_id: "long",
      role: i % 2 ? "assistant" : "user",
      content: i % 2 ? `Noted: practice item ${i}.` : `I practised the piano for ${i + 1} hours today.`,
    }));
    await pm.addMany(turns, { wait: true });
    const summaries = await pm.listSummaries({ user_id: "bob", session_id: "long" });
    assert.ok(summaries.summaries.length >= 1, "10 turns make a summary");
    await pm.deleteSummary(summaries.summaries[0].id);
    const left = await pm.listSummaries({ user_id: "bob" });
    assert.ok(!left.summaries.some((s) => s.id === summaries.summaries[0].id));
    assert.equal((await failure(pm.deleteSummary(summaries.summaries[0].id))).status, 404);

    assert.ok(Array.isArray((await pm.listClusters({ user_id: "bob" })).clusters));
    assert.ok(Array.isArray((await pm.episodes({ user_id: "bob", query: "piano", limit: 5 })).episodes));
    assert.ok(Array.isArray((await pm.tasks({ user_id: "bob", status: "running" })).tasks));
  });

  test("key memory: add, list, get, update by version and If-Match, a stale version is 409", async () => {
    const line = await pm.addKeyLine({ user_id: "alice", text: "Prefers short answers." });
    assert.equal(line.version, 1);
    assert.deepEqual((await pm.listKeyLines({ user_id: "alice" })).lines.map((l) => l.id), [line.id]);

    const read = await pm.getKeyLine(line.id);
    const v2 = await pm.updateKeyLine(line.id, { text: "Prefers answers in Portuguese.", version: read.version });
    assert.equal(v2.version, 2);

    const stale = await failure(pm.updateKeyLine(line.id, { text: "lost update", version: read.version }));
    assert.equal(stale.status, 409);
    assert.equal(stale.currentVersion, 2);
    assert.equal(stale.problem.current_version, 2);

    const v3 = await pm.updateKeyLine(line.id, { text: "Prefers Portuguese." }, { ifMatch: v2.version });
    assert.equal(v3.version, 3);
    const staleTag = await failure(pm.updateKeyLine(line.id, { text: "x" }, { ifMatch: '"2"' }));
    assert.equal(staleTag.currentVersion, 3);
    assert.equal((await pm.getKeyLine(line.id)).text, "Prefers Portuguese.");

    assert.equal(await pm.deleteKeyLine(line.id), undefined);
    const gone = await failure(pm.getKeyLine(line.id));
    assert.equal(gone.status, 404);
    assert.equal(gone.code, "not_found");
  });

  test("forget, the forget log, restore, sweep", async () => {
    const turn = await pm.add({ user_id: "alice", session_id: "s2", content: "My sister Ana lives in Porto." });
    const forgotten = await pm.forget({ turn_ids: [turn.id], reason: "asked to" });
    assert.deepEqual(forgotten.turns, [turn.id]);
    assert.equal(forgotten.mode, "soft");
    assert.equal((await failure(pm.getTurn(turn.id))).status, 404);

    const log = await pm.forgetLog({ batch: forgotten.batch, limit: 10 });
    assert.ok(log.entries.length >= 1);
    assert.ok((await pm.forgetLog()).entries.length >= 1);

    const restored = await pm.restore({ batch: forgotten.batch });
    assert.deepEqual(restored.batches, [forgotten.batch]);
    assert.equal((await pm.getTurn(turn.id)).id, turn.id);
    const twice = await failure(pm.restore({ batch: forgotten.batch }));
    assert.equal(twice.status, 409);

    const again = await pm.forget({ turn_ids: [turn.id] });
    const purged = await pm.purge({ batch: again.batch });
    assert.equal(purged.batch, again.batch);
    assert.ok(purged.purged_rows >= 1);
    assert.equal((await failure(pm.purge({ batch: again.batch }))).status, 409);
    const late = await failure(pm.restore({ batch: again.batch }));
    assert.equal(late.status, 409);
    assert.match(late.detail, /purged/);

    await pm.add({ user_id: "alice", session_id: "s2", content: "My sister Ana lives in Porto." });
    const byQuery = await pm.forget({ user_id: "alice", query: "sister Porto", hard: true });
    assert.equal(byQuery.mode, "hard");
    assert.equal(byQuery.batch, null);

    const plan = await pm.sweep();
    assert.equal(plan.dry_run, true);
    assert.equal((await pm.sweep({ dry_run: false })).dry_run, false);
  });

  test("background jobs: the dead-letter list and retrying it", async () => {
    // nothing failed here: a job lands in the list after three failed tries (see docs/REST.md)
    assert.deepEqual(await pm.failedJobs({ limit: 10 }), { jobs: [] });
    assert.deepEqual(await pm.retryJobs(), { retried: 0 });
    assert.deepEqual(await pm.retryJobs({ job_ids: [999999] }), { retried: 0 });
    const empty = await failure(pm.retryJobs({ job_ids: [] }));
    assert.equal(empty.status, 422);
    assert.match(empty.detail, /job_ids/);
  });

  test("deletes: a turn, a session, an owner", async () => {
    const t = await pm.add({ user_id: "carol", session_id: "a", content: "hello" });
    await pm.add({ user_id: "carol", session_id: "b", content: "bye" });
    assert.ok((await pm.deleteTurn(t.id)).removed);
    assert.ok((await pm.deleteSession("b", { user_id: "carol" })).removed);
    await pm.add({ user_id: "carol", session_id: "c", content: "again" });
    assert.ok((await pm.deleteOwner({ user_id: "carol" })).removed);
    assert.deepEqual((await pm.listSessions({ user_id: "carol" })).sessions, []);
  });

  test("admin: tenants and keys; a revoked key is 401", async () => {
    const made = await admin.createApiKey({ tenant: "t3", label: "ts test" });
    assert.equal(made.tenant, "t3");
    const t3 = client({ baseUrl: server.url, apiKey: made.key });
    assert.equal((await t3.stats()).tenant, "t3");

    const tenants = await admin.listTenants();
    assert.ok(tenants.tenants.some((t) => t.tenant === "t3" && t.active_keys === 1));
    const keys = await admin.listApiKeys({ tenant: "t3" });
    assert.deepEqual(keys.keys.map((k) => [k.id, k.label]), [[made.id, "ts test"]]);
    assert.ok((await admin.listApiKeys()).keys.length >= 4);

    const revoked = await admin.revokeApiKey(made.id);
    assert.ok(revoked.revoked_at);
    const denied = await failure(t3.stats());
    assert.equal(denied.status, 401);

    await admin.createApiKey({ tenant: "t4" });
    assert.deepEqual((await admin.revokeTenant("t4")).removed, { revoked_keys: 1 });
    assert.equal((await failure(admin.revokeTenant("no-such"))).status, 404);

    const notAdmin = await failure(pm.listTenants());
    assert.equal(notAdmin.status, 403);
    const adminOnMemory = await failure(admin.stats());
    assert.equal(adminOnMemory.status, 403);
  });

  test("401: a wrong key, and no key", async () => {
    const wrong = await failure(client({ baseUrl: server.url, apiKey: "pm_wrong" }).stats());
    assert.equal(wrong.status, 401);
    assert.equal(wrong.code, "unauthorized");
    assert.ok(wrong.detail.length > 0);
    assert.equal(wrong.request, "GET /v1/stats");
    const none = await failure(client({ baseUrl: server.url }).listOwners());
    assert.equal(none.status, 401);
  });

  test("404: another tenant's turn is not found", async () => {
    const mine = await pm.add({ user_id: "dave", session_id: "s", content: "mine" });
    const other = client({ baseUrl: server.url, apiKey: server.otherKey });
    const e = await failure(other.getTurn(mine.id));
    assert.equal(e.status, 404);
    assert.equal(e.code, "not_found");
    assert.match(e.message, /^GET \/v1\/turns\/\d+: 404 not_found: /);
  });

  test("422: the detail names the field and what to send", async () => {
    const e = await failure(pm.search({ user_id: "alice", query: "x", limit: 0 }));
    assert.equal(e.status, 422);
    assert.equal(e.code, "invalid_input");
    assert.match(e.detail, /limit/);
    assert.equal(e.problem.errors[0].field, "limit");

    const both = await failure(pm.add({ user_id: "a", group_id: "g", session_id: "s", content: "x" }));
    assert.equal(both.status, 422);
    assert.match(both.detail, /user_id or group_id/);
  });

  test("the example group bot runs against the server", async () => {
    const example = fileURLToPath(new URL("../examples/group-bot.mjs", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [example], {
      env: { ...process.env, PMEMO_URL: server.url, PMEMO_API_KEY: server.key },
    });
    assert.match(stdout, /周霓/);
    assert.match(stdout, /## (People|相关的人)/);
    // run twice: the message ids as idempotency keys store nothing twice
    await promisify(execFile)(process.execPath, [example], {
      env: { ...process.env, PMEMO_URL: server.url, PMEMO_API_KEY: server.key },
    });
    const group = await pm.listTurns({ group_id: "study-group", limit: 1000 });
    const ids = group.turns.map((t) => t.metadata.message_id).filter(Boolean);
    assert.equal(new Set(ids).size, ids.length);
  });

  test("forget a person: in one chat, everywhere, restored; 404 names the id", async () => {
    const say = (group, who, name, content) =>
      pm.add({ group_id: group, session_id: `${group}-chat`, actor_id: who, actor: name, content }, { wait: true });
    await say("fp-study", "fp_ni", "周霓", "大家好，叫我霓霓就行。我家猫叫年糕");
    await say("fp-study", "fp_wt", "许文涛", "周霓对花生过敏");
    await say("fp-work", "fp_ni", "周霓", "我在腾讯工作");
    const before = await pm.getPerson("fp_ni");

    const dry = await pm.forgetPerson("fp_ni", { dry_run: true });
    assert.equal(dry.mode, "dry_run");
    assert.equal(dry.batch, null);
    assert.equal(dry.turns.length, 2);
    const here = await pm.forgetPerson("fp_ni", { group_id: "fp-study" });
    assert.equal(here.record, false);
    assert.deepEqual(here.memberships, ["g:fp-study"]);
    const members = await pm.listPeople({ group_id: "fp-study" });
    assert.deepEqual(members.members.map((m) => m.person.id), ["fp_wt"]);
    await pm.restore({ batch: here.batch });

    const gone = await pm.forgetPerson("fp_ni");
    assert.equal(gone.mode, "soft");
    assert.ok(gone.record && gone.aliases.includes("周霓"));
    assert.equal((await failure(pm.getPerson("fp_ni"))).status, 404);
    const found = await pm.resolvePeople({ group_id: "fp-study", text: "你认识周霓吗" });
    assert.ok(!found.matches.some((m) => m.person_ids.includes("fp_ni"))); // others of that name stay
    const restored = await pm.restore({ batch: gone.batch });
    assert.deepEqual(restored.restored.people, ["fp_ni"]);
    assert.deepEqual(await pm.getPerson("fp_ni"), before);

    const unknown = await failure(pm.forgetPerson("nobody"));
    assert.equal(unknown.status, 404);
    assert.match(unknown.detail, /'nobody'/);
    const other = client({ baseUrl: server.url, apiKey: server.otherKey });
    assert.equal((await failure(other.forgetPerson("fp_ni"))).status, 404); // another tenant's: invisible
    const both = await failure(pm.forgetPerson("fp_ni", { group_id: "g", user_id: "u" }));
    assert.equal(both.status, 422);
    assert.match(both.detail, /user_id or group_id/);
  });

  test("every client method was called above", () => {
    const missed = Object.keys(ROUTES).filter((name) => !called.has(name));
    assert.deepEqual(missed, []);
  });
});
