// The one error the client throws: every non-2xx answer, and a request that got no answer.
import type { Problem } from "./types.js";

/**
 * A failed call. `status`, `code` and `detail` come from the server's problem body
 * (`{"status", "code", "detail", ...}`), kept whole in `problem`.
 *
 * - 409 on a key line: `currentVersion` is the version that won; read it and try again.
 * - 422: `problem.errors` lists each invalid field; `detail` says them in one line.
 * - 429: `retryAfter` is how many seconds to wait (from `Retry-After`), when the server says.
 * - No answer at all (refused, reset, timed out): `status` 0, code `network_error` or
 *   `timeout`, the fetch error as `cause`.
 *
 * @example
 * try { await pm.getTurn(42) } catch (e) {
 *   if (e instanceof PMemoError && e.status === 404) { ... }
 * }
 */
export class PMemoError extends Error {
  override readonly name = "PMemoError";
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** A stable machine-readable code: `not_found`, `invalid_input`, `conflict` … */
  readonly code: string;
  /** What went wrong and what to fix, in words. */
  readonly detail: string;
  /** The problem body as sent (or one made up for a non-JSON answer). */
  readonly problem: Problem;
  /** 429: seconds to wait before trying again, from `Retry-After`. */
  readonly retryAfter: number | undefined;
  /** 409 on a key line: the current version (also in the `ETag`). */
  readonly currentVersion: number | undefined;
  /** The request that failed, as "METHOD /path". */
  readonly request: string;

  constructor(
    problem: Problem,
    init: { request: string; retryAfter?: number | undefined; cause?: unknown } = { request: "" },
  ) {
    super(`${init.request}: ${problem.status} ${problem.code}: ${problem.detail}`, {
      cause: init.cause,
    });
    this.status = problem.status;
    this.code = problem.code;
    this.detail = problem.detail;
    this.problem = problem;
    this.retryAfter = init.retryAfter;
    this.currentVersion = problem.current_version ?? undefined;
    this.request = init.request;
  }
}

/** The error for a non-2xx response: its problem body, or one made from its text. */
export async function errorOf(response: Response, request: string): Promise<PMemoError> {
  const text = await response.text().catch(() => "");
  let problem: Problem | undefined;
  try {
    const body: unknown = JSON.parse(text);
    if (isProblem(body)) problem = body;
  } catch {
    // not JSON: a proxy's HTML page, an empty body …
  }
  problem ??= {
    type: "about:blank",
    title: response.statusText || "Error",
    status: response.status,
    code: "http_error",
    detail: text.slice(0, 500) || `HTTP ${response.status}`,
  };
  return new PMemoError(problem, {
    request,
    retryAfter: retryAfter(response.headers.get("retry-after")),
  });
}

/** The error for a request that got no answer. */
export function networkError(cause: unknown, request: string): PMemoError {
  const timeout = cause instanceof Error && cause.name === "TimeoutError";
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new PMemoError(
    {
      type: "about:blank",
      title: timeout ? "Timeout" : "Network Error",
      status: 0,
      code: timeout ? "timeout" : "network_error",
      detail: timeout ? "no answer in time" : `no answer: ${reason}`,
    },
    { request, cause },
  );
}

function isProblem(body: unknown): body is Problem {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.status === "number" && typeof b.code === "string" && typeof b.detail === "string";
}

/** Seconds from a `Retry-After` header: a number of seconds or an HTTP date. */
export function retryAfter(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
