// One Durable Object per job: its counters, the set of finished rollout ids (exactly-once results), completion and metrics.
import { DurableObject } from "cloudflare:workers";
import { configCache, WriterVars } from "../../contracts/config.js";
import type { WriterEnv } from "../../contracts/env.generated.js";
import { environmentService } from "../../contracts/environments.js";
import type { BrowsePage, BrowseQuery, JobSummary, SummaryOptions } from "../../contracts/job-views.js";
import type { JobConfig, JobInfo, JobRpc, JobStatus, LocationPage, ResultEntry, ResultKind, ResumePlan } from "../../contracts/jobs.js";
import { jobKeys, rolloutId } from "../../contracts/messages.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import type { AggregateMetrics } from "../../protocol/index.js";
import { r2Store } from "../../storage/r2.js";
import type { ObjectStore } from "../../storage/store.js";
import { jobMetrics } from "./metrics.js";
import { JobTables } from "./tables.js";
import { browseResults, jobSummary } from "./views.js";

interface Meta {
  config: JobConfig;
  status: JobStatus;
  started: number;
  /** Results recorded so far, by kind: counted as they arrive, never by scanning. */
  done: number;
  failed: number;
  completed_at?: number;
}

const config = configCache(WriterVars, "writer");
const encoder = new TextEncoder();

export class Job extends DurableObject<WriterEnv> implements JobRpc {
  private readonly tables = new JobTables(this.ctx.storage.sql);
  private readonly store: ObjectStore = r2Store(this.env.BUCKET);
  /** record() calls run one after another: a batch's ids are checked and written as one step. */
  private tail: Promise<unknown> = Promise.resolve();

  private meta(): Meta | null {
    const meta = this.tables.meta<Meta>();
    if (meta && meta.done === undefined) Object.assign(meta, this.tables.counted()); // written before the counters existed
    return meta;
  }

  private async describe(meta: Meta): Promise<JobInfo> {
    const { config: job } = meta;
    const total = job.tasks.length * job.num_repeats;
    const { done, failed } = meta;
    const open = Math.max(0, total - done - failed);
    const running = meta.status === "running" ? Math.min(open, Math.max(0, meta.started - done - failed)) : 0;
    const info: JobInfo = {
      id: job.id,
      status: meta.status,
      ...(job.environment ? { environment: job.environment } : {}),
      num_repeats: job.num_repeats,
      tasks: job.tasks.length,
      counts: { total, queued: meta.status === "running" ? open - running : 0, running, done, failed },
      progress: total === 0 ? 1 : (done + failed) / total,
      created_at: job.created_at,
      ...(meta.completed_at ? { completed_at: meta.completed_at } : {}),
      elapsed_seconds: ((meta.completed_at ?? Date.now()) - job.created_at) / 1000,
      ...(job.skipped_lines?.length ? { skipped_lines: job.skipped_lines } : {}),
    };
    if (meta.status === "completed") {
      const stored = await this.store.get(jobKeys.metrics(job.id));
      if (stored) info.metrics = await stored.json<Record<string, AggregateMetrics>>();
    }
    return info;
  }

  async create(job: JobConfig): Promise<JobInfo> {
    const existing = this.meta();
    if (existing) return this.describe(existing);
    const meta: Meta = { config: job, status: job.tasks.length === 0 ? "completed" : "running", started: 0, done: 0, failed: 0 };
    this.tables.saveMeta(meta);
    return this.describe(meta);
  }

  async info(): Promise<JobInfo | null> {
    const meta = this.meta();
    return meta ? this.describe(meta) : null;
  }

  async started(count: number): Promise<{ numRepeats: number; model?: ModelChoice } | null> {
    const meta = this.meta();
    if (!meta || meta.status === "cancelled") return null;
    meta.started += count;
    this.tables.saveMeta(meta);
    return { numRepeats: meta.config.num_repeats, ...(meta.config.model ? { model: meta.config.model } : {}) };
  }

  record(entries: ResultEntry[]): Promise<{ written: number; duplicates: number }> {
    const run = this.tail.then(() => this.recordNow(entries));
    this.tail = run.catch(() => undefined); // the caller gets the error; the next record() must not inherit it
    return run;
  }

