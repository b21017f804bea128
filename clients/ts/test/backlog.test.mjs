// 429 for a tenant whose turns wait for the background past PMEMO_MAX_PENDING_TURNS: the
// server runs no jobs (PMEMO_RUN_JOBS=false), so its backlog is what was written.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { PMemo, PMemoError } from "pmemo-client";
import { startServer } from "./server.mjs";

describe("429 from a full backlog", () => {
  let server;
  before(async () => {
    server = await startServer({
      timeoutMs: 180_000,
      env: { PMEMO_MAX_PENDING_TURNS: "2", PMEMO_RUN_JOBS: "false" },
    });
  });
  after(async () => {
    await server?.stop();
  });

  test("code backlog_full, retryAfter from Retry-After, the setting named", async () => {
    const pm = new PMemo({ baseUrl: server.url, apiKey: server.key });
    const turn = (content) => ({ user_id: "alice", session_id: "s1", content });
    await pm.addMany([turn("one"), turn("two")]);
    const refused = await pm.add(turn("three")).then(() => undefined, (e) => e);
    assert.ok(refused instanceof PMemoError, `not refused: ${refused}`);
    assert.equal(refused.status, 429);
    assert.equal(refused.code, "backlog_full");
    assert.ok(refused.retryAfter >= 1 && refused.retryAfter <= 60, String(refused.retryAfter));
    assert.equal(refused.problem.setting, "PMEMO_MAX_PENDING_TURNS");
  });
});
