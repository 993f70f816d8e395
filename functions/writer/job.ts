// One Durable Object per job: its counters, the set of finished rollout ids (exactly-once results), completion and metrics,
// and a stall watch on its alarm (a job that stops moving re-enqueues what is missing, then gives up on it as failures).
import { DurableObject } from "cloudflare:workers";
import type { WriterEnv } from "../../contracts/env.generated.js";
import { environmentService } from "../../contracts/environments.js";
import { abandonedRecord } from "../../contracts/failures.js";
import type { BrowsePage, BrowseQuery, JobSummary, SummaryOptions } from "../../contracts/job-views.js";
import type {
  Abandonment,
  GroupPage,
  GroupTake,
  JobConfig,
  JobInfo,
  JobRpc,
  JobWanted,
  LocationPage,
  ResultEntry,
  ResultKind,
  Resumed,
  ResumeOptions,
  RolloutScope,
} from "../../contracts/jobs.js";
import { jobKeys, rolloutId, type WorkMessage } from "../../contracts/messages.js";
import type { RpcResult } from "../../contracts/rpc.js";
import type { Logger } from "../../http/log.js";
import { scopePairs } from "../../ledger/expand.js";
import type { MessageQueue } from "../../queues/queue.js";
import type { ObjectStore } from "../../storage/store.js";
import { enqueueMissing } from "./enqueue.js";
import { GroupTables } from "./groups.js";
import { describeJob, type Meta } from "./info.js";
import { jobMetrics } from "./metrics.js";
import { writerPorts } from "./ports.js";
import { noteStall, stallMs, stallStep } from "./stall.js";
import { JobTables } from "./tables.js";
import { browseResults, jobSummary } from "./views.js";

const encoder = new TextEncoder();

export class Job extends DurableObject<WriterEnv> implements JobRpc {
  private readonly tables = new JobTables(this.ctx.storage.sql);
  /** The async feed: groups in the order they completed, and each cursor's place (functions/writer/groups.ts). */
  private readonly groups = new GroupTables(this.ctx.storage.sql);
  /** The writer Worker's ports (functions/writer/ports.ts), the same ones its results consumer uses. */
  private readonly ports = writerPorts(this.env);
  private readonly config = this.ports.config;
  private readonly store: ObjectStore = this.ports.store;
  private readonly log: Logger = this.ports.log;
  /** Where a resume or a heal re-enqueues what is missing. */
  private readonly rollouts: MessageQueue<WorkMessage> = this.ports.rollouts;
  /** record() calls run one after another: a batch's ids are checked and written as one step. */
  private tail: Promise<unknown> = Promise.resolve();

  private meta(): Meta | null {
    const meta = this.tables.meta<Meta>();
    if (meta && meta.done === undefined) Object.assign(meta, this.tables.counted()); // written before the counters existed
    return meta;
  }

  private total(meta: Meta): number {
    return meta.config.tasks.length * meta.config.num_repeats;
  }

  private describe(meta: Meta): Promise<JobInfo> {
    return describeJob(meta, this.tables, this.store, this.config);
  }

  /** The stall watch: the alarm comes back when the job would be stalled, unless a result moves it first. */
  private async watch(meta: Meta): Promise<void> {
    await this.ctx.storage.setAlarm((meta.progress_at ?? Date.now()) + stallMs(this.config));
  }

  async create(job: JobConfig): Promise<JobInfo> {
    const existing = this.meta();
    if (existing) return this.describe(existing);
    const meta: Meta = { config: job, status: job.tasks.length === 0 ? "completed" : "running", started: 0, done: 0, failed: 0, progress_at: Date.now() };
    this.tables.saveMeta(meta);
    if (meta.status === "running") await this.watch(meta);
    this.log.info("job created", { job_id: job.id, environment: job.environment, outcome: meta.status, rollouts: this.total(meta) });
    return this.describe(meta);
  }

  async info(): Promise<JobInfo | null> {
    const meta = this.meta();
    return meta ? this.describe(meta) : null;
  }

