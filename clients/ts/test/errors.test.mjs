// PMemoError for what a test of the main server cannot meet: a rate limit (429 with
// Retry-After, from a server started with a tiny limit), no answer at all, a non-JSON answer.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import { PMemo, PMemoError } from "pmemo-client";
import { startServer } from "./server.mjs";

async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PMemoError, `not a PMemoError: ${error}`);
    return error;
  }
  assert.fail("the call succeeded");
}

describe("429 from a server with a rate limit", () => {
  let server;
  before(async () => {
    server = await startServer({ env: { PMEMO_RATE_LIMIT: "3/minute" } });
  });
  after(async () => {
    await server?.stop();
  });

  test("retryAfter is the Retry-After seconds", async () => {
    const pm = new PMemo({ baseUrl: server.url, apiKey: server.key });
    let limited;
    for (let i = 0; i < 5 && !limited; i++) {
      limited = await pm.stats().then(() => undefined, (e) => e);
    }
    assert.ok(limited instanceof PMemoError, "no 429 in 5 calls at 3/minute");
    assert.equal(limited.status, 429);
    assert.equal(limited.code, "rate_limited");
    assert.ok(limited.retryAfter >= 1 && limited.retryAfter <= 60, String(limited.retryAfter));
    assert.equal(limited.problem.setting, "PMEMO_RATE_LIMIT");
  });
});

describe("no answer, or not a problem body", () => {
  let http, url;
  before(async () => {
    http = createServer((req, res) => {
      if (req.url === "/healthz") {
        res.writeHead(502, { "Content-Type": "text/html" }).end("<html>Bad Gateway</html>");
      } else {
        setTimeout(() => res.writeHead(200).end("{}"), 2_000); // too slow
      }
    });
    await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${http.address().port}`;
  });
  after(() => new Promise((resolve) => http.close(resolve)));

  test("a proxy's HTML page is a PMemoError with its text", async () => {
    const e = await failure(new PMemo({ baseUrl: url }).health());
    assert.equal(e.status, 502);
    assert.equal(e.code, "http_error");
    assert.match(e.detail, /Bad Gateway/);
  });

  test("a refused connection is status 0, network_error, with the cause", async () => {
    const closed = createServer();
    await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = closed.address().port;
    await new Promise((resolve) => closed.close(resolve));
    const e = await failure(new PMemo({ baseUrl: `http://127.0.0.1:${port}` }).health());
    assert.equal(e.status, 0);
    assert.equal(e.code, "network_error");
    assert.ok(e.cause);
  });

  test("timeoutMs: a slow answer is status 0, timeout", async () => {
    const e = await failure(new PMemo({ baseUrl: url, timeoutMs: 100 }).ready());
    assert.equal(e.status, 0);
    assert.equal(e.code, "timeout");
  });

  test("the caller's own abort is not wrapped", async () => {
    const controller = new AbortController();
    const call = new PMemo({ baseUrl: url, timeoutMs: 5_000 }).ready({ signal: controller.signal });
    controller.abort();
    await assert.rejects(call, (e) => e.name === "AbortError" && !(e instanceof PMemoError));
  });

  test("a custom fetch is called as a plain function, with the key and JSON body", async () => {
    const seen = [];
    const pm = new PMemo({
      baseUrl: "http://memory.test/prefix/",
      apiKey: "pm_x",
      fetch: async function (input, init) {
        assert.equal(this, undefined);
        seen.push([String(input), init]);
        return new Response(JSON.stringify({ id: 1 }), { status: 201 });
      },
    });
    await pm.add(
      { user_id: "a", session_id: "s", content: "hi" },
      { idempotencyKey: "k-1", wait: true, waitSeconds: 5 },
    );
    await pm.removeAlias("ni", "AC/DC 霓");
    await pm.updateKeyLine(7, { text: "t" }, { ifMatch: 3 });
    const [add, alias, update] = seen;
    assert.equal(add[0], "http://memory.test/prefix/v1/turns?wait=true&wait_seconds=5");
    assert.equal(add[1].method, "POST");
    assert.equal(add[1].headers.Authorization, "Bearer pm_x");
    assert.equal(add[1].headers["Idempotency-Key"], "k-1");
    assert.deepEqual(JSON.parse(add[1].body), { user_id: "a", session_id: "s", content: "hi" });
    assert.equal(alias[0], "http://memory.test/prefix/v1/people/ni/aliases/AC%2FDC%20%E9%9C%93");
    assert.equal(alias[1].method, "DELETE");
    assert.equal(update[1].headers["If-Match"], '"3"');
  });
});
