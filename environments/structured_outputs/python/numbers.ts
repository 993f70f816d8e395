// Python's int() and float() on strings (the SDK's, with CPython's ValueError messages) as this environment's PyError.
import { pyFloatOf, pyIntOf, PyError as SdkPyError } from "../../sdk/python/index.js";
import { PyError } from "./value.js";

/** Runs a conversion, re-raising the SDK's Python exception as this environment's (its detail is CPython's message). */
function raising<T>(convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    if (error instanceof SdkPyError) throw new PyError(error.pyType, error.message);
    throw error;
  }
}

/** int(text, base) for base 2, 8, 10 or 16. */
export function pyInt(text: string, base: 2 | 8 | 10 | 16 = 10): number {
  return raising(() => Number(pyIntOf(text, base)));
}

/** float(text): decimal and exponent forms with underscores between digits, inf/infinity/nan in any case. */
export function pyFloat(text: string): number {
  return raising(() => pyFloatOf(text));
}
