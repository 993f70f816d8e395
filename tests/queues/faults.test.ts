// The chaos suite's fault injector (queues/faults.ts): refuses at its rate, never at rate 0.
import { describe, expect, it } from "vitest";
import { faultInjector, InjectedFault } from "../../queues/faults.js";

describe("faultInjector(rate, random)", () => {
  it("at rate 0 (every deployment's) never throws, whatever the draw", () => {
    const inject = faultInjector(0, () => 0);
    expect(() => inject("the queue refused a send")).not.toThrow();
  });

  it("throws an InjectedFault naming what was refused when the draw falls under the rate, and only then", () => {
    expect(() => faultInjector(0.5, () => 0.7)("put a")).not.toThrow();
    const error = (() => {
      try {
        faultInjector(0.5, () => 0.2)("the bucket refused put a");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InjectedFault);
    expect((error as Error).message).toBe("injected fault: the bucket refused put a");
  });
});
