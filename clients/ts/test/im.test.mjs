// Real IM messages (issue 44 §2) through the client against a real `pmemo serve`: a chat that
// sends no session ids (each turn joins its chat's current session, a new one after a silence).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { PMemo } from "pmemo-client";
import { startServer } from "./server.mjs";

const GROUP = { group_id: "g" };
const T0 = Date.parse("2026-12-07T09:00:00Z");
const at = (minutes) => new Date(T0 + minutes * 60_000).toISOString();

describe("real IM messages", () => {
  let server, pm;

  before(async () => {
    server = await startServer();
    pm = new PMemo({ baseUrl: server.url, apiKey: server.key });
  });

  after(async () => {
    await server?.stop();
  });

  test("turns without a session join the chat's current one", async () => {
    const first = await pm.add({ ...GROUP, content: "早", timestamp: at(0) });
    const { turns } = await pm.addMany([
      { ...GROUP, content: "在", timestamp: at(5) },
      { ...GROUP, content: "晚上好", timestamp: at(600) },
    ]);
    assert.match(first.session_id, /^auto-/);
    assert.equal(turns[0].session_id, first.session_id);
    assert.equal(turns[0].step, 2);
    assert.notEqual(turns[1].session_id, first.session_id);
  });

  test("a reply names what it answers: by id, by the platform's message ids, by a quote", async () => {
    const q = await pm.add({ ...GROUP, content: "谁有充电宝？", metadata: { message_id: "m1" } });
    const a = await pm.add({ ...GROUP, content: "我有", reply_to: q.id });
    assert.equal(a.reply_to, q.id);
    const { turns } = await pm.addMany([
      { ...GROUP, content: "借我用下", metadata: { message_id: "m2" } },
      { ...GROUP, content: "来拿", metadata: { reply_to_message: "m2" } },
      { ...GROUP, content: "「谁有充电宝？」\n我也有" },
    ]);
    assert.equal(turns[1].reply_to, turns[0].id);
    assert.equal(turns[2].reply_to, q.id);
    assert.equal((await pm.getTurn(a.id)).reply_to, q.id);
  });
});
