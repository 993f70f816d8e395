// Operation counts for the bench's cost figures (issue 29 item 6): each Worker's bundle re-exported through a wrapper module
// that counts its invocations, the calls it makes on its bindings (Durable Objects, queues, bucket, services) and its
// Durable Objects' SQLite rows, per isolate, read back (and reset) through GET /__edgegym/counts. Local runs that ask only.
import type { Miniflare } from "miniflare";
import type { WorkerSpec } from "../infra/topology.js";
import type { Bundle } from "./build.js";

export const COUNTS_PATH = "/__edgegym/counts";

/** What one Worker's isolate counted since its last reset: flat keys (see the wrapper below) and distinct objects per class. */
export interface WorkerCounts {
  counts: Record<string, number>;
  /** Distinct objects called, per Durable Object class. */
  objects: Record<string, number>;
  /** Seconds from each object's first call to its last, summed per class. */
  spans: Record<string, number>;
}

type Binding = { kind: "do"; className: string } | { kind: "queue"; queue: string } | { kind: "bucket" } | { kind: "service"; worker: string };

/** The Worker's bindings by kind, from the one description of the topology. */
export function bindingsOf(spec: WorkerSpec): Record<string, Binding> {
  const out: Record<string, Binding> = {};
  for (const [name, target] of Object.entries(spec.durableObjects)) out[name] = { kind: "do", className: target.className };
  for (const [name, queue] of Object.entries(spec.queueProducers ?? {})) out[name] = { kind: "queue", queue };
  for (const name of Object.keys(spec.buckets ?? {})) out[name] = { kind: "bucket" };
  for (const [name, target] of Object.entries(spec.services)) out[name] = { kind: "service", worker: target.worker };
  return out;
}

// The wrapper's runtime, plain JavaScript for workerd. Keys it counts:
//   worker.<w>.fetch / worker.<w>.queue          invocations of the Worker's default handlers
//   queue.<q>.sent / .units / .batches           messages sent (units: 64 KB chunks), sendBatch calls
//   queue.<q>.delivered / .acked / .retried      messages handed to the consumer, acked or retried explicitly
//   do.<Class>.requests / .call.<m> / .alarm     calls on a stub (each a billed request), alarms run; objects and spans apart
//   do.<Class>.rows_read / .rows_written         SQL rows (the cursor's own counters), .kv_get/.kv_put/.kv_delete keys
//   bucket.<op>                                  put, get, head, list, delete…
//   service.<to>.<m>                             calls through a service binding (fetch or RPC)
const RUNTIME = `
const counts = new Map();
const objects = new Map();
const add = (key, n = 1) => counts.set(key, (counts.get(key) ?? 0) + n);
// Each object's first and last call (workerd's clock, which moves on I/O): its span approximates its active time.
const seen = (cls, name) => {
  let spans = objects.get(cls);
  if (!spans) objects.set(cls, (spans = new Map()));
  const now = Date.now();
  const span = spans.get(name);
  if (span) span[1] = now;
  else spans.set(name, [now, now]);
};
// A counted stub passed on over RPC must travel as the stub itself: proxies are unwrapped from the arguments of every call.
const targets = new WeakMap();
const plain = (x) => (x !== null && (typeof x === "object" || typeof x === "function") && targets.get(x)) || x;
const calls = (target, onCall) => {
  const proxy = new Proxy(target, {
    get(t, p) {
      const v = t[p];
      if (typeof p !== "string" || typeof v !== "function" || p === "then") return v;
      // Reflect.apply: on an RPC stub's method, v.apply would itself be a remote property.
      return (...args) => { onCall(p); return Reflect.apply(v, t, args.map(plain)); };
    },
  });
  targets.set(proxy, target);
  return proxy;
};
const units = (body) => Math.max(1, Math.ceil((typeof body === "string" ? body.length : JSON.stringify(body ?? null).length) / 65536));
function namespace(cls, ns) {
  const stub = (s, name) => calls(s, (m) => { seen(cls, name); add("do." + cls + ".requests"); add("do." + cls + ".call." + m); });
  return new Proxy(ns, {
    get(t, p) {
      if (p === "get") return (id, o) => stub(t.get(id, o), String(id));
      if (p === "getByName") return (name, o) => stub(t.getByName(name, o), name);
      const v = t[p];
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
}
function queue(name, q) {
  return {
    send(body, o) { add("queue." + name + ".sent"); add("queue." + name + ".units", units(body)); return q.send(body, o); },
    sendBatch(messages, o) {
      const list = [...messages];
      add("queue." + name + ".batches");
      add("queue." + name + ".sent", list.length);
      for (const m of list) add("queue." + name + ".units", units(m.body));
      return q.sendBatch(list, o);
    },
  };
}
const wrapped = new WeakMap();
function wrapEnv(env) {
  if (!env || typeof env !== "object") return env;
  let w = wrapped.get(env);
  if (w) return w;
  w = { ...env };
  for (const [name, b] of Object.entries(BINDINGS)) {
    const v = env[name];
    if (v === undefined || v === null) continue;
    if (b.kind === "do") w[name] = namespace(b.className, v);
    else if (b.kind === "queue") w[name] = queue(b.queue, v);
    else if (b.kind === "bucket") w[name] = calls(v, (m) => add("bucket." + m));
    else w[name] = calls(v, (m) => add("service." + b.worker + "." + m));
  }
  wrapped.set(env, w);
  return w;
}
function wrapBatch(b) {
  const q = b.queue;
  return {
    queue: q,
    messages: b.messages.map((m) => ({
      id: m.id, timestamp: m.timestamp, body: m.body, attempts: m.attempts,
      ack() { add("queue." + q + ".acked"); m.ack(); },
      retry(o) { add("queue." + q + ".retried"); m.retry(o); },
    })),
    ackAll() { add("queue." + q + ".acked", b.messages.length); b.ackAll(); },
    retryAll(o) { add("queue." + q + ".retried", b.messages.length); b.retryAll(o); },
  };
}
// SQL rows: each statement's cursor is read once the synchronous code that made it has run (a microtask later).
const owner = new WeakMap();
let patched = false;
function watchStorage(ctx, cls) {
  const storage = ctx.storage;
  owner.set(storage, cls);
  if (storage.sql) owner.set(storage.sql, cls);
  if (patched) return;
  patched = true;
  if (storage.sql) {
    const proto = Object.getPrototypeOf(storage.sql);
    const exec = proto.exec;
    proto.exec = function (...args) {
      const cursor = exec.apply(this, args);
      const k = "do." + (owner.get(this) ?? "unknown");
      add(k + ".statements");
      queueMicrotask(() => { add(k + ".rows_read", cursor.rowsRead); add(k + ".rows_written", cursor.rowsWritten); });
      return cursor;
    };
  }
  const proto = Object.getPrototypeOf(storage);
  for (const m of ["get", "put", "delete"]) {
    const f = proto[m];
    proto[m] = function (key, ...rest) {
      const n = Array.isArray(key) ? key.length : m === "put" && key && typeof key === "object" ? Object.keys(key).length : 1;
      add("do." + (owner.get(this) ?? "unknown") + ".kv_" + m, n);
      return f.call(this, key, ...rest);
    };
  }
}
function wrapClass(Base, name) {
  if (typeof Base !== "function" || !Base.prototype) return Base;
  if (Base.prototype instanceof DurableObject) {
    const C = class extends Base {
      constructor(ctx, env) { watchStorage(ctx, name); super(ctx, wrapEnv(env)); }
    };
    if (typeof Base.prototype.alarm === "function")
      C.prototype.alarm = function (...args) { add("do." + name + ".requests"); add("do." + name + ".alarm"); return Base.prototype.alarm.apply(this, args); };
    return C;
  }
  if (Base.prototype instanceof WorkerEntrypoint) return class extends Base { constructor(ctx, env) { super(ctx, wrapEnv(env)); } };
  return Base;
}
function snapshot(reset) {
  const out = { counts: Object.fromEntries(counts), objects: {}, spans: {} };
  for (const [cls, spans] of objects) {
    out.objects[cls] = spans.size;
    out.spans[cls] = [...spans.values()].reduce((sum, [first, last]) => sum + (last - first) / 1000, 0);
  }
  if (reset) { counts.clear(); objects.clear(); }
  return out;
}
const base = real.default ?? {};
const handler = {
  async fetch(request, env, ctx) {
    if (request.url.includes(COUNTS_PATH) && new URL(request.url).pathname === COUNTS_PATH)
      return Response.json(snapshot(new URL(request.url).searchParams.has("reset")));
    add("worker." + WORKER + ".fetch");
    if (typeof base.fetch !== "function") return new Response("not found", { status: 404 });
    return base.fetch(request, wrapEnv(env), ctx);
  },
};
if (typeof base.queue === "function")
  handler.queue = (batch, env, ctx) => {
    add("worker." + WORKER + ".queue");
    add("queue." + batch.queue + ".delivered", batch.messages.length);
    return base.queue(wrapBatch(batch), wrapEnv(env), ctx);
  };
export default handler;
`;

