// The garbage collection pacer (local/gc-pacer.ts) over a real workerd's inspector: an isolate whose heap grows past the
// threshold is collected, and its garbage goes; an isolate that does not grow is left alone; stop() ends every session
// even with a collection still owed; and startLocal runs it unless told not to.
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGcPacer } from "../../local/gc-pacer.js";
import { startLocal } from "../../local/emulation.js";

// /grow keeps 8 MiB of numbers reachable, /drop lets them go: garbage only a collection frees.
const SCRIPT = `
let kept = [];
export default {
  fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === "/grow") for (let i = 0; i < 64; i++) kept.push(Array.from({ length: 16384 }, (_, j) => ({ j })));
    if (path === "/drop") kept = [];
    return new Response(String(kept.length));
  },
};`;

let miniflare: Miniflare;
beforeAll(async () => {
  miniflare = new Miniflare({
    workers: [
      { name: "grower", modules: true, script: SCRIPT },
      { name: "idle", modules: true, script: "export default { fetch() { return new Response('idle'); } };" },
    ],
    cf: false,
    inspectorPort: 0,
  });
  await miniflare.ready;
}, 60_000);
afterAll(async () => {
  await miniflare?.dispose();
});

const heapOf = (isolates: { name: string; usedMiB: number | undefined; collections: number }[], name: string) =>
  isolates.find((isolate) => isolate.name === `core:user:${name}`)!;

describe("the garbage collection pacer", () => {
  it("collects an isolate whose heap grew past the threshold, freeing its garbage, and leaves one that did not grow alone", async () => {
    const pacer = await startGcPacer(await miniflare.getInspectorURL(), { intervalMs: 100, growthMiB: 4 });
    try {
      const grower = await miniflare.getWorker("grower");
      const idle = await miniflare.getWorker("idle");
      expect(pacer.isolates().map((isolate) => isolate.name)).toEqual(expect.arrayContaining(["core:user:grower", "core:user:idle"]));
      // A baseline read for both, with traffic that allocates next to nothing.
      for (let i = 0; i < 10; i++) {
        await (await idle.fetch("http://idle/")).text();
        await (await grower.fetch("http://grower/")).text();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(pacer.collections()).toBe(0);
      const before = heapOf(pacer.isolates(), "grower").usedMiB!;
      // A collection runs as the isolate's next task: the isolate keeps serving until the pacer has had it run.
      const serveUntil = async (collections: number) => {
        for (let i = 0; i < 200 && heapOf(pacer.isolates(), "grower").collections < collections; i++) {
          await (await grower.fetch("http://grower/")).text();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return heapOf(pacer.isolates(), "grower");
      };
      // A batch kept: the heap grows past the threshold, and a collection keeps what is still reachable.
      expect(await (await grower.fetch("http://grower/grow")).text()).toBe("64");
      const first = await serveUntil(1);
      expect(first.collections).toBe(1);
      expect(first.usedMiB!).toBeGreaterThan(before + 8);
      // That batch let go and another kept: the next collection frees the first, so the heap is about where it was.
      expect(await (await grower.fetch("http://grower/drop")).text()).toBe("0");
      expect(await (await grower.fetch("http://grower/grow")).text()).toBe("64");
      const second = await serveUntil(2);
      expect(second.collections).toBe(2);
      expect(second.usedMiB!).toBeLessThan(first.usedMiB! + 4);
      expect(heapOf(pacer.isolates(), "idle").collections).toBe(0);
    } finally {
      await pacer.stop();
    }
  }, 60_000);

  it("stop() ends every session, even with a collection owed by an isolate that went idle", async () => {
    const pacer = await startGcPacer(await miniflare.getInspectorURL(), { intervalMs: 50, growthMiB: 1 });
    const grower = await miniflare.getWorker("grower");
    await (await grower.fetch("http://grower/grow")).text();
    await (await grower.fetch("http://grower/drop")).text();
    // The pacer asks for a collection the now idle isolate will not run until its next task.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await pacer.stop();
    const collections = pacer.collections();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pacer.collections()).toBe(collections);
  }, 60_000);

  it("outlives the workerd it paces: a runtime disposed under it ends its sessions, and stop() returns", async () => {
    const own = new Miniflare({
      workers: [{ name: "w", modules: true, script: "export default { fetch() { return new Response('ok'); } };" }],
      cf: false,
      inspectorPort: 0,
    });
    await own.ready;
    const pacer = await startGcPacer(await own.getInspectorURL(), { intervalMs: 20, growthMiB: 0 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Vitest fails the run on any error that escapes the pacer.
    await own.dispose();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await pacer.stop();
    expect(pacer.isolates().map((isolate) => isolate.name)).toContain("core:user:w");
  }, 60_000);

  it("an inspector that cannot be reached is named in the error", async () => {
    await expect(startGcPacer(new URL("ws://127.0.0.1:9/"))).rejects.toThrow("workerd's inspector at 127.0.0.1:9 cannot be reached");
  });
});

describe("startLocal's pacing", () => {
  it("paces every Worker's isolate by default; with EDGEGYM_GC_PACING=0 or gcPacing: false it opens no inspector", async () => {
    const paced = await startLocal({ port: 0, persist: false, environments: ["example_single_tool_call"], logLevel: "silent" });
    try {
      const names = paced.gcPacer!.isolates().map((isolate) => isolate.name);
      expect(names).toEqual(expect.arrayContaining(["core:user:gateway", "core:user:agent", "core:user:model-proxy", "core:user:writer"]));
    } finally {
      await paced.stop();
    }
    for (const [env, option] of [
      ["0", undefined],
      [undefined, false],
    ] as const) {
      const saved = process.env.EDGEGYM_GC_PACING;
      if (env === undefined) delete process.env.EDGEGYM_GC_PACING;
      else process.env.EDGEGYM_GC_PACING = env;
      try {
        const unpaced = await startLocal({ port: 0, persist: false, environments: ["example_single_tool_call"], logLevel: "silent", gcPacing: option });
        try {
          expect(unpaced.gcPacer).toBeUndefined();
          await expect(unpaced.miniflare.getInspectorURL()).rejects.toThrow(/Inspector not enabled/);
        } finally {
          await unpaced.stop();
        }
      } finally {
        if (saved === undefined) delete process.env.EDGEGYM_GC_PACING;
        else process.env.EDGEGYM_GC_PACING = saved;
      }
    }
  }, 120_000);
});
