// Fault injection for reliability tests: a configured share of answers fail, drop the connection, or come back garbled.
import { seededRandom } from "./latency.js";

export interface FaultOptions {
  /** Share of chat completions answered with an error status (0–1). */
  errorRate?: number;
  /** The status (or statuses, picked uniformly) of injected errors; default 503. */
  errorStatus?: number | number[];
  /** Share of chat completions whose connection is closed without an answer. */
  dropRate?: number;
  /** Share of chat completions answered 200 with a body cut short. */
  malformedRate?: number;
  /** Share of chat completions never answered (a timeout for the client): held for hangMs, then dropped. */
  hangRate?: number;
  /** How long a hung request is held (default 10 minutes; closing the simulator ends it). */
  hangMs?: number;
  /** Share of chat completions delayed by spikeMs on top of their latency (a latency spike). */
  spikeRate?: number;
  spikeMs?: number;
}

export type Fault = { kind: "error"; status: number } | { kind: "drop" } | { kind: "malformed" } | { kind: "hang"; ms: number } | null;

function rate(value: number | undefined, name: string): number {
  const r = value ?? 0;
  if (!(r >= 0 && r <= 1)) throw new Error(`faults.${name} must be between 0 and 1, got ${String(value)}`);
  return r;
}

/** Draws the fault (or none) for each request, reproducibly from a seed. */
export function faultSampler(options: FaultOptions | undefined, seed: number): () => Fault {
  const drop = rate(options?.dropRate, "dropRate");
  const malformed = rate(options?.malformedRate, "malformedRate");
  const error = rate(options?.errorRate, "errorRate");
  const hang = rate(options?.hangRate, "hangRate");
  const hangMs = options?.hangMs ?? 600_000;
  if (drop + malformed + error + hang > 1) throw new Error("faults: dropRate + malformedRate + errorRate + hangRate must not exceed 1");
  const statuses = [options?.errorStatus ?? 503].flat();
  for (const status of statuses)
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new Error(`faults.errorStatus ${status} is not an error status`);
  if (drop + malformed + error + hang === 0) return () => null;
  const random = seededRandom(seed ^ 0x5eed);
  return () => {
    const u = random();
    if (u < drop) return { kind: "drop" };
    if (u < drop + malformed) return { kind: "malformed" };
    if (u < drop + malformed + error) return { kind: "error", status: statuses[Math.floor(random() * statuses.length)]! };
    if (u < drop + malformed + error + hang) return { kind: "hang", ms: hangMs };
    return null;
  };
}

/** Extra milliseconds for each request: spikeMs for a spikeRate share of them, reproducibly from a seed. */
export function spikeSampler(options: FaultOptions | undefined, seed: number): () => number {
  const share = rate(options?.spikeRate, "spikeRate");
  const ms = options?.spikeMs ?? 0;
  if (share === 0 || ms <= 0) return () => 0;
  const random = seededRandom(seed ^ 0x5b1e);
  return () => (random() < share ? ms : 0);
}
