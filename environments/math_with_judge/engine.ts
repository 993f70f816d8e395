// One Compute Engine per isolate (it takes ~200 ms to build), each use inside its own scope.
import { ComputeEngine } from "@cortex-js/compute-engine";

let engine: ComputeEngine | undefined;

/** Digits the engine's bignums (and so our numeric comparisons) carry. */
export const PRECISION = 50;

export type Decimal = ReturnType<ComputeEngine["bignum"]>;

/**
 * Run `work` with the engine in a fresh scope: the engine infers and remembers a type for every
 * symbol it sees (after `x_1`, `x` is a list), so one answer must not leak declarations into the next.
 * Synchronous on purpose: no other request can interleave inside the scope.
 */
export function withEngine<T>(work: (ce: ComputeEngine) => T): T {
  if (!engine) {
    engine = new ComputeEngine();
    engine.precision = PRECISION;
  }
  engine.pushScope();
  try {
    return work(engine);
  } finally {
    engine.popScope();
  }
}
