// npm run build: a clean dist/ from src/ (tsc), with the generated src/schema.d.ts beside the
// compiled files (tsc emits declarations only for .ts, and dist/index.d.ts imports it).
import { execFileSync } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { root } from "./python.mjs";

const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.json")], { stdio: "inherit" });
copyFileSync(join(root, "src", "schema.d.ts"), join(dist, "schema.d.ts"));
// The types as a user's TypeScript sees them, through the package's own exports
execFileSync(process.execPath, [tsc, "-p", join(root, "test", "tsconfig.json")], { stdio: "inherit" });
