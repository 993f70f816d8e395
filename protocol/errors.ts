// The one error envelope every edgegym HTTP surface answers with, and the error classes behind it.
import { z } from "zod";

export const ErrorIssue = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  /** For a line of an uploaded JSONL file: its 1-based line number. */
  line: z.number().int().optional(),
});
export type ErrorIssue = z.infer<typeof ErrorIssue>;

export const ErrorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(ErrorIssue).optional(),
    /** The gateway's request id (its x-request-id header), in every error the gateway answers. */
    request_id: z.string().optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 410 | 411 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

/** An error a handler can throw and the error middleware turns into the envelope. */
export class EdgegymError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    readonly issues?: ErrorIssue[],
  ) {
    super(message);
    this.name = "EdgegymError";
  }

  /** The envelope; `requestId` (the gateway's) is written into it when given. */
  toEnvelope(requestId?: string): ErrorEnvelope {
    const { code, message, issues } = this;
    return { error: { code, message, ...(issues ? { issues } : {}), ...(requestId !== undefined ? { request_id: requestId } : {}) } };
  }
}

type Issue = z.core.$ZodIssue;

/**
 * For a union, report the branch that got furthest (the longest paths) rather than "Invalid input":
 * `input[0].role` says more than `input`.
 */
function specific(issue: Issue, base: PropertyKey[]): { path: PropertyKey[]; message: string }[] {
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    // A loop, not Math.max(...spread): a branch may hold hundreds of thousands of issues (one per bad array item).
    const depth = (branch: Issue[]) => branch.reduce((deepest, i) => Math.max(deepest, i.path.length), Number.NEGATIVE_INFINITY);
    const best = issue.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
    if (depth(best) > 0) return best.flatMap((inner) => specific(inner, [...base, ...issue.path]));
  }
  return [{ path: [...base, ...issue.path], message: issue.message }];
}

/** Zod issues as plain `{ path, message }` pairs (paths of symbols are not a thing in JSON). */
export function issuesOf(error: z.ZodError): ErrorIssue[] {
  return error.issues
    .flatMap((issue) => specific(issue, []))
    .map((issue) => ({
      path: issue.path.filter((key): key is string | number => typeof key !== "symbol"),
      message: issue.message,
    }));
}

/** One line describing the issues, e.g. `responses_create_params.input: Invalid input`. */
export function describeIssues(issues: ErrorIssue[]): string {
  return issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`).join("; ");
}

/** Issues an envelope lists: a body with a million bad items gets the first ones and a count, not a million lines. */
const MAX_ISSUES = 100;

export class InvalidRequestError extends EdgegymError {
  constructor(what: string, error: z.ZodError) {
    const all = issuesOf(error);
    const issues = all.slice(0, MAX_ISSUES);
    const more = all.length > issues.length ? ` (and ${all.length - issues.length} more)` : "";
    super(400, "invalid_request", `invalid ${what}: ${describeIssues(issues)}${more}`, issues);
    this.name = "InvalidRequestError";
  }
}

/** Parse `value` with `schema` or throw a 400 naming each bad field. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidRequestError(what, result.error);
  return result.data;
}