  async wanted(): Promise<JobWanted | null> {
    const meta = this.meta();
    if (!meta || meta.status === "cancelled") return null;
    return { numRepeats: meta.config.num_repeats, ...(meta.config.model ? { model: meta.config.model } : {}) };
  }

  async started(count: number): Promise<JobWanted | null> {
    const meta = this.meta();
    if (!meta || meta.status === "cancelled") return null;
    if (count > 0) {
      meta.started += count;
      this.tables.saveMeta(meta);
    }
    return this.wanted();
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
        this.groups.markComplete(
          mine.map((e) => e.task_index),
          meta.config.num_repeats,
        );
        const latest = this.meta() ?? meta;
        if (kind === "rollout") latest.done += mine.length;
        else latest.failed += mine.length;
        latest.progress_at = Date.now();
        this.tables.saveMeta(latest);
      });
    }
    const latest = this.meta() ?? meta;
    // Completion is off the write path: the metrics are computed by the alarm, streaming the results.
    if (latest.status === "running" && latest.done + latest.failed >= this.total(latest)) {
      await this.ctx.storage.setAlarm(Date.now());
    }
    return { written: fresh.length, duplicates: entries.length - fresh.length };
  }

  override async alarm(): Promise<void> {
    const meta = this.meta();
    if (meta?.status !== "running") return;
    if (meta.done + meta.failed < this.total(meta)) return this.checkStall(meta);
    const deployed = this.config.ENVIRONMENTS;
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
    const elapsed = latest.completed_at - latest.config.created_at;
    this.log.info("job completed", { job_id: latest.config.id, outcome: "completed", done: latest.done, failed: latest.failed, duration_ms: elapsed });
  }

  /** Every (task, repeat) of the job without any record (or, with "rollout", without a scored rollout: failures count as missing). */
  private missing(meta: Meta, kind?: ResultKind): [number, number][] {
    const have = this.tables.rolloutIds(kind);
    const missing: [number, number][] = [];
    for (const task of meta.config.tasks) {
      for (let repeat = 0; repeat < meta.config.num_repeats; repeat++) {
        // A job recorded before ids took NeMo Gym's form has `<job>:<task>:<repeat>` ones.
        if (!have.has(rolloutId(meta.config.id, task, repeat)) && !have.has(`${meta.config.id}:${task}:${repeat}`)) missing.push([task, repeat]);
      }
    }
    return missing;
  }

  private async checkStall(meta: Meta): Promise<void> {
    const step = stallStep(meta, meta.config.created_at, this.config);
    if (step.kind === "wait") {
      await this.ctx.storage.setAlarm(step.until);
      return;
    }
    const missing = this.missing(meta);
    const fields = { job_id: meta.config.id, environment: meta.config.environment, missing: missing.length, heals: meta.heals ?? 0 };
    if (step.kind === "give_up") {
      this.log.error("job stalled and its heals are spent: what is missing becomes dead_letter failures", { ...fields, outcome: "gave_up" });
      noteStall(meta, { at: Date.now(), missing: missing.length, action: "gave_up" });
      this.tables.saveMeta(meta);
      await this.abandon({ pairs: missing }, { failure_class: "dead_letter", message: `no result after ${meta.heals ?? 0} heal(s) of the stalled job` });
      return;
    }
    // Re-enqueued as the job's next attempt; rollout ids are deterministic, so a late original answer is a harmless duplicate.
    const heals = (meta.heals ?? 0) + 1;
    await enqueueMissing(this.rollouts, meta.config, missing, heals + 1);
    const latest = this.meta() ?? meta;
    latest.heals = heals;
    noteStall(latest, { at: Date.now(), missing: missing.length, action: "healed" });
    latest.progress_at = Date.now();
    latest.started = latest.done + latest.failed;
    this.tables.saveMeta(latest);
    this.log.warn("job stalled: re-enqueued what is missing", { ...fields, heals, outcome: "healed" });
    await this.watch(latest);
  }

  async abandon(scope: RolloutScope, failure: Abandonment): Promise<{ written: number }> {
    const meta = this.meta();
    if (!meta) return { written: 0 };
    const environment = meta.config.environment ?? "unknown";
    const entries = scopePairs(meta.config, scope).map(([task, repeat]): ResultEntry => {
      const id = rolloutId(meta.config.id, task, repeat);
      const { record, summary } = abandonedRecord({ job_id: meta.config.id, task_index: task, rollout_index: repeat, rollout_id: id, environment }, failure);
      return { rollout_id: id, kind: "failure", task_index: task, rollout_index: repeat, environment, line: JSON.stringify(record), summary };
    });
    const { written } = await this.record(entries);
    if (written > 0) this.log.warn("rollouts recorded as failures by the Job object", { job_id: meta.config.id, outcome: failure.failure_class, written });
    return { written };
  }

  async cancel(): Promise<JobInfo | null> {
    const meta = this.meta();
    if (!meta) return null;
    if (meta.status === "running") {
      meta.status = "cancelled";
      meta.completed_at = Date.now();
      this.tables.saveMeta(meta);
      this.log.info("job cancelled", { job_id: meta.config.id, outcome: "cancelled" });
    }
    return this.describe(meta);
  }

  /**
   * Every (task, repeat) without a scored rollout is enqueued again; failures are forgotten and tried again, as NeMo Gym
   * retries them on resume. With onlyMissing (crash recovery), only those without any record: a failure stays what it was.
   * The messages go out first and the job changes only once they are sent: a resume that fails leaves it as it was.
   */
  async resume(options: ResumeOptions = {}): Promise<RpcResult<Resumed> | null> {
    // Nothing else reaches the object meanwhile: no agent is told "cancelled" for a message this resume just sent, and no
    // result lands between the send and the forgetting of the failures it reruns (a thrown error would reset the object:
    // resumeNow answers every failure as data).
    return this.ctx.blockConcurrencyWhile(() => this.resumeNow(options));
  }

  private async resumeNow(options: ResumeOptions): Promise<RpcResult<Resumed> | null> {
    const meta = this.meta();
    if (!meta) return null;
    const id = meta.config.id;
    const rerunFailures = !options.onlyMissing;
    const missing = this.missing(meta, rerunFailures ? "rollout" : undefined);
    let messages = 0;
    try {
      if (missing.length > 0) messages = await enqueueMissing(this.rollouts, meta.config, missing, 2);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error("job resume failed: the job is left as it was", { job_id: id, outcome: "resume_failed", missing: missing.length, error });
      const { status, counts } = await this.describe(meta);
      const message = `job ${id} could not be resumed (enqueueing its ${missing.length} missing rollouts failed: ${reason}); it is unchanged: ${status}, ${counts.done} done, ${counts.failed} failed`;
      return { ok: false, error: { status: 503, code: "resume_failed", message } };
    }
    const latest = this.meta() ?? meta;
    this.ctx.storage.transactionSync(() => {
      // Their lines stay in the failure objects, but only listed ids are ever read back: no stale failure reappears.
      if (rerunFailures) this.tables.forgetFailures();
      Object.assign(latest, this.tables.counted());
      if (missing.length > 0) {
        latest.status = "running";
        delete latest.completed_at;
        latest.started = latest.done + latest.failed;
        latest.progress_at = Date.now();
      }
      this.tables.saveMeta(latest);
    });
    if (missing.length > 0) await this.watch(latest);
    this.log.info("job resumed", { job_id: id, outcome: options.onlyMissing ? "only_missing" : "resume", missing: missing.length, messages });
    return { ok: true, value: { info: await this.describe(latest), resumed: missing.length } };
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

  async takeGroups(take: GroupTake): Promise<GroupPage | null> {
    const meta = this.meta();
    if (!meta) return null;
    const { config } = meta;
    const job = { numRepeats: config.num_repeats, tasks: config.tasks.length, status: meta.status };
    return this.ctx.storage.transactionSync(() =>
      this.groups.take(take, config.policy_version === undefined ? job : { ...job, policyVersion: config.policy_version }),
    );
  }
}
