// The rollout runner: a Durable Object the queue consumer hands rollouts to. A queue batch holds its invocation until
// its slowest rollout ends, and a local queue delivers one batch at a time, so a consumer that runs its batches itself
// has at most a batch in flight whatever the model's latency. Here the rollouts of many batches run side by side, as
// many as the window allows (functions/agent/window.ts: it follows the model's latency), each stored until it ends.
//
// Durability: an item is written to SQLite before accept() answers (so the consumer may ack its message) and deleted
// once its result (or failure record) is on the `results` queue. A runner that restarts runs what it finds again; a
// rollout run twice is recorded once (the Job object keeps each rollout id once). An alarm every minute while items
// remain wakes a runner that was evicted with work stored.
import { DurableObject } from "cloudflare:workers";
import type { AgentEnv } from "../../contracts/env.generated.js";
import { rolloutId } from "../../contracts/messages.js";
import type { RunnerItem, RunnerRpc, RunnerStats } from "../../contracts/runner.js";
import { batchedQueue } from "./batched-queue.js";
import { chunkReader } from "./chunks.js";
import { type AgentPorts, cloudflarePorts } from "./ports.js";
import { settleRollout } from "./settle.js";
import { ConcurrencyWindow, WINDOW_DEFAULTS } from "./window.js";

/** How often the window is adjusted and finished items are deleted (one commit per tick, not one per rollout). */
const TICK_MS = 250;
const WATCHDOG_MS = 60_000;
/**
 * How long a job's "still wanted" answer is trusted before its Job object is asked again. A cancel through the gateway
 * reaches the runners at once (drop()); this bounds how long one that did not (its call failed) goes on starting rollouts.
 */
const JOB_CHECK_MS = 250;
/** Inputs chunks kept in memory for rollouts whose rows travel by chunk key. */
const CHUNKS_KEPT = 64;
const RESULTS_FLUSH_MS = 25;
/** Rollouts in flight in one runner at most, below workerd's 10,000 active timers per object. */
const MAX_PER_SHARD = 8_000;

export class RolloutRunner extends DurableObject<AgentEnv> implements RunnerRpc {
  private readonly sql = this.ctx.storage.sql;
  private readonly ports: AgentPorts;
  private readonly window: ConcurrencyWindow;
  private readonly readChunk;
  /** Accepted and ready to start, oldest first. */
  private readonly ready: RunnerItem[] = [];
  /** Every item this runner holds (ready, running or waiting out a retry's delay), by rollout id. */
  private readonly held = new Map<string, RunnerItem>();
  private running = 0;
  private peakRunning = 0;
  private finishedCount = 0;
  /** Ids whose rows go at the next tick. */
  private finished: string[] = [];
  /** accept() calls waiting for room. */
  private readonly roomWaiters: (() => void)[] = [];
  /** Each job's answer to "still wanted?", and when it was asked. */
  private readonly jobs = new Map<string, { at: number; live: Promise<boolean> }>();
  private ticking = false;
  private lastTick = 0;

  constructor(ctx: DurableObjectState, env: AgentEnv) {
    super(ctx, env);
    // The agent Worker's ports, wired once (functions/agent/ports.ts); the runner only batches its results' sends.
    const base = cloudflarePorts(env);
    const parsed = base.config;
    const shards = Math.max(1, parsed.RUNNER_SHARDS);
    // Each rollout in flight holds a timer here (its call's bound): workerd allows 10,000 active timers per object.
    const max = Math.min(MAX_PER_SHARD, Math.ceil(parsed.RUNNER_MAX_IN_FLIGHT / shards));
    this.window = new ConcurrencyWindow({ max, min: Math.min(WINDOW_DEFAULTS.min, max), initial: Math.min(WINDOW_DEFAULTS.initial, max) });
    // Results leave in batches: one request to the queue per 25 ms (or per 100 results), not one per rollout. The local
    // queue sets a timer per message it takes in, and one request per result at hundreds a second passed its 10,000.
    this.ports = { ...base, results: "send" in base.results ? batchedQueue(base.results, RESULTS_FLUSH_MS) : base.results };
    this.readChunk = chunkReader(base, CHUNKS_KEPT);
    this.sql.exec("CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY, item TEXT NOT NULL)");
    // Whatever a previous life of this runner left is run again.
    for (const { item } of this.sql.exec<{ item: string }>("SELECT item FROM items").toArray()) this.hold(JSON.parse(item) as RunnerItem);
    if (this.held.size > 0) this.pump();
  }

  /** Room for more: the items waiting to start stay under a window's worth (at least one queue batch). */
  private hasRoom(): boolean {
    return this.ready.length < Math.max(100, this.window.limit);
  }

