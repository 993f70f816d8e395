// edgegym/client: a typed client for an edgegym gateway. One rollout (`run`), a GRPO-style batch (prompts × group size,
// concurrent /run calls under a bound), jobs and uploads; every call honours Retry-After (429/503) with bounded retries.
import pLimit from "p-limit";
import type { DatasetRow, RolloutRecord, VerifyResponse } from "../protocol/index.js";
import { Connection, type ConnectionOptions, EdgegymClientError } from "./http.js";
import { type BatchOutcome, type RunBatchOptions, runBatch } from "./batch.js";
import { Files, Jobs } from "./jobs.js";

export type { BatchOutcome, RunBatchOptions } from "./batch.js";
export { EdgegymClientError, type ConnectionOptions, type RetryOptions, retryAfterMs, retryDelayMs } from "./http.js";
export type { FeedGroup, GroupBatch, GroupsOptions, JobOptions, UploadedFile, WaitOptions } from "./jobs.js";
export { type TrainingTurn, trainingTurns } from "./training.js";
export type { DatasetRow, RolloutRecord } from "../protocol/index.js";
export type { JobInfo } from "../contracts/jobs.js";

export interface RunOptions {
  /** The environment, when the row's agent_ref does not name one. */
  environment?: string;
  /** A cap on model turns for this rollout. */
  maxSteps?: number;
  /**
   * Token ids and logprobs on each model call's last output item (`return_token_ids=true`), what `trainingTurns` reads;
   * unset, the deployment's RETURN_TOKEN_ID_INFORMATION decides.
   */
  returnTokenIds?: boolean;
  signal?: AbortSignal;
}

/** What /run answers: NeMo Gym's verify response, with the rollout's id and agent_ref. */
export type RunRecord = VerifyResponse & { _ng_rollout_id: string; agent_ref: { name: string; type?: string } };

export interface BatchOptions extends RunOptions {
  /** Rollouts per prompt (GRPO's group size); default 1. */
  groupSize?: number;
  /** /run calls in flight at once (with `batched`: rollouts of one request in flight on the gateway, at most 256); default 64. */
  concurrency?: number;
  /** One POST /run/batch request per 1,024 rollouts, records streamed back, instead of one /run call each. */
  batched?: boolean;
}

export interface BatchFailure {
  /** The prompt's index in `rows` and the rollout's index in its group. */
  task: number;
  repeat: number;
  error: EdgegymClientError;
}

export interface BatchResult {
  /** One group per prompt, in `rows` order; a group's records in repeat order (a failed rollout is left out). */
  groups: RolloutRecord[][];
  failures: BatchFailure[];
}

export class EdgegymClient {
  readonly jobs: Jobs;
  readonly files: Files;
  private readonly connection: Connection;

  constructor(options: ConnectionOptions) {
    this.connection = new Connection({ ...options, url: options.url.replace(/\/+$/, "") });
    this.jobs = new Jobs(this.connection);
    this.files = new Files(this.connection);
  }

  /** One rollout: the row in, the scored record out (or EdgegymClientError once retries run out). */
  run(row: DatasetRow, options: RunOptions = {}): Promise<RunRecord> {
    const query = new URLSearchParams({
      ...(options.environment ? { environment: options.environment } : {}),
      ...(options.maxSteps ? { max_steps: String(options.maxSteps) } : {}),
      ...(options.returnTokenIds !== undefined ? { return_token_ids: String(options.returnTokenIds) } : {}),
    }).toString();
    return this.connection.json<RunRecord>({
      method: "POST",
      path: `/run${query ? `?${query}` : ""}`,
      body: JSON.stringify(row),
      contentType: "application/json",
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * Every row `groupSize` times, as concurrent /run calls (at most `concurrency` in flight): GRPO's batch of prompts ×
   * group. Records carry `_ng_task_index` (the row's index) and `_ng_rollout_index` (its place in the group).
   */
  async batch(rows: DatasetRow[], options: BatchOptions = {}): Promise<BatchResult> {
    const groupSize = options.groupSize ?? 1;
    if (options.batched) return this.batchStreamed(rows, groupSize, options);
    const limit = pLimit(options.concurrency ?? 64);
    const groups: (RolloutRecord | undefined)[][] = rows.map(() => new Array<RolloutRecord | undefined>(groupSize));
    const failures: BatchFailure[] = [];
    await Promise.all(
      rows.flatMap((row, task) =>
        Array.from({ length: groupSize }, (_, repeat) =>
          limit(async () => {
            try {
              const record = await this.run({ ...row, _ng_task_index: task, _ng_rollout_index: repeat }, options);
              groups[task]![repeat] = { ...record, _ng_task_index: task, _ng_rollout_index: repeat };
            } catch (error) {
              if (!(error instanceof EdgegymClientError)) throw error;
              failures.push({ task, repeat, error });
            }
          }),
        ),
      ),
    );
    return { groups: groups.map((group) => group.filter((record): record is RolloutRecord => record !== undefined)), failures };
  }

  /** Rows through POST /run/batch: each outcome as its rollout ends (see client/batch.ts for the retries). */
  runBatch(rows: DatasetRow[], options: RunBatchOptions = {}): AsyncGenerator<BatchOutcome<RunRecord>> {
    return runBatch<RunRecord>(this.connection, rows, options);
  }

  private async batchStreamed(rows: DatasetRow[], groupSize: number, options: BatchOptions): Promise<BatchResult> {
    const { groupSize: _g, batched: _b, ...rest } = options;
    const stamped = rows.flatMap((row, task) =>
      Array.from({ length: groupSize }, (_, repeat) => ({ ...row, _ng_task_index: task, _ng_rollout_index: repeat })),
    );
    const groups: (RolloutRecord | undefined)[][] = rows.map(() => new Array<RolloutRecord | undefined>(groupSize));
    const failures: BatchFailure[] = [];
    for await (const outcome of this.runBatch(stamped, { ...rest, ...(options.concurrency ? { concurrency: Math.min(256, options.concurrency) } : {}) })) {
      const task = Math.floor(outcome.index / groupSize);
      const repeat = outcome.index % groupSize;
      if ("record" in outcome) groups[task]![repeat] = { ...outcome.record, _ng_task_index: task, _ng_rollout_index: repeat };
      else failures.push({ task, repeat, error: outcome.error });
    }
    return { groups: groups.map((group) => group.filter((record): record is RolloutRecord => record !== undefined)), failures };
  }
}
