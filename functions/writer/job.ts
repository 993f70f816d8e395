// One Durable Object per job: its counters, the set of finished rollout ids (exactly-once results), completion and metrics.
import { DurableObject } from "cloudflare:workers";
import { jobKeys } from "../../queues/messages.js";
import type { WriterEnv } from "../bindings.js";
import type { JobConfig, JobInfo, JobRpc, JobStatus, ResultEntry, ResultLocation } from "./job-types.js";
import { jobMetrics } from "./metrics.js";

interface Meta {
  config: JobConfig;
  status: JobStatus;
  started: number;
  completed_at?: number;
}

export class Job extends DurableObject<WriterEnv> implements JobRpc {
  private readonly sql = this.ctx.storage.sql;
  /** record() calls run one after another: a batch's ids are checked and written as one step. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: WriterEnv) {
    super(ctx, env);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS results (
      rollout_id TEXT PRIMARY KEY, kind TEXT NOT NULL, task_index INTEGER NOT NULL, rollout_index INTEGER NOT NULL,
      environment TEXT NOT NULL, object_key TEXT NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL, summary TEXT NOT NULL)`);
  }

  private meta(): Meta | null {
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'job'`).toArray()[0];
    return row ? (JSON.parse(row.value) as Meta) : null;
  }

  private saveMeta(meta: Meta): void {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES ('job', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, JSON.stringify(meta));
  }

  private counted(): { done: number; failed: number } {
    const rows = this.sql.exec<{ kind: string; n: number }>(`SELECT kind, COUNT(*) AS n FROM results GROUP BY kind`).toArray();
    return { done: rows.find((r) => r.kind === "rollout")?.n ?? 0, failed: rows.find((r) => r.kind === "failure")?.n ?? 0 };
  }

  private async describe(meta: Meta): Promise<JobInfo> {
    const { config } = meta;
    const total = config.tasks.length * config.num_repeats;
    const { done, failed } = this.counted();
    const open = Math.max(0, total - done - failed);
    const running = meta.status === "running" ? Math.min(open, Math.max(0, meta.started - done - failed)) : 0;
    const end = meta.completed_at ?? Date.now();
    const info: JobInfo = {
      id: config.id,
      status: meta.status,
      ...(config.environment ? { environment: config.environment } : {}),
      num_repeats: config.num_repeats,
      tasks: config.tasks.length,
      counts: { total, queued: meta.status === "running" ? open - running : 0, running, done, failed },
      progress: total === 0 ? 1 : (done + failed) / total,
      created_at: config.created_at,
      ...(meta.completed_at ? { completed_at: meta.completed_at } : {}),
      elapsed_seconds: (end - config.created_at) / 1000,
      ...(config.skipped_lines?.length ? { skipped_lines: config.skipped_lines } : {}),
    };
    if (meta.status === "completed") {
      const stored = await this.env.BUCKET.get(jobKeys.metrics(config.id));
      if (stored) info.metrics = await stored.json();
    }
    return info;
  }

  async create(config: JobConfig): Promise<JobInfo> {
    const existing = this.meta();
    if (existing) return this.describe(existing);
    const meta: Meta = { config, status: config.tasks.length === 0 ? "completed" : "running", started: 0 };
    this.saveMeta(meta);
    return this.describe(meta);
  }

  async info(): Promise<JobInfo | null> {
    const meta = this.meta();
    return meta ? this.describe(meta) : null;
  }

  /**
   * The agent reports rollouts it starts (for the running count) and learns the job's repeats in the same call;
   * null means the job is cancelled (or unknown): drop the work.
   */
  async started(count: number): Promise<{ numRepeats: number } | null> {
    const meta = this.meta();
    if (!meta || meta.status === "cancelled") return null;
    meta.started += count;
    this.saveMeta(meta);
    return { numRepeats: meta.config.num_repeats };
  }

