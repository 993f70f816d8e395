// Python's round() and format(x, ".2f" / ".3e" / ".4g" / ".1%"): decimal rounding of a double's exact value, half to even.
import { PyError } from "./errors.js";

/** |x| exactly as digits × 10^-scale (a double is m × 2^e, so every one has a finite decimal expansion). */
function exactDecimal(x: number): { digits: bigint; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  if (exponent >= 0) return { digits: mantissa << BigInt(exponent), scale: 0 };
  return { digits: mantissa * 5n ** BigInt(-exponent), scale: -exponent };
}

/** digits × 10^-scale rounded to `places` decimals (negative: tens, hundreds...), half to even: q × 10^-places. */
function roundTo(digits: bigint, scale: number, places: number): bigint {
  if (scale <= places) return digits * 10n ** BigInt(places - scale);
  const unit = 10n ** BigInt(scale - places);
  const q = digits / unit;
  const twice = (digits % unit) * 2n;
  return twice > unit || (twice === unit && q % 2n === 1n) ? q + 1n : q;
}

/** q × 10^-places as a fixed-point string with exactly `places` decimals (places ≥ 0). */
function fixed(q: bigint, places: number): string {
  const s = q.toString().padStart(places + 1, "0");
  return places === 0 ? s : `${s.slice(0, -places)}.${s.slice(-places)}`;
}

/** round(x): the nearest integer, halves to even; ValueError for nan, OverflowError for infinities. */
export function pyRound(x: number): bigint;
/** round(x, ndigits): the double nearest the exact value of x rounded to ndigits decimals, halves to even. */
export function pyRound(x: number, ndigits: number): number;
export function pyRound(x: number, ndigits?: number): bigint | number {
  if (ndigits === undefined) {
    if (Number.isNaN(x)) throw new PyError("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(x)) throw new PyError("OverflowError", "cannot convert float infinity to integer");
    const q = roundTo(exactDecimal(x).digits, exactDecimal(x).scale, 0);
    return x < 0 ? -q : q;
  }
  if (!Number.isFinite(x) || x === 0 || ndigits > 323) return x;
  if (ndigits < -308) return x < 0 ? -0 : 0;
  const { digits, scale } = exactDecimal(x);
  const magnitude = Number(`${roundTo(digits, scale, ndigits)}e${-ndigits}`);
  if (!Number.isFinite(magnitude)) throw new PyError("OverflowError", "rounded value too large to represent");
  return x < 0 ? -magnitude : magnitude;
}

const SPEC = /^([+\- ]?)(#?)(?:\.(\d+))?([eEfFgG%])$/;

/** Special values as format() prints them: nan, inf (upper case for E, F, G). */
function special(x: number, upper: boolean): string | null {
  if (Number.isNaN(x)) return upper ? "NAN" : "nan";
  if (!Number.isFinite(x)) return upper ? "INF" : "inf";
  return null;
}

/** The decimal exponent of |x| once rounded to `significant` digits, and those digits. */
function scientific(x: number, significant: number): { q: bigint; exp: number } {
  if (x === 0) return { q: 0n, exp: 0 };
  const { digits, scale } = exactDecimal(x);
  let exp = digits.toString().length - 1 - scale;
  let q = roundTo(digits, scale, significant - 1 - exp);
  if (q.toString().length > significant) {
    exp++;
    q /= 10n;
  }
  return { q, exp };
}

function exponentForm(x: number, precision: number, alternate: boolean, e: string): string {
  const { q, exp } = scientific(x, precision + 1);
  const mantissa = fixed(q, precision);
  const point = alternate && precision === 0 ? "." : "";
  return `${mantissa}${point}${e}${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/** 'g': fixed or exponent form by the rounded exponent, trailing zeros dropped unless '#'. */
function generalForm(x: number, precision: number, alternate: boolean, upper: boolean): string {
  const p = precision === 0 ? 1 : precision;
  const { exp } = scientific(x, p);
  const trim = (s: string) => (alternate || !s.includes(".") ? s : s.replace(/\.?0+$/, ""));
  if (exp >= -4 && exp < p) {
    const places = p - 1 - exp;
    const { digits, scale } = exactDecimal(x);
    return trim(fixed(roundTo(digits, scale, places), places)) + (alternate && places === 0 ? "." : "");
  }
  const form = exponentForm(x, p - 1, alternate, upper ? "E" : "e");
  const [mantissa, tail] = form.split(/(?=[eE])/) as [string, string];
  return trim(mantissa) + tail;
}

/**
 * format(x, spec) for a float with spec `[sign][#][.precision]type`, type one of f F e E g G %: the exact value of
 * x rounded half to even (JS's toFixed rounds ties away from zero: 0.125 → "0.13" where Python prints "0.12").
 */
export function pyFormatFloat(x: number, spec: string): string {
  const m = SPEC.exec(spec);
  if (!m) throw new PyError("ValueError", `unsupported format spec ${JSON.stringify(spec)} (this layer takes [sign][#][.precision]type)`);
  // The pattern's groups: sign and `#` match empty when absent, precision is undefined then, the type always matches.
  const [, sign = "", hash = "", digits, type = ""] = m;
  const upper = type === "E" || type === "F" || type === "G";
  const value = type === "%" ? x * 100 : x;
  const precision = digits === undefined ? 6 : Number(digits);
  const negative = value < 0 || Object.is(value, -0);
  const magnitude = Math.abs(value);
  let body = special(magnitude, upper);
  if (body === null) {
    const alternate = hash === "#";
    if (type === "e" || type === "E") body = exponentForm(magnitude, precision, alternate, type);
    else if (type === "g" || type === "G") body = generalForm(magnitude, precision, alternate, upper);
    else {
      const { digits: d, scale } = exactDecimal(magnitude);
      body = fixed(roundTo(d, scale, precision), precision) + (alternate && precision === 0 ? "." : "");
    }
  }
  if (type === "%") body += "%";
  const prefix = negative && !Number.isNaN(value) ? "-" : sign === "+" ? "+" : sign === " " ? " " : "";
  return prefix + body;
}
