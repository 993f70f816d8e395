// JSON from outside callers, within limits: nesting depth and string length are checked in one pass before parsing, so a
// hostile document is refused with a 4xx instead of overflowing a stack (JSON.stringify, structured clone) or a Worker's memory.
import { EdgegymError } from "../protocol/index.js";

export interface JsonLimits {
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** Longest string value or key, in characters of the JSON text (escapes counted as written). */
  maxStringLength: number;
}

/**
 * The limits at every entry. NeMo Gym's rows and responses nest a dozen levels at most and tool schemas a few more; a
 * model's context is well under a million characters, so a longer single string is an error or an attack.
 */
export const JSON_LIMITS: JsonLimits = { maxDepth: 128, maxStringLength: 4 * 1024 * 1024 };

/** A dataset row's JSON Lines line, in bytes: far above any real row, far below a Worker's memory. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Why a JSON text passes a limit (an EdgegymError to throw), or null. Malformed text is left for JSON.parse to name. */
export function jsonLimitError(text: string, what: string, limits: JsonLimits = JSON_LIMITS): EdgegymError | null {
  // Too short to pass either limit: nothing to scan.
  if (text.length <= limits.maxDepth && text.length <= limits.maxStringLength) return null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
      if (i - start - 1 > limits.maxStringLength) {
        return new EdgegymError(413, "string_too_long", `${what} holds a string longer than ${limits.maxStringLength} characters (at offset ${start})`);
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limits.maxDepth) {
        return new EdgegymError(400, "too_deeply_nested", `${what} nests arrays and objects more than ${limits.maxDepth} levels deep`);
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return null;
}

/** Parses an outside caller's JSON text within the limits; a 4xx EdgegymError says what is wrong. */
export function parseJsonWithin(text: string, what: string, limits: JsonLimits = JSON_LIMITS): unknown {
  const refused = jsonLimitError(text, what, limits);
  if (refused) throw refused;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EdgegymError(400, "invalid_json", `${what} is not valid JSON: ${reason}`);
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Bytes as UTF-8 text; bytes that are not UTF-8 are a 400 (JSON is UTF-8 by definition, RFC 8259). */
export function utf8Text(bytes: Uint8Array, what: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // The decoder fails only on bytes that are not UTF-8: answered as the caller's error.
    throw new EdgegymError(400, "invalid_utf8", `${what} is not valid UTF-8`);
  }
}

/**
 * A JSON body's content type: absent, JSON (`application/json`, `application/*+json`), or `text/plain` (what fetch()
 * labels any string body with, so a script that forgets the header is not refused); anything else is a 415.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return true;
  const type = header.split(";")[0]!.trim().toLowerCase();
  return type === "" || type === "application/json" || type === "text/plain" || (type.startsWith("application/") && type.endsWith("+json"));
}
