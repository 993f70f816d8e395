// A job's rows in: every line checked (acceptRow), the accepted ones stored in inputs chunks, the job created in its ledger
// and one expand message per chunk sent. The gateway (POST /v1/jobs), the CLI (collect on AWS) and the AWS tests call this.
import { CHUNK_ROWS, type JobConfig, type JobInfo, type JobLedger, newJobId } from "../contracts/jobs.js";
import { acceptRow, type RowOptions } from "./rows.js";
import { jobKeys, type WorkMessage } from "../contracts/messages.js";
import type { ModelChoice } from "../contracts/rpc.js";
import { JSON_LIMITS, jsonLimitError, MAX_LINE_BYTES } from "../http/json.js";
import type { RawLine } from "../http/jsonl.js";
import { EdgegymError, type ErrorIssue, parseOr400, ResponsesCreateParams } from "../protocol/index.js";
import type { MessageQueue } from "../queues/queue.js";
import type { ObjectStore } from "../storage/store.js";

const MAX_REPORTED_PROBLEMS = 1000;

/** Caps on a job's size (the gateway's MAX_NUM_REPEATS, MAX_JOB_ROWS, MAX_JOB_ROLLOUTS). */
export interface JobCaps {
  MAX_NUM_REPEATS: number;
  MAX_JOB_ROWS: number;
  MAX_JOB_ROLLOUTS: number;
}

/** The caps' defaults, as the gateway's config has them: what the CLI holds an AWS job to. */
export const DEFAULT_JOB_CAPS: JobCaps = { MAX_NUM_REPEATS: 1024, MAX_JOB_ROWS: 1_000_000, MAX_JOB_ROLLOUTS: 10_000_000 };

export interface IngestOptions extends RowOptions {
  num_repeats: number;
  limit?: number;
  /** Run the valid rows when some lines are bad (they are reported); otherwise nothing is enqueued. */
  skip_invalid?: boolean;
  model?: ModelChoice;
  /** The trainer's policy version, carried by the job to its groups on the feed. */
  policy_version?: number;
  caps: JobCaps;
  /** How the error for bad rows says to run the valid ones anyway (the gateway's option, the CLI's flag). */
  skipHint?: string;
  /** The token name (tenant) creating the job: it alone (and admin) may see it. */
  owner?: string;
  /** The AWS path: the job's id carries its owner (`job_<owner>_…`), so IAM can hold a tenant to its own keys. */
  ownerInId?: boolean;
  /**
   * Checked once the rows are in, before the job is created (the tenant's quotas, with the new job's rollouts): a throw
   * deletes the inputs written and refuses the job, which leaves nothing behind.
   */
  admit?: (config: JobConfig) => Promise<void>;
}

/** Where a new job goes: its inputs' bucket, its ledger and the queue its expand messages go on. */
export interface JobSinks {
  store: ObjectStore;
  ledger: Pick<JobLedger, "create">;
  rollouts: MessageQueue<WorkMessage>;
}

function tooLarge(field: string, message: string): EdgegymError {
  return new EdgegymError(400, "job_too_large", message, [{ path: [field], message }]);
}

/** num_repeats over the cap is refused before a row is read. */
export function checkRepeats(numRepeats: number, caps: JobCaps): void {
  if (numRepeats > caps.MAX_NUM_REPEATS) throw tooLarge("num_repeats", `num_repeats is ${numRepeats}; at most ${caps.MAX_NUM_REPEATS} (MAX_NUM_REPEATS)`);
}

/** The error for a job that would have `rows` rows, if that is over a cap. */
function rowsOverCap(rows: number, numRepeats: number, caps: JobCaps): EdgegymError | undefined {
  if (rows > caps.MAX_JOB_ROWS) return tooLarge("rows", `the job has more than ${caps.MAX_JOB_ROWS} rows (MAX_JOB_ROWS)`);
  if (rows * numRepeats > caps.MAX_JOB_ROLLOUTS) return tooLarge("rows", `rows × num_repeats is over ${caps.MAX_JOB_ROLLOUTS} rollouts (MAX_JOB_ROLLOUTS)`);
  return undefined;
}

/** The options as a whole, before any row: an unknown environment, bad responses_create_params, too many repeats. */
export function checkJobOptions(options: IngestOptions): void {
  if (options.environment && !options.environments.includes(options.environment)) {
    throw new EdgegymError(404, "unknown_environment", `no environment "${options.environment}" (known: ${options.environments.join(", ")})`);
  }
  if (options.responses_create_params) parseOr400(ResponsesCreateParams.partial(), options.responses_create_params, "responses_create_params");
  checkRepeats(options.num_repeats, options.caps);
}

/** The source's lines; when reading it fails, `cleanUp` runs before the failure goes on. */
async function* deletingOnFailure(source: AsyncIterable<RawLine>, cleanUp: () => Promise<void>): AsyncGenerator<RawLine> {
  try {
    yield* source;
  } catch (error) {
    await cleanUp().catch(() => undefined);
    throw error;
  }
}

