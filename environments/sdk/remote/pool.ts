// A remote environment's pool members: which one a new session goes to (skipping one that keeps failing), and how many
// calls each has in flight (the configured concurrency), per isolate / process.

/** Failures in a row that take a member out of the choice for new sessions, and for how long. */
export const DOWN_AFTER = 3;
export const COOL_DOWN_MS = 30_000;

interface Member {
  failures: number;
  downUntil: number;
  inFlight: number;
  waiting: (() => void)[];
}

export class Pool {
  readonly #members = new Map<string, Member>();
  #next = 0;

  constructor(
    readonly urls: readonly string[],
    readonly concurrency: number,
  ) {
    for (const url of urls) this.#members.set(url, { failures: 0, downUntil: 0, inFlight: 0, waiting: [] });
  }

  #member(url: string): Member {
    const member = this.#members.get(url);
    if (!member) throw new Error("not a pool member");
    return member;
  }

  /** The members to try for a new session, in order: round robin over the healthy ones, then the cooling ones. */
  order(now = Date.now()): string[] {
    const start = this.#next++ % this.urls.length;
    const rotated = [...this.urls.slice(start), ...this.urls.slice(0, start)];
    const up = rotated.filter((url) => this.#member(url).downUntil <= now);
    const down = rotated.filter((url) => this.#member(url).downUntil > now);
    return [...up, ...down];
  }

  succeeded(url: string): void {
    this.#member(url).failures = 0;
  }

  failed(url: string, now = Date.now()): void {
    const member = this.#member(url);
    member.failures++;
    if (member.failures >= DOWN_AFTER) member.downUntil = now + COOL_DOWN_MS;
  }

  isDown(url: string, now = Date.now()): boolean {
    return this.#member(url).downUntil > now;
  }

  /** Runs `work` once the member has a free slot; the slot is given back however it ends. */
  async limited<T>(url: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const member = this.#member(url);
    while (member.inFlight >= this.concurrency) {
      if (signal.aborted) throw signal.reason;
      await new Promise<void>((resolve) => {
        member.waiting.push(resolve);
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
    }
    member.inFlight++;
    try {
      return await work();
    } finally {
      member.inFlight--;
      member.waiting.shift()?.();
    }
  }
}
