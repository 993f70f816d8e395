// Python's int() and float() on strings, raising ValueError as NeMo Gym sees it (YAML scalars, XML and CSV coercion).
import { parsePyFloat, parsePyInt } from "../../sdk/python/numbers.js";
import { PyError } from "./value.js";

/** int(text, base) for base 2, 8, 10 or 16. */
export function pyInt(text: string, base: 2 | 8 | 10 | 16 = 10): number {
  const value = parsePyInt(text, base);
  if (value === null) throw new PyError("ValueError", `invalid literal for int() with base ${base}: '${text}'`);
  return value;
}

/** float(text): decimal and exponent forms with underscores between digits, inf/infinity/nan in any case. */
export function pyFloat(text: string): number {
  const value = parsePyFloat(text);
  if (value === null) throw new PyError("ValueError", `could not convert string to float: '${text}'`);
  return value;
}
