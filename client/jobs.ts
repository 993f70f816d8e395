// Jobs and uploads through the client: create (rows, or an uploaded file's rows_key), follow, fetch the JSONL.
import type { JobInfo } from "../contracts/jobs.js";
import type { DatasetRow, RolloutRecord } from "../protocol/index.js";
import type { Connection } from "./http.js";

export interface JobOptions {
  /** The environment of every row (else each row's agent_ref names it). */
  environment?: string;
  numRepeats?: number;
  limit?: number;
  /** Run the valid rows and report the bad ones, rather than refuse the job. */
  skipInvalid?: boolean;
  /** Shallow-merged into each row's responses_create_params. */
  responsesCreateParams?: Record<string, unknown>;
  /** The trainer's policy version: the job's groups carry it on the feed (`groups`, `feed`). */
  policyVersion?: number;
}

/** Which groups a take of the async feed asks for (GET /v1/jobs/:id/groups). */
export interface GroupsOptions {
  /** Consumers sharing a cursor name share its position: each group goes to one of them (default "default"). */
  cursor?: string;
  /** Groups per answer, at most (default 16, at most 256). */
  limit?: number;
  /** Wait for this many groups before answering, unless the wait runs out or no more can come (default 1). */
  minGroups?: number;
  /** Seconds to wait for them, at most 30 (default 20). */
  waitSeconds?: number;
  /** Drop groups of an older policy version. */
  minVersion?: number;
  /** With maxStaleness: drop groups older than currentVersion − maxStaleness. */
  currentVersion?: number;
  maxStaleness?: number;
}

/** A completed group: every repeat of one task, scored rollouts and failures apart. */
export interface FeedGroup {
  task_index: number;
  /** Its place in the order the job's groups completed. */
  sequence: number;
  completed_at: number;
  policy_version?: number;
  rollouts: RolloutRecord[];
  failures: Record<string, unknown>[];
}

export interface GroupBatch {
  object: "list";
  job_id: string;
  cursor: string;
  data: FeedGroup[];
  /** Groups passed over as too old for the trainer. */
  dropped: number;
  /** Completed groups not yet taken on this cursor. */
  pending: number;
  /** Groups not complete yet. */
  incomplete: number;
  status: JobInfo["status"];
  /** Nothing more will come on this cursor. */
  finished: boolean;
}

export interface WaitOptions {
  pollMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

function jsonLines<T>(text: string): T[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

const id = (value: string) => encodeURIComponent(value);

export class Jobs {
  constructor(private readonly connection: Connection) {}

  /** A job of `rows` (streamed as JSON Lines), or of the rows in an uploaded file (`{ rowsKey }`, from `files.upload`). */
  create(source: { rows: DatasetRow[] } | { rowsKey: string }, options: JobOptions = {}): Promise<JobInfo> {
    const fields: Record<string, string | number | boolean | Record<string, unknown>> = {
      ...(options.environment ? { environment: options.environment } : {}),
      ...(options.numRepeats ? { num_repeats: options.numRepeats } : {}),
      ...(options.limit ? { limit: options.limit } : {}),
      ...(options.skipInvalid ? { skip_invalid: true } : {}),
      ...(options.responsesCreateParams ? { responses_create_params: options.responsesCreateParams } : {}),
      ...(options.policyVersion !== undefined ? { policy_version: options.policyVersion } : {}),
    };
    if ("rowsKey" in source) {
      const body = JSON.stringify({ ...fields, rows_key: source.rowsKey });
      return this.connection.json<JobInfo>({ method: "POST", path: "/v1/jobs", body, contentType: "application/json" });
    }
    // Rows go as a JSONL body (the upload size cap, read as it streams), the options in the query string.
    const query = new URLSearchParams(
      Object.entries(fields).map(([key, value]): [string, string] => [key, typeof value === "object" ? JSON.stringify(value) : String(value)]),
    );
    const body = `${source.rows.map((row) => JSON.stringify(row)).join("\n")}\n`;
    return this.connection.json<JobInfo>({ method: "POST", path: `/v1/jobs?${query}`, body, contentType: "application/x-ndjson" });
  }

  status(jobId: string): Promise<JobInfo> {
    return this.connection.json<JobInfo>({ method: "GET", path: `/v1/jobs/${id(jobId)}` });
  }

  /** Polls until the job is no longer running (bounded by timeoutMs, default 1 h). */
  async wait(jobId: string, options: WaitOptions = {}): Promise<JobInfo> {
    const deadline = Date.now() + (options.timeoutMs ?? 3_600_000);
    for (;;) {
      const info = await this.status(jobId);
      if (info.status !== "running") return info;
      if (Date.now() > deadline) throw new Error(`job ${jobId} is still running after ${options.timeoutMs ?? 3_600_000} ms`);
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
      options.signal?.throwIfAborted();
    }
  }

  /** The scored records, ordered by task then repeat. */
  async results(jobId: string): Promise<RolloutRecord[]> {
    return jsonLines<RolloutRecord>(await (await this.connection.send({ method: "GET", path: `/v1/jobs/${id(jobId)}/rollouts` })).text());
  }

  /** The failure records (failure class, message, attempts). */
  async failures(jobId: string): Promise<Record<string, unknown>[]> {
    return jsonLines(await (await this.connection.send({ method: "GET", path: `/v1/jobs/${id(jobId)}/failures` })).text());
  }

  cancel(jobId: string): Promise<JobInfo> {
    return this.connection.json<JobInfo>({ method: "DELETE", path: `/v1/jobs/${id(jobId)}` });
  }

  resume(jobId: string): Promise<JobInfo & { resumed: number }> {
    return this.connection.json({ method: "POST", path: `/v1/jobs/${id(jobId)}/resume` });
  }

  /** One take of the async feed: the next completed groups on a cursor (long-polls up to `waitSeconds`). */
  groups(jobId: string, options: GroupsOptions = {}): Promise<GroupBatch> {
    const fields: [string, string | number | undefined][] = [
      ["cursor", options.cursor],
      ["limit", options.limit],
      ["min_groups", options.minGroups],
      ["wait", options.waitSeconds],
      ["min_version", options.minVersion],
      ["current_version", options.currentVersion],
      ["max_staleness", options.maxStaleness],
    ];
    const query = new URLSearchParams();
    for (const [key, value] of fields) if (value !== undefined) query.set(key, String(value));
    return this.connection.json<GroupBatch>({ method: "GET", path: `/v1/jobs/${id(jobId)}/groups?${query}` });
  }

  /** The feed as batches of groups until the cursor is finished (each group to one consumer of the cursor). */
  async *feed(jobId: string, options: GroupsOptions = {}): AsyncGenerator<FeedGroup[]> {
    for (;;) {
      const batch = await this.groups(jobId, options);
      if (batch.data.length > 0) yield batch.data;
      if (batch.finished) return;
      // Without a server-side wait, an empty answer would be asked again at once: pause instead.
      if (batch.data.length === 0 && (options.waitSeconds ?? 20) < 1) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

export interface UploadedFile {
  object: "file";
  name: string;
  /** What `jobs.create({ rowsKey })` takes; only this token's name may use it. */
  rows_key: string;
  bytes: number;
}

export class Files {
  constructor(private readonly connection: Connection) {}

  /** Stores JSON Lines under `name` for this token; a job then reads them by the answer's rows_key. */
  upload(name: string, rows: DatasetRow[] | string): Promise<UploadedFile> {
    const body = typeof rows === "string" ? rows : `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;
    return this.connection.json<UploadedFile>({ method: "PUT", path: `/v1/files/${id(name)}`, body, contentType: "application/x-ndjson" });
  }
}
