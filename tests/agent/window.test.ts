// The rollout runner's window: how many rollouts run at once, following the event loop's lag (so the model's latency).
import { describe, expect, it } from "vitest";
import { ConcurrencyWindow } from "../../functions/agent/window.js";

describe("the concurrency window", () => {
  it("grows while the CPU waits (low lag) and the window is full: a slow model gets thousands in flight within a few steps", () => {
    const window = new ConcurrencyWindow({ initial: 64, max: 16_384 });
    let steps = 0;
    while (window.limit < 16_384 && steps < 100) {
      window.observe(1, window.limit);
      steps++;
    }
    expect(window.limit).toBe(16_384);
    expect(steps).toBeLessThanOrEqual(14);
  });

  it("does not grow a window the work does not fill, however idle the CPU", () => {
    const window = new ConcurrencyWindow({ initial: 64, max: 16_384 });
    for (let i = 0; i < 20; i++) window.observe(0, 10);
    expect(window.limit).toBe(64);
  });

  it("shrinks when the CPU is the bottleneck (high lag), never below its floor", () => {
    const window = new ConcurrencyWindow({ initial: 1000, max: 16_384, min: 16 });
    window.observe(100, 1000);
    expect(window.limit).toBe(800);
    for (let i = 0; i < 100; i++) window.observe(100, window.limit);
    expect(window.limit).toBe(16);
  });

  it("holds between the two thresholds: a busy CPU with little queueing keeps the window where it is", () => {
    const window = new ConcurrencyWindow({ initial: 500, max: 16_384, growBelowMs: 4, shrinkAboveMs: 30 });
    for (let i = 0; i < 10; i++) window.observe(10, 500);
    expect(window.limit).toBe(500);
  });

  it("refuses bounds that cannot hold", () => {
    expect(() => new ConcurrencyWindow({ min: 10, max: 5 })).toThrow(RangeError);
  });
});
