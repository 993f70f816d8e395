// What metrics (and the dashboard's distributions) need of a finished rollout: its numbers, not its conversation.
const BIG_FIELDS = new Set(["responses_create_params", "response"]);

function isNumberRecord(value: unknown): value is Record<string, number> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "number");
}

/**
 * The verify response without the request echo and the trajectory, keeping `response.usage` as NeMo Gym's metrics do,
 * and `reward_components` (an object, so no metric column: NeMo Gym's profiler skips non-scalars too).
 */
export function summarize(record: Record<string, unknown>): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (BIG_FIELDS.has(key)) continue;
    if (typeof value === "number" || typeof value === "boolean" || key.startsWith("_ng_")) summary[key] = value;
    else if (typeof value === "string" && value.length <= 200) summary[key] = value;
    else if (key === "reward_components" && isNumberRecord(value)) summary[key] = value;
  }
  const usage = (record.response as { usage?: unknown } | undefined)?.usage;
  summary.response = { usage: usage ?? null };
  return summary;
}

/** What is counted of a failure record: its class. */
export function summarizeFailure(record: Record<string, unknown>): Record<string, unknown> {
  return typeof record.failure_class === "string" ? { failure_class: record.failure_class } : {};
}
