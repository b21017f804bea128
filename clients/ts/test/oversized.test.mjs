// A body over the server's cap is a PMemoError 413 naming the setting, not a network error:
// the server answers before it has read the body, then reads (and drops) the rest, so fetch's
// upload completes and the answer reaches it. Sizes as in the issue: a 20 MB turn, a 20 MB
// search query, a 50 MB batch.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { PMemo, PMemoError } from "pmemo-client";
import { startServer } from "./server.mjs";

const MB = 1_000_000;
const OWNER = { user_id: "u1", session_id: "s1" };

async function refused(promise, setting) {
  let error;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  assert.ok(error instanceof PMemoError, `not a PMemoError: ${error}`);
  assert.equal(error.status, 413, `${error.message} (cause: ${error.cause})`);
  assert.equal(error.code, "too_large");
  assert.equal(error.problem.setting, setting);
  assert.match(error.detail, new RegExp(setting));
}

describe("413 for a body over the cap", () => {
  let server, pm;
  before(async () => {
    server = await startServer();
    pm = new PMemo({ baseUrl: server.url, apiKey: server.key });
  });
  after(async () => {
    await server?.stop();
  });

  test("a 20 MB turn", async () => {
    await refused(pm.add({ ...OWNER, content: "x".repeat(20 * MB) }), "PMEMO_MAX_TURNS_BODY_BYTES");
  });

  test("a 20 MB search query", async () => {
    await refused(pm.search({ user_id: "u1", query: "y".repeat(20 * MB) }), "PMEMO_MAX_BODY_BYTES");
  });

  test("a 50 MB batch", async () => {
    const turns = Array.from({ length: 50 }, () => ({ ...OWNER, content: "z".repeat(MB) }));
    await refused(pm.addMany(turns), "PMEMO_MAX_TURNS_BODY_BYTES");
  });

  test("the next call works", async () => {
    const turn = await pm.add({ ...OWNER, content: "small enough" });
    assert.equal(turn.content, "small enough");
  });
});
