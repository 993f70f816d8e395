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
