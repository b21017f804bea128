// pmemo-client: the public names. Everything else is private to the package.
export { PMemo } from "./client.js";
export type { AddOptions, CallOptions, IfMatchOptions, PMemoOptions } from "./client.js";
export { PMemoError } from "./errors.js";
export { ROUTES } from "./routes.js";
export type { MethodName } from "./routes.js";
export type * from "./types.js";
export type { components, operations, paths } from "./schema.js";
