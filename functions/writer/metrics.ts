// A completed job's metrics: per environment, from that environment's own /aggregate_metrics (its compute_metrics included).
import { aggregateMetrics, type AggregateMetrics } from "../../environments/sdk/metrics.js";
import { environmentFetcher, type WriterEnv } from "../bindings.js";

export async function jobMetrics(env: WriterEnv, rows: { environment: string; summary: string }[]): Promise<Record<string, AggregateMetrics>> {
  const byEnvironment = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const list = byEnvironment.get(row.environment) ?? [];
    list.push(JSON.parse(row.summary) as Record<string, unknown>);
    byEnvironment.set(row.environment, list);
  }
  const out: Record<string, AggregateMetrics> = {};
  for (const [environment, verifyResponses] of byEnvironment) {
    const fetcher = environmentFetcher(env, environment);
    if (fetcher) {
      const answer = await fetcher.fetch("http://internal/aggregate_metrics", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ verify_responses: verifyResponses }),
      });
      if (answer.ok) {
        out[environment] = await answer.json();
        continue;
      }
    }
    // The environment is gone or failing: NeMo Gym's default metrics still describe the job.
    out[environment] = aggregateMetrics(verifyResponses);
  }
  return out;
}
