// A completed job's metrics (functions/writer/metrics.ts): the summaries reach each environment page by page, as the
// environment reads them, never gathered whole on the writer's side.
import { describe, expect, it } from "vitest";
import type { EnvironmentRpc } from "../../contracts/rpc.js";
import { jobMetrics, type SummaryPages } from "../../functions/writer/metrics.js";
import { lines } from "../../http/jsonl.js";
import { aggregateMetrics, type VerifyResult } from "../../metrics/index.js";

const PAGE = 1000;

/** `tasks` × `repeats` summaries of one environment, as the Job object's table pages them (task, then repeat). */
function summaryTable(tasks: number, repeats: number) {
  const rows: { at: [number, number]; text: string }[] = [];
  for (let task = 0; task < tasks; task++) {
    for (let repeat = 0; repeat < repeats; repeat++) {
      const summary = { _ng_task_index: task, _ng_rollout_index: repeat, reward: (task * 7 + repeat * 3) % 5 === 0 ? 1 : 0, response: { usage: null } };
      rows.push({ at: [task, repeat], text: JSON.stringify(summary) });
    }
  }
  const asked: ([number, number] | null)[] = [];
  const pages: SummaryPages = (_environment, after) => {
    asked.push(after);
    const from = after ? rows.findIndex((r) => r.at[0] > after[0] || (r.at[0] === after[0] && r.at[1] > after[1])) : 0;
    const page = from < 0 ? [] : rows.slice(from, from + PAGE);
    return { summaries: page.map((r) => r.text), last: page.at(-1)?.at ?? null };
  };
  return { rows, pages, asked, all: rows.map((r) => JSON.parse(r.text) as VerifyResult) };
}

describe("jobMetrics", () => {
  it("streams the summaries to the environment a page at a time, as it reads: the pages asked never run ahead of it", async () => {
    const table = summaryTable(625, 4); // 2,500 summaries: three pages
    const pagesAskedWhenRead: number[] = [];
    const environment: Pick<EnvironmentRpc, "aggregateMetrics"> = {
      async aggregateMetrics(stream) {
        const received: VerifyResult[] = [];
        const reader = stream.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          pagesAskedWhenRead.push(table.asked.length);
          for (const line of new TextDecoder().decode(chunk.value).split("\n")) if (line) received.push(JSON.parse(line) as VerifyResult);
        }
        return { ok: true, value: aggregateMetrics(received) };
      },
    };

    const metrics = await jobMetrics((name) => (name === "toy" ? environment : undefined), ["toy"], table.pages);

    // One chunk per page, each read before the next page was asked for; one last ask finds the end.
    expect(pagesAskedWhenRead).toEqual([1, 2, 3]);
    expect(table.asked).toEqual([null, [249, 3], [499, 3], [624, 3]]);
    // Every summary arrived once, in order: the metrics are the recomputation over all of them.
    expect(metrics).toEqual({ toy: aggregateMetrics(table.all) });
    expect(metrics.toy!.agent_metrics["mean/reward"]).toBeCloseTo(table.all.filter((s) => s.reward === 1).length / 2500, 12);
  });

  it("an environment that is gone or whose hook fails still gets NeMo Gym's default metrics over every summary", async () => {
    const gone = summaryTable(300, 5);
    const broken = summaryTable(10, 2);
    const failing: Pick<EnvironmentRpc, "aggregateMetrics"> = {
      async aggregateMetrics(stream) {
        for await (const _ of lines(stream)) throw new Error("compute_metrics raised");
        return { ok: false, error: { status: 500, code: "never", message: "unreachable" } };
      },
    };
    const metrics = await jobMetrics(
      (name) => (name === "broken" ? failing : undefined),
      ["gone", "broken"],
      (environment, after) => (environment === "gone" ? gone.pages(environment, after) : broken.pages(environment, after)),
    );
    expect(metrics).toEqual({ gone: aggregateMetrics(gone.all), broken: aggregateMetrics(broken.all) });
    // Read a page at a time there too: 1,500 summaries are two pages and the end.
    expect(gone.asked).toEqual([null, [199, 4], [299, 4]]);
  });
});
