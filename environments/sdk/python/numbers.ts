// Python's int(str), float(str) and repr(float): Unicode digits, underscores, shortest round-trip digits.
/**
 * What int() and float() strip: ASCII whitespace (\t \n \v \f \r and space) and non-ASCII str.isspace()
 * characters. CPython keeps ASCII characters as they are before its C-level isspace, so U+001C–U+001F, which
 * str.strip() removes, make int("\x1c0") a ValueError.
 */
const NUMBER_SPACE = "\\t\\n\\v\\f\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
const NUMBER_TRIM = new RegExp(`^[${NUMBER_SPACE}]+|[${NUMBER_SPACE}]+$`, "gu");
const numberStrip = (text: string) => text.replace(NUMBER_TRIM, "");

const DECIMAL_DIGIT = /\p{Nd}/u;
const UNICODE_DIGITS = /\p{Nd}/gu;

/** The value of a Unicode decimal digit: Unicode encodes each digit set as a contiguous run from zero. */
function digitValue(digit: string): string {
  const cp = digit.codePointAt(0)!;
  let start = cp;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return String((cp - start) % 10);
}

/** int()/float() accept any Unicode decimal digit: the text with every one of them as its ASCII digit. */
export function asciiDigits(text: string): string {
  return text.replace(UNICODE_DIGITS, (d) => (d >= "0" && d <= "9" ? d : digitValue(d)));
}

const INT_DIGITS: Record<number, string> = { 2: "[01]", 8: "[0-7]", 10: "[0-9]", 16: "[0-9a-fA-F]" };
const PREFIX: Record<number, string> = { 2: "0[bB]", 8: "0[oO]", 10: "", 16: "0[xX]" };
/** Digits with single underscores between them; base 2, 8 and 16 also take their prefix (then an underscore may follow it). */
const INT_SYNTAX = Object.fromEntries(
  Object.entries(INT_DIGITS).map(([base, d]) => {
    const prefix = PREFIX[Number(base)] ? `(?:${PREFIX[Number(base)]}_?)?` : "";
    return [base, new RegExp(`^[+-]?${prefix}${d}(?:_?${d})*$`)];
  }),
) as Record<number, RegExp>;

/** int(text, base) for base 2, 8, 10 or 16 as an exact integer, or null where Python raises ValueError. */
export function pyInt(text: string, base: 2 | 8 | 10 | 16 = 10): bigint | null {
  const stripped = asciiDigits(numberStrip(text));
  if (!INT_SYNTAX[base]!.test(stripped)) return null;
  const negative = stripped.startsWith("-");
  const digits = stripped
    .replace(/^[+-]/, "")
    .replace(new RegExp(`^${PREFIX[base] || "$^"}`), "")
    .replaceAll("_", "");
  const prefix = base === 2 ? "0b" : base === 8 ? "0o" : base === 16 ? "0x" : "";
  const value = BigInt(prefix + digits);
  return negative ? -value : value;
}

/** int(text, base) as a JS number (exact up to 2^53), or null where Python raises ValueError. */
export function parsePyInt(text: string, base: 2 | 8 | 10 | 16 = 10): number | null {
  const value = pyInt(text, base);
  return value === null ? null : Number(value);
}

/** str(int) for an exact integer (bigint), a whole JS number, or a bool (True/False print as such only through repr). */
export function pyIntStr(value: bigint | number): string {
  if (typeof value === "number" && !Number.isInteger(value)) throw new TypeError(`${value} is not an integer`);
  return BigInt(value).toString();
}

const DIGITS = "\\d(?:_?\\d)*";
const FLOAT = new RegExp(`^[+-]?(?:${DIGITS}\\.(?:${DIGITS})?|\\.${DIGITS}|${DIGITS})(?:[eE][+-]?${DIGITS})?$`);
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** float(text), or null where Python raises ValueError (underscores between digits and any Unicode digit accepted). */
export function parsePyFloat(text: string): number | null {
  const ascii = asciiDigits(numberStrip(text));
  const special = SPECIAL.exec(ascii);
  if (special) {
    if (special[2]!.toLowerCase() === "nan") return Number.NaN;
    return special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!FLOAT.test(ascii)) return null;
  return Number(ascii.replaceAll("_", ""));
}

/** repr(float) (also str()): shortest round-trip digits, exponent form below 1e-4 and from 1e16, always a ".0" otherwise. */
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
