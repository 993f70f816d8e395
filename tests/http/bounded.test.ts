// The generic bounded stub (http/bounded.ts): a call past its bound rejects naming the stub and method; others pass through.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineError, withinMs } from "../../contracts/rpc.js";
import { bounded } from "../../http/bounded.js";

class Stub {
  readonly name = "stub";
  calls = 0;
  hang(): Promise<string> {
    this.calls++;
    return new Promise(() => {});
  }
  async answer(a: number, b: number): Promise<number> {
    this.calls++;
    return a + b;
  }
  async refuse(): Promise<never> {
    throw new Error("refused");
  }
  now(): number {
    return 7;
  }
}

describe("bounded(stub, ms, label)", () => {
  it("a call that outlives the bound rejects with a DeadlineError naming the label and the method", async () => {
    const stub = bounded(new Stub(), 30, "the Job object");
    const started = Date.now();
    const error = await stub.hang().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeadlineError);
    expect((error as Error).message).toBe("the Job object (hang) did not answer in time");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a call that answers in time passes its value through, called on the stub itself (with its arguments)", async () => {
    const inner = new Stub();
    const stub = bounded(inner, 1_000, "the stub");
    await expect(stub.answer(2, 3)).resolves.toBe(5);
    expect(inner.calls).toBe(1);
  });

  it("a call's own rejection passes through unchanged", async () => {
    await expect(bounded(new Stub(), 1_000, "the stub").refuse()).rejects.toThrow("refused");
  });

  it("properties that are not methods, and synchronous results, pass through", () => {
    const stub = bounded(new Stub(), 1_000, "the stub");
    expect(stub.name).toBe("stub");
    expect(stub.calls).toBe(0);
    expect(stub.now()).toBe(7);
  });
});

describe("withinMs(call, ms, what)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a call that answers, or fails, in time leaves no timer armed behind it (hot paths run it per turn)", async () => {
    vi.useFakeTimers();
    await expect(withinMs(Promise.resolve("answer"), 300_000, "the session")).resolves.toBe("answer");
    await expect(withinMs(Promise.reject(new Error("refused")), 300_000, "the session")).rejects.toThrow("refused");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a call past its bound rejects with a DeadlineError naming it", async () => {
    vi.useFakeTimers();
    const waiting = withinMs(new Promise(() => {}), 5_000, "the agent").catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(5_000);
    const error = await waiting;
    expect(error).toBeInstanceOf(DeadlineError);
    expect((error as Error).message).toBe("the agent did not answer in time");
  });
});
