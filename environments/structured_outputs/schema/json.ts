// Python values as the JSON values @cfworker/json-schema validates, and its errors as one readable message.
import type { OutputUnit } from "@cfworker/json-schema";
import { PyOpaque, isDict, pyRepr, type PyKey, type PyValue } from "../python/value.js";

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** The property a date, time, bytes or tuple value becomes: an object no schema names, so it fits no scalar `type`. */
export const OPAQUE = "\u0000python-value";
/** The prefix of a non-string dict key (YAML `1: x`, `yes: x`): a string no schema property can equal. */
const KEY = "\u0000python-key ";

const object = (): JsonObject => Object.create(null) as JsonObject;

function jsonKey(key: PyKey): string {
  return typeof key === "string" ? key : `${KEY}${pyRepr(key)}`;
}

/** A Python value as JSON: dicts become null-prototype objects (so "__proto__" stays an ordinary key). */
export function toJson(value: PyValue): Json {
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof PyOpaque) {
    const marked = object();
    marked[OPAQUE] = value.repr;
    return marked;
  }
  if (isDict(value)) {
    const out = object();
    for (const [key, item] of value) out[jsonKey(key)] = toJson(item);
    return out;
  }
  return value;
}

/** Python's repr of a value converted by toJson, for messages. */
function repr(value: Json | undefined): string {
  if (value === undefined) return "None";
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  if (value === null || typeof value !== "object") return pyRepr(value);
  if (typeof value[OPAQUE] === "string") return value[OPAQUE];
  const key = (k: string) => (k.startsWith(KEY) ? k.slice(KEY.length) : pyRepr(k));
  return `{${Object.entries(value)
    .map(([k, v]) => `${key(k)}: ${repr(v)}`)
    .join(", ")}}`;
}

/** The value a JSON pointer ("#/a/0", percent-encoded segments) names. */
function locate(root: Json, pointer: string): Json | undefined {
  let value: Json | undefined = root;
  for (const raw of pointer
    .replace(/^#\/?/, "")
    .split("/")
    .filter((s) => s !== "")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      // A malformed %-escape names no member: the pointer points nowhere, as a missing member does.
      return undefined;
    }
    if (Array.isArray(value)) value = value[Number(segment)];
    else if (value !== null && typeof value === "object") value = Object.hasOwn(value, segment) ? value[segment] : undefined;
    else return undefined;
  }
  return value;
}

/** The innermost error of the first failing chain, where it is, and the value there (Python's messages start with it). */
export function describeFailure(errors: OutputUnit[], root: Json): string {
  const error = errors[errors.length - 1];
  if (!error) return "invalid";
  return `${error.instanceLocation}: ${error.error} (${error.keyword} on ${repr(locate(root, error.instanceLocation))})`;
}
