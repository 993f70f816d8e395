// The CPU bench's measuring parts: /proc CPU time agrees with the kernel's own accounting, descendants are found,
// and model turns are counted from a record as the agent writes it.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { clockTicksPerSecond, descendants, readStat, snapshot, ticksBetween } from "../../bench/cpu/proc.js";
import { modelTurns } from "../../bench/cpu/workload.js";

/** Spins until this process has spent `ms` of CPU (not wall time: the machine is shared). */
function burn(ms: number): void {
  const start = process.cpuUsage();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + 1);
    const spent = process.cpuUsage(start);
    if (spent.user + spent.system >= ms * 1000) break;
  }
  expect(x).toBeGreaterThan(0);
}

describe("/proc CPU time", () => {
  it("matches process.cpuUsage() of the same process to within a few clock ticks", () => {
    const perMs = clockTicksPerSecond() / 1000;
    const before = { proc: readStat(process.pid)!.ticks, usage: process.cpuUsage() };
    burn(300);
    const usage = process.cpuUsage(before.usage);
    const procMs = (readStat(process.pid)!.ticks - before.proc) / perMs;
    const usageMs = (usage.user + usage.system) / 1000;
    expect(usageMs).toBeGreaterThanOrEqual(300);
    expect(Math.abs(procMs - usageMs)).toBeLessThan(30);
  });

  it("finds a child process among the descendants and sums its ticks between snapshots", async () => {
    // The child spends 200 ms of CPU (by its own account), then says so and idles.
    const script = "const s = process.cpuUsage(); while (process.cpuUsage(s).user < 2e5); console.log('spent'); setTimeout(() => {}, 1e4)";
    const child = spawn(process.execPath, ["-e", script]);
    try {
      const before = snapshot(descendants(process.pid));
      await once(child.stdout, "data");
      const found = descendants(process.pid).find((p) => p.pid === child.pid);
      expect(found?.comm).toBe("node");
      const spent = ticksBetween(before, snapshot(descendants(process.pid)));
      expect(spent.ended).toEqual([]);
      expect(spent.ticks / (clockTicksPerSecond() / 1000)).toBeGreaterThanOrEqual(150);
    } finally {
      child.kill();
      await once(child, "exit");
    }
  });
});

describe("model turns of a record", () => {
  it("counts each run of model output up to the tool outputs as one turn, parallel calls included", () => {
    const record = {
      response: {
        output: [
          { type: "reasoning" },
          { type: "function_call" },
          { type: "function_call_output" },
          { type: "function_call" },
          { type: "function_call" },
          { type: "function_call_output" },
          { type: "function_call_output" },
          { type: "message" },
        ],
      },
    };
    expect(modelTurns(record)).toBe(3);
    expect(modelTurns({ response: { output: [{ type: "message" }] } })).toBe(1);
  });
});