  async accept(items: RunnerItem[]): Promise<{ accepted: number }> {
    while (!this.hasRoom()) await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    // What this runner last heard of these jobs is asked again before their next rollout starts: a job cancelled, then
    // resumed, hands its rollouts over again (they must run), while a slice that waited for room may be a cancelled job's
    // (the consumer's check came before the wait; they must not).
    for (const item of items) this.jobs.delete(item.message.job_id);
    const fresh = items.filter((item) => !this.held.has(idOf(item)));
    if (fresh.length > 0 && this.finished.length > 0) {
      // Finished since the last tick and handed over again (a heal, a resume): its stored row must outlive the pending delete.
      const again = new Set(fresh.map(idOf));
      this.finished = this.finished.filter((id) => !again.has(id));
    }
    if (fresh.length > 0) {
      this.ctx.storage.transactionSync(() => {
        for (const item of fresh) this.sql.exec("INSERT OR REPLACE INTO items (id, item) VALUES (?, ?)", idOf(item), JSON.stringify(item));
      });
      for (const item of fresh) this.hold(item);
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + WATCHDOG_MS);
      this.pump();
    }
    return { accepted: items.length };
  }

  async drop(jobId: string): Promise<{ dropped: number }> {
    this.jobs.set(jobId, { at: Date.now(), live: Promise.resolve(false) });
    const dropped: string[] = [];
    for (let i = this.ready.length - 1; i >= 0; i--) {
      const item = this.ready[i]!;
      if (item.message.job_id !== jobId) continue;
      this.ready.splice(i, 1);
      const id = idOf(item);
      this.held.delete(id);
      dropped.push(id);
    }
    // Their rows go with the next tick's delete (and stay if a resume hands them over first, as a finished one's do).
    this.finished.push(...dropped);
    this.pump();
    return { dropped: dropped.length };
  }

  async stats(): Promise<RunnerStats> {
    return {
      running: this.running,
      peakRunning: this.peakRunning,
      waiting: this.held.size - this.running,
      limit: this.window.limit,
      finished: this.finishedCount,
    };
  }

  override async alarm(): Promise<void> {
    // The constructor has reloaded and restarted any stored items; the alarm only keeps coming while some remain.
    this.flushFinished();
    if (this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM items").one().n > 0) await this.ctx.storage.setAlarm(Date.now() + WATCHDOG_MS);
  }

  private hold(item: RunnerItem): void {
    this.held.set(idOf(item), item);
    this.ready.push(item);
  }

  /** Starts ready items while the window has room, and keeps the control loop ticking while there is work. */
  private pump(): void {
    while (this.running < this.window.limit && this.ready.length > 0) {
      const item = this.ready.shift()!;
      this.running++;
      this.peakRunning = Math.max(this.peakRunning, this.running);
      void this.run(item);
    }
    if (this.hasRoom()) for (const wake of this.roomWaiters.splice(0)) wake();
    if (!this.ticking && this.held.size > 0) {
      this.ticking = true;
      this.lastTick = Date.now();
      setTimeout(() => this.tick(), TICK_MS);
    }
  }

  /** Whether a job still wants its rollouts run (not cancelled), asked of its Job object at most once a second per job. */
  private live(jobId: string): Promise<boolean> {
    const known = this.jobs.get(jobId);
    if (known && Date.now() - known.at < JOB_CHECK_MS) return known.live;
    const live = this.ports
      .job(jobId)
      .wanted()
      .then(
        (wanted) => wanted !== null,
        // Not known: the rollout runs (its result is recorded once, or dropped by a cancelled job's Job object).
        () => true,
      );
    this.jobs.set(jobId, { at: Date.now(), live });
    if (this.jobs.size > 1_000) this.jobs.delete(this.jobs.keys().next().value!);
    return live;
  }

  private async run(item: RunnerItem): Promise<void> {
    let settled: Awaited<ReturnType<typeof settleRollout>>;
    try {
      // A cancelled job's rollouts are dropped here, as the queue consumer drops its queued messages.
      settled = (await this.live(item.message.job_id))
        ? await settleRollout(this.ports, item.message, item.attempts, this.readChunk, item.model)
        : { kind: "done" };
    } catch {
      // settleRollout turns every failure into a record or a retry; anything else (a bug) retries, never loses the rollout.
      settled = { kind: "retry", delaySeconds: 1 };
    }
    // Its runs are spent and its result still could not be sent: the Job object records it as a dead_letter failure (as
    // the dead-letter queue does for a message the queue gave up on), so the job completes. If even that fails, it waits on.
    if (settled.kind === "retry" && item.attempts >= this.ports.config.MAX_ATTEMPTS && (await this.giveUp(item))) settled = { kind: "done" };
    this.running--;
    const id = idOf(item);
    if (settled.kind === "done") {
      this.held.delete(id);
      this.finished.push(id);
      this.finishedCount++;
    } else {
      const next = { ...item, attempts: item.attempts + 1 };
      this.held.set(id, next);
      this.sql.exec("UPDATE items SET item = ? WHERE id = ?", JSON.stringify(next), id);
      setTimeout(() => {
        this.ready.push(next);
        this.pump();
      }, settled.delaySeconds * 1000);
    }
    this.pump();
  }

  private async giveUp(item: RunnerItem): Promise<boolean> {
    const { job_id, task_index, rollout_index } = item.message;
    const message = `the rollout ran ${item.attempts} times in its runner and its result could not be sent`;
    try {
      await this.ports.job(job_id).abandon({ pairs: [[task_index, rollout_index]] }, { failure_class: "dead_letter", message });
      this.ports.log?.error("a rollout's runs are spent; recorded as a dead_letter failure", { job_id, rollout_id: idOf(item), outcome: "dead_letter" });
      return true;
    } catch (error) {
      this.ports.log?.error("a spent rollout could not be recorded as a failure; it runs again later", { job_id, rollout_id: idOf(item), error });
      return false;
    }
  }

  /** The control loop: the window follows the event loop's lag, finished rows are deleted in one commit. */
  private tick(): void {
    const now = Date.now();
    const lag = Math.max(0, now - this.lastTick - TICK_MS);
    this.lastTick = now;
    this.window.observe(lag, this.running);
    this.flushFinished();
    this.ticking = false;
    this.pump();
  }

  private flushFinished(): void {
    if (this.finished.length === 0) return;
    const ids = this.finished;
    this.finished = [];
    this.sql.exec("DELETE FROM items WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
  }
}

function idOf(item: RunnerItem): string {
  return rolloutId(item.message.job_id, item.message.task_index, item.message.rollout_index);
}
