// A bucket job from JSONL lines, as the gateway makes one on Cloudflare: every line checked, the accepted rows stored in
// chunks, the manifest written, one expand message per chunk sent. On AWS the CLI does this itself: there is no gateway.
import type { JobInfo } from "../contracts/jobs.js";
import { jobKeys, type WorkMessage } from "../contracts/messages.js";
import {
  type AgentRef,
  DatasetRow,
  EdgegymError,
  type ErrorIssue,
  environmentFromAgentName,
  issuesOf,
  ResponsesCreateParams,
  TASK_INDEX,
} from "../protocol/index.js";
import type { MessageQueue } from "../queues/queue.js";
import type { ObjectStore } from "../storage/store.js";
import type { BucketJobs } from "./bucket-jobs.js";
import type { BucketJobManifest } from "./manifest.js";

/** Rows per inputs chunk, as the gateway stores them: the unit the agent expands, and here the unit that is sealed. */
export const CHUNK_ROWS = 100;
const MAX_REPORTED_PROBLEMS = 1000;

export interface BucketJobOptions {
  environment?: string;
  num_repeats: number;
  limit?: number;
  /** Run the valid rows when some lines are bad (they are reported); otherwise nothing is enqueued. */
  skip_invalid?: boolean;
  /** Shallow-merged into each row's responses_create_params. */
  responses_create_params?: Record<string, unknown>;
  /** Known environments: a row must name one (through agent_ref), unless the job names its environment. */
  environments: readonly string[];
}

export function newJobId(): string {
  return `job_${Date.now().toString(36)}${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
}

/** One line to the row the agent will run (agent_ref and task index set), or the problems that keep it out. */
export function acceptRow(text: string, task: number, options: BucketJobOptions): { line: string } | { issues: Omit<ErrorIssue, "line">[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { issues: [{ path: [], message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }] };
  }
  if (value && typeof value === "object" && options.responses_create_params) {
    const row = value as { responses_create_params?: unknown };
    if (row.responses_create_params && typeof row.responses_create_params === "object") {
      row.responses_create_params = { ...row.responses_create_params, ...options.responses_create_params };
    }
  }
  const parsed = DatasetRow.safeParse(value);
  if (!parsed.success) return { issues: issuesOf(parsed.error) };
  const row = parsed.data;
  const known = options.environments;
  const environment = options.environment ?? (row.agent_ref ? environmentFromAgentName(row.agent_ref.name, known) : undefined);
  if (!environment) {
    const message = row.agent_ref
      ? `"${row.agent_ref.name}" names no environment (known: ${known.join(", ")})`
      : "no agent_ref, and the job names no environment";
    return { issues: [{ path: ["agent_ref", "name"], message }] };
  }
  // The row's own agent_ref stays when it names this environment (e.g. NeMo Gym's `<env>_gymnasium_agent`).
  const ownRef = row.agent_ref && environmentFromAgentName(row.agent_ref.name, known) === environment ? row.agent_ref : undefined;
  const agentRef: AgentRef = ownRef ?? { type: "responses_api_agents", name: `${environment}_simple_agent` };
  return { line: JSON.stringify({ ...row, agent_ref: agentRef, [TASK_INDEX]: task }) };
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
  if (options.responses_create_params) {
    const checked = ResponsesCreateParams.partial().safeParse(options.responses_create_params);
    if (!checked.success) throw new EdgegymError(400, "invalid_request", "responses_create_params is not valid", issuesOf(checked.error));
  }
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
    const verdict = acceptRow(text, task, options);
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
