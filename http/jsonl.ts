// Lines of a streamed JSON Lines body: linear in its size (each byte looked at once), a line's length bounded while it streams.

/** A line as read: its text, or why it has none (too long, or not UTF-8). Line numbers are 1-based. */
export type RawLine =
  | { line: number; text: string }
  | { line: number; problem: "too_long"; bytes: number }
  | { line: number; problem: "invalid_utf8"; bytes: number };

export interface LineOptions {
  /** A line longer than this (in bytes, without its newline) is reported, never held whole in memory. */
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** A line whose text could not be read (see RawLine); thrown by `lines`, where a caller wants text or nothing. */
export class LineError extends Error {
  constructor(
    readonly line: number,
    readonly problem: "too_long" | "invalid_utf8",
    readonly bytes: number,
    readonly limit?: number,
  ) {
    super(
      problem === "too_long" ? `line ${line} is longer than ${limit} bytes (it has at least ${bytes})` : `line ${line} is not valid UTF-8 (${bytes} bytes)`,
    );
    this.name = "LineError";
  }
}

/** The parts as one array of `bytes` bytes (the one part itself when there is one). */
export function concat(parts: Uint8Array[], bytes: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * Every line of a byte stream, the last one included when it has no newline. A line over `maxLineBytes` is dropped as it
 * streams (its bytes counted, not kept) and reported as `too_long`; a line that is not UTF-8 is reported as `invalid_utf8`.
 */
export async function* readLines(stream: ReadableStream<Uint8Array>, options: LineOptions = {}): AsyncGenerator<RawLine> {
  const max = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
  // fatal: a byte sequence that is not UTF-8 is an error to report, not a U+FFFD to store silently.
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const reader = stream.getReader();
  let parts: Uint8Array[] = [];
  let bytes = 0;
  let tooLong = false;
  let line = 0;

  const finish = (): RawLine => {
    line++;
    const length = bytes;
    const kept = parts;
    parts = [];
    bytes = 0;
    if (tooLong) {
      tooLong = false;
      return { line, problem: "too_long", bytes: length };
    }
    let view = concat(kept, length);
    if (view.byteLength > 0 && view[view.byteLength - 1] === RETURN) view = view.subarray(0, view.byteLength - 1);
    try {
      return { line, text: decoder.decode(view) };
    } catch {
      // The decoder's only failure is bytes that are not UTF-8: reported as the line's problem.
      return { line, problem: "invalid_utf8", bytes: length };
    }
  };
  const keep = (piece: Uint8Array) => {
    bytes += piece.byteLength;
    if (tooLong) return;
    if (bytes > max) {
      tooLong = true;
      parts = [];
      return;
    }
    // A copy: the stream may reuse its chunk's memory once we read on.
    if (piece.byteLength > 0) parts.push(piece.slice());
  };

  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let start = 0;
      for (let end = value.indexOf(NEWLINE); end >= 0; end = value.indexOf(NEWLINE, start)) {
        keep(value.subarray(start, end));
        yield finish();
        start = end + 1;
      }
      keep(value.subarray(start));
    }
    if (bytes > 0 || tooLong) yield finish();
  } finally {
    reader.releaseLock();
  }
}

/** The text of each line (`\r\n` or `\n`); a line that cannot be read throws a LineError. */
export async function* lines(stream: ReadableStream<Uint8Array>, options: LineOptions = {}): AsyncGenerator<string> {
  for await (const read of readLines(stream, options)) {
    if ("text" in read) yield read.text;
    else throw new LineError(read.line, read.problem, read.bytes, options.maxLineBytes);
  }
}
