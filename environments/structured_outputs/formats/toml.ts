// tomllib.loads (TOML 1.0) with smol-toml: tables become dicts, dates and times stay non-JSON values as in Python.
import { parse, TomlDate, TomlError } from "smol-toml";
import { pyDate, pyDateTime, pyTime } from "../python/datetime.js";
import { PyError, PyOpaque, type PyValue } from "../python/value.js";

/** tomllib gives datetime.date / datetime.time / datetime.datetime objects: none is a JSON Schema string. */
function dateValue(value: TomlDate): PyOpaque {
  const iso = value.toISOString();
  const m = /^(?:(\d{4})-(\d{2})-(\d{2}))?T?(?:(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?$/.exec(iso);
  if (!m) return new PyOpaque("datetime", iso);
  const n = (i: number) => Number(m[i] ?? 0);
  const microsecond = Number((m[7] ?? "").padEnd(6, "0").slice(0, 6));
  if (value.isDate()) return pyDate(n(1), n(2), n(3));
  if (value.isTime()) return pyTime(n(4), n(5), n(6), microsecond);
  const zone = m[8];
  const offsetMinutes =
    zone === undefined ? undefined : zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return pyDateTime({ year: n(1), month: n(2), day: n(3), hour: n(4), minute: n(5), second: n(6), microsecond, offsetMinutes });
}

function toPy(value: unknown): PyValue {
  if (value instanceof TomlDate) return dateValue(value);
  // Python's ints are unbounded; a JS number is close enough for JSON Schema checks.
  if (typeof value === "bigint") return Number(value);
  if (value === null || typeof value === "boolean" || typeof value === "number" || typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(toPy);
  if (typeof value === "object") return new Map(Object.entries(value).map(([k, v]) => [k, toPy(v)]));
  throw new PyError("TypeError", `unexpected TOML value ${typeof value}`);
}

/**
 * smol-toml lets JS Date roll 2024-02-30 over to March 1st; tomllib refuses it. Dates are checked in the
 * source with strings and comments blanked out, so a date-like string value is left alone.
 */
function checkDates(text: string): void {
  const code = text.replace(/"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'[^'\n]*'|#[^\n]*/g, (m) => " ".repeat(m.length));
  for (const [, year, month, day] of code.matchAll(/(?<![\w.-])(\d{4})-(\d{2})-(\d{2})/g)) {
    try {
      pyDate(Number(year), Number(month), Number(day));
    } catch {
      throw new PyError("TOMLDecodeError", "Invalid date or datetime");
    }
  }
}

export function tomlLoads(text: string): PyValue {
  try {
    const parsed = parse(text, { integersAsBigInt: "asNeeded" });
    checkDates(text);
    return toPy(parsed);
  } catch (error) {
    if (error instanceof TomlError) throw new PyError("TOMLDecodeError", error.message.split("\n")[0] ?? error.message);
    throw error;
  }
}
