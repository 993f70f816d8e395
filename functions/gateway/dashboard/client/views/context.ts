// What every view gets: where to draw, the route's parts, and a signal that fires when the user navigates away.

export interface View {
  root: HTMLElement;
  /** The route's path segments after the view's own (e.g. the job id). */
  path: string[];
  query: URLSearchParams;
  /** Aborted on navigation: stops polling and cancels requests still in flight. */
  signal: AbortSignal;
}

/** Runs `tick` now and again after each run, until it returns null or the view is left. */
export function poll(signal: AbortSignal, tick: () => Promise<number | null>): void {
  const run = async () => {
    if (signal.aborted) return;
    let next: number | null = null;
    try {
      next = await tick();
    } catch {
      // A failed tick has shown its own error; try again a little later.
      next = 5000;
    }
    if (next !== null && !signal.aborted) setTimeout(run, next);
  };
  void run();
}

/** A hash route, built from parts and a query (empty values left out). */
export function route(parts: (string | number)[], query: Record<string, string | number | undefined | null> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const tail = search.toString();
  return `#/${parts.map((p) => encodeURIComponent(String(p))).join("/")}${tail ? `?${tail}` : ""}`;
}
