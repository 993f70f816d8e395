// POST /v1/jobs: the request read (a JSONL body, `rows`, or `rows_key`), then the rows in through ledger/ingest.ts.
import type { Context } from "hono";
import { z } from "zod";
import { readJson } from "../../http/errors.js";
import { MAX_LINE_BYTES, parseJsonWithin } from "../../http/json.js";
import { LineError, type RawLine, readLines } from "../../http/jsonl.js";
import { createJob as createJobFromRows } from "../../ledger/index.js";
import { EdgegymError, parseOr400 } from "../../protocol/index.js";
import { callerOf, type GatewayContext } from "./caller.js";
import { mayReadRows } from "./files.js";
import { ModelFields, modelChoice } from "./model-choice.js";
import { gatewayPorts } from "./ports.js";
import { jobQuotas } from "./quotas.js";

/** The content types a JSON Lines upload may carry (none at all is one). */
const JSONL_TYPES = new Set([
  "",
  "application/x-ndjson",
  "application/jsonl",
  "application/json-lines",
  "application/x-jsonlines",
  "text/plain",
  "application/octet-stream",
]);

const flag = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")]);
const count = z.coerce.number().int().positive();

// Strict: a misspelt option (`num_repeat`) is an error, not a default silently taken. The policy model's fields are options too.
export const JobOptions = z.strictObject({
  ...ModelFields.shape,
  environment: z.string().min(1).optional(),
  num_repeats: count.default(1),
  limit: count.optional(),
  skip_invalid: flag.default(false),
  /** Shallow-merged into each row's responses_create_params. */
  responses_create_params: z.record(z.string(), z.unknown()).optional(),
  /** The trainer's policy version: the job's groups carry it on the feed (GET /v1/jobs/:id/groups). */
  policy_version: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

export const JobRequest = JobOptions.extend({
  rows: z.array(z.unknown()).optional(),
  rows_key: z.string().min(1).optional(),
});

async function* fromArray(rows: unknown[]): AsyncGenerator<RawLine> {
  let line = 0;
  for (const row of rows) yield { line: ++line, text: JSON.stringify(row) };
}

/** The lines of a stream; without skip_invalid, the first line past the limit ends the upload with a 413 right away. */
async function* bounded(stream: ReadableStream<Uint8Array>, skipInvalid: boolean): AsyncGenerator<RawLine> {
  for await (const read of readLines(stream, { maxLineBytes: MAX_LINE_BYTES })) {
    if (!skipInvalid && "problem" in read && read.problem === "too_long") {
      throw new EdgegymError(413, "line_too_long", new LineError(read.line, read.problem, read.bytes, MAX_LINE_BYTES).message);
    }
    yield read;
  }
}

/** The options, from a JSON body or (for a JSONL body) from the query string. */
async function readRequest(c: Context<GatewayContext>): Promise<{ options: z.infer<typeof JobOptions>; source: AsyncGenerator<RawLine>; from: string }> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") {
    const body = parseOr400(JobRequest, await readJson(c), "job request");
    if (body.rows && body.rows_key) throw new EdgegymError(400, "invalid_request", "give rows or rows_key, not both");
    if (body.rows) return { options: body, source: fromArray(body.rows), from: "rows" };
    if (!body.rows_key) throw new EdgegymError(400, "invalid_request", "a job needs rows: a JSONL body, `rows`, or `rows_key` naming an object in the bucket");
    // Another caller's upload, or another job's inputs, is as absent as a key that does not exist.
    const object = mayReadRows(callerOf(c), body.rows_key) ? await gatewayPorts(c.env).store.get(body.rows_key) : null;
    if (!object) throw new EdgegymError(404, "rows_not_found", `no object "${body.rows_key}" in the bucket`);
    return { options: body, source: bounded(object.body, body.skip_invalid), from: body.rows_key };
  }
  if (!JSONL_TYPES.has(type)) {
    throw new EdgegymError(
      415,
      "unsupported_media_type",
      `a job's rows come as JSON Lines (application/x-ndjson) or a JSON body (application/json), not ${type}`,
    );
  }
  const query = c.req.query();
  const params = query.responses_create_params ? parseJsonWithin(query.responses_create_params, "responses_create_params (query)") : undefined;
  const options = parseOr400(JobOptions, { ...query, ...(params === undefined ? {} : { responses_create_params: params }) }, "job options");
  if (!c.req.raw.body) throw new EdgegymError(400, "invalid_request", "the JSONL body is empty");
  return { options, source: bounded(c.req.raw.body, options.skip_invalid), from: "body" };
}

export async function createJob(c: Context<GatewayContext>): Promise<Response> {
  // The tenant's jobs quota before a row is read; its rollouts quota once they are in (nothing is created if over).
  const admit = await jobQuotas(c);
  const { options, source } = await readRequest(c);
  const ports = gatewayPorts(c.env);
  const info = await createJobFromRows(ports, source, {
    ...options,
    owner: callerOf(c).name,
    ...(admit ? { admit } : {}),
    environments: ports.config.ENVIRONMENTS,
    model: modelChoice(c, options, ports.config.POLICY_URL_ALLOW),
    caps: ports.config,
  });
  return c.json(info, 201);
}
