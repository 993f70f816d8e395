// Starts the ledger harness Worker (tests/ledger/harness-worker.ts) in workerd through Miniflare, and calls either ledger.
import path from "node:path";
import { Miniflare } from "miniflare";
import type { JobInfo, ResultEntry } from "../../contracts/jobs.js";
import type { WorkMessage } from "../../contracts/messages.js";
import { rolloutId } from "../../contracts/messages.js";
import { COMPATIBILITY_DATE } from "../../infra/topology.js";
import { bundleWorker } from "../../local/build.js";
import { PROJECT_ROOT } from "../../local/paths.js";

export type Which = "object" | "bucket";
export const LEDGERS: Which[] = ["object", "bucket"];
export const ENV = "example_single_tool_call";

export interface Harness {
  call<T>(ledger: Which, method: string, ...args: unknown[]): Promise<T>;
  /** A job of these JSONL lines through the row-ingest: status and body (the info, or the error envelope). */
  create(ledger: Which, lines: string[], options?: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A tenant's owner index: its job ids (newest first) and what it has unfinished. */
  owners(ledger: Which, owner: string): Promise<{ ids: string[]; open: { jobs: number; rollouts: number } }>;
  /** Expand messages of one job delivered on the rollouts queue since the last read: waits for at least `count`. */
  sent(jobId: string, count?: number): Promise<WorkMessage[]>;
  stop(): Promise<void>;
}

export async function startHarness(vars: Record<string, string> = {}): Promise<Harness> {
  const bundle = await bundleWorker("ledger-harness", { entryPoints: [path.join(PROJECT_ROOT, "tests", "ledger", "harness-worker.ts")] });
  const mf = new Miniflare({
    modules: [{ type: "ESModule", path: bundle.path, contents: bundle.contents }],
    modulesRoot: PROJECT_ROOT,
    compatibilityDate: COMPATIBILITY_DATE,
    bindings: { ENVIRONMENTS: "", LOG_LEVEL: "silent", ...vars },
    durableObjects: { JOBS: { className: "Job", useSQLite: true } },
    r2Buckets: ["BUCKET", "LEDGER_BUCKET"],
    queueProducers: { ROLLOUTS: "rollouts" },
    queueConsumers: { rollouts: { maxBatchSize: 100, maxBatchTimeout: 0.05 } },
  });
  const url = await mf.ready;
  const kept = new Map<string, WorkMessage[]>();
  return {
    async call<T>(ledger: Which, method: string, ...args: unknown[]): Promise<T> {
      const response = await fetch(url, { method: "POST", body: JSON.stringify({ ledger, method, args }) });
      const answer = (await response.json()) as { value?: T; error?: string };
      if (answer.error !== undefined) throw new Error(`${ledger}.${method}: ${answer.error}`);
      return answer.value as T;
    },
    async create(ledger, lines, options = {}) {
      const body = { ledger, lines, options: { environment: ENV, environments: [ENV], num_repeats: 1, ...options } };
      const response = await fetch(new URL("/create", url), { method: "POST", body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async owners(ledger, owner) {
      const response = await fetch(new URL("/owners", url), { method: "POST", body: JSON.stringify({ ledger, owner }) });
      return (await response.json()) as { ids: string[]; open: { jobs: number; rollouts: number } };
    },
    async sent(jobId, count = 1) {
      // Delivery takes a batch timeout: read until the count is in, then once more for any beyond it.
      const deadline = Date.now() + 5_000;
      for (let settled = false; ; ) {
        for (const message of (await (await fetch(new URL("/sent", url))).json()) as WorkMessage[]) {
          kept.set(message.job_id, [...(kept.get(message.job_id) ?? []), message]);
        }
        if (settled || Date.now() > deadline) break;
        if ((kept.get(jobId)?.length ?? 0) >= count) settled = true;
        await new Promise((resolve) => setTimeout(resolve, settled ? 300 : 25));
      }
      const mine = kept.get(jobId) ?? [];
      kept.delete(jobId);
      return mine;
    },
    stop: () => mf.dispose(),
  };
}

/** A result as an agent sends it: a scored rollout (with its reward) or a failure record. */
export function entry(jobId: string, task: number, repeat: number, kind: "rollout" | "failure", reward = 1): ResultEntry {
  const id = rolloutId(jobId, task, repeat);
  const line =
    kind === "rollout"
      ? { _ng_task_index: task, _ng_rollout_index: repeat, _ng_rollout_id: id, reward }
      : { _ng_task_index: task, _ng_rollout_index: repeat, _ng_rollout_id: id, failure_class: "model_error", message: "down" };
  return {
    rollout_id: id,
    kind,
    task_index: task,
    rollout_index: repeat,
    environment: ENV,
    line: JSON.stringify(line),
    summary: kind === "rollout" ? { reward, _ng_task_index: task, _ng_rollout_index: repeat } : {},
  };
}

/** Waits for a job's status to become `status` (the Job object completes a job on its alarm, just after the last result). */
export async function until(h: Harness, ledger: Which, id: string, status: JobInfo["status"], ms = 10_000): Promise<JobInfo> {
  const deadline = Date.now() + ms;
  for (;;) {
    const info = await h.call<JobInfo>(ledger, "info", id);
    if (info.status === status || Date.now() > deadline) return info;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
