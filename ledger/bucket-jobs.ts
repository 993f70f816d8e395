// Jobs kept in a bucket alone (S3, R2's S3 API): what the Job Durable Object does on Cloudflare, by deterministic keys,
// conditional writes and listing. The AWS path's agents record results here; the CLI reads status and results from here.
import pLimit from "p-limit";
import { z } from "zod";
import { countedClass, emptyFailureCounts, type FailureCounts } from "../contracts/failures.js";
import { CHUNK_ROWS, type JobInfo, type JobLedger, type JobWanted } from "../contracts/jobs.js";
import { decodeResult, encodeResult, type ResultHeader, type WorkMessage } from "../contracts/messages.js";
import type { AggregateMetrics } from "../protocol/index.js";
import { ENVELOPE_BYTES, type MessageQueue } from "../queues/queue.js";
import type { ObjectStore } from "../storage/store.js";
import { abandonedResults } from "./abandon.js";
import { chunkExpandMessages } from "./expand.js";
import { ledgerKeys } from "./keys.js";
import { type BucketJobManifest, type Manifest, readManifest } from "./manifest.js";
import { indexOwner } from "./owners.js";
import { assemble, counts, linesByTask, listResults } from "./records.js";
import { Completed, countKeys, exists, finishJob, readJson, type SealOptions, sealChunk } from "./seal.js";

/** metrics.json as the Cloudflare writer writes it: per environment, NeMo Gym's aggregate metrics. */
const MetricsFile = z.record(
  z.string(),
  z.custom<AggregateMetrics>((value) => typeof value === "object" && value !== null),
);

/** The bucket's ledger: the contract's calls, plus what only the CLI and the tests ask of a bucket. */
export interface BucketJobs extends JobLedger {
  /** The job's status, counted from its objects; with `finish`, a job whose results are all in is completed first if no agent did. */
  info(id: string, options?: { finish?: boolean }): Promise<JobInfo | null>;
  /** Records a result in its wire form (contracts/messages.ts): written once per (task, repeat) and kind, whoever sends it again. */
  recordText(text: string): Promise<{ written: boolean }>;
}

export interface BucketJobsOptions extends SealOptions {
  /** Where a resume sends the expand messages of what is missing (only `resume` needs it). */
  rollouts?: () => MessageQueue<WorkMessage>;
}

function describe(manifest: Manifest, status: JobInfo["status"], done: number, failed: number, completed?: Completed): JobInfo {
  const completedAt = completed?.completed_at;
  const open = Math.max(0, manifest.total - done - failed);
  return {
    id: manifest.id,
    status,
    ...(manifest.owner ? { owner: manifest.owner } : {}),
    ...(manifest.environment ? { environment: manifest.environment } : {}),
    num_repeats: manifest.num_repeats,
    tasks: manifest.tasks.length,
    // Nothing counts the rollouts being run on this path (no object sees every start): the open ones are "queued".
    // Failures by class are counted when the job completes (from its chunks' seals): until then only their number is known.
    counts: {
      total: manifest.total,
      queued: status === "running" ? open : 0,
      running: 0,
      done,
      failed,
      ...(completed?.failed_by_class ? { failed_by_class: completedClasses(completed.failed_by_class) } : {}),
    },
    progress: manifest.total === 0 ? 1 : (done + failed) / manifest.total,
    created_at: manifest.created_at,
    ...(completedAt ? { completed_at: completedAt } : {}),
    elapsed_seconds: ((completedAt ?? Date.now()) - manifest.created_at) / 1000,
    ...(manifest.skipped_lines?.length ? { skipped_lines: manifest.skipped_lines } : {}),
  };
}

/** A completion marker's counts by class, every class present. */
function completedClasses(byClass: Record<string, number>): FailureCounts {
  const counts = emptyFailureCounts();
  for (const [name, count] of Object.entries(byClass)) counts[countedClass(name)] += count;
  return counts;
}

