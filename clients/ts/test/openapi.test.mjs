// The committed openapi.json and src/schema.d.ts are what `npm run gen` would write now: a
// change to the API fails here until they are regenerated (and the client follows).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { dumpOpenAPI, schemaTypes } from "../scripts/gen.mjs";

const read = (name) => readFileSync(new URL(`../${name}`, import.meta.url), "utf8");
const HOW = "the API changed: run `npm --prefix clients/ts run gen`, then cover new operations";

test("openapi.json is the document the server serves now", () => {
  const live = JSON.parse(dumpOpenAPI());
  const committed = JSON.parse(read("openapi.json"));
  assert.deepEqual(committed, live, HOW);
});

test("src/schema.d.ts is generated from openapi.json", async () => {
  const generated = await schemaTypes(JSON.parse(read("openapi.json")));
  assert.ok(generated === read("src/schema.d.ts"), HOW);
});