/** The modules Miniflare runs for a counted Worker: the wrapper (main) and the bundle it re-exports. */
export function countingModules(spec: WorkerSpec, bundle: Bundle): { type: "ESModule"; path: string; contents: string }[] {
  const file = bundle.path.split("/").pop()!;
  const named = (bundle.exports ?? []).filter((name) => name !== "default");
  const header = [
    `import * as real from "./${file}";`,
    `import { DurableObject, WorkerEntrypoint } from "cloudflare:workers";`,
    `const WORKER = ${JSON.stringify(spec.name)};`,
    `const BINDINGS = ${JSON.stringify(bindingsOf(spec))};`,
    `const COUNTS_PATH = ${JSON.stringify(COUNTS_PATH)};`,
  ].join("\n");
  const exports = named.map((name) => `export const ${name} = wrapClass(real.${name}, ${JSON.stringify(name)});`).join("\n");
  return [
    { type: "ESModule", path: bundle.path.replace(/\.js$/, ".counted.js"), contents: `${header}\n${RUNTIME}\n${exports}\n` },
    { type: "ESModule", path: bundle.path, contents: bundle.contents },
  ];
}

/** Every counted Worker's counts (reset after reading when asked), by Worker name. */
export async function readCounts(miniflare: Miniflare, workers: readonly string[], reset = false): Promise<Record<string, WorkerCounts>> {
  const out: Record<string, WorkerCounts> = {};
  for (const name of workers) {
    const worker = await miniflare.getWorker(name);
    const response = await worker.fetch(`http://counts${COUNTS_PATH}${reset ? "?reset=1" : ""}`);
    if (!response.ok) throw new Error(`${name}: ${COUNTS_PATH} answered ${response.status}`);
    out[name] = (await response.json()) as WorkerCounts;
  }
  return out;
}