export function bucketJobs(store: ObjectStore, options: BucketJobsOptions = {}): BucketJobs {
  /** Seals every complete chunk not sealed yet and finishes the job; true once it is completed. */
  async function finish(manifest: Manifest): Promise<boolean> {
    for (let chunk = 0; chunk < manifest.chunks; chunk++) {
      if (!(await exists(store, ledgerKeys.seal(manifest.id, chunk)))) await sealChunk(store, manifest, chunk);
    }
    return finishJob(store, manifest, options);
  }

  async function info(id: string, { finish: finishing = false } = {}): Promise<JobInfo | null> {
    const manifest = await readManifest(store, id);
    if (!manifest) return null;
    let completed = await readJson(store, ledgerKeys.completed(id), Completed);
    const cancelled = !completed && (await exists(store, ledgerKeys.cancelled(id)));
    if (!completed) {
      const { done, failed } = counts((await listResults(store, manifest)).values());
      const all = done + failed >= manifest.total;
      if (!all || !finishing || cancelled || !(await finish(manifest))) return describe(manifest, cancelled ? "cancelled" : "running", done, failed);
      completed = await readJson(store, ledgerKeys.completed(id), Completed);
      if (!completed) return describe(manifest, "running", done, failed);
    }
    const metrics = await readJson(store, ledgerKeys.metrics(id), MetricsFile);
    return { ...describe(manifest, "completed", completed.done, completed.failed, completed), ...(metrics ? { metrics } : {}) };
  }

  /** Records a result in its wire form: once per (task, repeat) and kind; the write that completes a task, chunk or job finishes it. */
  function recordText(text: string): Promise<{ written: boolean }> {
    const { header, line } = decodeResult(text);
    return recordOne(header, line);
  }

  async function recordOne(header: ResultHeader, line: string | undefined): Promise<{ written: boolean }> {
    const manifest = await readManifest(store, header.job_id);
    const chunk = manifest?.chunkOf(header.task_index);
    // A result for a job (or task) this bucket does not have can never complete anything: it is dropped, not retried.
    if (!manifest || chunk === undefined || header.rollout_index >= manifest.num_repeats) return { written: false };
    let recorded = line;
    if (recorded === undefined && header.line_key) recorded = await (await store.get(header.line_key))?.text();
    if (recorded === undefined) throw new Error(`result ${header.rollout_id} carries no record`);
    const { line_key: _pointer, ...own } = header;
    // The record object is self-contained: header and line, whatever way the line travelled.
    const key = ledgerKeys.record(manifest.id, chunk, header.kind, header.task_index, header.rollout_index);
    const written = await store.put(key, encodeResult({ header: own, line: recorded }), { contentType: "text/plain", onlyIfAbsent: true });
    // Whether this write won or lost, its task, chunk and job may now be complete (a redelivery after a crash finishes
    // what it began). A writer lists only its task's few results; the last of a task marks it, the last of a chunk's
    // tasks seals the chunk: no write lists more than a task, except the one that completes a chunk.
    const task = header.task_index;
    if ((await listResults(store, manifest, { chunk, task })).size < manifest.num_repeats) return { written };
    await store.put(ledgerKeys.taskDone(manifest.id, chunk, task), "", { contentType: "text/plain" });
    if ((await countKeys(store, ledgerKeys.tasksDone(manifest.id, chunk))) < manifest.tasksOf(chunk).length) return { written };
    const sealed = await exists(store, ledgerKeys.seal(manifest.id, chunk));
    if (!sealed || written) {
      if (await sealChunk(store, manifest, chunk)) await finishJob(store, manifest, options, sealed);
    } else await finishJob(store, manifest, options);
    return { written };
  }

  async function wanted(id: string): Promise<JobWanted | null> {
    const manifest = await readManifest(store, id);
    if (!manifest || (await exists(store, ledgerKeys.cancelled(id)))) return null;
    return { numRepeats: manifest.num_repeats, ...(manifest.model ? { model: manifest.model } : {}) };
  }

  return {
    async create(config) {
      const manifest: BucketJobManifest = { ...config, chunk_rows: CHUNK_ROWS };
      // The owner's index first: a job its tenant can list is never missing from its index.
      await indexOwner(store, config);
      await store.put(ledgerKeys.manifest(manifest.id), JSON.stringify(manifest), { contentType: "application/json", onlyIfAbsent: true });
      return (await info(manifest.id))!;
    },

    info,
    wanted,
    // No object sees every start on this path: running rollouts are not counted (README, "Jobs on AWS").
    started: (id) => wanted(id),
    recordText,

    async record(id, entries) {
      let written = 0;
      // One at a time: each write may complete a task or a chunk, which the next one's listing then sees.
      for (const { line, ...entry } of entries) if ((await recordOne({ job_id: id, ...entry }, line)).written) written++;
      return { written, duplicates: entries.length - written };
    },

    async abandon(id, scope, failure) {
      const manifest = await readManifest(store, id);
      if (!manifest) return { written: 0 };
      const results = abandonedResults(manifest, scope, failure, await listResults(store, manifest));
      let written = 0;
      // One at a time: each write may complete a task or a chunk, which the next one's listing then sees.
      for (const { header, line } of results) if ((await recordOne(header, line)).written) written++;
      return { written };
    },

    async cancel(id) {
      const manifest = await readManifest(store, id);
      if (!manifest) return null;
      if (!(await exists(store, ledgerKeys.completed(id)))) await store.put(ledgerKeys.cancelled(id), "", { contentType: "text/plain" });
      return info(id);
    },

    async resume(id, { onlyMissing = false } = {}) {
      const manifest = await readManifest(store, id);
      if (!manifest) return null;
      const kept = await listResults(store, manifest);
      const missing = new Map<number, [number, number][]>();
      for (const [task, chunk] of manifest.tasks.map((t) => [t, manifest.chunkOf(t)!] as const)) {
        for (let repeat = 0; repeat < manifest.num_repeats; repeat++) {
          const have = kept.get(`${task}:${repeat}`);
          if (have && (onlyMissing || have.kind === "rollout")) continue;
          const pairs = missing.get(chunk) ?? [];
          pairs.push([task, repeat]);
          missing.set(chunk, pairs);
        }
      }
      // With onlyMissing a failure stays what it was; otherwise it is forgotten and run again (as NeMo Gym's resume does).
      const failures = onlyMissing ? [] : [...kept.values()].flatMap((k) => [...(k.kind === "failure" ? [k.key] : []), ...(k.shadowed ? [k.shadowed] : [])]);
      const resumed = [...missing.values()].reduce((n, pairs) => n + pairs.length, 0);
      if (resumed === 0) return { ok: true, value: { info: (await info(id, { finish: true }))!, resumed } };
      const refused = (reason: string) => ({
        ok: false as const,
        error: { status: 503, code: "resume_failed", message: `job ${id} could not be resumed (${resumed} missing rollouts: ${reason}); it is unchanged` },
      });
      const queue = options.rollouts?.();
      if (!queue) return refused("no rollouts queue to send them on");
      // However many are missing, each message fits the queue: a chunk wanted whole is one message, a long list is split.
      const room = queue.limits.maxMessageBytes - ENVELOPE_BYTES;
      const messages = [...missing].flatMap(([chunk, only]) =>
        chunkExpandMessages(
          { kind: "expand", job_id: id, chunk_key: manifest.chunk_keys[chunk]!, attempt: 2 },
          only,
          manifest.tasksOf(chunk).length * manifest.num_repeats,
          room,
        ),
      );
      // The failures to run again are kept aside: a send that fails puts them back, and the job is as it was.
      const limit = pLimit(16);
      const saved = new Map<string, string>();
      await Promise.all(
        failures.map((key) =>
          limit(async () => {
            const object = await store.get(key);
            if (object) saved.set(key, await object.text());
          }),
        ),
      );
      const wasCancelled = await exists(store, ledgerKeys.cancelled(id));
      // Completion markers first: from here on the job reads as running, and the chunks re-seal as their results land.
      await store.delete([
        ledgerKeys.completed(id),
        ledgerKeys.metrics(id),
        ledgerKeys.cancelled(id),
        ...[...missing.keys()].map((c) => ledgerKeys.seal(id, c)),
      ]);
      await store.delete(failures);
      try {
        await queue.sendBatch(messages.map((body) => ({ body })));
      } catch (error) {
        await Promise.all([...saved].map(([key, text]) => limit(() => store.put(key, text, { contentType: "text/plain", onlyIfAbsent: true }))));
        if (wasCancelled) await store.put(ledgerKeys.cancelled(id), "", { contentType: "text/plain" });
        else await info(id, { finish: true }); // seals and completes again what was complete
        return refused(error instanceof Error ? error.message : String(error));
      }
      return { ok: true, value: { info: (await info(id))!, resumed } };
    },

    async *lines(id, kind) {
      const manifest = await readManifest(store, id);
      if (!manifest) return;
      // Lines come in task-index order: chunk by chunk when the rows' task indices ascend (always, unless rows bring their own).
      if (manifest.tasks.some((task, i) => i > 0 && task < manifest.tasks[i - 1]!)) {
        yield* linesByTask(store, manifest, kind);
        return;
      }
      for (let chunk = 0; chunk < manifest.chunks; chunk++) {
        if (await exists(store, ledgerKeys.seal(id, chunk))) {
          const object = await store.get(ledgerKeys.assembled(id, kind, chunk));
          if (object) {
            const text = await object.text();
            if (text) yield text;
            continue;
          }
        }
        const assembled = await assemble(store, manifest, chunk, await listResults(store, manifest, { chunk }));
        const lines = kind === "rollout" ? assembled.rollouts : assembled.failures;
        if (lines.length) yield lines.map((line) => `${line}\n`).join("");
      }
    },
  };
}
