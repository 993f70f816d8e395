// Structured output as vLLM's guided decoding gives it: for `response_format`, a JSON value that conforms to the schema, chosen deterministically from the prompt.
import type { ResponseFormat } from "./schema.js";
import { isRecord, words } from "./text.js";

/**
 * A schema the simulator cannot honour: an assertion keyword it does not generate for (vLLM answers 400 for a schema
 * its grammar backend cannot compile), or constraints no value meets.
 */
export class UnsupportedSchemaError extends Error {
  constructor(
    readonly keyword: string,
    readonly at: string,
  ) {
    super(`The provided JSON schema contains features not supported by the simulator: '${keyword}' at ${at}`);
    this.name = "UnsupportedSchemaError";
  }
}

type Schema = Record<string, unknown> | boolean;

// Keywords that only describe (vLLM's backends ignore them too); anything else unknown is refused rather than ignored.
const ANNOTATIONS = new Set([
  "title",
  "description",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "definitions",
  "nullable",
]);
const HANDLED = new Set([
  "type",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "properties",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minLength",
  "maxLength",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
]);
// A fixed value per string format: what a model constrained by that format would plausibly write.
const FORMATS: Record<string, string> = {
  "date-time": "2024-01-01T00:00:00Z",
  date: "2024-01-01",
  time: "00:00:00Z",
  email: "user@example.com",
  hostname: "example.com",
  uri: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
};
const MAX_DEPTH = 32;
const MAX_VARIANTS = 64;

