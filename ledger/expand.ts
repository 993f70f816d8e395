// A job's rollouts as the ledger counts them: which tasks an inputs chunk holds, the pairs a scope stands for, and wanted
// pairs as expand messages within the queue's limit (the Job object's resume and heal, the bucket ledger's dead letters).
import { CHUNK_ROWS, type JobConfig, type RolloutScope } from "../contracts/jobs.js";
import { type ExpandMessage, jobKeys } from "../contracts/messages.js";

/** The task indices an inputs chunk holds, from the job's accepted tasks in order. */
export function chunkTasks(config: Pick<JobConfig, "tasks" | "chunk_keys">, chunkKey: string): number[] {
  const chunk = config.chunk_keys.indexOf(chunkKey);
  return chunk < 0 ? [] : config.tasks.slice(chunk * CHUNK_ROWS, (chunk + 1) * CHUNK_ROWS);
}

/** The (task, repeat) pairs a scope stands for. */
export function scopePairs(config: Pick<JobConfig, "tasks" | "chunk_keys" | "num_repeats">, scope: RolloutScope): [number, number][] {
  if ("pairs" in scope) return scope.pairs;
  if (scope.only) return scope.only;
  const pairs: [number, number][] = [];
  for (const task of chunkTasks(config, scope.chunk_key)) for (let repeat = 0; repeat < config.num_repeats; repeat++) pairs.push([task, repeat]);
  return pairs;
}

/**
 * Wanted (task, repeat) pairs as expand messages, each at most `maxBytes` of JSON: a chunk wanted whole is one message with
 * no list; otherwise its pairs are listed, over as many messages as the limit needs (a resume of a large job once listed
 * tens of thousands in one message, over the queue's limit).
 */
export function expandMessages(
  config: Pick<JobConfig, "id" | "tasks" | "chunk_keys" | "num_repeats">,
  wanted: [number, number][],
  attempt: number,
  maxBytes: number,
): ExpandMessage[] {
  const position = new Map(config.tasks.map((task, i) => [task, i]));
  const byChunk = new Map<number, [number, number][]>();
  for (const pair of wanted) {
    const chunk = Math.floor((position.get(pair[0]) ?? 0) / CHUNK_ROWS);
    const list = byChunk.get(chunk) ?? [];
    list.push(pair);
    byChunk.set(chunk, list);
  }
  return [...byChunk].flatMap(([chunk, pairs]) => {
    const chunkKey = config.chunk_keys[chunk] ?? jobKeys.inputsChunk(config.id, chunk);
    const whole = chunkTasks(config, chunkKey).length * config.num_repeats;
    return chunkExpandMessages({ kind: "expand", job_id: config.id, chunk_key: chunkKey, attempt }, pairs, whole, maxBytes);
  });
}

/**
 * One chunk's wanted pairs as expand messages of at most `maxBytes` of JSON: one message with no list when they are all
 * `whole` rollouts of the chunk, else the pairs listed in `only`, split over as many messages as the limit needs.
 */
export function chunkExpandMessages(base: ExpandMessage, pairs: [number, number][], whole: number, maxBytes: number): ExpandMessage[] {
  if (pairs.length === whole && new Set(pairs.map(([t, r]) => `${t}:${r}`)).size === whole) return [base];
  // Ids, keys and numbers are ASCII: a character is a byte. The empty list's brackets are in the empty message's size.
  const empty = JSON.stringify({ ...base, only: [] }).length;
  const messages: ExpandMessage[] = [];
  let only: [number, number][] = [];
  let bytes = empty;
  for (const pair of pairs) {
    // `[task,repeat]`, and the comma before it.
    const size = JSON.stringify(pair).length + 1;
    if (only.length > 0 && bytes + size > maxBytes) {
      messages.push({ ...base, only });
      only = [];
      bytes = empty;
    }
    if (empty + size > maxBytes)
      throw new RangeError(`an expand message of ${base.chunk_key} listing one rollout takes ${empty + size} bytes, over ${maxBytes}`);
    only.push(pair);
    bytes += size;
  }
  if (only.length > 0) messages.push({ ...base, only });
  return messages;
}
