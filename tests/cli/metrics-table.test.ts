// The metrics table the CLI prints: NeMo Gym's numbers kept in the files, shown on a scale a person reads right.
import { describe, expect, it } from "vitest";
import { aggregateMetrics } from "../../metrics/index.js";
import type { VerifyResult } from "../../metrics/types.js";
import { metricsTable, summaryTable } from "../../local/cli/table.js";

/** Verify responses: `rewards[t]` are task t's rollouts; `extra(t)` the task's own fields echoed back, as NeMo Gym does. */
function responses(rewards: number[][], extra: (task: number) => Record<string, unknown> = () => ({})): VerifyResult[] {
  return rewards.flatMap((task, t) =>
    task.map((reward, r) => ({ ...extra(t), reward, _ng_task_index: t, _ng_rollout_index: r, response: { usage: { total_tokens: 100 + r } } })),
  );
}

/** The printed cell of `row` in the table's one environment column. */
function cell(table: string, row: string): string | undefined {
  const line = table.split("\n").find((l) => l.startsWith(`${row} `));
  return line?.trim().split(/\s{2,}/)[1];
}

describe("the metrics table", () => {
  it("prints blackjack's rewards (-1..1) as a score, never as -100%, at the k of the repeats run", () => {
    // Five identical rows × 4 repeats are one task of 20 rollouts, as NeMo Gym groups them.
    const metrics = aggregateMetrics(responses([Array(20).fill(-1)]));
    expect(metrics.agent_metrics["pass@1[avg-of-20]/accuracy"]).toBe(-100); // the file keeps NeMo Gym's value
    expect(metrics.key_metrics["pass@20/accuracy"]).toBe(-100);
    const table = metricsTable([{ environment: "blackjack", rollouts: 20, failed: 0, metrics, repeats: 4 }]);
    expect(cell(table, "pass@1[avg-of-4]/accuracy")).toBe("-1 (score)");
    expect(cell(table, "pass@4/accuracy")).toBe("-1 (score)");
    expect(table).not.toContain("pass@20");
    expect(table).not.toMatch(/-\d+(\.\d+)?%/);
  });

  it("prints a multi-reward sum (0..2) as a score, not 200%", () => {
    const metrics = aggregateMetrics(
      responses([
        [2, 2],
        [2, 0],
      ]),
    );
    expect(metrics.agent_metrics["pass@1[avg-of-2]/accuracy"]).toBe(150);
    const table = metricsTable([{ environment: "multireward", rollouts: 4, failed: 0, metrics, repeats: 2 }]);
    expect(cell(table, "pass@1[avg-of-2]/accuracy")).toBe("1.5000 (score)");
    expect(cell(table, "pass@2/accuracy")).toBe("2 (score)");
    for (const match of table.matchAll(/(-?\d+(?:\.\d+)?)%/g)) expect(Number(match[1])).toBeGreaterThanOrEqual(0);
  });

  it("prints rewards in 0..1 as percentages", () => {
    const metrics = aggregateMetrics(
      responses([
        [1, 0, 0, 0],
        [0, 0, 0, 0],
      ]),
    );
    const table = metricsTable([{ environment: "mcqa", rollouts: 8, failed: 0, metrics, repeats: 4 }]);
    expect(cell(table, "pass@1[avg-of-4]/accuracy")).toBe("12.5000%");
    expect(cell(table, "pass@4/accuracy")).toBe("50%");
    expect(cell(table, "mean/reward")).toBe("0.1250");
  });

  it("leaves the rows' own numeric fields (id, tolerance) out of the table but in the metrics", () => {
    const metrics = aggregateMetrics(
      responses(
        [
          [1, 0],
          [0, 1],
        ],
        (t) => ({ id: 40 + t, tolerance: 0.01 }),
      ),
    );
    expect(metrics.key_metrics["mean/id"]).toBe(40.5); // NeMo Gym averages every numeric field: the file says so too
    expect(metrics.key_metrics["mean/tolerance"]).toBe(0.01);
    const table = metricsTable([{ environment: "math", rollouts: 4, failed: 0, metrics, repeats: 2, inputFields: ["id", "tolerance", "agent_ref"] }]);
    expect(table).not.toContain("mean/id");
    expect(table).not.toContain("mean/tolerance");
    expect(cell(table, "mean/reward")).toBe("0.5000");
    expect(cell(table, "mean/total_tokens")).toBe("100.5000");
  });

  it("without the rows (jobs status), leaves out a field fixed within each task and different across tasks", () => {
    const metrics = aggregateMetrics(
      responses(
        [
          [1, 0],
          [0, 0],
          [1, 1],
        ],
        (t) => ({ id: t * 7, terminated: true }),
      ),
    );
    const table = metricsTable([{ environment: "env", rollouts: 6, metrics, repeats: 2 }]);
    expect(table).not.toContain("mean/id");
    expect(cell(table, "mean/terminated")).toBe("1"); // the same everywhere: a result, not a task's label
    expect(cell(table, "failed")).toBe("-");
  });

  it("falls back to the highest k the metrics hold when the repeats are not known", () => {
    const metrics = aggregateMetrics(responses([[1, 0, 1]]));
    const table = metricsTable([{ environment: "env", rollouts: 3, failed: 0, metrics }]);
    expect(table).toContain("pass@3/accuracy");
  });
});

describe("npm start's summary table", () => {
  it("shows pass@k at the repeats run, as a score for blackjack and a percentage for 0..1 rewards", () => {
    const blackjack = aggregateMetrics(responses([Array(20).fill(-1)]));
    const mcqa = aggregateMetrics(
      responses([
        [1, 0, 0, 0],
        [1, 1, 1, 1],
      ]),
    );
    const table = summaryTable([
      { environment: "blackjack", rollouts: 20, failed: 0, metrics: blackjack, repeats: 4 },
      { environment: "mcqa", rollouts: 8, failed: 0, metrics: mcqa, repeats: 4 },
    ]);
    const [, , bj, mc] = table.split("\n");
    expect(bj?.trim().split(/\s{2,}/)).toEqual(["blackjack", "20", "0", "-1", "-1 (score)", "-1 (score) (pass@4)"]);
    expect(mc?.trim().split(/\s{2,}/)).toEqual(["mcqa", "8", "0", "0.6250", "62.5000%", "100% (pass@4)"]);
    expect(table).not.toContain("pass@20");
  });
});
