// A chunk's results read back from their objects: which (task, repeat) has what, and the chunk assembled in order.
import pLimit from "p-limit";
import { countedClass, emptyFailureCounts, type FailureCounts } from "../contracts/failures.js";
import type { ResultKind } from "../contracts/jobs.js";
import { decodeResult, type ResultHeader } from "../contracts/messages.js";
import { listAll, type ObjectStore } from "../storage/store.js";
import { ledgerKeys, parseRecordKey } from "./keys.js";
import type { Manifest } from "./manifest.js";

/** GETs in flight while a chunk is assembled. */
const READS = 16;

/** The result kept for one (task, repeat): a scored rollout wins over a failure (a rollout key's own first writer wins). */
export interface Kept {
  task: number;
  repeat: number;
  kind: ResultKind;
  key: string;
  /** Failure keys of the same (task, repeat) that a scored rollout superseded, or stale ones a resume will delete. */
  shadowed?: string;
}

/** Every result object of the job, of a chunk, or of one task, one kept per (task, repeat) of the job. */
export async function listResults(store: ObjectStore, manifest: Manifest, scope?: { chunk: number; task?: number }): Promise<Map<string, Kept>> {
  const prefix = !scope
    ? ledgerKeys.records(manifest.id)
    : scope.task === undefined
      ? ledgerKeys.chunkRecords(manifest.id, scope.chunk)
      : ledgerKeys.taskRecords(manifest.id, scope.chunk, scope.task);
  const kept = new Map<string, Kept>();
  for await (const page of listAll(store, { prefix })) {
    for (const key of page.keys) {
      const named = parseRecordKey(key);
      if (!named || named.repeat >= manifest.num_repeats || manifest.chunkOf(named.task) === undefined) continue;
      const id = `${named.task}:${named.repeat}`;
      const before = kept.get(id);
      if (!before) kept.set(id, { ...named, key });
      else if (named.kind === "rollout") kept.set(id, { ...named, key, shadowed: before.key });
      else before.shadowed = key;
    }
  }
  return kept;
}

export function counts(kept: Iterable<Kept>): { done: number; failed: number } {
  let done = 0;
  let failed = 0;
  for (const k of kept) {
    if (k.kind === "rollout") done++;
    else failed++;
  }
  return { done, failed };
}

/** The (task, repeat) pairs of a chunk, in order (task, then repeat). */
export function pairsOf(manifest: Manifest, chunk: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (const task of manifest.tasksOf(chunk)) for (let repeat = 0; repeat < manifest.num_repeats; repeat++) pairs.push([task, repeat]);
  return pairs;
}

export interface AssembledChunk {
  rollouts: string[];
  failures: string[];
  /** The scored rollouts' summaries (what the metrics need), by environment, in order. */
  summaries: Record<string, Record<string, unknown>[]>;
  /** The failures by class (a failure's summary holds its class). */
  failedByClass: FailureCounts;
}

/** Reads a record object: its header and its JSONL line. */
export async function readRecord(store: ObjectStore, key: string): Promise<{ header: ResultHeader; line: string }> {
  const object = await store.get(key);
  if (!object) throw new Error(`result object ${key} is missing`);
  const { header, line } = decodeResult(await object.text());
  if (line === undefined) throw new Error(`result object ${key} holds no record`);
  return { header, line };
}

/** A chunk's kept results read in (task, repeat) order into its JSONL lines; missing pairs are left out. */
export async function assemble(store: ObjectStore, manifest: Manifest, chunk: number, kept: Map<string, Kept>): Promise<AssembledChunk> {
  const limit = pLimit(READS);
  const present = pairsOf(manifest, chunk).flatMap(([task, repeat]) => {
    const found = kept.get(`${task}:${repeat}`);
    return found ? [found] : [];
  });
  const records = await Promise.all(present.map((k) => limit(async () => ({ kind: k.kind, ...(await readRecord(store, k.key)) }))));
  const out: AssembledChunk = { rollouts: [], failures: [], summaries: {}, failedByClass: emptyFailureCounts() };
  for (const record of records) {
    if (record.kind === "failure") {
      out.failures.push(record.line);
      out.failedByClass[countedClass(record.header.summary.failure_class)]++;
      continue;
    }
    out.rollouts.push(record.line);
    (out.summaries[record.header.environment] ??= []).push(record.header.summary);
  }
  return out;
}

/**
 * A job's lines of a kind in task-index order when its rows' own task indices are not ascending (chunks then hold tasks
 * out of order): each record read by itself, a window of tasks at a time, so memory stays bounded.
 */
export async function* linesByTask(store: ObjectStore, manifest: Manifest, kind: ResultKind): AsyncGenerator<string> {
  const kept = await listResults(store, manifest);
  const tasks = [...manifest.tasks].sort((a, b) => a - b);
  const limit = pLimit(READS);
  for (let at = 0; at < tasks.length; at += 100) {
    const keys = tasks
      .slice(at, at + 100)
      .flatMap((task) =>
        Array.from({ length: manifest.num_repeats }, (_, repeat) => kept.get(`${task}:${repeat}`)).flatMap((k) => (k?.kind === kind ? [k.key] : [])),
      );
    const lines = await Promise.all(keys.map((key) => limit(async () => (await readRecord(store, key)).line)));
    if (lines.length) yield lines.map((line) => `${line}\n`).join("");
  }
}
