// The local runtime's garbage collection, paced as production's memory limit paces it.
//
// In production each Worker isolate may hold 128 MB, and V8 collects as it nears that. Local workerd sets no limit, so
// under steady load V8 never runs a full collection, and every finished request leaves behind native memory (the
// buffers and objects behind its Request, Response and subrequests) that only a collection of its JS wrappers frees:
// workerd issue 6894 ("Unbounded native memory growth from repeated cross-worker fetch() subrequests"). Measured here,
// workerd grew by about 44 KB per rollout and never gave it back: 3 GiB after a 65,536-rollout job.
//
// The pacer is the missing limit. Over workerd's inspector (loopback only), it reads each isolate's heap every
// `intervalMs`, and collects an isolate's garbage once its heap has grown `growthMiB` since its last collection. An idle
// isolate is never collected; a busy one is collected about as often as production's limit would make V8 do it.
import WebSocket from "ws";

export interface GcPacingOptions {
  /** How often every isolate's heap is read (default 1,000 ms). */
  intervalMs?: number;
  /**
   * The heap growth, since an isolate's last collection, that makes the pacer collect it (default 2 MiB: at 16, a job's
   * workerd still grew by about 20 KB per rollout; at 2 it holds flat, bench/heap-probe.ts --pacer).
   */
  growthMiB?: number;
}

export interface GcPacer {
  /** Collections made so far, over every isolate. */
  collections(): number;
  /** Each isolate paced (workerd's name for it), its heap at the last reading, and its collections so far. */
  isolates(): { name: string; usedMiB: number | undefined; collections: number }[];
  stop(): Promise<void>;
}

/** Every answer the inspector owes is bounded: a stalled isolate is skipped for this round, never waited on. */
const ANSWER_MS = 10_000;
/** A collection runs when its isolate next runs a task: an isolate gone idle meanwhile may take this long to answer. */
const COLLECT_MS = 60_000;

interface Target {
  title: string;
  webSocketDebuggerUrl: string;
}

/** A Chrome DevTools Protocol connection to one isolate. */
class Isolate {
  private next = 1;
  private readonly waiting = new Map<number, (answer: { result?: unknown; error?: unknown }) => void>();
  /** The heap size used just after this isolate's last collection (or when first read). */
  base: number | undefined;
  /** A collection was asked for and has not answered yet. */
  collecting = false;
  /** The heap size used at the last reading. */
  used: number | undefined;
  collections = 0;
  private constructor(
    readonly title: string,
    private readonly socket: WebSocket,
  ) {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
      if (message.id === undefined) return;
      this.waiting.get(message.id)?.(message);
      this.waiting.delete(message.id);
    });
    // A connection that fails later (workerd gone) is followed by its close: an unheard error would end the process.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      for (const answer of this.waiting.values()) answer({ error: "closed" });
      this.waiting.clear();
    });
  }

  static open(target: Target): Promise<Isolate> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(target.webSocketDebuggerUrl, { handshakeTimeout: ANSWER_MS });
      socket.once("open", () => resolve(new Isolate(target.title, socket)));
      socket.once("error", (error) => reject(new Error(`cannot open the inspector of ${target.title}: ${error.message}`)));
    });
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** The method's result, or undefined when the isolate did not answer in time or answered with an error. */
  send<T>(method: string, withinMs = ANSWER_MS): Promise<T | undefined> {
    if (!this.open) return Promise.resolve(undefined);
    const id = this.next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(undefined);
      }, withinMs);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer.error === undefined ? (answer.result as T) : undefined);
      });
      this.socket.send(JSON.stringify({ id, method, params: {} }));
    });
  }

  async usedBytes(): Promise<number | undefined> {
    this.used = (await this.send<{ usedSize: number }>("Runtime.getHeapUsage"))?.usedSize ?? this.used;
    return this.used;
  }

  close(): void {
    this.socket.close();
  }
}

/** The pacer over every isolate of the workerd whose inspector is at `inspector` (Miniflare's getInspectorURL()). */
export async function startGcPacer(inspector: URL, options: GcPacingOptions = {}): Promise<GcPacer> {
  const intervalMs = options.intervalMs ?? 1000;
  const growth = (options.growthMiB ?? 2) * 2 ** 20;
  const listed = await fetch(`http://${inspector.host}/json/list`, { signal: AbortSignal.timeout(ANSWER_MS) }).catch((error: Error) => {
    throw new Error(`workerd's inspector at ${inspector.host} cannot be reached: ${error.message}`);
  });
  if (!listed.ok) throw new Error(`workerd's inspector at ${inspector.host} answered ${listed.status} to /json/list`);
  // An isolate whose name holds a '#' (Miniflare's `core:custom-fetch:2:#DNS_RESOLVER`, a binding served by Node) cannot
  // be reached: a WebSocket URL cannot carry it, and workerd's inspector does not decode %23. Those hold next to nothing.
  const reachable = ((await listed.json()) as Target[]).filter((target) => !target.webSocketDebuggerUrl.includes("#"));
  const isolates = await Promise.all(reachable.map((target) => Isolate.open(target)));
  let collections = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();

  // Every isolate at once: one busy isolate's answer may wait for its current work, and must not hold up the others.
  const pace = () =>
    Promise.all(
      isolates.map(async (isolate) => {
        if (isolate.collecting || stopped) return;
        const used = await isolate.usedBytes();
        if (used === undefined) return;
        isolate.base ??= used;
        if (used - isolate.base < growth) return;
        // V8 runs the collection as the isolate's next task and answers then: the round does not wait for it.
        isolate.collecting = true;
        void isolate.send("HeapProfiler.collectGarbage", COLLECT_MS).then(async (answer) => {
          isolate.collecting = false;
          if (answer === undefined) return;
          collections++;
          isolate.collections++;
          isolate.base = (await isolate.usedBytes()) ?? used;
        });
      }),
    ).then(() => undefined);
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = pace().finally(schedule);
    }, intervalMs);
    // The pacer never keeps a process alive on its own.
    timer.unref();
  };
  schedule();

  return {
    collections: () => collections,
    isolates: () =>
      isolates.map((isolate) => ({
        name: isolate.title.replace(/^workerd: worker /, ""),
        usedMiB: isolate.used === undefined ? undefined : isolate.used / 2 ** 20,
        collections: isolate.collections,
      })),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
      for (const isolate of isolates) isolate.close();
    },
  };
}
