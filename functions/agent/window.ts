// How many rollouts run at once: as many as keep the CPU busy, so the number follows the model's latency (Little's law:
// in flight = throughput × time per rollout). A 2 s model needs ~100 times the rollouts in flight a 20 ms one does for
// the same throughput, and a 60 s model 30 times more again; a fixed batch is right for one latency only.
//
// The signal is the event loop's lag (how late a timer fires): low lag with the window full means the CPU waits on the
// model, so the window grows (multiplicatively, to reach thousands within seconds); high lag means the CPU is the
// bottleneck, so it shrinks (more in flight would add memory and latency, not throughput). Between the two it holds.

export interface WindowOptions {
  /** Never fewer than this in flight (when there is work). */
  min: number;
  /** Never more: sockets, memory (~150 KB of workerd per rollout in flight) and the model's own capacity. */
  max: number;
  /** Where the window starts. */
  initial: number;
  /** Lag below this, with the window full, grows the window (ms). */
  growBelowMs: number;
  /** Lag above this shrinks it (ms). */
  shrinkAboveMs: number;
  /** Growth per observation when the CPU idles (×), and the cut when it is overloaded (×). */
  growth: number;
  cut: number;
}

export const WINDOW_DEFAULTS: Omit<WindowOptions, "max"> = {
  min: 16,
  initial: 64,
  growBelowMs: 4,
  shrinkAboveMs: 30,
  growth: 1.5,
  cut: 0.8,
};

export class ConcurrencyWindow {
  private current: number;
  private readonly options: WindowOptions;

  constructor(options: Partial<WindowOptions> & { max: number }) {
    this.options = { ...WINDOW_DEFAULTS, ...options };
    const { min, max } = this.options;
    if (!(min >= 1 && max >= min)) throw new RangeError(`window bounds must satisfy 1 ≤ min ≤ max, got min ${min}, max ${max}`);
    this.current = clamp(Math.round(this.options.initial), min, max);
  }

  /** Rollouts allowed in flight now. */
  get limit(): number {
    return this.current;
  }

  /**
   * One observation: the event loop's lag since the last one (ms) and how many rollouts were in flight. Returns the new limit.
   * Growth needs demand (the window at least 90% used): an idle runner does not inflate a limit it never tests.
   */
  observe(lagMs: number, inFlight: number): number {
    const { min, max, growBelowMs, shrinkAboveMs, growth, cut } = this.options;
    if (lagMs > shrinkAboveMs) this.current = clamp(Math.floor(this.current * cut), min, max);
    else if (lagMs < growBelowMs && inFlight >= this.current * 0.9) this.current = clamp(Math.ceil(this.current * growth), min, max);
    return this.current;
  }
}

function clamp(x: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, x));
}
