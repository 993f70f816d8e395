// Port of NeMo Gym's RewardProfiler.profile_from_data as called by compute_aggregate_metrics.

import { createDescriber, type NumericTable } from "./describe.js";
import { readIndex } from "./keys.js";
import { ROLLOUT_INDEX_KEY, TASK_INDEX_KEY, type VerifyResult } from "./types.js";

interface KeyedRollout {
  task: number;
  rollout: number;
  vr: VerifyResult;
}

export interface RewardProfile {
  /** One entry per task, ascending task index. */
  groupLevel: Record<string, unknown>[];
  /** Overall `{stat}/{field}` entries across every rollout. */
  agentMetrics: Record<string, unknown>;
}

// Never stats columns: the indices are dropped by NeMo Gym before describing, and agent_name is
// its internal groupby column (a verify field of that name would hijack the grouping there).
const NON_METRIC_KEYS = new Set([TASK_INDEX_KEY, ROLLOUT_INDEX_KEY, "agent_name"]);

/** bool -> 0/1, number -> itself, anything else is not a metric (Python's isinstance filter). */
function metricValue(value: unknown): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function usageOf(vr: VerifyResult): Record<string, unknown> {
  const response: unknown = vr.response;
  if (!isPlainObject(response)) return {};
  const usage = response["usage"];
  return isPlainObject(usage) ? usage : {};
}

/** Sorts by (task, rollout) and rejects duplicate keys, as NeMo Gym's _index_by_rollout_key does. */
function keyRollouts(verifyResponses: readonly VerifyResult[]): KeyedRollout[] {
  const seen = new Set<string>();
  const keyed = verifyResponses.map((vr) => {
    const task = readIndex(vr, TASK_INDEX_KEY);
    const rollout = readIndex(vr, ROLLOUT_INDEX_KEY);
    const id = `${task}:${rollout}`;
    if (seen.has(id)) {
      throw new Error(
        `Duplicate verify response for rollout key (${task}, ${rollout}) ` +
          `(${TASK_INDEX_KEY}=${task}, ${ROLLOUT_INDEX_KEY}=${rollout}); missing indices default to 0`,
      );
    }
    seen.add(id);
    return { task, rollout, vr };
  });
  return keyed.sort((a, b) => a.task - b.task || a.rollout - b.rollout);
}

/**
 * Numeric fields of one rollout for the stats table. Usage is merged *over* the top-level
 * fields (Python's `result | usage`), so a usage key shadows a same-named verify field.
 */
function forEachNumericField(vr: VerifyResult, visit: (name: string, value: number) => void): void {
  const usage = usageOf(vr);
  for (const k of Object.keys(vr)) {
    if (NON_METRIC_KEYS.has(k)) continue;
    const n = metricValue(Object.hasOwn(usage, k) ? usage[k] : vr[k]);
    if (n !== undefined) visit(k, n);
  }
  for (const k of Object.keys(usage)) {
    if (NON_METRIC_KEYS.has(k) || Object.hasOwn(vr, k)) continue;
    const n = metricValue(usage[k]);
    if (n !== undefined) visit(k, n);
  }
}

/**
 * Port of rollout_info_from_result. Note the opposite precedence to forEachNumericField: top-level
 * fields are written after usage and win, and `reward` is copied raw (a boolean stays boolean).
 */
function rolloutInfo({ task, rollout, vr }: KeyedRollout): Record<string, unknown> {
  const info: Record<string, unknown> = {
    rollout_id: `${task}:${rollout}`,
    [TASK_INDEX_KEY]: task,
    [ROLLOUT_INDEX_KEY]: rollout,
  };
  if (vr.reward !== undefined) info["reward"] = vr.reward;
  for (const [k, v] of Object.entries(usageOf(vr))) {
    const n = metricValue(v);
    if (n !== undefined) info[k] = n;
  }
  for (const [k, v] of Object.entries(vr)) {
    if (k === TASK_INDEX_KEY || k === ROLLOUT_INDEX_KEY || k === "reward" || k === "response") continue;
    const n = metricValue(v);
    if (n !== undefined) info[k] = n;
  }
  return info;
}

/** Columns appear in first-seen order over the sorted rollouts, like DataFrame.from_records. */
function buildTable(rows: readonly KeyedRollout[]): NumericTable {
  const columnIndex = new Map<string, number>();
  const names: string[] = [];
  const columns: Float64Array[] = [];
  rows.forEach((row, r) => {
    forEachNumericField(row.vr, (name, value) => {
      let c = columnIndex.get(name);
      if (c === undefined) {
        c = names.length;
        columnIndex.set(name, c);
        names.push(name);
        columns.push(new Float64Array(rows.length).fill(Number.NaN));
      }
      columns[c]![r] = value;
    });
  });
  return { names, columns };
}

export function profileVerifyResponses(verifyResponses: readonly VerifyResult[]): RewardProfile {
  const rows = keyRollouts(verifyResponses);
  const describe = createDescriber(buildTable(rows), rows.length);

  const groupLevel: Record<string, unknown>[] = [];
  for (let start = 0; start < rows.length; ) {
    const task = rows[start]!.task;
    let end = start + 1;
    while (end < rows.length && rows[end]!.task === task) end++;
    const numRollouts = end - start;
    const group: Record<string, unknown> = { [TASK_INDEX_KEY]: task };
    describe(start, end, group);
    Object.assign(group, {
      // compute_aggregate_metrics builds its rows as {indices, agent_ref}; the sample is that row
      // minus the indices, so it is always this constant.
      sample: { agent_ref: { name: "agent" } },
      num_rollouts: numRollouts,
      // Every verify response is its own expected row, so nothing is ever missing here.
      expected_num_rollouts: numRollouts,
      missing_num_rollouts: 0,
      reward_profile_completion_pct: 100,
      rollout_infos: rows.slice(start, end).map(rolloutInfo),
    });
    groupLevel.push(group);
    start = end;
  }

  const agentMetrics: Record<string, unknown> = {};
  describe(0, rows.length, agentMetrics);
  return { groupLevel, agentMetrics };
}
