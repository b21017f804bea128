// The asker in search (issue 44 §4) through the client against a real `pmemo serve`: a member's
// first-person question finds their own words first, everyone's are still there, a query
// without first-person words ranks the same whoever asks, and a bad asker is a 422.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { PMemo, PMemoError } from "pmemo-client";
import { startServer } from "./server.mjs";

const GROUP = { group_id: "g" };
const SAID = { wl: ["王磊", "老码头"], lq: ["李琴", "小龙坎"], cy: ["陈宇", "大龙燚"] };
const FILLER = ["哈哈哈", "在吗", "收到", "今天好冷", "晚安", "ok"];

function chat() {
  const lines = Object.entries(SAID).map(([id, [, shop]]) => [id, `我觉得那家火锅店，${shop}，很好吃`]);
  const ids = Object.keys(SAID);
  for (let n = 0; n < 24; n++) lines.splice((n * 7) % (lines.length + 1), 0, [ids[n % 3], FILLER[n % FILLER.length]]);
  const t0 = Date.parse("2026-10-01T01:00:00Z");
  return lines.map(([id, content], n) => ({
    ...GROUP, session_id: "g-chat", actor_id: id, actor: SAID[id][0], content,
    timestamp: new Date(t0 + n * 300_000).toISOString(),
  }));
}

describe("search with an asker", () => {
  let server, pm;

  before(async () => {
    server = await startServer();
    pm = new PMemo({ baseUrl: server.url, apiKey: server.key });
    await pm.addMany(chat(), { wait: true, waitSeconds: 60 });
  });

  after(async () => {
    await server?.stop();
  });

  test("first-person words mean the asker", async () => {
    for (const id of Object.keys(SAID)) {
      const { hits } = await pm.search({ ...GROUP, query: "我上次说的那家火锅店叫什么", asker: id });
      assert.equal(hits[0].sources[0].actor_id, id);
      assert.match(hits[0].text, /火锅店/);
      const everyone = new Set(hits.filter((h) => h.text.includes("火锅店")).map((h) => h.sources[0].actor_id));
      assert.deepEqual([...everyone].sort(), Object.keys(SAID).sort());
    }
  });

  test("without them the asker changes nothing", async () => {
    const plain = await pm.search({ ...GROUP, query: "那家火锅店叫什么" });
    assert.deepEqual(await pm.search({ ...GROUP, query: "那家火锅店叫什么", asker: "lq" }), plain);
  });

  test("a bad asker is a 422 that names it", async () => {
    try {
      await pm.search({ ...GROUP, query: "我说的火锅店", asker: "not an id" });
      assert.fail("the call succeeded");
    } catch (error) {
      assert.ok(error instanceof PMemoError);
      assert.equal(error.status, 422);
      assert.match(JSON.stringify(error.body ?? error.message), /asker/);
    }
  });
});
