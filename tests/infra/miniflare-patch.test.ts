// Miniflare's config serializer, patched by `npm install` (infra/patch-miniflare.ts) to grow its buffer geometrically:
// the installed Miniflare carries the patch; the patch applies once and only to the line it knows; a config serialized
// by the patched encoder is byte for byte the one the unpatched encoder gives.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MARKER, miniflareBundles, patchFile } from "../../infra/patch-miniflare.js";
import { PROJECT_ROOT } from "../../local/paths.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const scratch = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "miniflare-patch-"));
  dirs.push(dir);
  return dir;
};

describe("the Miniflare serializer patch", () => {
  it("is in every Miniflare the install brought", () => {
    const bundles = miniflareBundles(path.join(PROJECT_ROOT, "node_modules"));
    expect(bundles).toContain(path.join(PROJECT_ROOT, "node_modules", "miniflare", "dist", "src", "index.js"));
    for (const bundle of bundles) expect(readFileSync(bundle, "utf8"), bundle).toContain(MARKER);
  });

  it("applies once to the line it knows, and leaves a serializer it does not know alone", () => {
    const dir = scratch();
    const file = path.join(dir, "index.js");
    const line = "  s.buffer = new ArrayBuffer(srcBuffer.byteLength + minSize);\n";
    writeFileSync(file, `function allocate$1(minSize, segments, s) {\n${line}}\n`);
    expect(patchFile(file)).toBe("patched");
    const patched = readFileSync(file, "utf8");
    expect(patched).toContain("Math.max(srcBuffer.byteLength + minSize, srcBuffer.byteLength * 2)");
    expect(patchFile(file)).toBe("already");
    expect(readFileSync(file, "utf8")).toBe(patched);
    const other = path.join(dir, "other.js");
    writeFileSync(other, "function allocate$1() { return grow(); }\n");
    expect(patchFile(other)).toBe("unknown");
    expect(readFileSync(other, "utf8")).toBe("function allocate$1() { return grow(); }\n");
  });

  it("serializes a config to the same bytes as the unpatched encoder", async () => {
    // The installed (patched) bundle against a copy with the original line put back, each loaded on its own.
    const installed = path.join(PROJECT_ROOT, "node_modules", "miniflare", "dist", "src", "index.js");
    const dir = path.join(PROJECT_ROOT, "node_modules", "miniflare", "dist", "src");
    const original = path.join(dir, `unpatched-${process.pid}.js`);
    dirs.push(original);
    copyFileSync(installed, original);
    const source = readFileSync(original, "utf8");
    const at = source.indexOf("s.buffer = new ArrayBuffer(Math.max(");
    const end = source.indexOf(MARKER, at) + MARKER.length;
    writeFileSync(original, `${source.slice(0, at)}s.buffer = new ArrayBuffer(srcBuffer.byteLength + minSize);${source.slice(end)}`);
    const require = createRequire(import.meta.url);
    const encode = (file: string) => {
      const { serializeConfig } = require(file) as { serializeConfig: (config: unknown) => Buffer };
      const text = "x".repeat(300_000);
      return serializeConfig({
        services: Array.from({ length: 12 }, (_, i) => ({
          name: `w${i}`,
          worker: {
            modules: [{ name: "index.js", esModule: `export default {}; // ${i} ${text}` }],
            compatibilityDate: "2026-01-01",
            bindings: Array.from({ length: 40 }, (_, j) => ({ name: `B${j}`, text: `value ${i}.${j}` })),
          },
        })),
        sockets: [{ name: "entry", address: "127.0.0.1:0", http: {}, service: { name: "w0" } }],
      });
    };
    const patched = encode(installed);
    const unpatched = encode(original);
    expect(patched.length).toBeGreaterThan(12 * 300_000);
    expect(patched.equals(unpatched)).toBe(true);
  });
});
