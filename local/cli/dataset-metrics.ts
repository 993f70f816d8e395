// NeMo Gym's dataset metrics (train_data_utils.py: DatasetMetrics): examples, tools, words, turns, temperature, task fields.
import type { DatasetRow } from "../../protocol/index.js";

/** Python's round(x, digits): correctly rounded, an exact tie to even (toFixed alone rounds a tie up). */
export function pythonRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  const [whole = "0", fraction = ""] = Math.abs(x).toFixed(100).split(".");
  const rest = fraction.slice(digits);
  if (/^50*$/.test(rest)) {
    const kept = BigInt(whole + fraction.slice(0, digits));
    const even = kept % 2n === 0n ? kept : kept + 1n;
    return Math.sign(x) * Number(`${even}e-${digits}`);
  }
  return Number(x.toFixed(digits));
}

/** NeMo Gym's AvgMinMax: a running mean and variance (Welford), mergeable (Chan et al.), sample standard deviation. */
export class AvgMinMax {
  total = 0;
  mean = 0;
  m2 = 0;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;

  observe(x: number): void {
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    this.total++;
    const delta = x - this.mean;
    this.mean += delta / this.total;
    this.m2 += delta * (x - this.mean);
  }

  add(other: AvgMinMax): void {
    if (other.total === 0) return;
    if (this.total === 0) {
      Object.assign(this, { total: other.total, mean: other.mean, m2: other.m2, min: other.min, max: other.max });
      return;
    }
    const n = this.total + other.total;
    const delta = other.mean - this.mean;
    this.mean += delta * (other.total / n);
    this.m2 += other.m2 + delta * delta * ((this.total * other.total) / n);
    this.total = n;
    this.min = Math.min(this.min, other.min);
    this.max = Math.max(this.max, other.max);
  }

  /** The JSON NeMo Gym writes, with its aliases; floats rounded to 2 places (|x| ≥ 1) or 3. */
  toJSON(): Record<string, number> {
    const n = this.total;
    const round = (x: number) => (Number.isInteger(x) ? x : pythonRound(x, Math.abs(x) >= 1 ? 2 : 3));
    return {
      "Total # non-null values": n,
      Average: round(n > 0 ? this.mean : 0),
      Min: round(n > 0 ? this.min : 0),
      Max: round(n > 0 ? this.max : 0),
      "Standard deviation": round(n > 1 ? Math.sqrt(this.m2 / (n - 1)) : 0),
    };
  }
}

/** cyrb53: a 53-bit string hash, so unique counts hold one number per distinct value, not the value itself. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** NeMo Gym's StringMetrics: how many values, how many distinct. */
class StringCounts {
  total = 0;
  readonly seen = new Set<number>();
  observe(value: string): void {
    this.total++;
    this.seen.add(hash53(value));
  }
  add(other: StringCounts): void {
    this.total += other.total;
    for (const h of other.seen) this.seen.add(h);
  }
  toJSON(): { unique_count: number; total_count: number } {
    return { unique_count: this.seen.size, total_count: this.total };
  }
}

/** Python's json.dumps(value) word count: its separators are ", " and ": ", so each adds a word break. */
export function jsonDumpedWords(value: unknown): number {
  const dump = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(dump).join(", ")}]`;
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      return `{${entries.map(([k, x]) => `${JSON.stringify(k)}: ${dump(x)}`).join(", ")}}`;
    }
    return JSON.stringify(v ?? null);
  };
  // Python escapes every non-ASCII character (ensure_ascii) and every control character, so only " " splits words.
  return dump(value)
    .split(" ")
    .filter((word) => word !== "").length;
}

/** The metrics of a set of rows, accumulated one row at a time; two sets merge. */
export class DatasetMetrics {
  examples = 0;
  readonly tools = new AvgMinMax();
  readonly words = new AvgMinMax();
  readonly turns = new AvgMinMax();
  readonly temperature = new AvgMinMax();
  /** Task fields (every top-level field but responses_create_params and response): numbers or strings. */
  readonly fields = new Map<string, AvgMinMax | StringCounts>();

  /** One row as written in the file (a valid DatasetRow, before parsing adds defaults), counted `times` times. */
  observe(row: DatasetRow, times = 1): void {
    const params = row.responses_create_params;
    const input: unknown[] = typeof params.input === "string" ? [{ role: "user" }] : params.input;
    const users = input.filter((item) => (item as { role?: unknown }).role === "user").length;
    const words = jsonDumpedWords(params);
    for (let i = 0; i < times; i++) {
      this.examples++;
      if (params.tools != null) this.tools.observe(params.tools.length);
      if (users > 0) this.turns.observe(users);
      if (typeof params.temperature === "number") this.temperature.observe(params.temperature);
      this.words.observe(words);
      for (const [key, value] of Object.entries(row)) {
        if (key === "responses_create_params" || key === "response") continue;
        for (const item of Array.isArray(value) ? value : [value]) this.observeField(key, item);
      }
    }
  }

  private observeField(key: string, item: unknown): void {
    const number = typeof item === "boolean" ? Number(item) : item;
    const existing = this.fields.get(key);
    if (typeof number === "number") {
      const stat = existing ?? new AvgMinMax();
      // A field that is a string in one row and a number in another keeps its first kind (NeMo Gym stops there).
      if (stat instanceof AvgMinMax) {
        stat.observe(number);
        this.fields.set(key, stat);
      }
    } else if (typeof number === "string") {
      const stat = existing ?? new StringCounts();
      if (stat instanceof StringCounts) {
        stat.observe(number);
        this.fields.set(key, stat);
      }
    }
  }

  add(other: DatasetMetrics): void {
    this.examples += other.examples;
    this.tools.add(other.tools);
    this.words.add(other.words);
    this.turns.add(other.turns);
    this.temperature.add(other.temperature);
    for (const [key, stat] of other.fields) {
      const mine = this.fields.get(key);
      if (!mine) {
        const copy = stat instanceof AvgMinMax ? new AvgMinMax() : new StringCounts();
        (copy as { add(o: typeof stat): void }).add(stat);
        this.fields.set(key, copy);
      } else if (mine instanceof AvgMinMax && stat instanceof AvgMinMax) mine.add(stat);
      else if (mine instanceof StringCounts && stat instanceof StringCounts) mine.add(stat);
    }
  }

  /** NeMo Gym's `<name>_metrics.json` body (by alias). */
  toJSON(): Record<string, unknown> {
    return {
      "Number of examples": this.examples,
      "Number of tools": this.tools.toJSON(),
      "Json-dumped number of words (proxy for token count)": this.words.toJSON(),
      "Number of turns": this.turns.toJSON(),
      Temperature: this.temperature.toJSON(),
      ...Object.fromEntries([...this.fields].map(([key, stat]) => [key, stat.toJSON()])),
    };
  }
}
