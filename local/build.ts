// Bundles each Worker with esbuild, as wrangler would: ESM for workerd, environment entries generated from their definition.
import path from "node:path";
import { build, type StdinOptions } from "esbuild";
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

/** Bundles one Worker's entry (a file, or generated source) into an ES module for workerd, in memory. */
export async function bundleWorker(name: string, entry: { entryPoints: string[] } | { stdin: StdinOptions }): Promise<Bundle> {
  const result = await build({
    ...entry,
    outfile: path.join(PROJECT_ROOT, ".edgegym", "build", `${name}.js`),
    write: false,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*", "node:*"],
    logLevel: "silent",
    legalComments: "none",
    metafile: true,
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced nothing for ${name}`);
  const exports = Object.values(result.metafile.outputs)[0]?.exports ?? [];
  return { path: output.path, contents: output.text, exports };
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
