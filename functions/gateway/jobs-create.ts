// POST /v1/jobs: validate every line, store the materialized inputs in chunks, enqueue one expand message per chunk.
import type { Context } from "hono";
import { z } from "zod";
import { CHUNK_ROWS, type JobConfig, newJobId } from "../../contracts/jobs.js";
import { jobKeys } from "../../contracts/messages.js";
import { acceptRow } from "../../contracts/job-rows.js";
import { readJson } from "../../http/errors.js";
import { JSON_LIMITS, jsonLimitError, MAX_LINE_BYTES, parseJsonWithin } from "../../http/json.js";
import { LineError, type RawLine, readLines } from "../../http/jsonl.js";
import { EdgegymError, type ErrorIssue, parseOr400, ResponsesCreateParams } from "../../protocol/index.js";
import { callerOf, type GatewayContext } from "./caller.js";
import { mayReadRows } from "./files.js";
import { checkRepeats, rowsOverCap } from "./job-limits.js";
import { ModelFields, modelChoice } from "./model-choice.js";
import { gatewayPorts } from "./ports.js";

/** Rows per inputs chunk: the unit the agent expands into rollout messages (its layout is a contract: contracts/jobs.ts). */
const MAX_REPORTED_PROBLEMS = 1000;
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
  const { options, source } = await readRequest(c);
  const ports = gatewayPorts(c.env);
  const known = ports.config.ENVIRONMENTS;
  if (options.environment && !known.includes(options.environment)) {
    throw new EdgegymError(404, "unknown_environment", `no environment "${options.environment}" (known: ${known.join(", ")})`);
  }
  if (options.responses_create_params) parseOr400(ResponsesCreateParams.partial(), options.responses_create_params, "responses_create_params");
  checkRepeats(options.num_repeats, ports.config);

  const id = newJobId();
  const problems: ErrorIssue[] = [];
  let problemCount = 0;
  const tasks: number[] = [];
  const chunkKeys: string[] = [];
  let chunk: string[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const key = jobKeys.inputsChunk(id, chunkKeys.length);
    await ports.store.put(key, `${chunk.join("\n")}\n`, { contentType: "application/x-ndjson" });
    chunkKeys.push(key);
    chunk = [];
  };
  const problem = (line: number, issue: Omit<ErrorIssue, "line">) => {
    problemCount++;
    if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ line, ...issue });
  };

  const model = modelChoice(c, options);
  let taskIndex = 0;
  /** Task index → the line that holds it: a row's own `_ng_task_index` is kept, so two rows may not share one. */
  const lineOfTask = new Map<number, number>();
  for await (const read of source) {
    const lineNumber = read.line;
    if ("text" in read && read.text.trim() === "") continue;
    if (options.limit !== undefined && taskIndex >= options.limit) break;
    const position = taskIndex++;
    if (!("text" in read)) {
      const message = read.problem === "too_long" ? `longer than ${MAX_LINE_BYTES} bytes` : "not valid UTF-8";
      problem(lineNumber, { path: [], message });
      continue;
    }
    // Nesting and string lengths are checked before the line is parsed (acceptRow parses it).
    const refused = jsonLimitError(read.text, "the line", JSON_LIMITS);
    if (refused) {
      problem(lineNumber, { path: [], message: refused.message });
      continue;
    }
    const verdict = acceptRow(read.text, position, { ...options, environments: known });
    if ("issues" in verdict) {
      for (const issue of verdict.issues) problem(lineNumber, issue);
      continue;
    }
    const task = verdict.task;
    const earlier = lineOfTask.get(task);
    if (earlier !== undefined) {
      problem(lineNumber, { path: ["_ng_task_index"], message: `task index ${task} is already line ${earlier}'s; each row of a job needs its own` });
      continue;
    }
    const tooLarge = rowsOverCap(tasks.length + 1, options.num_repeats, ports.config);
    if (tooLarge) {
      await ports.store.delete(chunkKeys);
      throw tooLarge;
    }
    chunk.push(verdict.line);
    lineOfTask.set(task, lineNumber);
    tasks.push(task);
    if (chunk.length >= CHUNK_ROWS) await flush();
  }
  await flush();

  const discard = () => ports.store.delete(chunkKeys);
  if (problemCount > 0 && !options.skip_invalid) {
    await discard();
    const error = new EdgegymError(
      400,
      "invalid_rows",
      `${problemCount} problem(s) in the rows; nothing was enqueued (pass skip_invalid to run the valid rows)`,
      problems,
    );
    throw error;
  }
  if (tasks.length === 0) {
    await discard();
    throw new EdgegymError(400, "no_rows", "the job has no valid rows");
  }

  const config: JobConfig = {
    id,
    ...(options.environment ? { environment: options.environment } : {}),
    num_repeats: options.num_repeats,
    tasks,
    chunk_keys: chunkKeys,
    created_at: Date.now(),
    ...(Object.keys(model).length ? { model } : {}),
    ...(problems.length ? { skipped_lines: problems.map((p) => ({ line: p.line ?? 0, field: p.path.join("."), message: p.message })) } : {}),
  };
  await ports.store.put(jobKeys.manifest(id), JSON.stringify({ id, created_at: config.created_at, environment: config.environment ?? null }));
  const info = await ports.job(id).create(config);
  await ports.rollouts.sendBatch(chunkKeys.map((chunk_key) => ({ body: { kind: "expand", job_id: id, chunk_key, attempt: 1 } })));
  return c.json(info, 201);
}
