// Port of NeMo Gym's highest_k_metrics: pick the entries of a `{k}` pattern at the largest k.

const STAT_SUFFIXES = ["std_dev_across_runs", "std_err_across_runs", "avg_sample_std_dev"];

export interface HighestKOptions {
  /** Keep only these score names (the part after the pattern's `/`). */
  scoreNames?: readonly string[] | undefined;
  /** Drop these score names, e.g. `["no_answer"]`; applied after scoreNames. */
  excludeNames?: readonly string[] | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Entries of `agentMetrics` matching `{pattern}/{score}` (pattern holds a `{k}` placeholder,
 * e.g. "pass@{k}" or "pass@1[avg-of-{k}]") at the highest k found; variance suffixes are skipped.
 */
export function highestKMetrics(agentMetrics: Record<string, unknown>, pattern: string, options: HighestKOptions = {}): Record<string, unknown> {
  return highestKFromKeys(Object.keys(agentMetrics), agentMetrics, pattern, options);
}

/** highestKMetrics over an already listed `keys` (listing a 100k-key object is not free). */
export function highestKFromKeys(
  keys: readonly string[],
  agentMetrics: Record<string, unknown>,
  pattern: string,
  options: HighestKOptions = {},
): Record<string, unknown> {
  if (!pattern.includes("{k}")) throw new Error(`highestKMetrics pattern needs a {k} placeholder: ${pattern}`);
  const regex = new RegExp(`^${escapeRegExp(pattern).split("\\{k\\}").join("(\\d+)")}/(.+)$`);
  // Cheap literal prefix test first: with a large max_k agent_metrics holds 100k+ keys.
  const prefix = pattern.split("{k}")[0]!;
  const matches: [number, string][] = [];
  for (const key of keys) {
    if (!key.startsWith(prefix)) continue;
    const m = regex.exec(key);
    if (!m) continue;
    const k = Number.parseInt(m[1]!, 10);
    const scoreName = m[2]!;
    if (STAT_SUFFIXES.some((suffix) => scoreName.endsWith(suffix))) continue;
    if (options.scoreNames && !options.scoreNames.includes(scoreName)) continue;
    if (options.excludeNames?.includes(scoreName)) continue;
    matches.push([k, key]);
  }
  if (matches.length === 0) return {};
  // A loop, not Math.max(...spread): a large max_k yields more matches than spread allows.
  let maxK = matches[0]![0];
  for (const [k] of matches) if (k > maxK) maxK = k;
  const out: Record<string, unknown> = {};
  for (const [k, key] of matches) if (k === maxK) out[key] = agentMetrics[key];
  return out;
}
