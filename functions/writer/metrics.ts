// A completed job's metrics, per environment, from that environment's own aggregateMetrics (its compute_metrics included),
// the verify-response summaries streamed to it in pages: the job's results are never all in memory here.
import { type EnvironmentRpc, release, within } from "../../contracts/rpc.js";
import { TIMEOUTS } from "../../contracts/timeouts.js";
import { aggregateMetrics } from "../../metrics/index.js";
import type { AggregateMetrics, VerifyResult } from "../../protocol/index.js";

/** Reads one page of summaries (JSON texts) of an environment's scored rollouts after a position; empty at the end. */
export type SummaryPages = (environment: string, after: [number, number] | null) => { summaries: string[]; last: [number, number] | null };

const encoder = new TextEncoder();

/** The summaries of one environment as a JSON Lines byte stream, read page by page as the reader pulls. */
function summaryStream(pages: SummaryPages, environment: string): ReadableStream<Uint8Array> {
  let after: [number, number] | null = null;
  let done = false;
  // A byte stream: what an RPC call may carry to another Worker.
  return new ReadableStream({
    type: "bytes",
    pull(controller: ReadableByteStreamController) {
      if (done) return;
      const page = pages(environment, after);
      if (page.summaries.length === 0 || !page.last) {
        done = true;
        controller.close();
        return;
      }
      after = page.last;
      controller.enqueue(encoder.encode(`${page.summaries.join("\n")}\n`));
    },
  });
}

/** Every summary of an environment in memory: only when its Worker is gone and NeMo Gym's default metrics must do. */
function readAll(pages: SummaryPages, environment: string): VerifyResult[] {
  const all: VerifyResult[] = [];
  for (let after: [number, number] | null = null; ; ) {
    const page = pages(environment, after);
    if (!page.last) return all;
    for (const text of page.summaries) all.push(JSON.parse(text) as VerifyResult);
    after = page.last;
  }
}

/**
 * Each environment's metrics over its scored rollouts' summaries. `service` finds an environment deployed with the writer
 * (undefined when it is not); `pages` reads the summaries a page at a time.
 */
export async function jobMetrics(
  service: (environment: string) => Pick<EnvironmentRpc, "aggregateMetrics"> | undefined,
  environments: string[],
  pages: SummaryPages,
): Promise<Record<string, AggregateMetrics>> {
  const out: Record<string, AggregateMetrics> = {};
  for (const environment of environments) {
    const rpc = service(environment);
    if (rpc) {
      // A failing call is answered below, with the default metrics: a job must complete even when one environment's hook breaks.
      const call = within(
        rpc.aggregateMetrics(summaryStream(pages, environment)),
        AbortSignal.timeout(TIMEOUTS.metricsMs),
        `${environment}'s aggregateMetrics`,
      );
      const result = await call.catch((error: unknown) => ({ ok: false as const, error }));
      release(result);
      if (result.ok) {
        out[environment] = result.value;
        continue;
      }
    }
    // The environment is gone or failing: NeMo Gym's default metrics still describe the job.
    out[environment] = aggregateMetrics(readAll(pages, environment));
  }
  return out;
}
