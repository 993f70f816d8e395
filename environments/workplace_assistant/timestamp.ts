// pd.Timestamp(value) for the forms the workplace tools meet: ISO 8601, month/day/year, month names, epoch numbers.
import { PyError, type PyValue } from "./python.js";

/** A parsed timestamp: nanoseconds of the wall clock read as UTC, and the UTC offset in minutes when tz-aware. */
export interface Timestamp {
  ns: bigint;
  offsetMinutes: number | null;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH_NAME =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const TIME = String.raw`(?:[T ]+(\d{1,2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?)?`;
const ZONE = String.raw`\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?)?`;
/** YYYY[-MM[-DD]] with -, / or . between the parts (or none: YYYYMMDD), then an optional time and zone. */
const ISO = new RegExp(String.raw`^(\d{4})(?:([-/.]?)(\d{1,2})(?:\2(\d{1,2}))?)?${TIME}${ZONE}$`, "i");
/** MM/DD/YYYY (dateutil reads month first). */
const US = new RegExp(String.raw`^(\d{1,2})([-/.])(\d{1,2})\2(\d{4})${TIME}${ZONE}$`, "i");
/** "November 30, 2023", "Nov 30 2023". */
const MONTH_DAY_YEAR = new RegExp(String.raw`^${MONTH_NAME}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${TIME}${ZONE}$`, "i");
/** "30 November 2023". */
const DAY_MONTH_YEAR = new RegExp(String.raw`^(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH_NAME}\.?,?\s+(\d{4})${TIME}${ZONE}$`, "i");

interface Parts {
  year: number;
  month: number;
  day: number;
  time: (string | undefined)[];
  zone: string | undefined;
}

function unparseable(text: string): PyError {
  return new PyError("ValueError", `Unknown datetime string format, unable to parse: ${text}`);
}

function partsOf(text: string): Parts | null {
  let m = ISO.exec(text);
  if (m) return { year: +m[1]!, month: m[3] ? +m[3] : 1, day: m[4] ? +m[4] : 1, time: m.slice(5, 9), zone: m[9] };
  m = US.exec(text);
  if (m) return { year: +m[4]!, month: +m[1]!, day: +m[3]!, time: m.slice(5, 9), zone: m[9] };
  m = MONTH_DAY_YEAR.exec(text);
  if (m) return { year: +m[3]!, month: MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase()) + 1, day: +m[2]!, time: m.slice(4, 8), zone: m[8] };
  m = DAY_MONTH_YEAR.exec(text);
  if (m) return { year: +m[3]!, month: MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1, day: +m[1]!, time: m.slice(4, 8), zone: m[8] };
  return null;
}

function offsetOf(zone: string | undefined): number | null {
  if (zone === undefined) return null;
  if (/^(z|utc)$/i.test(zone)) return 0;
  const digits = zone.replace(":", "");
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || "0");
  return zone.startsWith("-") ? -minutes : minutes;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;

/** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const year = m <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function fromParts(text: string, p: Parts): Timestamp {
  const [h, mi, s] = p.time.slice(0, 3).map((t) => Number(t ?? 0)) as [number, number, number];
  const fraction = p.time[3] ?? "";
  // Python's datetime refuses what JS's Date would roll over (2023-02-30, 24:00).
  if (p.year < 1 || p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysIn(p.year, p.month) || h > 23 || mi > 59 || s > 59) {
    throw unparseable(text);
  }
  const seconds = BigInt(daysFromCivil(p.year, p.month, p.day)) * 86_400n + BigInt(h * 3600 + mi * 60 + s);
  return { ns: seconds * 1_000_000_000n + BigInt(fraction.padEnd(9, "0") || "0"), offsetMinutes: offsetOf(p.zone) };
}

/** pd.Timestamp(value): ValueError for text it cannot read, TypeError for a bool, epoch nanoseconds for a number. */
export function toTimestamp(value: PyValue): Timestamp {
  if (typeof value === "boolean") throw new PyError("TypeError", `Cannot convert input [${value ? "True" : "False"}] of type <class 'bool'> to Timestamp`);
  if (typeof value === "number") return { ns: BigInt(Math.trunc(value)), offsetMinutes: null };
  if (value === null) throw new PyError("ValueError", "could not convert None to Timestamp");
  const text = value.trim();
  if (/^(now|today)$/i.test(text)) return { ns: BigInt(Date.now()) * 1_000_000n, offsetMinutes: null };
  const parts = partsOf(text);
  if (!parts) throw unparseable(value);
  return fromParts(value, parts);
}

const NS_PER_DAY = 86_400_000_000_000n;
const NS_PER_MINUTE = 60_000_000_000n;

/** The instant, for ordering tz-aware timestamps among themselves. */
const instant = (t: Timestamp): bigint => t.ns - BigInt(t.offsetMinutes ?? 0) * NS_PER_MINUTE;

/** Timestamp.date() as a day number: the wall-clock date, in its own zone when tz-aware. */
export function dateOf(t: Timestamp): bigint {
  const days = t.ns / NS_PER_DAY;
  return t.ns < 0n && t.ns % NS_PER_DAY !== 0n ? days - 1n : days;
}

/** a - b in sign: pandas refuses to order a tz-naive against a tz-aware timestamp. */
export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if ((a.offsetMinutes === null) !== (b.offsetMinutes === null)) throw new PyError("TypeError", "Cannot compare tz-naive and tz-aware timestamps");
  const d = instant(a) - instant(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}
