// Where the pmemo Python environment is: $PMEMO_VENV, else the repository's .venv.
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";

export const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
export const venv = process.env.PMEMO_VENV
  ? resolve(process.env.PMEMO_VENV)
  : join(root, "..", "..", ".venv");
export const python = join(venv, "bin", "python");
export const pmemo = join(venv, "bin", "pmemo");
