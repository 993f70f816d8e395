// A bucket job from JSONL lines, as the gateway makes one on Cloudflare: every line checked, the accepted rows stored in
// chunks, the manifest written, one expand message per chunk sent. On AWS the CLI does this itself: there is no gateway.
// Rows per inputs chunk (CHUNK_ROWS) are the gateway's: the unit the agent expands, and here the unit that is sealed.
import { CHUNK_ROWS, type JobInfo, newJobId } from "../contracts/jobs.js";
import { jobKeys, type WorkMessage } from "../contracts/messages.js";
import { acceptRow, type RowOptions } from "../contracts/job-rows.js";
import { EdgegymError, type ErrorIssue, parseOr400, ResponsesCreateParams } from "../protocol/index.js";
import type { MessageQueue } from "../queues/queue.js";
import type { ObjectStore } from "../storage/store.js";
import type { BucketJobs } from "./bucket-jobs.js";
import type { BucketJobManifest } from "./manifest.js";

const MAX_REPORTED_PROBLEMS = 1000;

export interface BucketJobOptions extends RowOptions {
  num_repeats: number;
  limit?: number;
  /** Run the valid rows when some lines are bad (they are reported); otherwise nothing is enqueued. */
  skip_invalid?: boolean;
}

export async function createBucketJob(
  store: ObjectStore,
  jobs: BucketJobs,
  rollouts: MessageQueue<WorkMessage>,
  source: AsyncIterable<string>,
  options: BucketJobOptions,
): Promise<JobInfo> {
  if (options.environment && !options.environments.includes(options.environment)) {
    throw new EdgegymError(404, "unknown_environment", `no environment "${options.environment}" (known: ${options.environments.join(", ")})`);
  }
  if (options.responses_create_params) parseOr400(ResponsesCreateParams.partial(), options.responses_create_params, "responses_create_params");
  const id = newJobId();
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

  let lineNumber = 0;
  let taskIndex = 0;
  for await (const text of source) {
    lineNumber++;
    if (text.trim() === "") continue;
    if (options.limit !== undefined && taskIndex >= options.limit) break;
    const task = taskIndex++;
    // The ledger places results by the row's position in its chunk: a row's own task index is not kept on this path.
    const verdict = acceptRow(text, task, { ...options, ownTaskIndex: false });
    if ("issues" in verdict) {
      for (const issue of verdict.issues) {
        problemCount++;
        if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ line: lineNumber, ...issue });
      }
      continue;
    }
    chunk.push(verdict.line);
    tasks.push(task);
    if (chunk.length >= CHUNK_ROWS) await flush();
  }
  await flush();

  if ((problemCount > 0 && !options.skip_invalid) || tasks.length === 0) {
    await store.delete(chunkKeys);
    if (problemCount > 0 && !options.skip_invalid)
      throw new EdgegymError(400, "invalid_rows", `${problemCount} problem(s) in the rows; nothing was enqueued (skip them to run the valid rows)`, problems);
    throw new EdgegymError(400, "no_rows", "the job has no valid rows", problems);
  }

  const manifest: BucketJobManifest = {
    id,
    ...(options.environment ? { environment: options.environment } : {}),
    num_repeats: options.num_repeats,
    tasks,
    chunk_keys: chunkKeys,
    created_at: Date.now(),
    ...(problems.length ? { skipped_lines: problems.map((p) => ({ line: p.line ?? 0, field: p.path.join("."), message: p.message })) } : {}),
    chunk_rows: CHUNK_ROWS,
  };
  const info = await jobs.create(manifest);
  await rollouts.sendBatch(chunkKeys.map((chunk_key) => ({ body: { kind: "expand", job_id: id, chunk_key, attempt: 1 } })));
  return info;
}
