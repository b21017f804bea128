// The README's group-chat bot (its ```js block), run as printed against a real `pmemo serve`:
// it must store the messages once each and hand back a context that knows Tom's allergy.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { PMemo } from "pmemo-client";
import { startServer } from "./server.mjs";

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]);

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test("the README's group bot runs as printed", async () => {
  assert.equal(blocks.length, 1, "the README has one js block: its group bot");
  // Saved where the README says (clients/ts/bot.mjs), so "pmemo-client" resolves to this package.
  const file = fileURLToPath(new URL(`../bot-readme-${process.pid}.mjs`, import.meta.url));
  writeFileSync(file, blocks[0]);
  try {
    const run = () =>
      promisify(execFile)(process.execPath, [file], {
        env: { ...process.env, PMEMO_URL: server.url, PMEMO_API_KEY: server.key },
      });
    const { stdout } = await run();
    assert.match(stdout, /## (People|相关的人)/);
    assert.match(stdout, /Tom.*allergic to peanuts/);
    await run(); // delivered again: the message ids as idempotency keys store nothing twice
  } finally {
    rmSync(file, { force: true });
  }
  const pm = new PMemo({ baseUrl: server.url, apiKey: server.key });
  const { turns } = await pm.listTurns({ group_id: "study-group", limit: 100 });
  assert.deepEqual(turns.map((t) => t.content.slice(0, 12)).sort(), ["@小忆 你还记得Tom对", "I'll join yo"].sort());
});
