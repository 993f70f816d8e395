// An upstream's error body reduced to a short, printable reason: the message of an OpenAI/vLLM error envelope, never raw text or HTML.

export const REASON_MAX_CHARS = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Control and format characters (terminal escapes, bidi overrides, zero-width) out, whitespace runs as one space, bounded. */
export function printable(text: string, max = REASON_MAX_CHARS): string {
  const clean = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** The message an OpenAI or vLLM (`error.message`), or a FastAPI (`detail`) error body carries, if it has one. */
function envelopeMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const error = isRecord(body.error) ? body.error : body;
  for (const key of ["message", "detail"] as const) {
    const value = error[key];
    if (typeof value === "string" && value.trim()) return value;
    // FastAPI's validation errors: a list of { msg }.
    if (Array.isArray(value) && isRecord(value[0]) && typeof value[0].msg === "string") return value[0].msg;
  }
  if (typeof body.error === "string" && body.error.trim()) return body.error;
  return undefined;
}

/** The sanitized reason of an error body: its envelope's message, or only its size when it has none (HTML, plain text). */
export function upstreamReason(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${text.length}-character body that is not a JSON error`;
  }
  const message = envelopeMessage(body);
  const reason = message === undefined ? "" : printable(message);
  return reason || `a ${text.length}-character body with no error message`;
}
