// int(str) and float(str) as calls that raise: CPython's ValueError and its message (the argument's repr) on bad text.
import { PyError } from "./errors.js";
import { parsePyFloat, pyInt } from "./numbers.js";
import { pyReprStr } from "./repr.js";

/** `%.200R`: the repr cut to its first 200 code points, as CPython's int() quotes the text it refuses. */
const repr200 = (text: string) => [...pyReprStr(text)].slice(0, 200).join("");

/** int(text, base) as an exact integer; PyError ValueError "invalid literal for int() with base N: '…'" otherwise. */
export function pyIntOf(text: string, base: 2 | 8 | 10 | 16 = 10): bigint {
  const value = pyInt(text, base);
  if (value === null) throw new PyError("ValueError", `invalid literal for int() with base ${base}: ${repr200(text)}`);
  return value;
}

/** float(text); PyError ValueError "could not convert string to float: '…'" otherwise. */
export function pyFloatOf(text: string): number {
  const value = parsePyFloat(text);
  if (value === null) throw new PyError("ValueError", `could not convert string to float: ${pyReprStr(text)}`);
  return value;
}
