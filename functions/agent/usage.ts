// Token usage summed over a rollout's model calls, as NeMo Gym's accumulate_response_usage sums it.
import type { Usage } from "../../protocol/index.js";

type Details = Record<string, unknown>;

/** A detail count summed only when both sides report it: an unknown count is not turned into a measurement. */
function addDetail(total: unknown, extra: unknown, key: string): unknown {
  if (typeof total !== "object" || total === null || typeof extra !== "object" || extra === null) return total;
  const left = (total as Details)[key];
  const right = (extra as Details)[key];
  return { ...total, [key]: typeof left === "number" && typeof right === "number" ? left + right : null };
}

export function accumulateUsage(total: Usage | undefined, usage: Usage | null | undefined): Usage | undefined {
  if (!usage) return total;
  if (!total) return structuredClone(usage);
  return {
    ...total,
    input_tokens: total.input_tokens + usage.input_tokens,
    output_tokens: total.output_tokens + usage.output_tokens,
    total_tokens: total.total_tokens + usage.total_tokens,
    input_tokens_details: addDetail(total["input_tokens_details"], usage["input_tokens_details"], "cached_tokens"),
    output_tokens_details: addDetail(total["output_tokens_details"], usage["output_tokens_details"], "reasoning_tokens"),
  };
}
