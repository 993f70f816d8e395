// Failure records the ledger writes itself, for rollouts no agent will answer (a dead-lettered expand message): what the
// Job object's abandon() does on Cloudflare, as results the ledger records like any other.
import { abandonedRecord } from "../contracts/failures.js";
import type { Abandonment, RolloutScope } from "../contracts/jobs.js";
import { type ResultMessage, rolloutId } from "../contracts/messages.js";
import { scopePairs } from "./expand.js";
import type { Manifest } from "./manifest.js";
import type { Kept } from "./records.js";

/** A failure result (header and record line) for each pair of the scope that has no result yet. */
export function abandonedResults(manifest: Manifest, scope: RolloutScope, failure: Abandonment, kept: Map<string, Kept>): ResultMessage[] {
  const environment = manifest.environment ?? "unknown";
  return scopePairs(manifest, scope)
    .filter(([task, repeat]) => !kept.has(`${task}:${repeat}`))
    .map(([task, repeat]) => {
      const id = rolloutId(manifest.id, task, repeat);
      const header = { job_id: manifest.id, rollout_id: id, task_index: task, rollout_index: repeat, environment, kind: "failure" as const };
      const { record, summary } = abandonedRecord(header, failure);
      return { header: { ...header, summary }, line: JSON.stringify(record) };
    });
}
