// A real pmemo server for the tests: `pmemo serve` on a free port over a temporary data
// directory, with the hashing embedder (no model download) and no rate limit, and keys made
// beforehand with `pmemo keys create` (which prints the key on its last line).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pmemo } from "../scripts/python.mjs";

function env(extra = {}) {
  const e = { ...process.env, PMEMO_EMBEDDER: "hashing", PMEMO_RATE_LIMIT: "off", ...extra };
  for (const name of ["PMEMO_URL", "PMEMO_API_KEY", "PMEMO_DATA", "PMEMO_ADMIN_KEY"]) delete e[name];
  return e;
}

function makeKey(data, ...args) {
  const out = execFileSync(pmemo, ["keys", "create", ...args, "--data", data], {
    encoding: "utf8",
    env: env(),
  });
  return out.trim().split("\n").at(-1).trim();
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Start the server; resolves to { url, key, otherKey, adminKey, data, stop() }. `env`: more
 * PMEMO_* settings for the server (e.g. a rate limit).
 */
export async function startServer({ timeoutMs = 60_000, env: extra = {} } = {}) {
  const data = mkdtempSync(join(tmpdir(), "pmemo-ts-"));
  const key = makeKey(data, "--tenant", "t1");
  const otherKey = makeKey(data, "--tenant", "t2");
  const adminKey = makeKey(data, "--admin");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(
    pmemo,
    ["serve", "--data", data, "--port", String(port), "--sweep-every", "0"],
    { env: env(extra), stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  proc.stdout.on("data", (chunk) => (output += chunk));
  proc.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));

  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGINT"); // what Ctrl-C sends: the server closes its stores and exits 0
      const killer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
      const result = await exited;
      clearTimeout(killer);
      rmSync(data, { recursive: true, force: true });
      return { ...result, output };
    }
    rmSync(data, { recursive: true, force: true });
    return { code: proc.exitCode, signal: proc.signalCode, output };
  };

  const deadline = Date.now() + timeoutMs;
  let gone = false;
  exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) {
      await stop();
      throw new Error(`pmemo serve exited early:\n${output}`);
    }
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.status === 200) return { url, key, otherKey, adminKey, data, stop, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`pmemo serve did not answer /healthz in ${timeoutMs} ms:\n${output}`);
}
