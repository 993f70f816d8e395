// Run by `npm install` (package.json's postinstall): Miniflare's config serializer, made to grow its buffer geometrically.
//
// Miniflare 4 encodes workerd's configuration into one Cap'n Proto segment that grows by the bytes each allocation
// needs (at least 4 KB), copying the whole segment every time: cloudflare/workers-sdk issue 15271, open upstream. With
// every Worker of `npm run dev` (49 of them, about 60 MB of bundles) that copying took 33 s of CPU at each start, before
// workerd even began. Doubling the segment instead makes it a fraction of a second. What the segment holds, and the bytes
// workerd reads, do not change: the encoder writes only the bytes it counts as used.
//
// A Miniflare whose serializer no longer has this line is left alone, with a warning: the start is slower, not wrong.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const MARKER = "/* edgegym: geometric growth, workers-sdk#15271 */";
const LINE = "s.buffer = new ArrayBuffer(srcBuffer.byteLength + minSize);";
const PATCHED = `s.buffer = new ArrayBuffer(Math.max(srcBuffer.byteLength + minSize, srcBuffer.byteLength * 2)); ${MARKER}`;

/** Patches one Miniflare bundle in place: "patched", "already" (patched before), or "unknown" (left alone). */
export function patchFile(file: string): "patched" | "already" | "unknown" {
  const source = readFileSync(file, "utf8");
  if (source.includes(MARKER)) return "already";
  const at = source.indexOf(LINE);
  if (at < 0 || source.indexOf(LINE, at + 1) >= 0) return "unknown";
  writeFileSync(file, source.replace(LINE, PATCHED));
  return "patched";
}

/** Every Miniflare bundle under node_modules (a package that brings its own copy included). */
export function miniflareBundles(nodeModules: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    const bundle = path.join(dir, "miniflare", "dist", "src", "index.js");
    if (existsSync(bundle)) found.push(bundle);
    if (depth === 0) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === ".bin") continue;
      const inner = path.join(dir, entry.name, "node_modules");
      if (existsSync(inner)) visit(inner, depth - 1);
      if (entry.name.startsWith("@")) {
        for (const scoped of readdirSync(path.join(dir, entry.name), { withFileTypes: true })) {
          const nested = path.join(dir, entry.name, scoped.name, "node_modules");
          if (scoped.isDirectory() && existsSync(nested)) visit(nested, depth - 1);
        }
      }
    }
  };
  if (existsSync(nodeModules)) visit(nodeModules, 2);
  return found;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  for (const file of miniflareBundles(path.join(root, "node_modules"))) {
    const outcome = patchFile(file);
    if (outcome === "unknown") {
      process.stderr.write(
        `edgegym: ${path.relative(root, file)}: its config serializer is not the one this patch knows; left as it is (start-up may be slow)\n`,
      );
    }
  }
}
