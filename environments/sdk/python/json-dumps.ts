// Python's json.dumps with its defaults (", " and ": " separators, ensure_ascii), for text a model sees byte for byte.
import { pyFloatRepr } from "./numbers.js";

function pythonNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  // A JSON number that is whole was an int on the Python side as often as not; print it as one.
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  return pyFloatRepr(value);
}

function pythonString(value: string): string {
  // JSON.stringify escapes quotes, backslashes and control characters as Python does; ensure_ascii escapes the rest.
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `json.dumps(value, default=str)` as NeMo Gym calls it; values JSON cannot hold become their string form. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "string") return pythonString(value);
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object") {
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === "function") return pythonJsonDumps(withJson.toJSON());
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${pythonString(k)}: ${pythonJsonDumps(v)}`).join(", ")}}`;
  }
  return pythonString(String(value));
}
