// Parity: every operation of the OpenAPI document has a client method, no method names a
// route the document lacks, and the README's table says the same as src/routes.ts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { PMemo, ROUTES } from "pmemo-client";

const read = (name) => readFileSync(new URL(`../${name}`, import.meta.url), "utf8");
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

function operations() {
  const doc = JSON.parse(read("openapi.json"));
  const ops = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      if (item[method]) ops.set(`${method.toUpperCase()} ${path}`, item[method].operationId);
    }
  }
  return ops;
}

test("every OpenAPI operation has a client method", () => {
  const covered = new Set(Object.values(ROUTES));
  const missing = [...operations()].filter(([route]) => !covered.has(route));
  assert.deepEqual(
    missing.map(([route, id]) => `${route} (${id})`),
    [],
    "add a method to src/client.ts and its route to src/routes.ts and README.md",
  );
});

test("every client method calls an operation the API has", () => {
  const ops = operations();
  const unknown = Object.entries(ROUTES).filter(([, route]) => !ops.has(route));
  assert.deepEqual(unknown, []);
});

test("the route table and the class have the same methods", () => {
  const methods = Object.getOwnPropertyNames(PMemo.prototype).filter((n) => n !== "constructor");
  assert.deepEqual(methods.sort(), Object.keys(ROUTES).sort());
});

test("the README's parity table lists every operation with its method", () => {
  const rows = new Map();
  for (const line of read("README.md").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const route = cells[1]?.match(/^`(\w+ \S+)`$/)?.[1];
    const method = cells[2]?.match(/^`(\w+)\(/)?.[1];
    if (route && method) rows.set(method, route);
  }
  assert.deepEqual(Object.fromEntries([...rows].sort()), Object.fromEntries(Object.entries(ROUTES).sort()));
});
