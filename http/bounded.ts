// Stubs whose every call is bounded in time: an RPC promise cannot be cancelled, so the caller stops waiting instead.
import type { JobRpc } from "../contracts/jobs.js";
import { withinMs } from "../contracts/rpc.js";
import { TIMEOUTS } from "../contracts/timeouts.js";

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof Reflect.get(value, "then") === "function";
}

/**
 * `stub` with every method call's answer bounded: one that has not settled `ms` after the call rejects with a
 * DeadlineError naming `label (method)`. Answers within the bound, synchronous results and properties that are not
 * methods pass through as they are. (The callee bounds its own work with the timeout it was given.)
 */
export function bounded<T extends object>(stub: T, ms: number, label: string): T {
  return new Proxy(stub, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        const answer: unknown = Reflect.apply(value, target, args);
        return isThenable(answer) ? withinMs(Promise.resolve(answer), ms, `${label} (${property})`) : answer;
      };
    },
  });
}

/** A Job object's calls, each bounded by the Job RPC timeout. */
export function boundedJob(stub: JobRpc, ms: number = TIMEOUTS.jobRpcMs): JobRpc {
  return bounded(stub, ms, "the Job object");
}