  record(entries: ResultEntry[]): Promise<{ written: number; duplicates: number }> {
    const run = this.tail.then(() => this.recordNow(entries));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async recordNow(entries: ResultEntry[]): Promise<{ written: number; duplicates: number }> {
    const meta = this.meta();
    if (!meta) throw new Error("record() on a job that was never created");
    const ids = JSON.stringify(entries.map((e) => e.rollout_id));
    const known = new Set(
      this.sql
        .exec<{ rollout_id: string }>(`SELECT rollout_id FROM results WHERE rollout_id IN (SELECT value FROM json_each(?))`, ids)
        .toArray()
        .map((r) => r.rollout_id),
    );
    const fresh: ResultEntry[] = [];
    for (const entry of entries) {
      if (known.has(entry.rollout_id)) continue;
      known.add(entry.rollout_id); // a batch may carry the same rollout twice
      fresh.push(entry);
    }

    for (const kind of ["rollout", "failure"] as const) {
      const mine = fresh.filter((e) => e.kind === kind);
      if (mine.length === 0) continue;
      const key = jobKeys.results(meta.config.id, kind, `${Date.now()}-${crypto.randomUUID().slice(0, 8)}`);
      const encoder = new TextEncoder();
      let offset = 0;
      const placed = mine.map((entry) => {
        const bytes = encoder.encode(`${entry.line}\n`).length;
        const at = { entry, offset, length: bytes };
        offset += bytes;
        return at;
      });
      // The object is written before the ids are recorded: a crash in between leaves an unlisted object, never a lost result.
      await this.env.BUCKET.put(key, mine.map((e) => `${e.line}\n`).join(""));
      this.ctx.storage.transactionSync(() => {
        for (const { entry, offset: at, length } of placed) {
          this.sql.exec(
            `INSERT INTO results (rollout_id, kind, task_index, rollout_index, environment, object_key, offset, length, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            entry.rollout_id,
            entry.kind,
            entry.task_index,
            entry.rollout_index,
            entry.environment,
            key,
            at,
            length,
            JSON.stringify(entry.summary),
          );
        }
      });
    }
    await this.completeIfDone(meta);
    return { written: fresh.length, duplicates: entries.length - fresh.length };
  }

  private async completeIfDone(meta: Meta): Promise<void> {
    if (meta.status === "completed") return;
    const total = meta.config.tasks.length * meta.config.num_repeats;
    const { done, failed } = this.counted();
    if (done + failed < total) return;
    const summaries = this.sql
      .exec<{ environment: string; summary: string }>(`SELECT environment, summary FROM results WHERE kind = 'rollout' ORDER BY task_index, rollout_index`)
      .toArray();
    const metrics = await jobMetrics(this.env, summaries);
    await this.env.BUCKET.put(jobKeys.metrics(meta.config.id), JSON.stringify(metrics));
    const latest = this.meta() ?? meta;
    latest.status = "completed";
    latest.completed_at = Date.now();
    this.saveMeta(latest);
  }

  async cancel(): Promise<JobInfo | null> {
    const meta = this.meta();
    if (!meta) return null;
    if (meta.status === "running") {
      meta.status = "cancelled";
      meta.completed_at = Date.now();
      this.saveMeta(meta);
    }
    return this.describe(meta);
  }

  /** Every (task, repeat) without a scored rollout; failures are forgotten and tried again, as NeMo Gym retries them on resume. */
  async resume(): Promise<{ info: JobInfo; missing: [number, number][]; tasks: number[] } | null> {
    const meta = this.meta();
    if (!meta) return null;
    // Their lines stay in the failure objects, but only listed ids are ever read back: no stale failure reappears.
    this.sql.exec(`DELETE FROM results WHERE kind = 'failure'`);
    const have = new Set(
      this.sql
        .exec<{ rollout_id: string }>(`SELECT rollout_id FROM results`)
        .toArray()
        .map((r) => r.rollout_id),
    );
    const missing: [number, number][] = [];
    for (const task of meta.config.tasks) {
      for (let repeat = 0; repeat < meta.config.num_repeats; repeat++) {
        if (!have.has(`${meta.config.id}:${task}:${repeat}`)) missing.push([task, repeat]);
      }
    }
    if (missing.length > 0) {
      meta.status = "running";
      delete meta.completed_at;
      const { done, failed } = this.counted();
      meta.started = done + failed;
      this.saveMeta(meta);
    }
    return { info: await this.describe(meta), missing, tasks: meta.config.tasks };
  }

  async locations(kind: "rollout" | "failure"): Promise<ResultLocation[]> {
    return this.sql
      .exec<{ object_key: string; offset: number; length: number; task_index: number; rollout_index: number }>(
        `SELECT object_key, offset, length, task_index, rollout_index FROM results WHERE kind = ? ORDER BY task_index, rollout_index`,
        kind,
      )
      .toArray()
      .map((row) => ({ ...row }));
  }
}
