// Python's str indexing, slicing, find/count/replace and zfill, all by code point (not UTF-16 unit).
import { PyError } from "./errors.js";

/**
 * The start and end of s[start:end] as str.find/count read them (stringlib's ADJUST_INDICES): negative from the end
 * and at least 0; end at most the length, start not capped (so "".find("", 1) is -1).
 */
function bounds(length: number, start: number | null | undefined, end: number | null | undefined): [number, number] {
  const from = start ?? 0;
  const to = end ?? length;
  return [from < 0 ? Math.max(0, from + length) : from, to < 0 ? Math.max(0, to + length) : Math.min(to, length)];
}

/** s[i]: one code point; negative counts from the end; IndexError past either end. */
export function pyIndex(text: string, index: number): string {
  const points = [...text];
  const i = index < 0 ? index + points.length : index;
  if (i < 0 || i >= points.length) throw new PyError("IndexError", "string index out of range");
  return points[i]!;
}

/** s[start:stop:step] with Python's defaults and clamping; step 0 raises ValueError. */
export function pySlice(text: string, start?: number | null, stop?: number | null, step?: number | null): string {
  const points = [...text];
  const n = points.length;
  const by = step ?? 1;
  if (by === 0) throw new PyError("ValueError", "slice step cannot be zero");
  if (by > 0) {
    const [from, to] = bounds(n, start, stop).map((i) => Math.min(i, n)) as [number, number];
    let out = "";
    for (let i = from; i < to; i += by) out += points[i];
    return out;
  }
  // A negative step walks back from start (default: the last character) to just after stop (default: before the first).
  const norm = (i: number) => (i < 0 ? Math.max(i + n, -1) : Math.min(i, n - 1));
  const from = start === undefined || start === null ? n - 1 : norm(start);
  const to = stop === undefined || stop === null ? -1 : norm(stop);
  let out = "";
  for (let i = from; i > to; i += by) out += points[i];
  return out;
}

/** str.find(sub, start, end): the code-point index of the first occurrence in s[start:end], or -1. */
export function pyFind(text: string, sub: string, start?: number | null, end?: number | null): number {
  const points = [...text];
  const [from, to] = bounds(points.length, start, end);
  if (from > to) return -1;
  const window = points.slice(from, to).join("");
  const at = window.indexOf(sub);
  return at === -1 ? -1 : from + [...window.slice(0, at)].length;
}

/** str.count(sub, start, end): non-overlapping occurrences; an empty sub counts every position. */
export function pyCount(text: string, sub: string, start?: number | null, end?: number | null): number {
  const points = [...text];
  const [from, to] = bounds(points.length, start, end);
  if (from > to) return 0;
  if (sub === "") return to - from + 1;
  return points.slice(from, to).join("").split(sub).length - 1;
}

/** str.replace(old, new, count=-1): an empty old inserts between code points (not UTF-16 units). */
export function pyReplace(text: string, old: string, replacement: string, count = -1): string {
  const pieces = old === "" ? ["", ...text, ""] : text.split(old);
  const joins = pieces.length - 1;
  const used = count < 0 ? joins : Math.min(count, joins);
  if (old === "") return pieces.slice(0, used + 1).join(replacement) + pieces.slice(used + 1).join("");
  return pieces.slice(0, used + 1).join(replacement) + (used < joins ? old + pieces.slice(used + 1).join(old) : "");
}

/** str.zfill(width): zeros after a leading sign, up to width code points. */
export function pyZfill(text: string, width: number): string {
  const fill = width - [...text].length;
  if (fill <= 0) return text;
  const signed = text.startsWith("+") || text.startsWith("-");
  return signed ? text[0] + "0".repeat(fill) + text.slice(1) : "0".repeat(fill) + text;
}
