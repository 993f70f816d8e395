// A batch held by a slow rollout need not hold its fast retries: while other work of the batch still runs, a rollout that
// failed (retryably) waits out its backoff here and runs again, instead of queueing behind the batch for redelivery.

/** Counts the batch's work in progress, and wakes the waiting retries the moment none is left. */
export class BatchWatch {
  private working = 0;
  private readonly sleepers = new Set<() => void>();

  begin(): void {
    this.working++;
  }

  end(): void {
    if (--this.working > 0) return;
    for (const wake of [...this.sleepers]) wake();
  }

  /**
   * Waits `ms` while other work of the batch runs: true when it waited in full (the caller runs again here), false when the
   * batch ran out of other work first, or had none (the caller hands the message back to the queue, `left()` ms later).
   */
  async wait(ms: number): Promise<{ inBatch: boolean; left: number }> {
    if (this.working === 0) return { inBatch: false, left: ms };
    const started = Date.now();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve({ inBatch: false, left: Math.max(0, ms - (Date.now() - started)) });
      };
      const timer = setTimeout(() => {
        this.sleepers.delete(wake);
        resolve({ inBatch: true, left: 0 });
      }, ms);
      this.sleepers.add(wake);
    });
  }
}