/** FNV-1a: a stable 32-bit hash, so the same prompt picks the same enum members run after run. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

class Generator {
  private readonly words: string[];

  constructor(
    private readonly root: Schema,
    private readonly prompt: string,
  ) {
    this.words = words(prompt).slice(0, 12);
  }

  /** A stable choice among `n`, per prompt, per place in the value and per variant (another try for a unique item). */
  private pick(n: number, at: string, variant: number): number {
    return hash(`${at}\u0000${variant}\u0000${this.prompt}`) % n;
  }

  value(schema: Schema, at: string, depth = 0, variant = 0): unknown {
    if (depth > MAX_DEPTH) throw new UnsupportedSchemaError("$ref", `${at} (recursion deeper than ${MAX_DEPTH})`);
    if (schema === true) return this.text({}, variant, at);
    if (schema === false) throw new UnsupportedSchemaError("false", at);
    for (const key of Object.keys(schema)) {
      if (!HANDLED.has(key) && !ANNOTATIONS.has(key)) throw new UnsupportedSchemaError(key, at);
    }
    if (typeof schema.$ref === "string") {
      // Keywords beside a $ref (pydantic's description, a narrowed bound) apply together with the target's.
      const { $ref, ...beside } = schema;
      const target = this.resolve($ref, at);
      return this.value(isRecord(target) ? { ...target, ...beside } : target, at, depth + 1, variant);
    }
    if (Array.isArray(schema.allOf)) return this.value(this.merged(schema, at), at, depth + 1, variant);
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) {
      if (schema.enum.length === 0) throw new UnsupportedSchemaError("enum", at);
      return schema.enum[this.pick(schema.enum.length, at, variant)];
    }
    // The first alternative: pydantic lists an Optional's real type before null, and the first is always a valid choice.
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(alternatives)) {
      const first: unknown = alternatives[0];
      if (!isRecord(first) && typeof first !== "boolean") throw new UnsupportedSchemaError(schema.anyOf ? "anyOf" : "oneOf", at);
      return this.value(first, at, depth + 1, variant);
    }
    switch (typeOf(schema)) {
      case "object":
        return this.object(schema, at, depth, variant);
      case "array":
        return this.array(schema, at, depth, variant);
      case "integer":
        return this.number(schema, at, true, variant);
      case "number":
        return this.number(schema, at, false, variant);
      // A flag a model has no evidence for stays off (and rules like "a flag requires X" hold); another variant flips it.
      case "boolean":
        return variant % 2 === 1;
      case "null":
        return null;
      default:
        return this.text(schema, variant, at);
    }
  }

  private resolve(ref: string, at: string): Schema {
    if (!ref.startsWith("#")) throw new UnsupportedSchemaError("$ref", `${at} (only local references: ${ref})`);
    let target: unknown = this.root;
    for (const raw of ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isRecord(target) ? target[key] : undefined;
    }
    if (!isRecord(target) && typeof target !== "boolean") throw new UnsupportedSchemaError("$ref", `${at} (${ref} not found)`);
    return target;
  }

  /** allOf folded into one schema: properties and required united, other keywords from the last part that sets them. */
  private merged(schema: Record<string, unknown>, at: string): Schema {
    const { allOf, ...rest } = schema;
    let out: Record<string, unknown> = { ...rest };
    for (const part of allOf as unknown[]) {
      let resolved: unknown = part;
      for (let hops = 0; isRecord(resolved) && typeof resolved.$ref === "string"; hops++) {
        if (hops > MAX_DEPTH) throw new UnsupportedSchemaError("$ref", `${at} (recursion deeper than ${MAX_DEPTH})`);
        resolved = this.resolve(resolved.$ref, at);
      }
      if (resolved === true) continue;
      if (!isRecord(resolved)) throw new UnsupportedSchemaError("allOf", at);
      const properties = { ...asRecord(out.properties), ...asRecord(resolved.properties) };
      const required = [...new Set([...stringsOf(out.required), ...stringsOf(resolved.required)])];
      out = { ...out, ...resolved, properties, required };
    }
    return out;
  }

  private object(schema: Record<string, unknown>, at: string, depth: number, variant: number): Record<string, unknown> {
    const properties = asRecord(schema.properties);
    const names = stringsOf(schema.required);
    const least = typeof schema.minProperties === "number" ? schema.minProperties : 0;
    for (const name of Object.keys(properties)) if (names.length < least && !names.includes(name)) names.push(name);
    if (names.length < least) throw new UnsupportedSchemaError("minProperties", at);
    if (typeof schema.maxProperties === "number" && names.length > schema.maxProperties) throw new UnsupportedSchemaError("maxProperties", at);
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const property = properties[name];
      const sub = isRecord(property) || typeof property === "boolean" ? property : isRecord(schema.additionalProperties) ? schema.additionalProperties : true;
      if (!(name in properties) && schema.additionalProperties === false) throw new UnsupportedSchemaError("required", `${at}.${name}`);
      out[name] = this.value(sub, `${at}.${name}`, depth + 1, variant);
    }
    return out;
  }

  private array(schema: Record<string, unknown>, at: string, depth: number, variant: number): unknown[] {
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
    const least = typeof schema.minItems === "number" ? schema.minItems : 0;
    let most = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
    if (schema.items === false) most = Math.min(most, prefix.length);
    // One item when allowed, as a model answering a list usually writes something; more only when the schema asks.
    const count = Math.min(Math.max(least, 1), most);
    if (count < least) throw new UnsupportedSchemaError("minItems", at);
    const items = isRecord(schema.items) || typeof schema.items === "boolean" ? schema.items : true;
    const unique = schema.uniqueItems === true;
    const seen = new Set<string>();
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      // uniqueItems: other variants of an item until one differs from those before it.
      for (let k = 0; ; k++) {
        const item = this.value(prefix[i] ?? items, `${at}[${i}]`, depth + 1, variant + k);
        const key = JSON.stringify(item);
        if (!unique || !seen.has(key)) {
          seen.add(key);
          out.push(item);
          break;
        }
        if (k >= MAX_VARIANTS) throw new UnsupportedSchemaError("uniqueItems", at);
      }
    }
    return out;
  }

  private number(schema: Record<string, unknown>, at: string, integer: boolean, variant: number): number {
    const bound = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);
    const [min, max, exMin, exMax] = [bound("minimum"), bound("maximum"), bound("exclusiveMinimum"), bound("exclusiveMaximum")];
    const fits = (v: number) =>
      (min === undefined || v >= min) && (max === undefined || v <= max) && (exMin === undefined || v > exMin) && (exMax === undefined || v < exMax);
    const step = bound("multipleOf") ?? (integer ? 1 : undefined);
    const low = Math.max(min ?? Number.NEGATIVE_INFINITY, exMin ?? Number.NEGATIVE_INFINITY);
    const high = Math.min(max ?? Number.POSITIVE_INFINITY, exMax ?? Number.POSITIVE_INFINITY);
    // A small offset the prompt decides (0 to 9, wider for later variants), counted into the range from a bound.
    const guess = this.pick(10 + variant, at, variant);
    let value = guess;
    if (Number.isFinite(low) && Number.isFinite(high)) value = low + (guess % (Math.floor(high - low) + 1));
    else if (Number.isFinite(low)) value = low + guess;
    else if (Number.isFinite(high)) value = high - guess;
    if (step !== undefined) {
      // The nearest multiples of the step on either side; the first that fits.
      const up = Math.ceil(value / step) * step;
      value = [up, up + step, Math.floor(value / step) * step, up - step].find(fits) ?? Number.NaN;
    } else if (!fits(value)) {
      value = Number.isFinite(high) ? (Number.isFinite(low) ? (low + high) / 2 : high - 1) : low + 1;
    }
    if (!fits(value)) throw new UnsupportedSchemaError(step === undefined ? "exclusiveMaximum" : "multipleOf", at);
    return value;
  }

  private text(schema: Record<string, unknown>, variant: number, at: string): string {
    const format = schema.format;
    if (typeof format === "string") {
      const fixed = FORMATS[format];
      if (fixed === undefined) throw new UnsupportedSchemaError("format", `${at} (${format})`);
      return fixed;
    }
    const least = typeof schema.minLength === "number" ? schema.minLength : 0;
    const most = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
    if (least > most) throw new UnsupportedSchemaError("minLength", at);
    // The prompt's own words, as a model echoing its task would write them, cut or repeated to fit the length bounds;
    // a variant is numbered in front, so a cut keeps it.
    const words = this.words.length > 0 ? this.words.slice(0, 8).join(" ") : "example";
    const base = variant > 0 ? `${variant} ${words}` : words;
    let chars = Array.from(base);
    while (chars.length < least) chars = [...chars, " ", ...Array.from(words)];
    return chars.slice(0, Math.min(chars.length, most)).join("").trimEnd().padEnd(least, ".");
  }
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type.find((t) => t !== "null") ?? type[0]) as string | undefined;
  if (typeof type === "string") return type;
  if (schema.properties !== undefined || schema.required !== undefined) return "object";
  if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
  return undefined;
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * The content a guided decode would give, or null when the format leaves the text free (`text`, no format).
 * `json_object` gives an object; a `json_schema` without a schema gives one too. Throws UnsupportedSchemaError.
 */
export function structuredContent(format: ResponseFormat | null | undefined, prompt: string): string | null {
  if (!format || format.type === "text") return null;
  const schema = format.type === "json_schema" ? format.json_schema.schema : undefined;
  const root: Schema = schema ?? { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };
  return JSON.stringify(new Generator(root, prompt).value(root, "$"));
}