/**
 * Reads every line into inputs chunks and answers the job's configuration. Throws an EdgegymError (400 invalid_rows with
 * every problem by line, no_rows, job_too_large) after deleting the chunks it wrote: a refused job leaves nothing behind.
 */
export async function ingestRows(store: ObjectStore, source: AsyncIterable<RawLine>, options: IngestOptions): Promise<JobConfig> {
  checkJobOptions(options);
  const id = newJobId(options.ownerInId ? options.owner : undefined);
  const problems: ErrorIssue[] = [];
  let problemCount = 0;
  const tasks: number[] = [];
  const chunkKeys: string[] = [];
  let chunk: string[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const key = jobKeys.inputsChunk(id, chunkKeys.length);
    await store.put(key, `${chunk.join("\n")}\n`, { contentType: "application/x-ndjson" });
    chunkKeys.push(key);
    chunk = [];
  };
  const problem = (line: number, issue: Omit<ErrorIssue, "line">) => {
    problemCount++;
    if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ line, ...issue });
  };
  const refuse = async (error: EdgegymError): Promise<never> => {
    await store.delete(chunkKeys);
    throw error;
  };

  let position = 0;
  /** Task index → the line that holds it: a row's own `_ng_task_index` is kept, so two rows may not share one. */
  const lineOfTask = new Map<number, number>();
  // A source that fails mid-way (an upload cut short: too slow, too large, or its client gone) leaves no chunk behind.
  for await (const read of deletingOnFailure(source, () => store.delete(chunkKeys))) {
    if ("text" in read && read.text.trim() === "") continue;
    if (options.limit !== undefined && position >= options.limit) break;
    const at = position++;
    if (!("text" in read)) {
      problem(read.line, { path: [], message: read.problem === "too_long" ? `longer than ${MAX_LINE_BYTES} bytes` : "not valid UTF-8" });
      continue;
    }
    // Nesting and string lengths are checked before the line is parsed (acceptRow parses it).
    const refused = jsonLimitError(read.text, "the line", JSON_LIMITS);
    if (refused) {
      problem(read.line, { path: [], message: refused.message });
      continue;
    }
    const verdict = acceptRow(read.text, at, options);
    if ("issues" in verdict) {
      for (const issue of verdict.issues) problem(read.line, issue);
      continue;
    }
    const earlier = lineOfTask.get(verdict.task);
    if (earlier !== undefined) {
      problem(read.line, { path: ["_ng_task_index"], message: `task index ${verdict.task} is already line ${earlier}'s; each row of a job needs its own` });
      continue;
    }
    const over = rowsOverCap(tasks.length + 1, options.num_repeats, options.caps);
    if (over) await refuse(over);
    chunk.push(verdict.line);
    lineOfTask.set(verdict.task, read.line);
    tasks.push(verdict.task);
    if (chunk.length >= CHUNK_ROWS) await flush();
  }
  await flush();

  if (problemCount > 0 && !options.skip_invalid) {
    const hint = options.skipHint ?? "pass skip_invalid to run the valid rows";
    await refuse(new EdgegymError(400, "invalid_rows", `${problemCount} problem(s) in the rows; nothing was enqueued (${hint})`, problems));
  }
  if (tasks.length === 0) await refuse(new EdgegymError(400, "no_rows", "the job has no valid rows", problems));
  return {
    id,
    ...(options.owner ? { owner: options.owner } : {}),
    ...(options.environment ? { environment: options.environment } : {}),
    num_repeats: options.num_repeats,
    tasks,
    chunk_keys: chunkKeys,
    created_at: Date.now(),
    ...(options.model && Object.keys(options.model).length ? { model: options.model } : {}),
    ...(options.policy_version === undefined ? {} : { policy_version: options.policy_version }),
    ...(problems.length ? { skipped_lines: problems.map((p) => ({ line: p.line ?? 0, field: p.path.join("."), message: p.message })) } : {}),
  };
}

/** A job from its lines: ingested, created in its ledger, then one expand message per inputs chunk sent. */
export async function createJob(sinks: JobSinks, source: AsyncIterable<RawLine>, options: IngestOptions): Promise<JobInfo> {
  const config = await ingestRows(sinks.store, source, options);
  try {
    await options.admit?.(config);
  } catch (error) {
    await sinks.store.delete(config.chunk_keys);
    throw error;
  }
  const info = await sinks.ledger.create(config);
  await sinks.rollouts.sendBatch(config.chunk_keys.map((chunk_key) => ({ body: { kind: "expand", job_id: config.id, chunk_key, attempt: 1 } })));
  return info;
}

/** Numbered lines of a text source (a file read by readline): what ingestRows reads. */
export async function* numberedLines(source: AsyncIterable<string>): AsyncGenerator<RawLine> {
  let line = 0;
  for await (const text of source) yield { line: ++line, text };
}
