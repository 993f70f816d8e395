// What metrics need of a scored rollout: its numbers, not its conversation.
const BIG_FIELDS = new Set(["responses_create_params", "response"]);

/** The verify response without the request echo and the trajectory, keeping `response.usage` as NeMo Gym's metrics do. */
export function summarize(record: Record<string, unknown>): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (BIG_FIELDS.has(key)) continue;
    if (typeof value === "number" || typeof value === "boolean" || key.startsWith("_ng_")) summary[key] = value;
    else if (typeof value === "string" && value.length <= 200) summary[key] = value;
  }
  const usage = (record.response as { usage?: unknown } | undefined)?.usage;
  summary.response = { usage: usage ?? null };
  return summary;
}