  private async recordNow(entries: ResultEntry[]): Promise<{ written: number; duplicates: number }> {
    const meta = this.meta();
    if (!meta) throw new Error("record() on a job that was never created");
    const known = this.tables.known(entries.map((e) => e.rollout_id));
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
      const lines = mine.map((e) => `${e.line}\n`);
      let offset = 0;
      const placed = mine.map((entry, i) => {
        const length = encoder.encode(lines[i]!).byteLength;
        const at = { entry, offset, length };
        offset += length;
        return at;
      });
      // The object is written before the ids are recorded: a crash in between leaves an unlisted object, never a lost result.
      await this.store.put(key, lines.join(""), { contentType: "application/x-ndjson" });
      this.ctx.storage.transactionSync(() => {
        this.tables.insert(key, placed);
        const latest = this.meta() ?? meta;
        if (kind === "rollout") latest.done += mine.length;
        else latest.failed += mine.length;
        this.tables.saveMeta(latest);
      });
    }
    const latest = this.meta() ?? meta;
    // Completion is off the write path: the metrics are computed by the alarm, streaming the results.
    if (latest.status === "running" && latest.done + latest.failed >= latest.config.tasks.length * latest.config.num_repeats) {
      await this.ctx.storage.setAlarm(Date.now());
    }
    return { written: fresh.length, duplicates: entries.length - fresh.length };
  }

  override async alarm(): Promise<void> {
    const meta = this.meta();
    if (meta?.status !== "running" || meta.done + meta.failed < meta.config.tasks.length * meta.config.num_repeats) return;
    const deployed = config(this.env).ENVIRONMENTS;
    const metrics = await jobMetrics(
      (environment) => environmentService(this.env, deployed, environment),
      this.tables.environments(),
      (environment, after) => this.tables.summaries(environment, after),
    );
    await this.store.put(jobKeys.metrics(meta.config.id), JSON.stringify(metrics), { contentType: "application/json" });
    const latest = this.meta() ?? meta;
    // A resume or cancel while the metrics were computed keeps its own status.
    if (latest.status !== "running") return;
    latest.status = "completed";
    latest.completed_at = Date.now();
    this.tables.saveMeta(latest);
  }

  async cancel(): Promise<JobInfo | null> {
    const meta = this.meta();
    if (!meta) return null;
    if (meta.status === "running") {
      meta.status = "cancelled";
      meta.completed_at = Date.now();
      this.tables.saveMeta(meta);
    }
    return this.describe(meta);
  }

  /** Every (task, repeat) without a scored rollout; failures are forgotten and tried again, as NeMo Gym retries them on resume. */
  async resume(): Promise<ResumePlan | null> {
    const meta = this.meta();
    if (!meta) return null;
    // Their lines stay in the failure objects, but only listed ids are ever read back: no stale failure reappears.
    this.tables.forgetFailures();
    const have = this.tables.rolloutIds();
    const missing: [number, number][] = [];
    for (const task of meta.config.tasks) {
      for (let repeat = 0; repeat < meta.config.num_repeats; repeat++) {
        // A job recorded before ids took NeMo Gym's form has `<job>:<task>:<repeat>` ones.
        if (!have.has(rolloutId(meta.config.id, task, repeat)) && !have.has(`${meta.config.id}:${task}:${repeat}`)) missing.push([task, repeat]);
      }
    }
    Object.assign(meta, this.tables.counted());
    if (missing.length > 0) {
      meta.status = "running";
      delete meta.completed_at;
      meta.started = meta.done + meta.failed;
    }
    this.tables.saveMeta(meta);
    return { info: await this.describe(meta), missing, tasks: meta.config.tasks };
  }

  async locations(kind: ResultKind, after?: [number, number], limit = 1000): Promise<LocationPage> {
    return this.tables.locations(kind, after ?? null, Math.min(Math.max(1, limit), 5000));
  }

  async summary(options?: SummaryOptions): Promise<JobSummary | null> {
    return this.meta() ? jobSummary(this.ctx.storage.sql, options) : null;
  }

  async browse(query: BrowseQuery): Promise<BrowsePage | null> {
    return this.meta() ? browseResults(this.ctx.storage.sql, query) : null;
  }
}
