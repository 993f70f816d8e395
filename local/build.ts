// Bundles each Worker with esbuild, as wrangler would: ESM for workerd, environment entries generated from their definition.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type BuildOptions, build, type StdinOptions, version } from "esbuild";
import type { WorkerSpec } from "../infra/topology.js";
import { environmentEntrySource, exampleRows } from "../infra/environments.js";
import { PROJECT_ROOT } from "./paths.js";

/** A bundled Worker: its module path (for stack traces) and code, kept in memory so parallel builds never collide. */
export interface Bundle {
  path: string;
  contents: string;
  /** The names the module exports (esbuild's metafile), for a wrapper that re-exports them (local/counting.ts). */
  exports?: string[];
}

/** The esbuild options every Worker is bundled with (also part of each cached bundle's key). */
const OPTIONS: BuildOptions = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  mainFields: ["module", "main"],
  conditions: ["workerd", "worker", "browser"],
  external: ["cloudflare:*", "node:*"],
  logLevel: "silent",
  legalComments: "none",
};

const CACHE_DIR = path.join(PROJECT_ROOT, ".edgegym", "build-cache");
/** Bumped when a cached Bundle's shape changes (2: its exports), so an older cache is never read as a newer one. */
const CACHE_FORMAT = 2;

/** A cached bundle: the files it was made from (path, mtime, size) and its code. */
interface Cached {
  inputs: [file: string, mtimeMs: number, size: number][];
  bundle: Bundle;
}

/** The cached bundle for this key, if every file it was made from is unchanged (mtime and size). */
function fromCache(file: string): Bundle | undefined {
  let cached: Cached;
  try {
    cached = JSON.parse(readFileSync(file, "utf8")) as Cached;
  } catch {
    return undefined;
  }
  for (const [input, mtimeMs, size] of cached.inputs) {
    try {
      const stat = statSync(input);
      if (stat.mtimeMs !== mtimeMs || stat.size !== size) return undefined;
    } catch {
      return undefined;
    }
  }
  return cached.bundle;
}

/** Writes the bundle beside its key, whole or not at all (parallel test processes share the cache). */
function toCache(file: string, bundle: Bundle, inputs: string[]): void {
  const cached: Cached = {
    inputs: inputs.map((input) => {
      const stat = statSync(input);
      return [input, stat.mtimeMs, stat.size];
    }),
    bundle,
  };
  mkdirSync(CACHE_DIR, { recursive: true });
  const staging = `${file}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(staging, JSON.stringify(cached));
  renameSync(staging, file);
}

/**
 * Bundles one Worker's entry (a file, or generated source) into an ES module for workerd, in memory. A bundle is kept in
 * .edgegym/build-cache and reused while none of the files it was made from has changed: a restart, or each test's
 * emulation, skips esbuild for every unchanged Worker.
 */
export async function bundleWorker(name: string, entry: { entryPoints: string[] } | { stdin: StdinOptions }): Promise<Bundle> {
  const key = createHash("sha256")
    .update(JSON.stringify([CACHE_FORMAT, name, entry, OPTIONS, version]))
    .digest("hex")
    .slice(0, 32);
  const cacheFile = path.join(CACHE_DIR, `${name}-${key}.json`);
  const cached = fromCache(cacheFile);
  if (cached) return cached;
  const result = await build({ ...entry, ...OPTIONS, outfile: path.join(PROJECT_ROOT, ".edgegym", "build", `${name}.js`), write: false, metafile: true });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced nothing for ${name}`);
  const exports = Object.values(result.metafile.outputs)[0]?.exports ?? [];
  const bundle = { path: output.path, contents: output.text, exports };
  // esbuild names inputs relative to its working directory; the generated source (stdin, under its sourcefile name) is
  // no file, and part of the key already.
  const virtual = "stdin" in entry ? entry.stdin.sourcefile : undefined;
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith("<") && input !== virtual)
    .map((input) => path.resolve(input));
  try {
    toCache(cacheFile, bundle, inputs);
  } catch {
    // A cache that cannot be written (read-only checkout) only costs the next start its bundling.
  }
  return bundle;
}

/** Bundles every Worker in parallel; returns worker name → bundle. */
export async function buildWorkers(specs: WorkerSpec[]): Promise<Map<string, Bundle>> {
  const built = await Promise.all(
    specs.map(async (spec) => {
      const entry = spec.environment
        ? {
            stdin: {
              contents: environmentEntrySource(spec.environment, "./environments", exampleRows(PROJECT_ROOT, spec.environment)),
              resolveDir: PROJECT_ROOT,
              sourcefile: `${spec.name}.ts`,
              loader: "ts" as const,
            },
          }
        : { entryPoints: [path.join(PROJECT_ROOT, spec.entry)] };
      return [spec.name, await bundleWorker(spec.name, entry)] as const;
    }),
  );
  return new Map(built);
}
