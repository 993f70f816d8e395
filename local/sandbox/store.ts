// The local provider's sandboxes: a directory and a uid each, runs and kept processes in namespaces, destroyed on TTL.
import { randomUUID } from "node:crypto";
import { chown, mkdir, open, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RunLimits, RunRequest, RunResult, SandboxSpec } from "../../contracts/sandbox.js";
import { KeptProcess } from "./kept.js";
import { aboveCeiling, effectiveLimits } from "./limits.js";
import { insideWork } from "./paths.js";
import { runJailed } from "./run.js";
import type { Runtimes } from "./runtime.js";
import { type JailPlace, spawnJailed } from "./spawn.js";

/** Host uids handed to sandboxes, one each while it lives (RLIMIT_NPROC counts per uid). */
const UID_BASE = 200_000;
const UID_COUNT = 10_000;

export class SandboxGone extends Error {
  override name = "SandboxGone";
}
export class SandboxRefused extends Error {
  override name = "SandboxRefused";
}

interface Box {
  id: string;
  spec: SandboxSpec;
  place: JailPlace;
  kept: Map<string, KeptProcess>;
  lastUse: number;
}

export class SandboxStore {
  readonly #boxes = new Map<string, Box>();
  readonly #uids = new Set<number>();
  #nextUid = 1 + Math.floor(Math.random() * UID_COUNT);
  readonly #reaper: NodeJS.Timeout;

  constructor(
    readonly root: string,
    readonly runtimes: Runtimes,
  ) {
    this.#reaper = setInterval(() => void this.#reap(), 5000);
    this.#reaper.unref();
  }

  get size(): number {
    return this.#boxes.size;
  }

  async create(spec: SandboxSpec): Promise<string> {
    const over = aboveCeiling(spec.limits);
    if (over) throw new SandboxRefused(`limits.${over} is above this service's ceiling`);
    const id = randomUUID();
    const dir = path.join(this.root, id);
    const uid = this.#takeUid();
    await mkdir(path.join(dir, "root"), { recursive: true, mode: 0o700 });
    await mkdir(path.join(dir, "work"), { recursive: true, mode: 0o700 });
    if (uid !== null) await chown(path.join(dir, "work"), uid, uid);
    const box: Box = { id, spec, place: { dir, uid, binds: this.runtimes.binds, pathVar: this.runtimes.pathVar }, kept: new Map(), lastUse: Date.now() };
    this.#boxes.set(id, box);
    for (const [file, content] of Object.entries(spec.files ?? {})) await this.writeFile(id, file, Buffer.from(content));
    return id;
  }

  #box(id: string): Box {
    const box = this.#boxes.get(id);
    if (!box) throw new SandboxGone(`sandbox ${id} does not exist (destroyed or expired)`);
    box.lastUse = Date.now();
    return box;
  }

  #limits(box: Box, limits: RunLimits | undefined) {
    const over = aboveCeiling(limits);
    if (over) throw new SandboxRefused(`limits.${over} is above this service's ceiling`);
    return effectiveLimits(box.spec.limits, limits);
  }

  async run(id: string, request: RunRequest, signal?: AbortSignal): Promise<RunResult> {
    const box = this.#box(id);
    const limits = this.#limits(box, request.limits);
    const command = request.cwd
      ? [
          "env",
          "-C",
          path.join("/sandbox", path.relative(path.join(box.place.dir, "work"), await insideWork(path.join(box.place.dir, "work"), request.cwd))),
          ...request.command,
        ]
      : request.command;
    return runJailed(box.place, { command, stdin: request.stdin, env: { ...box.spec.env, ...request.env }, limits, signal });
  }

  async writeFile(id: string, file: string, content: Uint8Array): Promise<void> {
    const box = this.#box(id);
    const target = await insideWork(path.join(box.place.dir, "work"), file, true);
    await writeFile(target, content, { flag: "w" });
    if (box.place.uid !== null) await chown(target, box.place.uid, box.place.uid);
  }

  async readFile(id: string, file: string, maxBytes: number): Promise<Buffer> {
    const box = this.#box(id);
    const target = await insideWork(path.join(box.place.dir, "work"), file);
    const handle = await open(target, "r").catch(() => {
      throw new SandboxRefused(`${file}: no such file in the sandbox`);
    });
    try {
      const buffer = Buffer.alloc(maxBytes);
      const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** Starts the named kept process, or returns the live one. */
  keep(id: string, name: string, command: string[]): string {
    const box = this.#box(id);
    const live = box.kept.get(name);
    if (live?.alive) return live.id;
    // The kernel's own limits span its life: CPU is re-armed per call by the driver, wall by each call.
    const limits = { ...effectiveLimits(box.spec.limits), cpuSeconds: 3600, wallMs: 86_400_000 };
    const child = spawnJailed(box.place, command, { ...box.spec.env }, limits);
    const kept = new KeptProcess(randomUUID(), name, child);
    box.kept.set(name, kept);
    return kept.id;
  }

  send(id: string, keptId: string, input: string, limits: RunLimits | undefined): Promise<RunResult> {
    const box = this.#box(id);
    const kept = [...box.kept.values()].find((each) => each.id === keptId);
    if (!kept) throw new SandboxGone(`kept process ${keptId} does not exist in sandbox ${id}`);
    return kept.send(input, this.#limits(box, limits));
  }

  /** Idempotent. Kills every process, removes the directory, frees the uid. */
  async destroy(id: string): Promise<void> {
    const box = this.#boxes.get(id);
    if (!box) return;
    this.#boxes.delete(id);
    for (const kept of box.kept.values()) kept.stop();
    await rm(box.place.dir, { recursive: true, force: true, maxRetries: 3 });
    if (box.place.uid !== null) this.#uids.delete(box.place.uid);
  }

  async destroyAll(): Promise<void> {
    clearInterval(this.#reaper);
    await Promise.all([...this.#boxes.keys()].map((id) => this.destroy(id)));
  }

  async #reap(): Promise<void> {
    const now = Date.now();
    for (const box of [...this.#boxes.values()]) {
      if (now - box.lastUse > (box.spec.ttlSeconds ?? 3600) * 1000) await this.destroy(box.id);
    }
  }

  /** A host uid of the sandbox's own as root; null as any other user (the sandbox runs as that user, in its namespace). */
  #takeUid(): number | null {
    if (process.getuid?.() !== 0) return null;
    for (let tries = 0; tries < UID_COUNT; tries++) {
      const uid = UID_BASE + this.#nextUid;
      this.#nextUid = (this.#nextUid % UID_COUNT) + 1;
      if (!this.#uids.has(uid)) {
        this.#uids.add(uid);
        return uid;
      }
    }
    throw new Error("no free sandbox uid");
  }
}
