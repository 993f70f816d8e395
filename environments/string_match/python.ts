// Python's str and float behaviour the grader depends on: Unicode whitespace, splitlines, float() and str(float).

/** The characters of Python's str.isspace() (and of `\s` in a str pattern), as a JS class body. */
export const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

const LEADING = new RegExp(`^[${PY_WHITESPACE}]+`, "u");
const TRAILING = new RegExp(`[${PY_WHITESPACE}]+$`, "u");
const RUNS = new RegExp(`[${PY_WHITESPACE}]+`, "u");
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** str.strip() with no argument (JS's trim also strips U+FEFF and keeps U+001C–U+001F, U+0085). */
export function pyStrip(text: string): string {
  return text.replace(LEADING, "").replace(TRAILING, "");
}

/** str.rstrip(chars). */
export function pyRstripChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** str.split() with no argument: runs of whitespace, no empty pieces. */
export function pySplit(text: string): string[] {
  const stripped = pyStrip(text);
  return stripped === "" ? [] : stripped.split(RUNS);
}

/** str.splitlines(): Python also breaks lines at \v, \f, \x1c–\x1e, \x85, U+2028 and U+2029. */
export function pySplitlines(text: string): string[] {
  return text.split(LINE_BREAK);
}

/** len(str): code points, not UTF-16 units. */
export function pyLen(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const DIGITS = "\\d(?:_?\\d)*";
const DECIMAL = new RegExp(`^[+-]?(?:${DIGITS}\\.(?:${DIGITS})?|\\.${DIGITS}|${DIGITS})(?:[eE][+-]?${DIGITS})?$`);
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;
const UNICODE_DIGIT = /\p{Nd}/gu;
const NON_DECIMAL_DIGIT = /\P{Nd}/u;

/** The value of a Unicode decimal digit: Unicode encodes each digit set as a contiguous run 0–9. */
function digitValue(digit: string): string {
  let start = digit.codePointAt(0)!;
  while (!NON_DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return String((digit.codePointAt(0)! - start) % 10);
}

/** Python's float(str), or null where it raises ValueError (underscores between digits and any Unicode digit accepted). */
export function pyFloat(text: string): number | null {
  const ascii = pyStrip(text).replace(UNICODE_DIGIT, (d) => (d >= "0" && d <= "9" ? d : digitValue(d)));
  const special = SPECIAL.exec(ascii);
  if (special) {
    if (special[2]!.toLowerCase() === "nan") return Number.NaN;
    return special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!DECIMAL.test(ascii)) return null;
  return Number(ascii.replaceAll("_", ""));
}

/** Python's str(float) (repr): shortest round-trip digits, exponent form below 1e-4 and from 1e16, always a ".0" otherwise. */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const [mantissa, exp] = Math.abs(value).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const magnitude = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? "-" : "+"}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || "0"}`;
}
