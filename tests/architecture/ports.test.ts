// Each Worker turns its bindings into ports in one place, its ports.ts (issue: "no Worker wires its ports in more than
// one place"): a bucket, a queue or a Job object built from a binding anywhere else in functions/ is named here.
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { readSources } from "./layers.js";

/** The calls that make a port out of a binding. */
const WIRING = /\b(r2Store|cloudflareQueue|guardedStore|guardedQueue|objectLedger|boundedJob)\(/g;

/** Every file of functions/ that wires a port, with what it calls; ports.ts files left out. */
function wiringOutsidePorts(sources: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of sources) {
    if (!file.startsWith("functions/") || file.endsWith("/ports.ts")) continue;
    const calls = new Set([...text.matchAll(WIRING)].map((m) => m[1]));
    if (calls.size > 0) found.push(`${file}: ${[...calls].sort().join(", ")}`);
  }
  return found;
}

describe("ports", () => {
  it("are wired once per Worker: only functions/<worker>/ports.ts builds them from bindings", () => {
    const sources = readSources(PROJECT_ROOT);
    expect(wiringOutsidePorts(sources)).toEqual([]);
    // Each Worker with ports has its file (the model proxy has no bucket, queue or Job).
    for (const worker of ["agent", "gateway", "writer"]) expect(sources.has(`functions/${worker}/ports.ts`), worker).toBe(true);
  });

  it("names a file that wires a port elsewhere", () => {
    const planted = new Map([["functions/writer/job.ts", "const store = guardedStore(r2Store(this.env.BUCKET));"]]);
    expect(wiringOutsidePorts(planted)).toEqual(["functions/writer/job.ts: guardedStore, r2Store"]);
  });
});
